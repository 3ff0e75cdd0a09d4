/* wfi woken by the mesh (sysnode-facts §1.2: the external line is "CQ or RX
 * queue non-empty"): a CU_CTRL read of CU_CAPS goes to the matmul unit at
 * (1,1) (a typed send, §2.1), then wfi with only MEIE enabled and
 * mstatus.MIE clear sleeps until the reply enters the RX queue. Exit code
 * 1 when the RX queue holds the reply and the wfi took simulated time,
 * 2 when the queue is empty after the wfi, 3 when no time passed. */
#include "sysnode/regs.h"
#include "sn_fields.h" /* generated from sysnode/words.h */

    .text
    .globl _start
_start:
    li t0, SN_CTRL_BASE
    li t1, (1 << SN_DST_TYPED_LO) | (SN_T_CU_CTRL << SN_DST_TYPE_LO) | (1 << SN_DST_Y_LO) | (1 << SN_DST_X_LO)
    sd t1, SN_MBOX_DST(t0)
    sd zero, SN_MBOX_ARG0(t0)
    sd zero, SN_MBOX_ARG1(t0)
    sd zero, SN_MBOX_ARG2(t0)
    sd zero, SN_MBOX_ARG3(t0)  /* payload[247:240] = 0: CU_CAPS */
    li t1, 1 << 11
    csrw mie, t1
    li t1, 1
    rdcycle s0
    sd t1, SN_MBOX_GO(t0)
    wfi
    rdcycle s1
    li a0, 2
    ld t1, SN_CTRL_RX_USED(t0)
    beqz t1, 1f
    li a0, 3
    addi s0, s0, 4             /* the GO (2 cycles), wfi and rdcycle without a wait */
    bleu s1, s0, 1f
    li a0, 1
1:  sd a0, SN_CTRL_EXIT(t0)
2:  j 2b
