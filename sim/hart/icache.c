/* The I-cache; see icache.h. */
#include "icache.h"

#include <string.h>

#include "sysnode/regs.h"

#define LINE 32u

void sn_icache_reset(sn_icache *c)
{
    memset(c, 0, sizeof *c);
}

/* The fill lands: it takes the victim line (unless fence.i dropped it). */
static void land(sn_icache *c, sn_nport *port, const uint8_t *dram, uint64_t dram_size)
{
    c->filling = false;
    port->ifill = false;
    if (c->dropped)
        return;
    unsigned v = c->victim;
    c->victim ^= 1u;
    c->valid[v] = true;
    c->tag[v] = c->fill_tag;
    uint64_t off = c->fill_tag - SN_DRAM_CPU_BASE;
    c->outside[v] = c->fill_tag < SN_DRAM_CPU_BASE || off >= dram_size || dram_size - off < LINE;
    if (c->outside[v])
        memset(c->data[v], 0, LINE);
    else
        memcpy(c->data[v], dram + off, LINE);
}

bool sn_icache_hold(sn_icache *c, sn_nport *port, const uint8_t *dram, uint64_t dram_size, uint64_t pa,
                    uint64_t cycle)
{
    uint64_t tag = pa & ~(uint64_t)(LINE - 1);
    if (c->filling) {
        if (cycle < port->ifill_accept + 4u + port->latency)
            return true;
        land(c, port, dram, dram_size);
    }
    for (unsigned i = 0; i < 2; i++)
        if (c->valid[i] && c->tag[i] == tag)
            return false;
    c->filling = true;
    c->dropped = false;
    c->fill_tag = tag;
    sn_nport_ifill(port, cycle + 1);
    return true;
}

uint32_t sn_icache_word(const sn_icache *c, uint64_t pa, bool *outside)
{
    uint64_t tag = pa & ~(uint64_t)(LINE - 1);
    unsigned i = c->valid[1] && c->tag[1] == tag;
    const uint8_t *p = &c->data[i][pa % LINE];
    *outside = c->outside[i];
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void sn_icache_fence_i(sn_icache *c, const sn_nport *port, uint64_t cycle)
{
    c->valid[0] = c->valid[1] = false;
    if (c->filling && port->ifill_accept + 2u + port->latency <= cycle)
        c->dropped = true;
}
