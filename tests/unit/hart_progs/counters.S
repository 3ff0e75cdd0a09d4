/* Counter CSRs in straight-line code from address 0 (an instruction's index
 * is its address / 4): results go to SPAD as 64-bit words for test_hart. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li s0, SN_SPAD_BASE          /* index 0 */
    li s1, SN_CTRL_BASE          /* 1 */
    rdcycle t0                   /* 2: cycle 2 */
    rdcycle t1                   /* 3: back to back, +1 */
    sd t0, 0(s0)
    sd t1, 8(s0)
    rdinstret t0                 /* 6: 6 retired before it */
    .rept 10
    nop
    .endr
    rdinstret t1                 /* 17 */
    sd t0, 16(s0)
    sd t1, 24(s0)
    rdcycle t0                   /* 20 */
    ld t2, SN_MBOX_STAT(s1)      /* one control access: one extra cycle */
    nop
    rdcycle t1                   /* 23: +3 instructions +1 extra */
    sd t0, 32(s0)
    sd t1, 40(s0)
    rdtime t0
    csrr t1, mcycle              /* time + 1 */
    csrr t2, minstret
    rdinstret t3                 /* minstret + 1 */
    sd t0, 48(s0)
    sd t1, 56(s0)
    sd t2, 64(s0)
    sd t3, 72(s0)
    li t0, 1000
    csrw mcycle, t0
    csrr t1, mcycle              /* 1000 + 1 */
    csrwi minstret, 5
    csrr t2, minstret            /* 5 + 1 */
    sd t1, 80(s0)
    sd t2, 88(s0)
    li a0, 0
    sd a0, SN_CTRL_EXIT(s1)
1:  j 1b
