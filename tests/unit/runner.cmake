# Runner core unit tests: the portable core against the mailbox model
# (mbox_model.c implements firmware/port/mbox_port.h's sn_port_* functions).
function(sn_runner_model_test name)
  sn_unit_test(${name}
    SOURCES ${ARGN}
            ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/runner_fixture.c
            ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/mbox_model.c
            ${CMAKE_SOURCE_DIR}/firmware/runner/runner.c
            ${CMAKE_SOURCE_DIR}/common/table_check.c
            ${CMAKE_SOURCE_DIR}/common/table_image.c
            ${CMAKE_SOURCE_DIR}/common/word_hash.c
            ${CMAKE_SOURCE_DIR}/common/crc32.c
            ${CMAKE_SOURCE_DIR}/common/messages.c
            ${CMAKE_SOURCE_DIR}/common/err_text.c
    LIBS "")
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/common
                                             ${CMAKE_SOURCE_DIR}/firmware/runner
                                             ${CMAKE_SOURCE_DIR}/firmware/port
                                             ${SN_IFACE_DIR}) # sn_fields.h
endfunction()

sn_runner_model_test(test_runner ${CMAKE_CURRENT_LIST_DIR}/test_runner.c
                                 ${CMAKE_CURRENT_LIST_DIR}/test_runner_faults.c)
# The host sync point (host_sync.h) on the same model.
sn_runner_model_test(test_host_sync ${CMAKE_CURRENT_LIST_DIR}/test_host_sync.c)
