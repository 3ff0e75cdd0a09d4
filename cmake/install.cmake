# `cmake --install build --prefix P` (docs/user-guide.md "Installing"): the
# tools in P/bin, the runner images in P/lib/sysnode (where an installed tool
# and the library look, host/inputs/image_path.h), libsysnode with its header, a
# pkg-config file and a CMake package (find_package(SysNode): the library as
# SysNode::sysnode and sn_picolibc_image() with the picolibc board support,
# for programs outside the tree), the Python package and a man page per
# tool. Relative paths only, so the prefix can move.
install(TARGETS sysnode sysnode-sim sysnode-bench RUNTIME DESTINATION bin)
install(TARGETS libsysnode LIBRARY DESTINATION lib)
install(FILES ${CMAKE_SOURCE_DIR}/host/libsysnode/sysnode.h DESTINATION include)
# The images are the external project's outputs: whatever it built.
install(CODE "file(GLOB sn_images \"${CMAKE_BINARY_DIR}/firmware/*.elf\")
file(INSTALL \${sn_images} DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/sysnode\")")

configure_file(${CMAKE_SOURCE_DIR}/cmake/sysnode.pc.in ${CMAKE_BINARY_DIR}/sysnode.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/sysnode.pc DESTINATION lib/pkgconfig)

include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/SysNodeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/SysNodeConfig.cmake ${CMAKE_BINARY_DIR}/SysNodeConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/riscv64-unknown-elf.cmake
        DESTINATION lib/cmake/SysNode)
# The board support keeps the tree's layout: bsp/ finds ../boot and ../../iface.
install(FILES ${CMAKE_SOURCE_DIR}/firmware/bsp/bsp.cmake ${CMAKE_SOURCE_DIR}/firmware/bsp/crt0.S
              ${CMAKE_SOURCE_DIR}/firmware/bsp/board.c ${CMAKE_SOURCE_DIR}/firmware/bsp/picolibc.ld
        DESTINATION share/sysnode/firmware/bsp)
install(FILES ${CMAKE_SOURCE_DIR}/firmware/boot/reset.h DESTINATION share/sysnode/firmware/boot)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/iface/sysnode DESTINATION share/sysnode/iface)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/sysnode DESTINATION lib/python3/dist-packages
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)

# A man page per tool, from the tool's own --help (cmake/man_page.cmake), so
# the page says what the program says.
set(sn_man_pages)
foreach(tool sysnode sysnode-sim sysnode-bench)
  set(page ${CMAKE_BINARY_DIR}/man/${tool}.1)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:${tool}> -DNAME=${tool} -DVERSION=${PROJECT_VERSION}
            -DOUT=${page} -P ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS ${tool} ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "man page ${tool}.1")
  list(APPEND sn_man_pages ${page})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${sn_man_pages})
install(FILES ${sn_man_pages} DESTINATION share/man/man1)
