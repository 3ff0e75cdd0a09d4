/* Misaligned loads, stores, AMOs, LR and SC trap in every region
 * (sysnode-facts §1.2, causes 4 and 6; core-timing §9, KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/core/rv64_core.v@e9de8c08): the block at
 * MIS_BLOCK (ld +4, lw +2, lh +1, sd +4, sw +2, sh +1, amoadd.w +2, lr.d +4,
 * sc.d +4 from a2) runs on an 8-aligned doubleword in SPAD, cached DRAM and
 * the uncached alias (card_values.h). Trap n's record is at SPAD + 32n
 * (trap_record.h); a trapped load leaves a0, and a trapped store or AMO the
 * doubleword, as they were: region r's a0 afterwards and its doubleword (read
 * aligned) go to SPAD + 0x800 + 16r. Exit code: the trap count. */
#include "sysnode/regs.h"
#include "trap_record.h"
#include "card_values.h"

.macro region target, r
    li a2, \target
    li t0, MIS_PATTERN
    sd t0, 0(a2)
    li a0, MIS_SENTINEL
    addi a4, a2, 2
    addi a5, a2, 4
    call block
    li a3, SN_SPAD_BASE + 0x800 + 16 * \r
    ld t0, 0(a2)
    sd a0, 0(a3)
    sd t0, 8(a3)
.endm

    trap_record_start
    li a1, MIS_STORED
    region CARD_SPAD_TARGET, 0
    region CARD_DRAM_TARGET, 1
    region CARD_UNC_TARGET, 2
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b

    trap_record m

    .org MIS_BLOCK
block:
    ld a0, 4(a2)
    lw a0, 2(a2)
    lh a0, 1(a2)
    sd a1, 4(a2)
    sw a1, 2(a2)
    sh a1, 1(a2)
    amoadd.w a0, a1, (a4)
    lr.d a0, (a5)
    sc.d a0, a1, (a5)
    ret
