/* mret_to_user target: leave M for U at target (mepc = target, MPP = U,
 * sysnode-facts §1.1). Clobbers t0. */
.macro mret_to_user target
    la t0, \target
    csrw mepc, t0
    li t0, 3 << 11
    csrc mstatus, t0
    mret
.endm
