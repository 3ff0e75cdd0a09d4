/* The core's I-cache for code in cached DRAM (core-timing §4.2): 2 lines of
 * 32 bytes, fully associative, replaced alternately; one fill at a time.
 * The F-stage PC is looked up every cycle; on a miss seen in cycle m the
 * fill is offered to the node port from m+1 and, accepted at a, hits at
 * a+4+L; fetch holds until then. fence.i drops both lines and a fill that
 * has landed (a+2+L) by its cycle. */
#ifndef SN_ICACHE_H
#define SN_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "nport.h"

typedef struct sn_icache {
    bool valid[2];
    bool outside[2]; /* the line lies past the DRAM buffer (nothing to fetch) */
    uint64_t tag[2]; /* physical address of the line */
    uint8_t data[2][32];
    unsigned victim;
    bool filling, dropped;
    uint64_t fill_tag;
} sn_icache;

/* An empty cache. */
void sn_icache_reset(sn_icache *c);

/* The F-stage lookup of physical address pa in cycle: whether fetch holds
 * (a miss, or a fill not yet in). A miss with no fill in flight books one
 * on port. Lines are read from dram (dram_size bytes at CPU address
 * SN_DRAM_CPU_BASE) when they land. */
bool sn_icache_hold(sn_icache *c, sn_nport *port, const uint8_t *dram, uint64_t dram_size, uint64_t pa,
                    uint64_t cycle);

/* The word at pa in a present line (after sn_icache_hold said no hold);
 * *outside set if the line lies past the DRAM buffer. */
uint32_t sn_icache_word(const sn_icache *c, uint64_t pa, bool *outside);

/* fence.i leaving E in cycle. */
void sn_icache_fence_i(sn_icache *c, const sn_nport *port, uint64_t cycle);

#endif
