/* The console keeps every byte: writes 'A', NUL, 'B', 0xFF, '\n' to
 * R_CONSOLE and exits 0 (sysnode-facts §1.7). */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    li t1, 'A'
    sb t1, SN_CTRL_CONSOLE(t0)
    sb zero, SN_CTRL_CONSOLE(t0)
    li t1, 'B'
    sb t1, SN_CTRL_CONSOLE(t0)
    li t1, 0xff
    sb t1, SN_CTRL_CONSOLE(t0)
    li t1, '\n'
    sb t1, SN_CTRL_CONSOLE(t0)
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b
