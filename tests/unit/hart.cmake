# Unit tests of the RV64 hart (sim/hart): small RV64 programs, cross-compiled
# here with the SysNode's flags (code in IMEM at 0, data in SPAD), pushed
# through the host window and run on the hart against a recording bus;
# refused builds test the ELF loader.
find_program(SN_RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)
set(sn_hart_prog_src ${CMAKE_CURRENT_LIST_DIR}/hart_progs)
set(sn_hart_prog_dir ${CMAKE_CURRENT_BINARY_DIR}/hart_progs)
set(sn_hart_prog_arch -march=rv64ima_zicsr_zifencei -mabi=lp64)
set(sn_hart_progs)
file(GLOB sn_hart_prog_headers CONFIGURE_DEPENDS ${sn_hart_prog_src}/*.h)

# sn_hart_prog(<name> <source> [flags...]): <name>.elf from hart_progs/<source>;
# flags come after the defaults, so a later -march/-mabi/-Ttext wins.
function(sn_hart_prog name src)
  set(out ${sn_hart_prog_dir}/${name}.elf)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${sn_hart_prog_dir}
    COMMAND ${SN_RISCV_GCC} ${sn_hart_prog_arch} -nostdlib -nostartfiles
            -I${CMAKE_SOURCE_DIR}/iface -I${SN_IFACE_DIR} -Ttext=0 -Tdata=0x10000 ${ARGN}
            -o ${out} ${sn_hart_prog_src}/${src}
    DEPENDS ${sn_hart_prog_src}/${src} ${sn_hart_prog_headers}
            ${CMAKE_SOURCE_DIR}/iface/sysnode/regs.h ${SN_IFACE_DIR}/sn_fields.h
    COMMENT "hart test program ${name}"
    VERBATIM)
  set(sn_hart_progs ${sn_hart_progs} ${out} PARENT_SCOPE)
endfunction()

sn_hart_prog(mmio mmio.S)
sn_hart_prog(counters counters.S)
sn_hart_prog(traps traps.S)
sn_hart_prog(dram dram.S)
sn_hart_prog(l1_stale l1_stale.S)
sn_hart_prog(l1_writeback l1_writeback.S)
sn_hart_prog(l1_alias l1_alias.S)
sn_hart_prog(csr_file csr_file.S)
sn_hart_prog(priv priv.S)
sn_hart_prog(amo amo.S)
sn_hart_prog(ctrl_misaligned ctrl_misaligned.S)
sn_hart_prog(isa_rule isa_rule.S)
sn_hart_prog(timer timer.S)
sn_hart_prog(wfi_line wfi_line.S)
sn_hart_prog(sv39 sv39.S)
sn_hart_prog(sv39_stale_misaligned sv39_stale_misaligned.S)
sn_hart_prog(sv39_fetch_outside sv39_fetch_outside.S)
sn_hart_prog(console_nul console_nul.S)
sn_hart_prog(wfi_no_wait wfi_no_wait.S)
sn_hart_prog(console300 console300.S)
sn_hart_prog(mpp_warl mpp_warl.S)
sn_hart_prog(exit256 exit256.S)
sn_hart_prog(timer_not_delegated timer_not_delegated.S)
foreach(case ECALL EBREAK ILLEGAL IMEM_READ IMEM_WRITE WFI LOOP UNMAPPED CTRL_SW CTRL_LW CTRL_MISALIGNED
    CTRL_OUTSIDE DRAM_FETCH DRAM_PAST DRAM_BELOW MISALIGNED_JUMP)
  string(TOLOWER ${case} lower)
  sn_hart_prog(stop_${lower} stops.S -DCASE_${case})
endforeach()
sn_hart_prog(refuse_rvc mmio.S -march=rv64imac_zicsr_zifencei)
sn_hart_prog(refuse_fp_abi mmio.S -march=rv64imafd_zicsr_zifencei -mabi=lp64d)
sn_hart_prog(refuse_fp_insn stops.S -DCASE_FP -march=rv64imaf_zicsr_zifencei)
sn_hart_prog(refuse_c_word stops.S -DCASE_C_WORD)
# An executable .init_array is the point; -Wa,--no-warn keeps the assembler
# from warning about it in every build log.
sn_hart_prog(refuse_c_init_array stops.S -DCASE_C_INIT_ARRAY -Wa,--no-warn -Wl,--section-start=.init_array=0x200)
sn_hart_prog(refuse_rodata rodata.S)
sn_hart_prog(refuse_dram stops.S -DCASE_LOOP -Ttext=0x80000000)
sn_hart_prog(refuse_entry stops.S -DCASE_LOOP -Ttext=0x100)
# Raw IMEM bytes of a program, for images the loader refuses (isa_rule) and
# for instruction lists the decoder test reads word by word.
find_program(SN_RISCV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)
function(sn_hart_prog_bin name)
  set(out ${sn_hart_prog_dir}/${name}.bin)
  add_custom_command(OUTPUT ${out}
    COMMAND ${SN_RISCV_OBJCOPY} -O binary -j .text ${sn_hart_prog_dir}/${name}.elf ${out}
    DEPENDS ${sn_hart_prog_dir}/${name}.elf
    COMMENT "hart test program ${name}, raw IMEM bytes"
    VERBATIM)
  set(sn_hart_progs ${sn_hart_progs} ${out} PARENT_SCOPE)
endfunction()
sn_hart_prog_bin(isa_rule)
sn_hart_prog(isa_legal isa_legal.S)
sn_hart_prog_bin(isa_legal)
sn_hart_prog(isa_illegal isa_illegal.S -march=rv64imafdqc_zicsr_zifencei -mabi=lp64)
sn_hart_prog_bin(isa_illegal)
add_custom_target(hart_progs DEPENDS ${sn_hart_progs})

sn_unit_test(test_hart SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hart.c LIBS sn_hart)
target_compile_definitions(test_hart PRIVATE SN_HART_PROGS="${sn_hart_prog_dir}")
add_dependencies(test_hart hart_progs)

# The console through sysnode-sim keeps every byte.
add_test(NAME card.console_keeps_nul
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_console.sh $<TARGET_FILE:sysnode-sim> ${sn_hart_prog_dir}/console_nul.elf)
# ... and through the card protocol: `sysnode flash --device sim` streams it
# as console text, the NUL and 0xFF escaped, not cut at the NUL.
add_test(NAME card.flash_console_keeps_nul
  COMMAND sysnode flash ${sn_hart_prog_dir}/console_nul.elf --device sim)
set_tests_properties(card.flash_console_keeps_nul PROPERTIES PASS_REGULAR_EXPRESSION
  "^A\\\\x00B\\\\xff\nsysnode flash: exit 0x0 after")

# An exit word that is nonzero with its low 8 bits 0 must not read as
# success: sysnode flash exits 1 for it, as sysnode-sim does.
add_test(NAME card.flash_exit_256_is_not_success
  COMMAND ${CMAKE_SOURCE_DIR}/tests/integration/expect.sh fail "sysnode flash: exit 0x100 after"
          $<TARGET_FILE:sysnode> flash ${sn_hart_prog_dir}/exit256.elf --device sim)

# wfi in sysnode-sim does not wait for the mesh's reply, as on the card's
# core, and sysnode-sim names the erratum.
add_test(NAME card.wfi_does_not_wait COMMAND sysnode-sim ${sn_hart_prog_dir}/wfi_no_wait.elf)
set_tests_properties(card.wfi_does_not_wait PROPERTIES PASS_REGULAR_EXPRESSION
  "^sysnode-sim: exit 1 after [0-9]+ cycles, [0-9]+ instructions\nsysnode-sim: warning: the core's erratum reproduced: wfi does not wait")

# A halt names the exception: mcause, its name and mtval.
add_test(NAME card.halt_names_exception COMMAND sysnode-sim ${sn_hart_prog_dir}/stop_ctrl_misaligned.elf)
set_tests_properties(card.halt_names_exception PROPERTIES PASS_REGULAR_EXPRESSION
  "^sysnode-sim: core halted, cause 3 at pc 0x4: mcause 6 \\(store/AMO address misaligned\\), mtval 0x2004c;")
# ... and so does `sysnode run` of a case with that image, with its PC, and
# no label is left without its value: no empty console, no empty halt.
add_test(NAME card.run_halt_names_exception
  COMMAND ${CMAKE_SOURCE_DIR}/tests/integration/expect.sh fail
          "stop_ctrl_misaligned.elf: core halted, cause 3, at PC 0x4: mcause 6 \\(store/AMO address misaligned\\), mtval 0x2004c; the runner had not started"
          $<TARGET_FILE:sysnode> run ${CMAKE_SOURCE_DIR}/artifacts/compiler/vadd128
          --image ${sn_hart_prog_dir}/stop_ctrl_misaligned.elf)
add_test(NAME card.run_exit_without_console
  COMMAND ${CMAKE_SOURCE_DIR}/tests/integration/expect.sh fail "exit256.elf exited with 0x100 after [0-9]+ cycles$"
          $<TARGET_FILE:sysnode> run ${CMAKE_SOURCE_DIR}/artifacts/compiler/vadd128 --image ${sn_hart_prog_dir}/exit256.elf)
add_test(NAME card.run_hang_without_console
  COMMAND ${CMAKE_SOURCE_DIR}/tests/integration/expect.sh fail "stopped at the cycle cap \\(1000\\) before the runner reached host sync point 1 or exited: the runner had not started \\(no status block yet\\); the mailbox accepted 0 payload GOs, the core popped 0 completions$"
          $<TARGET_FILE:sysnode> run ${CMAKE_SOURCE_DIR}/artifacts/kohakutpu/mlp --max-cycles 1000)
