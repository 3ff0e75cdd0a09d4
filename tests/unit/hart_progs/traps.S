/* Exceptions with a handler: each trap records {mcause, mepc, mtval,
 * mstatus} as four 64-bit words at SPAD + 32 * n and resumes after the
 * faulting instruction; the exit code is the number of traps. The trapping
 * instructions sit at 0x40, 0x44, 0x48 and 0x4c. */
#include "sysnode/regs.h"
#include "trap_record.h"

    trap_record_start
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

    trap_record m
