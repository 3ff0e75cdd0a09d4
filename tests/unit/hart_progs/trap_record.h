/* Trap records for the hart tests: trap n stores {cause, epc, tval, status}
 * of the handling mode as four 64-bit words at SPAD + 32 * n (s0 = SPAD
 * base, s1 = n) and resumes after the trapping instruction, so the exit
 * code can be the trap count (sysnode-facts §1.2). Include at the top;
 * start with trap_record_start (or trap_record_init) and place `trap_record m` (and `trap_record s`
 * for a handler in S) after the code. */

/* mtvec -> m_trap_record; s0 = SPAD base; s1 = 0 traps so far. */
.macro trap_record_init
    la t0, m_trap_record
    csrw mtvec, t0
    li s0, SN_SPAD_BASE
    li s1, 0
.endm

/* The entry point _start, in .text, beginning with trap_record_init. */
.macro trap_record_start
    .text
    .globl _start
_start:
    trap_record_init
.endm

/* The handler \mode\()_trap_record for mode m or s. */
.macro trap_record mode
    .p2align 2
\mode\()_trap_record:
    slli t4, s1, 5
    add t4, t4, s0
    csrr t1, \mode\()cause
    csrr t2, \mode\()epc
    csrr t3, \mode\()tval
    csrr t5, \mode\()status
    sd t1, 0(t4)
    sd t2, 8(t4)
    sd t3, 16(t4)
    sd t5, 24(t4)
    addi s1, s1, 1
    addi t2, t2, 4
    csrw \mode\()epc, t2
    \mode\()ret
.endm
