# `sysnode pack` and `sysnode dump` end to end (artifacts/FORMAT.md).
add_test(NAME integration.dump.vadd128 COMMAND sysnode dump ${SN_CASES_DIR}/vadd128)
set_tests_properties(integration.dump.vadd128 PROPERTIES
  PASS_REGULAR_EXPRESSION "slot   0 -> \\(1,0\\) VC IMEM\\[0\\] = 0xd0000000  VSETI S0\n(.|\n)*VHALT\n(.|\n)*RUN pc=0\n")
# A packed table dumps the same decode after its checks pass.
add_test(NAME integration.pack_dump.mm_silu
         COMMAND sh -c "$0 pack $1 -o $2 >/dev/null && $0 dump $2 --json"
                 $<TARGET_FILE:sysnode> ${SN_CASES_DIR}/mm_silu_32x128x64
                 ${CMAKE_CURRENT_BINARY_DIR}/mm_silu_32x128x64.table.bin)
set_tests_properties(integration.pack_dump.mm_silu PROPERTIES
  PASS_REGULAR_EXPRESSION "\"unit\": \"MG\", \"op\": \"DRAIN\".*\"dnode\": 1")
# A file that is not a table is refused by its first failed check.
add_test(NAME integration.dump.not_a_table COMMAND sysnode dump ${SN_CASES_DIR}/vadd128/expected_output.bin)
set_tests_properties(integration.dump.not_a_table PROPERTIES
  PASS_REGULAR_EXPRESSION "^sysnode dump: [^\n]*expected_output.bin: table: magic 0x[0-9a-f]+ at offset 0x0, expected 0x42544e53")
