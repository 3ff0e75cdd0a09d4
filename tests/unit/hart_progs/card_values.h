/* The inputs of the card-behaviour programs (card_*.S), shared with
 * test_hart_card.c, which computes what the card makes of them from the
 * RISC-V specification and sysnode-facts §1. Plain #defines: both the
 * assembler and C read this file. */
#ifndef CARD_VALUES_H
#define CARD_VALUES_H

/* card_amo_w.S: each AMO*.W works on the low word of a doubleword whose
 * high word is AMO_GUARD; rs2 has nonzero upper 32 bits, chosen so that a
 * 64-bit compare of the zero-extended word with rs2 gives another word. */
#define AMO_GUARD 0x5A5A5A5A
#define AMOMIN_MEM 0x00000005         /* 5 */
#define AMOMIN_RS2 0x00000001FFFFFFFF /* low word -1 */
#define AMOMAX_MEM 0xFFFFFFFE         /* -2 */
#define AMOMAX_RS2 0x8000000000000003 /* low word 3 */
#define AMOMINU_MEM 0x00000005
#define AMOMINU_RS2 0x0000000100000003 /* low word 3 */
#define AMOMAXU_MEM 0x00000005
#define AMOMAXU_RS2 0x0000000100000003 /* low word 3 */

/* The three regions of card_amo_w.S and card_misaligned.S: a SPAD
 * doubleword, a cached DRAM one and one through the uncached alias (bit 38,
 * sysnode-facts §1.4), at 8-aligned CPU addresses. */
#define CARD_SPAD_TARGET 0x10400
#define CARD_DRAM_TARGET 0x80000100
#define CARD_UNC_TARGET 0x4080000200

/* card_misaligned.S: the doublewords' contents before, the value stored and
 * the value the load targets start with. */
#define MIS_PATTERN 0x1122334455667788
#define MIS_STORED 0xA5A5A5A5A5A5A5A5
#define MIS_SENTINEL 0x0123456789ABCDEF
/* The access block's address (9 instructions: ld +4, lw +2, lh +1, sd +4,
 * sw +2, sh +1, amoadd.w +2, lr.d +4, sc.d +4) */
#define MIS_BLOCK 0x400

/* card_sv39_fetch.S: a 4 KiB page at VA SV39_VA maps PA SV39_PA, both in
 * IMEM; VA SV39_UNMAPPED has no mapping. */
#define SV39_VA 0x1000
#define SV39_PA 0x2000
#define SV39_UNMAPPED 0x3000
#define SV39_SCRATCH 0x5C5C
#define SV39_A0 7        /* what the bytes at PA put in a0 */
#define SV39_A0_AT_VA 99 /* what the bytes at the VA's own IMEM word would */

/* card_dram_code.S: the routine's DRAM address; its versions return
 * DCODE_V1 and DCODE_V2 in a0; the long routine is DCODE_LONG addi's. */
#define DCODE_ADDR 0x80001000
#define DCODE_V1 1
#define DCODE_V2 2
#define DCODE_LONG_ADDR 0x80002000
#define DCODE_LONG 22

#endif
