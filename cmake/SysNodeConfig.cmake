# find_package(SysNode) from an installed prefix (cmake/install.cmake):
#   SysNode::sysnode       libsysnode and its header, for host programs (not
#                          in an image project, which has no dynamic linking)
#   SysNode_SIM            the installed sysnode-sim, to run an image
#   SysNode_IMAGE_DIR      the runner images
#   SysNode_TOOLCHAIN_FILE the riscv64 toolchain file for SysNode images
#   sn_picolibc_image(NAME SOURCES...)  a picolibc program for the SysNode
#                          (firmware/bsp/bsp.cmake), in a project configured
#                          with SysNode_TOOLCHAIN_FILE
get_filename_component(_sn_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(SysNode_SIM "${_sn_prefix}/bin/sysnode-sim")
set(SysNode_IMAGE_DIR "${_sn_prefix}/lib/sysnode")
set(SysNode_TOOLCHAIN_FILE "${CMAKE_CURRENT_LIST_DIR}/riscv64-unknown-elf.cmake")
if(CMAKE_C_COMPILER MATCHES "riscv64") # a SysNode image project: the board support
  include("${_sn_prefix}/share/sysnode/firmware/bsp/bsp.cmake")
  return()
endif()
if(NOT TARGET SysNode::sysnode)
  add_library(SysNode::sysnode SHARED IMPORTED)
  set_target_properties(SysNode::sysnode PROPERTIES
    IMPORTED_LOCATION "${_sn_prefix}/lib/libsysnode.so.1"
    IMPORTED_SONAME libsysnode.so.1
    INTERFACE_INCLUDE_DIRECTORIES "${_sn_prefix}/include")
endif()
function(sn_picolibc_image name)
  message(FATAL_ERROR "sn_picolibc_image(${name}): SysNode images are cross-compiled; configure with "
                      "-DCMAKE_TOOLCHAIN_FILE=${SysNode_TOOLCHAIN_FILE}")
endfunction()
