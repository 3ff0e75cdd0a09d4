/* A machine-mode trap handler for the hart tests: trap n stores {mcause,
 * mepc, mtval, mstatus} as four 64-bit words at SPAD + 32 * n (s0 = SPAD
 * base, s1 = n) and resumes after the trapping instruction. Include after
 * the code; point mtvec at trap_record. */
    .p2align 2
trap_record:
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
