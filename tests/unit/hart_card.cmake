# The card's behaviour where the Unicorn hart of 0d0260f departed from it
# (issue 18 item 7), the jump-target rule, and the DCACHE busy-poll erratum:
# hart programs built as hart.cmake builds them, each checked by
# test_hart_card against values computed from the specifications and the
# fact sheets.
# --no-relax: the programs place code with .org and never set gp, so the
# linker must neither shorten calls nor turn la into gp-relative addressing.
set(sn_hart_progs)
foreach(prog amo_w misaligned jump_target sv39_fetch dram_code l1_busy_poll)
  sn_hart_prog(card_${prog} card_${prog}.S -Wl,--no-relax)
endforeach()
add_custom_target(hart_card_progs DEPENDS ${sn_hart_progs})

sn_unit_test(test_hart_card SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hart_card.c LIBS sn_hart)
target_compile_definitions(test_hart_card PRIVATE SN_HART_PROGS="${sn_hart_prog_dir}")
add_dependencies(test_hart_card hart_card_progs)
