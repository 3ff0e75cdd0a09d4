/* mstatus.MPP is WARL over the card's levels M, S, U (sysnode-facts §1.1):
 * a write of the reserved level 2 keeps the previous MPP (S here), and the
 * mret that follows lands in S, whose ecall traps with cause 9. The exit
 * code is MPP read back << 8 | mcause. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    la t1, handler
    csrw mtvec, t1
    li t1, (3 << 11)
    csrc mstatus, t1     /* MPP = U */
    li t1, (2 << 11)
    csrs mstatus, t1     /* MPP = 2 by csrs: reserved, U stays */
    csrr a2, mstatus
    srli a2, a2, 11
    andi a2, a2, 3
    bnez a2, 3f          /* not U: exit 0x77 */
    li t1, (1 << 11)
    csrs mstatus, t1     /* MPP = S */
    csrr t2, mstatus
    li t1, (3 << 11)
    or t2, t2, t1
    xor t2, t2, t1
    li t1, (2 << 11)
    or t2, t2, t1
    csrw mstatus, t2     /* MPP = 2 by csrw: S stays */
    csrr a1, mstatus
    srli a1, a1, 11
    andi a1, a1, 3
    la t1, after
    csrw mepc, t1
    mret
after:
    ecall
3:  li a0, 0x77
    sd a0, SN_CTRL_EXIT(t0)
1:  j 1b
    .p2align 2
handler:
    csrr a0, mcause
    slli a1, a1, 8
    or a0, a0, a1
    li t0, SN_CTRL_BASE
    sd a0, SN_CTRL_EXIT(t0)
2:  j 2b
