/* See mem_node.h. */
#include "mem_node.h"

#define PLAIN_READ_CYCLES 12  /* unit-timing §4.2, plain read */
#define STREAM_FIRST_WORD 17  /* §4.2, preq = 1: take to the first word */
#define STREAM_ENTRY_STEP 14  /* §4.2: one 4-word entry */
#define ENTRY_WORDS 4

static uint64_t take(const sn_mem_node *m, uint64_t tap)
{
    return tap + 1 > m->read_free ? tap + 1 : m->read_free;
}

void sn_mem_node_reset(sn_mem_node *m, unsigned latency)
{
    m->read_free = 0;
    m->latency = latency;
}

uint64_t sn_mem_node_read(sn_mem_node *m, uint64_t tap)
{
    uint64_t done = take(m, tap) + PLAIN_READ_CYCLES + m->latency;
    m->read_free = done;
    return done;
}

uint64_t sn_mem_node_stream(sn_mem_node *m, uint64_t tap, uint32_t n)
{
    uint64_t first = take(m, tap) + STREAM_FIRST_WORD + m->latency;
    uint64_t last = first + (uint64_t)(STREAM_ENTRY_STEP + m->latency) * (n - 1) + (ENTRY_WORDS - 1);
    m->read_free = last;
    return last;
}
