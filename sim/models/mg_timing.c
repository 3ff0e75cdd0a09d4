/* See mg_timing.h. Every constant is a row of unit-timing §3.2. */
#include "mg_timing.h"

#define SMALL_TILE 5        /* gm*gn below this waits for the array, not the manager */
#define MANAGER_AFTER 22    /* sweep start + ic to manager free */
#define ARRAY_AFTER 33      /* sweep start + ic to array free */
#define GEMM_COMPLETE 6     /* sweep start to GEMM completion */
#define FILL_DESC_TO_NODE 6 /* accept to the stream descriptor's tap at the node */
#define NODE_TO_PORT 3      /* a response word through the router */
#define FILL_COMPLETE 6     /* last word at the port to completion */
#define BURST_GRANULES 8
#define DRAIN_FIRST 16      /* drain start to burst 0's first flit, + 8 per burst + m - 1 */
#define DRAIN_BURST_STEP 8
#define DRAIN_BURST_GAP 2   /* a burst's first flit waits m + 2 after the previous burst's */
#define DRAIN_COMPLETE 4    /* last data flit to completion */
#define DRAIN_DBG_EXTRA 10  /* CU_DBG: a DRAIN keeps the array about n + 10 cycles */

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

void sn_mg_timing_reset(sn_mg_timing *t)
{
    t->manager_free = t->array_free = t->compute_end = 0;
}

/* Adds [from, to] to CU_DBG's compute, counting cycles already counted once. */
static uint32_t compute_span(sn_mg_timing *t, uint64_t from, uint64_t to)
{
    from = max64(from, t->compute_end + 1);
    if (to < from)
        return 0;
    t->compute_end = to;
    return (uint32_t)(to - from + 1);
}

static sn_mg_cost fill(const sn_payload *p, uint64_t accept, sn_mem_node *mem)
{
    sn_mg_cost c = {accept + 4, 0, 0, 0};
    uint32_t n = (uint32_t)sn_mg_n(p);
    if (n == 0)
        return c;
    uint64_t at_port = sn_mem_node_stream(mem, accept + FILL_DESC_TO_NODE, n) + NODE_TO_PORT;
    c.complete = at_port + FILL_COMPLETE;
    c.dbg_fill = (uint32_t)(at_port + 2 - accept);
    return c;
}

static sn_mg_cost gemm(sn_mg_timing *t, const sn_payload *p, uint64_t accept)
{
    uint64_t tiles = (uint64_t)sn_mg_gm(p) * sn_mg_gn(p), nk = sn_mg_nk(p);
    uint64_t start = max64(accept + 1, tiles < SMALL_TILE ? t->array_free : t->manager_free);
    unsigned pause = nk <= 1 || tiles >= SMALL_TILE ? 0 : tiles == 1 ? 4 : tiles == 2 ? 2 : 1;
    uint64_t beats = tiles * (nk ? nk : 1);
    uint64_t ic = 1 + (beats - 1) * (1 + pause);
    t->manager_free = start + ic + MANAGER_AFTER;
    t->array_free = start + ic + ARRAY_AFTER;
    sn_mg_cost c = {start + GEMM_COMPLETE, 0, 0, 0};
    c.dbg_compute = compute_span(t, start + 1, start + ic + ARRAY_AFTER - 1);
    return c;
}

static uint32_t burst_size(uint32_t n, uint32_t j)
{
    return n - j * BURST_GRANULES < BURST_GRANULES ? n - j * BURST_GRANULES : BURST_GRANULES;
}

uint64_t sn_mg_drain_flit(uint32_t n, uint32_t j)
{
    uint64_t q = 0;
    for (uint32_t i = 0; i <= j; i++) {
        uint64_t earliest = DRAIN_FIRST + (uint64_t)DRAIN_BURST_STEP * i + burst_size(n, i) - 1;
        q = i ? max64(earliest, q + burst_size(n, i - 1) + DRAIN_BURST_GAP) : earliest;
    }
    return q;
}

static sn_mg_cost drain(sn_mg_timing *t, const sn_payload *p, uint64_t accept)
{
    uint32_t n = (uint32_t)sn_mg_n(p);
    uint64_t start = max64(accept + 1, t->array_free);
    uint64_t last = start + DRAIN_FIRST; /* n = 0: no burst */
    if (n) {
        uint32_t j = (n - 1) / BURST_GRANULES;
        last = start + sn_mg_drain_flit(n, j) + burst_size(n, j);
    }
    sn_mg_cost c = {last + DRAIN_COMPLETE, 0, 0, start};
    c.dbg_compute = compute_span(t, start, start + n + DRAIN_DBG_EXTRA - 1);
    return c;
}

sn_mg_cost sn_mg_timing_payload(sn_mg_timing *t, const sn_payload *p, int fault, uint64_t accept,
                                sn_mem_node *mem)
{
    sn_mg_cost none = {accept + 4, 0, 0, 0};
    if (fault)
        return none;
    switch ((unsigned)sn_mg_op(p)) {
    case SN_MG_OP_FILL: return fill(p, accept, mem);
    case SN_MG_OP_GEMM: return gemm(t, p, accept);
    case SN_MG_OP_DRAIN: return drain(t, p, accept);
    default: return none;
    }
}
