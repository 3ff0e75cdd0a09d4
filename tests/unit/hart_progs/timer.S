/* The timer (sysnode-facts §1.2: interrupt when time >= mtimecmp at CSR
 * 0x7C0): wfi with MTIE set and mstatus.MIE clear wakes at mtimecmp = 200
 * without a trap; then with MIE set, a loop of one-instruction blocks is
 * interrupted at cycle 1000. SPAD words: 0 the cycle after the wfi, 1
 * mcause, 2 mepc, 3 the handler's first cycle. Exit code 0. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    la t0, on_timer
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li t0, 200
    csrw 0x7c0, t0
    li t0, 1 << 7
    csrw mie, t0
    wfi
    rdcycle a0
    sd a0, 0(s0)
    li t0, 1000
    csrw 0x7c0, t0
    csrsi mstatus, 8
spin:
    j spin
done:
    li t0, SN_CTRL_BASE
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b

on_timer:
    rdcycle a0
    csrr t1, mcause
    csrr t2, mepc
    sd t1, 8(s0)
    sd t2, 16(s0)
    sd a0, 24(s0)
    csrw mie, zero
    la t0, done
    csrw mepc, t0
    mret
