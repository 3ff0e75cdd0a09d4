# Builds the RV64 runner images in the same build tree, cross-compiled as an
# external project (one toolchain per CMake project). The embedded-table
# headers come from the native `sysnode header`, so the images build after it.
include(ExternalProject)

set(SN_FW_GEN_DIR ${CMAKE_BINARY_DIR}/firmware-gen)
set(SN_EMBEDDED_CASES vadd128 vadd128_api CACHE STRING "cases built into embedded-table images")
set(sn_fw_tables)
foreach(case IN LISTS SN_EMBEDDED_CASES)
  set(case_dir ${CMAKE_SOURCE_DIR}/artifacts/compiler/${case})
  file(GLOB case_json CONFIGURE_DEPENDS ${case_dir}/*.json)
  set(out ${SN_FW_GEN_DIR}/${case}/table_embedded.h)
  add_custom_command(OUTPUT ${out}
    COMMAND sysnode header ${case_dir} -o ${out}
    DEPENDS sysnode ${case_json}
    COMMENT "sysnode header ${case}")
  list(APPEND sn_fw_tables ${out})
endforeach()
add_custom_target(firmware_tables DEPENDS ${sn_fw_tables})

string(REPLACE ";" "|" sn_fw_case_list "${SN_EMBEDDED_CASES}")
ExternalProject_Add(firmware
  LIST_SEPARATOR |
  SOURCE_DIR ${CMAKE_SOURCE_DIR}/firmware
  BINARY_DIR ${CMAKE_BINARY_DIR}/firmware
  CMAKE_ARGS
    -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/cmake/riscv64-unknown-elf.cmake
    -DCMAKE_BUILD_TYPE=Release
    -DSN_FW_GEN_DIR=${SN_FW_GEN_DIR}
    -DSN_IFACE_DIR=${SN_IFACE_DIR}
    -DSN_EMBEDDED_CASES=${sn_fw_case_list}
  CMAKE_GENERATOR ${CMAKE_GENERATOR}
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  DEPENDS firmware_tables)
