/* The one rule for what executes (sysnode-facts §1.1): every word below
 * that the card lacks traps with mcause 2 at its own address, mtval the
 * word, whether it starts a block or sits inside one. The loader would
 * refuse the 16-bit, FP and V words, so the test pushes this image's bytes
 * through the window unchecked, as a host could. Exit code: the trap count. */
#include "sysnode/regs.h"
#include "trap_record.h"

    trap_record_start
    j body
    .p2align 6
body:
    addi a0, zero, 1          /* 0x40: legal, so the next word is inside the block */
    .word 0x00010001          /* 0x44: c.nop c.nop */
    .word 0x00007053          /* 0x48: fadd.s f0, f0, f0 */
    addi a0, a0, 1            /* 0x4c */
    .word 0x02000057          /* 0x50: vadd.vv v0, v0, v0 */
    csrr a1, 0x3a0            /* 0x54: pmpcfg0 */
    csrr a1, 0x306            /* 0x58: mcounteren */
    csrr a1, 0xc03            /* 0x5c: hpmcounter3 */
    csrr a1, 0xb03            /* 0x60: mhpmcounter3 */
    .word 0x00200073          /* 0x64: uret (no N extension) */
    .word 0x0000000b          /* 0x68: custom-0 */
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    trap_record m
