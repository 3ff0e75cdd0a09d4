/* The CPU L1 model; see l1_cache.h. */
#include "l1_cache.h"

#include <string.h>

void sn_l1_init(sn_l1 *c, uint8_t *dram, uint64_t dram_size)
{
    memset(c, 0, sizeof *c);
    c->dram = dram;
    c->dram_size = dram_size;
}

static void write_back(sn_l1 *c, unsigned i)
{
    memcpy(c->dram + c->tag[i], c->data[i], SN_L1_LINE_BYTES);
    c->dirty[i] = false;
    c->stats.write_backs++;
}

/* The line holding DRAM address addr, filled on a miss. */
static uint8_t *line_for(sn_l1 *c, uint64_t addr, unsigned *index)
{
    uint64_t base = addr & ~(uint64_t)(SN_L1_LINE_BYTES - 1);
    unsigned i = (unsigned)(base / SN_L1_LINE_BYTES % SN_L1_LINES);
    *index = i;
    if (c->valid[i] && c->tag[i] == base) {
        c->stats.hits++;
        return c->data[i];
    }
    c->stats.misses++;
    if (c->valid[i] && c->dirty[i])
        write_back(c, i);
    memcpy(c->data[i], c->dram + base, SN_L1_LINE_BYTES);
    c->tag[i] = base;
    c->valid[i] = true;
    c->dirty[i] = false;
    return c->data[i];
}

int sn_l1_probe(const sn_l1 *c, uint64_t addr)
{
    uint64_t base = addr & ~(uint64_t)(SN_L1_LINE_BYTES - 1);
    unsigned i = (unsigned)(base / SN_L1_LINE_BYTES % SN_L1_LINES);
    if (c->valid[i] && c->tag[i] == base)
        return 0;
    return c->valid[i] && c->dirty[i] ? 2 : 1;
}

static bool in_range(const sn_l1 *c, uint64_t addr, unsigned size)
{
    return size >= 1 && size <= 8 && addr < c->dram_size && size <= c->dram_size - addr;
}

/* Bytes of [addr, addr+size) that lie in addr's line. */
static unsigned chunk(uint64_t addr, unsigned size)
{
    unsigned room = SN_L1_LINE_BYTES - (unsigned)(addr % SN_L1_LINE_BYTES);
    return size < room ? size : room;
}

int sn_l1_read(sn_l1 *c, uint64_t addr, unsigned size, uint64_t *value)
{
    if (!in_range(c, addr, size))
        return -1;
    uint8_t bytes[8];
    for (unsigned done = 0, n; done < size; done += n, addr += n) {
        unsigned i;
        n = chunk(addr, size - done);
        memcpy(bytes + done, line_for(c, addr, &i) + addr % SN_L1_LINE_BYTES, n);
    }
    uint64_t v = 0;
    for (unsigned k = size; k-- > 0;)
        v = v << 8 | bytes[k];
    *value = v;
    return 0;
}

int sn_l1_write(sn_l1 *c, uint64_t addr, unsigned size, uint64_t value)
{
    if (!in_range(c, addr, size))
        return -1;
    uint8_t bytes[8];
    for (unsigned k = 0; k < size; k++)
        bytes[k] = (uint8_t)(value >> 8 * k);
    for (unsigned done = 0, n; done < size; done += n, addr += n) {
        unsigned i;
        n = chunk(addr, size - done);
        memcpy(line_for(c, addr, &i) + addr % SN_L1_LINE_BYTES, bytes + done, n);
        c->dirty[i] = true;
    }
    return 0;
}

unsigned sn_l1_flush(sn_l1 *c)
{
    unsigned n = 0;
    for (unsigned i = 0; i < SN_L1_LINES; i++)
        if (c->valid[i] && c->dirty[i]) {
            write_back(c, i);
            n++;
        }
    return n;
}

void sn_l1_invalidate(sn_l1 *c)
{
    memset(c->valid, 0, sizeof c->valid);
    memset(c->dirty, 0, sizeof c->dirty);
}

uint8_t sn_l1_peek(const sn_l1 *c, uint64_t addr)
{
    uint64_t base = addr & ~(uint64_t)(SN_L1_LINE_BYTES - 1);
    unsigned i = (unsigned)(base / SN_L1_LINE_BYTES) % SN_L1_LINES;
    return c->valid[i] && c->tag[i] == base ? c->data[i][addr - base] : c->dram[addr];
}
