/* Regions and data accesses; see memmap.h. */
#include "memmap.h"

#include <inttypes.h>
#include <string.h>

#include "core.h"

#define UNCACHED_ALIAS (1ull << SN_UNCACHED_BIT)
#define STAGING (1ull << 39)

uint64_t sn_dram_offset(const sn_hart *h, uint64_t pa, unsigned size)
{
    if (pa & STAGING)
        return UINT64_MAX;
    pa &= ~UNCACHED_ALIAS;
    if (pa < SN_DRAM_CPU_BASE)
        return UINT64_MAX;
    uint64_t off = pa - SN_DRAM_CPU_BASE;
    return off < h->dram_size && h->dram_size - off >= size ? off : UINT64_MAX;
}

/* The lookup cycle of a cached access first looked up at k: past the L1's
 * maintenance, one cycle more unless at the index the scan ended at. */
static uint64_t l1_lookup(const sn_hart *h, uint64_t k, unsigned index)
{
    if (k < h->l1_wait_from || k >= h->l1_idle)
        return k;
    return h->l1_idle + (index != h->l1_end_index);
}

uint64_t sn_access_time(sn_hart *h, uint64_t pa, sn_region r, uint64_t start)
{
    unsigned L = h->latency;
    if (r == SN_REGION_UNCACHED)
        return sn_nport_data(&h->port, start + 1) + 2 + L;
    if (r != SN_REGION_CACHED)
        return start + 1;
    uint64_t off = sn_dram_offset(h, pa, 1);
    if (off == UINT64_MAX)
        return start + 1;
    unsigned index = (unsigned)(off / SN_L1_LINE_BYTES % SN_L1_LINES);
    uint64_t k = l1_lookup(h, start + 1, index);
    int miss = sn_l1_probe(&h->mem->l1, off);
    if (miss == 0)
        return k + 1;
    uint64_t offered = k + 3;
    if (miss == 2) /* the victim's 4 words read out, then the write-back */
        offered = sn_nport_data(&h->port, k + 7) + 2;
    return sn_nport_data(&h->port, offered) + 10 + L;
}

static void access_error(sn_hart *h, uint64_t pc, bool write, uint64_t pa, unsigned size, const char *why)
{
    sn_core_error(h, pc, "%u-byte data %s at 0x%" PRIx64 " (pc 0x%" PRIx64 "): %s", size, write ? "write" : "read", pa,
                  pc, why);
}

/* A control access must be a whole aligned 64-bit register (or a byte
 * store to R_CONSOLE). */
static bool ctrl_ok(sn_hart *h, uint64_t pc, bool write, uint64_t pa, unsigned size)
{
    uint32_t off = (uint32_t)(pa - SN_CTRL_BASE);
    if (size == 8 || (write && size == 1 && off == SN_CTRL_CONSOLE))
        return true;
    sn_core_error(h, pc,
                  "%u-byte %s at control offset 0x%x (pc 0x%" PRIx64 "): the control region takes whole aligned "
                  "64-bit registers only (and byte stores to R_CONSOLE)",
                  size, write ? "write" : "read", off, pc);
    return false;
}

/* Why an access to pa in region r is not served. */
static void unserved(sn_hart *h, uint64_t pc, bool write, uint64_t pa, unsigned size, sn_region r)
{
    if (r == SN_REGION_IMEM)
        access_error(h, pc, write, pa, size, "IMEM is fetch-only");
    else if (r == SN_REGION_NONE)
        access_error(h, pc, write, pa, size, "outside the memory map");
    else if (pa & STAGING)
        access_error(h, pc, write, pa, size, "the staging window (pa[39]) is not simulated");
    else
        sn_core_error(h, pc,
                      "%u-byte data %s at 0x%" PRIx64 " (pc 0x%" PRIx64 "): " SN_DRAM_OUTSIDE,
                      size, write ? "write" : "read", pa, pc, h->dram_size);
}

/* Every access that reaches the map is aligned (misaligned ones trap first)
 * but one: the Sv39 erratum's, which reuses the address of the access
 * before whatever its size (core-timing §10). The card's result for it is
 * unknown, so the run stops naming it. */
static bool aligned(sn_hart *h, uint64_t pc, bool write, uint64_t pa, unsigned size)
{
    if (pa % size == 0)
        return true;
    sn_core_error(h, pc,
                  "%u-byte data %s at 0x%" PRIx64 " (pc 0x%" PRIx64 "): not %u-aligned; the address is the access "
                  "before's, reused by the Sv39 erratum (core-timing §10), and what the card does with it is unknown",
                  size, write ? "write" : "read", pa, pc, size);
    return false;
}

bool sn_mem_read(sn_hart *h, uint64_t pc, uint64_t pa, unsigned size, uint64_t cycle, uint64_t *raw)
{
    sn_region r = sn_region_of(pa);
    *raw = 0;
    if (!aligned(h, pc, false, pa, size))
        return false;
    switch (r) {
    case SN_REGION_SPAD:
        memcpy(raw, h->mem->spad + (pa - SN_SPAD_BASE), size);
        return true;
    case SN_REGION_CTRL:
        if (!ctrl_ok(h, pc, false, pa, size))
            return false;
        sn_core_advance(h, cycle);
        h->access_cycle = cycle;
        if (!h->stopping)
            *raw = h->bus.ctrl_read(h->bus.ctx, (uint32_t)(pa - SN_CTRL_BASE));
        return !h->stopping;
    case SN_REGION_CACHED:
    case SN_REGION_UNCACHED: {
        uint64_t off = sn_dram_offset(h, pa, size);
        if (off == UINT64_MAX)
            break;
        if (r == SN_REGION_UNCACHED || sn_l1_probe(&h->mem->l1, off) != 0)
            sn_core_advance(h, cycle); /* the mesh's DRAM writes up to the access land first */
        if (r == SN_REGION_CACHED)
            sn_l1_read(&h->mem->l1, off, size, raw);
        else
            memcpy(raw, h->dram + off, size);
        return !h->stopping;
    }
    default:
        break;
    }
    unserved(h, pc, false, pa, size, r);
    return false;
}

bool sn_mem_write(sn_hart *h, uint64_t pc, uint64_t pa, unsigned size, uint64_t value, uint64_t cycle)
{
    sn_region r = sn_region_of(pa);
    if (!aligned(h, pc, true, pa, size))
        return false;
    switch (r) {
    case SN_REGION_SPAD:
        memcpy(h->mem->spad + (pa - SN_SPAD_BASE), &value, size);
        return true;
    case SN_REGION_CTRL:
        if (!ctrl_ok(h, pc, true, pa, size))
            return false;
        sn_core_advance(h, cycle);
        h->access_cycle = cycle;
        if (!h->stopping)
            h->bus.ctrl_write(h->bus.ctx, (uint32_t)(pa - SN_CTRL_BASE), size == 1 ? value & 0xFF : value);
        return !h->stopping || h->exit_requested;
    case SN_REGION_CACHED:
    case SN_REGION_UNCACHED: {
        uint64_t off = sn_dram_offset(h, pa, size);
        if (off == UINT64_MAX)
            break;
        if (r == SN_REGION_CACHED) {
            if (sn_l1_probe(&h->mem->l1, off) != 0)
                sn_core_advance(h, cycle); /* a fill reads DRAM as the mesh left it */
            sn_l1_write(&h->mem->l1, off, size, value);
        } else {
            sn_core_advance(h, cycle); /* the store lands after the mesh's writes before it */
            memcpy(h->dram + off, &value, size);
        }
        return !h->stopping;
    }
    default:
        break;
    }
    unserved(h, pc, true, pa, size, r);
    return false;
}
