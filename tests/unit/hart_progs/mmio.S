/* Control-region accesses as test_hart expects them: one 64-bit store, one
 * 64-bit load echoed back, two console bytes, then the exit
 * store at 0x80 (straight-line code: its index is 32). */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    li t1, 0x1122334455667788
    sd t1, SN_MBOX_ARG0(t0)
    ld t2, SN_MBOX_STAT(t0)
    sd t2, SN_MBOX_ARG1(t0)
    li t3, 0x48 /* 'H' */
    sb t3, SN_CTRL_CONSOLE(t0)
    li t3, 0x69 /* 'i' */
    sb t3, SN_CTRL_CONSOLE(t0)
    li a0, 42
    .p2align 7 /* nops up to the exit store at 0x80 */
    sd a0, SN_CTRL_EXIT(t0)
1:  j 1b
