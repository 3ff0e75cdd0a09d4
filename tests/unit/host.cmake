# Host library unit tests (cmocka): big-integer, JSON, artifact, manifest and
# C-table and output-file layers (host/inputs), plus `sysnode header` (host/cli/cmd_header.c).
sn_unit_test(test_u256 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_u256.c LIBS sn_inputs)
sn_unit_test(test_json SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_json.c LIBS sn_inputs)
sn_unit_test(test_artifact SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_artifact.c LIBS sn_inputs)
sn_unit_test(test_manifest SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_manifest.c LIBS sn_inputs)
sn_unit_test(test_file_out SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_file_out.c LIBS sn_inputs)
sn_unit_test(test_ctable
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_ctable.c ${CMAKE_SOURCE_DIR}/host/cli/cmd_header.c ${CMAKE_SOURCE_DIR}/host/cli/args.c ${CMAKE_SOURCE_DIR}/host/cli/cli_io.c
  LIBS sn_inputs)
# The generated header is compiled freestanding with the host compiler.
target_include_directories(test_ctable PRIVATE ${CMAKE_SOURCE_DIR}/host/cli)
target_compile_definitions(test_ctable PRIVATE
  SN_IFACE_INCLUDE_DIR="${CMAKE_SOURCE_DIR}/iface"
  SN_HOST_CC="${CMAKE_C_COMPILER}")
