/* LR, SC and AMOs (sysnode-facts §1.1, §1.4): refused on the control
 * region with an access fault (5 for LR, 7 for SC and AMOs) before any
 * control access, and trapped when misaligned (4 for LR, 6 for SC and
 * AMOs), mtval the address; an aligned amoadd.d on SPAD works. Trap
 * records at SPAD + 32 * n (trap_record.h); the amoadd result at SPAD +
 * 0x400. Exit code: the trap count. */
#include "sysnode/regs.h"
#include "trap_record.h"

    trap_record_start
    li t0, SN_CTRL_BASE
    addi a1, t0, SN_CTRL_CONSOLE
    addi a2, t0, SN_MBOX_HEAD
    addi a3, t0, SN_MBOX_STAT
    addi a4, t0, SN_MBOX_ARG0
    addi a5, s0, 2
    addi a6, s0, 4
    li a0, 1
    j body
    .p2align 6
body:
    amoadd.d x0, a0, (t0)     /* 0x40: EXIT: 7 */
    amoswap.d x0, a0, (a1)    /* 0x44: CONSOLE: 7 */
    amoor.d x0, a0, (a2)      /* 0x48: HEAD: 7 */
    lr.d x0, (a3)             /* 0x4c: STAT: 5 */
    sc.d x0, a0, (a4)         /* 0x50: ARG0: 7 */
    amoadd.w x0, a0, (a5)     /* 0x54: SPAD + 2: 6 */
    lr.w x0, (a5)             /* 0x58: SPAD + 2: 4 */
    sc.d x0, a0, (a6)         /* 0x5c: SPAD + 4: 6 */
    addi a7, s0, 0x400
    li t1, 40
    sd t1, 0(a7)
    li t1, 2
    amoadd.d t2, t1, (a7)     /* 42 in memory, 40 in t2 */
    sd t2, 8(a7)
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    trap_record m
