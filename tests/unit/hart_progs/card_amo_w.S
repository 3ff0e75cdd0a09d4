/* AMOMIN.W, AMOMAX.W, AMOMINU.W and AMOMAXU.W with rs2's upper 32 bits
 * nonzero, in SPAD, cached DRAM and the uncached alias (card_values.h). The
 * card compares the 32-bit words, signed or unsigned, writes the low word
 * only and returns the old word sign-extended (RISC-V unprivileged spec,
 * "A" extension; sysnode-facts §1.1). For region r and op k (MIN, MAX,
 * MINU, MAXU) the doubleword is target_r + 8k; its rd and its doubleword
 * afterwards go to SPAD + 0x800 + 16 * (4r + k). Exit code: 0. */
#include "sysnode/regs.h"
#include "card_values.h"

/* amo_case op, mem, rs2, k: doubleword AMO_GUARD:mem at a2 + 8k, then
 * op rd, rs2 on its low word; rd and the doubleword to the record at a3. */
.macro amo_case op, mem, rs2, k
    li t0, (AMO_GUARD << 32) | \mem
    sd t0, 8 * \k(a2)
    addi t1, a2, 8 * \k
    li t2, \rs2
    \op t3, t2, (t1)
    ld t4, 8 * \k(a2)
    sd t3, 16 * \k(a3)
    sd t4, 16 * \k + 8(a3)
.endm

.macro region target, r
    li a2, \target
    li a3, SN_SPAD_BASE + 0x800 + 64 * \r
    amo_case amomin.w, AMOMIN_MEM, AMOMIN_RS2, 0
    amo_case amomax.w, AMOMAX_MEM, AMOMAX_RS2, 1
    amo_case amominu.w, AMOMINU_MEM, AMOMINU_RS2, 2
    amo_case amomaxu.w, AMOMAXU_MEM, AMOMAXU_RS2, 3
.endm

    .text
    .globl _start
_start:
    region CARD_SPAD_TARGET, 0
    region CARD_DRAM_TARGET, 1
    region CARD_UNC_TARGET, 2
    li t0, SN_CTRL_BASE
    sd zero, SN_CTRL_EXIT(t0)
1:  j 1b
