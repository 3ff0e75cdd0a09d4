/* Prints 300 console bytes, byte i = i mod 256, then exits with 0: more than
 * the card's 256-byte console FIFO holds (test_card_window). */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    li t1, 0
    li t2, 300
1:  sb t1, SN_CTRL_CONSOLE(t0)
    addi t1, t1, 1
    blt t1, t2, 1b
    sd zero, SN_CTRL_EXIT(t0)
2:  j 2b
