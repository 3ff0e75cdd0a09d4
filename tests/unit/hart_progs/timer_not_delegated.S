/* The timer is never delegated (sysnode-facts §1.2), whatever mideleg
 * holds: with every mideleg bit written, the timer interrupt taken in U
 * goes to M (mtvec), never to stvec. The exit code is mideleg << 32 |
 * mcause, or 0x5000 | scause from S's handler. */
#include "sysnode/regs.h"
    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    la t1, mhandler
    csrw mtvec, t1
    la t1, shandler
    csrw stvec, t1
    li t1, -1
    csrw mideleg, t1
    csrr s2, mideleg
    li t1, 0x80
    csrw mie, t1          /* MTIE */
    li t1, 0x2            /* SIE */
    csrs sstatus, t1
    li t1, 400
    csrw 0x7C0, t1        /* mtimecmp */
    li t1, (3 << 11)
    csrc mstatus, t1      /* MPP = U */
    la t1, uloop
    csrw mepc, t1
    mret
uloop:
    j uloop
    .p2align 2
mhandler:
    csrr a0, mcause
    slli s2, s2, 32
    or a0, a0, s2
    li t0, SN_CTRL_BASE
    sd a0, SN_CTRL_EXIT(t0)
2:  j 2b
    .p2align 2
shandler:
    csrr a0, scause
    li a1, 0x5000
    or a0, a0, a1
    slli s2, s2, 32
    or a0, a0, s2
    li t0, SN_CTRL_BASE
    sd a0, SN_CTRL_EXIT(t0)
3:  j 3b
