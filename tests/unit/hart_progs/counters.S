/* Counter CSRs in straight-line code from address 0 (an instruction's index
 * is its address / 4): results go to SPAD as 64-bit words for test_hart.
 * Cycles by core-timing §0-§1, §11: index 0 is in E at cycle 3, ALU ops take
 * 1 cycle, CSR instructions, SPAD and control accesses 2, and a counter
 * read returns the number of its second cycle. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li s0, SN_SPAD_BASE          /* index 0 */
    li s1, SN_CTRL_BASE          /* 1 */
    rdcycle t0                   /* 2: in E at 5, reads 6 */
    rdcycle t1                   /* 3: back to back, +2: 8 */
    sd t0, 0(s0)
    sd t1, 8(s0)
    rdinstret t0                 /* 6: 6 retired before it */
    .rept 10
    nop
    .endr
    rdinstret t1                 /* 17: in E at 25 */
    sd t0, 16(s0)
    sd t1, 24(s0)
    rdcycle t0                   /* 20: reads 32 */
    ld t2, SN_MBOX_STAT(s1)      /* a control access: 2 cycles */
    nop
    rdcycle t1                   /* 23: 2 + 2 + 1 cycles later: 37 */
    sd t0, 32(s0)
    sd t1, 40(s0)
    rdtime t0                    /* 43 */
    csrr t1, mcycle              /* time + 2 */
    csrr t2, minstret
    rdinstret t3                 /* minstret + 1 */
    sd t0, 48(s0)
    sd t1, 56(s0)
    sd t2, 64(s0)
    sd t3, 72(s0)
    li t0, 1000
    csrw mcycle, t0
    csrr t1, mcycle              /* 1000 in the cycle after the write, read a cycle later: 1001 */
    csrwi minstret, 5
    csrr t2, minstret            /* 5, then the csrwi counted: 6 */
    sd t1, 80(s0)
    sd t2, 88(s0)
    li a0, 0
    sd a0, SN_CTRL_EXIT(s1)
1:  j 1b
