/* One way to stop per -DCASE_*, at address 4 (after one lui), for test_hart;
 * a case that does not stop (wfi, which does not wait on the card) falls
 * through to exit with code 0x77. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
#if defined(CASE_ECALL)
    ecall
#elif defined(CASE_EBREAK)
    ebreak
#elif defined(CASE_ILLEGAL)
    .word 0xffffffff
#elif defined(CASE_IMEM_READ)
    lw a0, 0x10(zero)
#elif defined(CASE_IMEM_WRITE)
    sw t0, 0x20(zero)
#elif defined(CASE_WFI)
    wfi
#elif defined(CASE_LOOP)
2:  j 2b
#elif defined(CASE_UNMAPPED)
    ld a0, -16(t0) /* 0x1fff0: between SPAD and the control region */
#elif defined(CASE_CTRL_SW)
    sw t0, SN_MBOX_ARG0(t0)
#elif defined(CASE_CTRL_LW)
    lw a0, SN_MBOX_STAT(t0)
#elif defined(CASE_CTRL_MISALIGNED)
    sd t0, SN_MBOX_ARG0 + 4(t0)
#elif defined(CASE_CTRL_OUTSIDE)
    ld a0, 0x400(t0)
#elif defined(CASE_DRAM_FETCH)
    li t1, SN_DRAM_CPU_BASE
    jr t1
#elif defined(CASE_DRAM_PAST) /* the first byte past the test's 64 KiB of DRAM */
    li t1, SN_DRAM_CPU_BASE + 0x10000
    ld a0, 0(t1)
#elif defined(CASE_DRAM_BELOW) /* the DRAM region (pa[39:28] != 0) below SN_DRAM_CPU_BASE */
    lui t1, 0x10000
    ld a0, 0(t1)
#elif defined(CASE_MISALIGNED_JUMP)
    li t1, 0x0e
    jr t1
#elif defined(CASE_FP)
    fadd.s ft0, ft1, ft2
#elif defined(CASE_C_INIT_ARRAY) /* 16-bit code outside .text: an executable INIT_ARRAY at 0x200 */
    .pushsection .init_array, "ax", @init_array
    .hword 0x4501 /* c.li a0, 0 */
    .hword 0x0001 /* c.nop */
    .popsection
#elif defined(CASE_C_WORD)
    .hword 0x4501 /* c.li a0, 0 */
    .hword 0x0001 /* c.nop */
#else
#error "define one CASE_*"
#endif
    li a0, 0x77
    sd a0, SN_CTRL_EXIT(t0)
1:  j 1b
