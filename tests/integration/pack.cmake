# `sysnode pack` and `sysnode dump` end to end (artifacts/FORMAT.md).
add_test(NAME integration.dump.vadd128
         COMMAND ${SN_EXPECT_OK} "slot   0 -> \\(1,0\\) VC IMEM\\[0\\] = 0xd0000000  VSETI S0.*VHALT.*RUN pc=0"
                 $<TARGET_FILE:sysnode> dump ${SN_CASES_DIR}/vadd128)
# A packed table dumps the same decode after its checks pass.
add_test(NAME integration.pack_dump.mm_silu
         COMMAND ${SN_EXPECT_OK} "\"unit\": \"MG\", \"op\": \"DRAIN\".*\"dnode\": 1"
                 sh -c "$0 pack $1 -o $2 >/dev/null && $0 dump $2 --json"
                 $<TARGET_FILE:sysnode> ${SN_CASES_DIR}/mm_silu_32x128x64
                 ${CMAKE_CURRENT_BINARY_DIR}/mm_silu_32x128x64.table.bin)
# A file that is not a table is refused by its first failed check.
add_test(NAME integration.dump.not_a_table
         COMMAND ${SN_EXPECT_FAIL}
                 "^sysnode dump: [^[:cntrl:]]*expected_output.bin: table: magic 0x[0-9a-f]+ at offset 0x0, expected 0x42544e53"
                 $<TARGET_FILE:sysnode> dump ${SN_CASES_DIR}/vadd128/expected_output.bin)
