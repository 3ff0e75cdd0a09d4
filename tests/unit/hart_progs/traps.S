/* Exceptions with a handler: each trap records {mcause, mepc, mtval,
 * mstatus} as four 64-bit words at SPAD + 32 * n and resumes after the
 * faulting instruction; the exit code is the number of traps. The trapping
 * instructions sit at 0x40, 0x44, 0x48 and 0x4c. */
#include "sysnode/regs.h"

    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li s1, 0
    j body
    .p2align 6
body:
    ecall                        /* 0x40: mcause 11 */
    ebreak                       /* 0x44: mcause 3 */
    .word 0xffffffff             /* 0x48: mcause 2, mtval the word */
    unimp                        /* 0x4c: csrrw x0, cycle, x0: cycle is read-only */
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

handler:
    slli t4, s1, 5
    add t4, t4, s0
    csrr t1, mcause
    csrr t2, mepc
    csrr t3, mtval
    csrr t5, mstatus
    sd t1, 0(t4)
    sd t2, 8(t4)
    sd t3, 16(t4)
    sd t5, 24(t4)
    addi s1, s1, 1
    addi t2, t2, 4
    csrw mepc, t2
    mret
