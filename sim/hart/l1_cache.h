/* The SysNode CPU's L1 data cache over the DRAM buffer (sysnode-facts §1.5,
 * DESIGN §3): direct-mapped, 64 lines of 32 bytes (2 KB), write-back, not
 * coherent with unit DRAM writes. Write-allocate: a store miss fills the
 * line, then merges (the facts do not say; R-NP/D-AB describe only a
 * write-back L1 with one outstanding miss, so the usual write-back policy
 * was chosen; core-timing §5.3 confirms it: write-allocate, no write buffer).
 * One object per hart, no global state. */
#ifndef SN_L1_CACHE_H
#define SN_L1_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define SN_L1_LINE_BYTES 32u
#define SN_L1_LINES 64u

/* Counters for tests, since the last sn_l1_init. A line touched by one
 * access counts once; an access crossing a line boundary counts per line. */
typedef struct sn_l1_stats {
    uint64_t hits;
    uint64_t misses;
    uint64_t write_backs; /* dirty lines written to DRAM: evictions and flushes */
} sn_l1_stats;

typedef struct sn_l1 {
    uint8_t *dram; /* the caller's buffer; byte 0 = unit address 0 */
    uint64_t dram_size;
    uint64_t tag[SN_L1_LINES]; /* DRAM byte address of the line's first byte */
    bool valid[SN_L1_LINES];
    bool dirty[SN_L1_LINES];
    uint8_t data[SN_L1_LINES][SN_L1_LINE_BYTES];
    sn_l1_stats stats;
} sn_l1;

/* An empty cache (every line invalid, counters 0) over dram (dram_size
 * bytes, a multiple of 32, kept by the caller). Dirty lines of a previous
 * use are dropped, not written back: what a reset does to the L1. */
void sn_l1_init(sn_l1 *c, uint8_t *dram, uint64_t dram_size);

/* Whether the line holding DRAM byte address addr (< dram_size) is present:
 * 0 a hit, 1 a miss with a clean or empty victim, 2 a miss with a dirty
 * victim; nothing changes (the timing looks before the access). */
int sn_l1_probe(const sn_l1 *c, uint64_t addr);

/* A CPU load of size bytes (1..8, any alignment) at DRAM byte address addr,
 * little-endian, into *value. Misses fill the line from DRAM, first writing
 * back a dirty victim. Returns 0, or -1 (nothing done) on a bad size or a
 * range outside DRAM. */
int sn_l1_read(sn_l1 *c, uint64_t addr, unsigned size, uint64_t *value);

/* A CPU store of the low size bytes (1..8, any alignment) of value at DRAM
 * byte address addr: into the line (write-allocate), which becomes dirty;
 * DRAM is written only at eviction or flush. Returns 0, or -1 (nothing
 * done) on a bad size or a range outside DRAM. */
int sn_l1_write(sn_l1 *c, uint64_t addr, unsigned size, uint64_t value);

/* The byte the CPU would read at DRAM offset addr (a valid line's copy, else
 * DRAM: the L1 is write-back, so a dirty line is newer than DRAM,
 * sysnode-facts §1.5), without touching the cache's state or counters: for
 * a debugger. addr must be < dram_size. */
uint8_t sn_l1_peek(const sn_l1 *c, uint64_t addr);

/* DCACHE bit 0: writes every dirty line back to DRAM; lines stay valid and
 * become clean. Returns the number of lines written back. */
unsigned sn_l1_flush(sn_l1 *c);

/* DCACHE bit 1: drops every line, dirty ones included, without writing
 * back (a flush first keeps their data). */
void sn_l1_invalidate(sn_l1 *c);

#endif
