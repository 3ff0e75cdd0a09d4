# Hostile inputs and the output rule (issue 11): each check is its own test
# with its own scratch folder, so they run in parallel without sharing files.
set(SN_HOSTILE_ARGS $<TARGET_FILE:sysnode> $<TARGET_FILE:sysnode-sim> ${SN_CASES_DIR} ${SN_RUNNER_IMAGE})
foreach(check output_is_input trace_write_fails_after_wait refused_run_keeps_old_trace signal_removes_temporary
              signal_during_pack_and_header signal_on_another_thread signal_stops_run_with_trace
              ignored_signal_stays_ignored stdout_full)
  add_test(NAME integration.outputs.${check}
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/outputs.py ${SN_HOSTILE_ARGS}
                   ${CMAKE_CURRENT_BINARY_DIR}/outputs.${check} ${check})
endforeach()
# A timer cannot hit these moments: the shim sends the signal at the
# output's fsync, or right after its temporary is created.
add_library(signal_shim MODULE ${CMAKE_CURRENT_SOURCE_DIR}/signal_shim.c)
target_link_libraries(signal_shim PRIVATE ${CMAKE_DL_LIBS})
set_tests_properties(integration.outputs.signal_during_pack_and_header integration.outputs.signal_on_another_thread
  integration.outputs.signal_stops_run_with_trace integration.outputs.ignored_signal_stays_ignored PROPERTIES ENVIRONMENT SN_SIGNAL_SHIM=$<TARGET_FILE:signal_shim>)
foreach(check upload_past_dram region_refused_before_image sparse_upload_not_read fifo_inputs
              sim_load_checked_before_read symlink_out_of_case control_characters dump_json_utf8 sim_usage
              max_cycles_decimal)
  add_test(NAME integration.inputs.${check}
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/inputs.py ${SN_HOSTILE_ARGS}
                   ${CMAKE_CURRENT_BINARY_DIR}/inputs.${check} ${check})
endforeach()
