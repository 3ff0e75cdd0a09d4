/* The two views of card DRAM for the hart tests: t0 = its cached base, t1 =
 * the uncached alias of the same bytes (bit 38, sysnode-facts §1.4).
 * dram_views_start is the entry point _start, in .text, setting both. */
.macro dram_views_start
    .text
    .globl _start
_start:
    li t0, SN_DRAM_CPU_BASE
    li t1, SN_DRAM_CPU_BASE | (1 << SN_UNCACHED_BIT)
.endm
