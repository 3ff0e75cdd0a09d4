/* The CPU's data accesses by physical address (sysnode-facts §1.4,
 * core-timing §5): what each region does and how long it takes. IMEM and
 * the holes between regions are not served (a simulation error: the card
 * leaves their data reads undocumented, sysnode-facts open question 10). */
#ifndef SN_MEMMAP_H
#define SN_MEMMAP_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "sysnode/regs.h"

typedef enum {
    SN_REGION_NONE, /* a hole, or past the 40-bit physical space */
    SN_REGION_IMEM,
    SN_REGION_SPAD,
    SN_REGION_CTRL,
    SN_REGION_CACHED,   /* DRAM through the L1: pa[39:28] != 0, pa[39] = pa[38] = 0 */
    SN_REGION_UNCACHED, /* pa[38] = 1 (the DRAM alias) or pa[39] = 1 (staging) */
} sn_region;

struct sn_hart;

static inline sn_region sn_region_of(uint64_t pa)
{
    if (pa < SN_IMEM_SIZE)
        return SN_REGION_IMEM;
    if (pa - SN_SPAD_BASE < SN_SPAD_SIZE)
        return SN_REGION_SPAD;
    if (pa - SN_CTRL_BASE < SN_CTRL_SIZE)
        return SN_REGION_CTRL;
    if (pa >> 40 != 0 || pa >> 28 == 0)
        return SN_REGION_NONE;
    return pa & (3ull << SN_UNCACHED_BIT) ? SN_REGION_UNCACHED : SN_REGION_CACHED; /* bit 38 the alias, 39 staging */
}

/* The last E cycle of one access to pa in region r whose first E cycle is
 * start (core-timing §5: SPAD, CTRL and holes 2; L1 hit 3, clean miss
 * 15 + L, dirty miss 21 + 2L, each lookup waiting for the L1's maintenance
 * machine; uncached 4 + L; misses and uncached accesses booked on the node
 * port). Call before the access itself (sn_mem_read/write), which changes
 * the L1. */
uint64_t sn_access_time(struct sn_hart *h, uint64_t pa, sn_region r, uint64_t start);

/* One aligned access of size bytes (1, 2, 4, 8) at pa by the instruction at
 * pc, performed in cycle (control accesses: the bus is brought there
 * first). raw is little-endian, zero-extended. Returns false if the run
 * stopped instead (a simulation error naming the access, or the bus asked
 * to stop). */
bool sn_mem_read(struct sn_hart *h, uint64_t pc, uint64_t pa, unsigned size, uint64_t cycle, uint64_t *raw);
bool sn_mem_write(struct sn_hart *h, uint64_t pc, uint64_t pa, unsigned size, uint64_t value, uint64_t cycle);

/* How a stop words a DRAM-region address the buffer does not hold (below
 * SN_DRAM_CPU_BASE or past its end); its argument is the buffer's size. */
#define SN_DRAM_OUTSIDE "not in the simulated DRAM (0x%" PRIx64 " bytes at 0x80000000)"

/* The DRAM buffer offset of a cached or uncached pa, or UINT64_MAX when the
 * bytes [pa, pa+size) are not in the buffer. */
uint64_t sn_dram_offset(const struct sn_hart *h, uint64_t pa, unsigned size);

#endif
