# Unit tests of the RV64 hart (sim/hart): small RV64 programs, cross-compiled
# here with the SysNode's flags (code in IMEM at 0, data in SPAD), pushed
# through the host window and run on the hart against a recording bus;
# refused builds test the ELF loader.
find_program(SN_RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)
set(sn_hart_prog_src ${CMAKE_CURRENT_LIST_DIR}/hart_progs)
set(sn_hart_prog_dir ${CMAKE_CURRENT_BINARY_DIR}/hart_progs)
set(sn_hart_prog_arch -march=rv64ima_zicsr_zifencei -mabi=lp64)
set(sn_hart_progs)

# sn_hart_prog(<name> <source> [flags...]): <name>.elf from hart_progs/<source>;
# flags come after the defaults, so a later -march/-mabi/-Ttext wins.
function(sn_hart_prog name src)
  set(out ${sn_hart_prog_dir}/${name}.elf)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${sn_hart_prog_dir}
    COMMAND ${SN_RISCV_GCC} ${sn_hart_prog_arch} -nostdlib -nostartfiles
            -I${CMAKE_SOURCE_DIR}/firmware/include -Ttext=0 -Tdata=0x10000 ${ARGN}
            -o ${out} ${sn_hart_prog_src}/${src}
    DEPENDS ${sn_hart_prog_src}/${src} ${CMAKE_SOURCE_DIR}/firmware/include/sysnode/regs.h
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
sn_hart_prog(console300 console300.S)
foreach(case ECALL EBREAK ILLEGAL IMEM_READ IMEM_WRITE WFI LOOP UNMAPPED CTRL_SW CTRL_LW CTRL_MISALIGNED
    CTRL_OUTSIDE DRAM_FETCH MISALIGNED_JUMP)
  string(TOLOWER ${case} lower)
  sn_hart_prog(stop_${lower} stops.S -DCASE_${case})
endforeach()
sn_hart_prog(refuse_rvc mmio.S -march=rv64imac_zicsr_zifencei)
sn_hart_prog(refuse_fp_abi mmio.S -march=rv64imafd_zicsr_zifencei -mabi=lp64d)
sn_hart_prog(refuse_fp_insn stops.S -DCASE_FP -march=rv64imaf_zicsr_zifencei)
sn_hart_prog(refuse_c_word stops.S -DCASE_C_WORD)
sn_hart_prog(refuse_rodata rodata.S)
sn_hart_prog(refuse_dram stops.S -DCASE_LOOP -Ttext=0x80000000)
sn_hart_prog(refuse_entry stops.S -DCASE_LOOP -Ttext=0x100)
add_custom_target(hart_progs DEPENDS ${sn_hart_progs})

sn_unit_test(test_hart SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hart.c LIBS sn_hart)
target_compile_definitions(test_hart PRIVATE SN_HART_PROGS="${sn_hart_prog_dir}")
add_dependencies(test_hart hart_progs)
