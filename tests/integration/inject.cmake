# Faults on demand (--inject, sim/harness/inject.h): every kind gets its
# diagnosis, never a silent wrong result.
foreach(kind go-drop go-drop-at-cycle completion-drop completion-dup completion-forge unit-stuck unit-fault-vc
             unit-fault-mg unit-fault-slot table-flip table-flip-await table-flip-payload missing-node mailbox-gen-a never-triggered
             table-flip-past sysnode-sim)
  add_test(NAME integration.inject.${kind}
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/inject.py $<TARGET_FILE:sysnode> $<TARGET_FILE:sysnode-sim>
                   ${SN_CASES_DIR} ${SN_SYNTH_DIR} ${CMAKE_BINARY_DIR}/firmware ${kind})
endforeach()
set_tests_properties(integration.inject.table-flip integration.inject.table-flip-payload integration.inject.unit-fault-slot PROPERTIES
  FIXTURES_REQUIRED synthetic)
set_tests_properties(integration.inject.mailbox-gen-a PROPERTIES FIXTURES_REQUIRED flood)
# The same naming for a fault no injection caused: a payload that makes the
# kernel fault (fault_payload.py).
add_test(NAME integration.fault_names_payload
         COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/fault_payload.py $<TARGET_FILE:sysnode> ${SN_CASES_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/fault_names_payload)
