/* wfi woken by the external line (sysnode-facts §1.2: the level of
 * "completion queue or RX queue non-empty"): with MEIE set and mstatus.MIE
 * clear, wfi wakes without a trap; then with MIE set the pending line is
 * taken as interrupt 11. SPAD words: 0 the cycle after the wfi, 1 mcause,
 * 2 the address after the wfi. Exit code 0. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    la t0, on_line
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li t0, 1 << 11
    csrw mie, t0
    wfi
after:
    rdcycle a0
    sd a0, 0(s0)
    la t0, after
    sd t0, 16(s0)
    csrsi mstatus, 8
1:  j 1b
on_line:
    csrr t1, mcause
    sd t1, 8(s0)
    li t0, SN_CTRL_BASE
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b
