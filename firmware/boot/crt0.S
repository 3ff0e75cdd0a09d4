/* Reset entry of the runner image: set gp and sp, install the trap vector,
 * zero .bss (C reads no register it has not written, so none is cleared:
 * 124 bytes of the code budget), call main, store its result to R_EXIT
 * (which halts the core). Source: sysnode-facts §1.6-§1.7 (tests/rv64/crt0.S@065ec912,
 * firmware/kohakuaccel/arch/rv64/crt0.S@a6121197). */
#include "sysnode/regs.h"
#include "reset.h"

    .section .text.init, "ax"
    .globl _start
_start:
    sn_reset sn_trap_entry
    li tp, SN_CTRL_BASE /* the mailbox port's base (port/mbox_port.h) */
    call main
    li t0, SN_CTRL_BASE + SN_CTRL_EXIT
    sd a0, 0(t0)
3:  j 3b

/* Any trap is fatal for the runner: report mcause/mepc/mtval and exit. */
    .align 2
    .globl sn_trap_entry
sn_trap_entry:
    la sp, __stack_top
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    call sn_trap_report
4:  j 4b
