/* Traps and privilege (sysnode-facts §1.1-1.2): M drops to U with mret;
 * U's ecall is delegated to S (medeleg bit 8) and returns with sret; U's
 * ebreak, illegal word and mstatus read trap to M. Each handler records
 * {cause, epc, tval, mstatus} at SPAD + 32 * n and resumes after the
 * instruction. U exits with the trap count. */
#include "sysnode/regs.h"
#include "to_user.h"
#include "trap_record.h"

    trap_record_start
    la t0, s_trap_record
    csrw stvec, t0
    li t0, 1 << 8
    csrw medeleg, t0
    mret_to_user user
    .p2align 7
user:
    ecall                     /* 0x80: to S, scause 8 */
    ebreak                    /* 0x84: to M, mcause 3, MPP = U */
    .word 0xffffffff          /* 0x88: to M, mcause 2 */
    csrr a0, mstatus          /* 0x8c: to M, mcause 2: an M CSR from U */
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    trap_record s
    trap_record m
