# libsysnode's C API, linked against the shared library itself.
sn_unit_test(test_libsysnode SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_libsysnode.c LIBS libsysnode)
target_include_directories(test_libsysnode PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(test_libsysnode PRIVATE SN_RUNNER_IMAGE="${CMAKE_BINARY_DIR}/firmware/runner.elf")
