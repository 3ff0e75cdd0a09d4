/* wfi on the mesh does not wait (core-timing §2.3: a 1-cycle no-op on the
 * card's core): a CU_CTRL read of CU_CAPS goes to the matmul unit at (1,1)
 * (a typed send, sysnode-facts §2.1), then wfi with only MEIE enabled and
 * mstatus.MIE clear, then rdcycle. Exit code 1 when the rdcycle reads the
 * first one + 5 (the GO store 2 cycles, wfi 1, the rdcycle's second cycle:
 * no wait), 2 when more time passed, 3 when less. */
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
    addi s0, s0, 5
    li a0, 1
    beq s1, s0, 1f
    li a0, 2
    bgtu s1, s0, 1f
    li a0, 3
1:  sd a0, SN_CTRL_EXIT(t0)
2:  j 2b
