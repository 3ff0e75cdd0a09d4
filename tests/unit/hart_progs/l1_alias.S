/* The uncached alias (bit 38, sysnode-facts §1.4) bypasses the L1 both
 * ways: an alias store leaves a cached line stale, and a cached store stays
 * in the L1 (no flush here), unseen by an alias load. Values read go to
 * control registers for test_hart. */
#include "sysnode/regs.h"
#include "dram_views.h"

    dram_views_start
    li s1, SN_CTRL_BASE
    ld a0, 0x600(t0)           /* cache the line */
    li a1, 0x5555555555555555
    sd a1, 0x600(t1)           /* alias store: DRAM only */
    ld a0, 0x600(t0)           /* cached: the old word */
    sd a0, SN_MBOX_ARG0(s1)
    ld a0, 0x600(t1)           /* alias: the new word */
    sd a0, SN_MBOX_ARG0(s1)
    li a1, 0x6666666666666666
    sd a1, 0x608(t0)           /* cached store: L1 only */
    ld a0, 0x608(t1)           /* alias: DRAM's old word */
    sd a0, SN_MBOX_ARG0(s1)
    ld a0, 0x608(t0)           /* cached: the new word */
    sd a0, SN_MBOX_ARG0(s1)
    sd zero, SN_CTRL_EXIT(s1)
1:  j 1b
