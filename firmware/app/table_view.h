/* Where the core reads the packed table the host wrote into DRAM: through the
 * L1 or through the uncached alias, whichever reads a 32-byte line (one
 * payload row, four 8-byte loads) in fewer cycles for the DRAM latency L the
 * core has. Through the L1 a line costs a clean miss and three hits,
 * 15 + L + 3 * 3 = 24 + L cycles (core-timing §5.3); uncached, four loads
 * of 4 + L, 16 + 4L (§5.4). The L1 wins from L = 3 on.
 *
 * Coherence: the L1 is invalidated at reset (core-timing §5.6), after the
 * host wrote the table and before BOOT. While a table runs the host writes
 * no byte of it (sn_device_write refuses one, host/session/device.c), and the
 * runner stores nothing cached, so no line goes stale or dirty. A new table
 * handed over at a sync point (SN_HOST_NEXT_TABLE) is read after
 * sn_table_view_fresh invalidates the L1. */
#ifndef SN_APP_TABLE_VIEW_H
#define SN_APP_TABLE_VIEW_H

#include <stdint.h>

#include "sysnode/regs.h"

/* L from which a line is cheaper through the L1 (above). */
#define SN_TABLE_VIEW_L1_FROM_LATENCY 3
/* cycle CSR, uncached ld, cycle CSR: the second read is 6 + L after the
 * first (2-cycle CSR, 4 + L load; core-timing §1, §7). */
#define SN_TABLE_VIEW_PROBE_CYCLES 6

/* The CPU address of unit DRAM address unit_addr for the table's reads:
 * cached when one timed uncached load of unit_addr shows
 * L >= SN_TABLE_VIEW_L1_FROM_LATENCY, else the uncached alias. No error:
 * unit_addr is the boot arguments' checked table_addr (FORMAT.md §6). */
static inline const void *sn_table_view(uint64_t unit_addr)
{
    uint64_t cached = SN_DRAM_CPU_BASE | unit_addr, t0, t1, word;
    __asm__ volatile("csrr %0, cycle\n\tld %1, 0(%3)\n\tcsrr %2, cycle"
                     : "=&r"(t0), "=&r"(word), "=r"(t1)
                     : "r"(cached | 1ull << SN_UNCACHED_BIT));
    (void)word;
    uint64_t uncached = t1 - t0 < SN_TABLE_VIEW_PROBE_CYCLES + SN_TABLE_VIEW_L1_FROM_LATENCY;
    return (const void *)(uintptr_t)(cached | uncached << SN_UNCACHED_BIT);
}

/* Starts an L1 invalidate (CTRL 0x1C8 bit 1), so that a table the host wrote
 * while the runner held is read afresh. No wait: every cached access waits
 * until the 64-cycle scan is over (core-timing §5.6). */
static inline void sn_table_view_fresh(void)
{
    *(volatile uint64_t *)(uintptr_t)(SN_CTRL_BASE + SN_CTRL_DCACHE) = 2;
}

#endif
