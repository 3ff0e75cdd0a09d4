/* Misaligned accesses to the control region trap (sysnode-facts §1.2: 4
 * load, 6 store, mtval the address) and reach the handler; no control
 * access is made but the exit store. Trap records at SPAD + 32 * n
 * (trap_record.h); exit code: the trap count. */
#include "sysnode/regs.h"
#include "trap_record.h"

    trap_record_start
    li t0, SN_CTRL_BASE
    j body
    .p2align 6
body:
    ld a0, SN_MBOX_STAT + 4(t0)   /* 0x40: 4 */
    sd a0, SN_MBOX_ARG1 + 2(t0)   /* 0x44: 6 */
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    trap_record m
