/* The settle proof (see settle.h). */
#include "settle.h"

#include <stdlib.h>

#include "sysnode/words.h" /* cluster payload fields and opcodes */

#define MAX_RANGES 4096 /* past this many pending writes the proof gives up: settle */

typedef struct {
    uint64_t lo, hi; /* [lo, hi) unit DRAM addresses */
} range;

typedef struct {
    range r[MAX_RANGES];
    size_t n;
    int full; /* a range did not fit: nothing can be proven against the set */
} range_set;

static void add(range_set *s, uint64_t lo, uint64_t hi)
{
    if (s->n < MAX_RANGES)
        s->r[s->n++] = (range){lo, hi};
    else
        s->full = 1;
}

static int overlaps(const range_set *s, const range *x)
{
    if (s->full)
        return 1;
    for (size_t i = 0; i < s->n; i++)
        if (x->lo < s->r[i].hi && s->r[i].lo < x->hi)
            return 1;
    return 0;
}

static int inside_expected(const sn_manifest *m, const range *x)
{
    for (size_t i = 0; i < m->expected_count; i++)
        if (x->lo >= m->expected[i].addr && x->hi <= m->expected[i].addr + m->expected[i].nbytes)
            return 1;
    return 0;
}

/* Adds round r's DRAIN writes to *writes and its FILL reads and DRAIN writes
 * to *touched (either may be NULL). Returns 0 when every payload it kicks is
 * a matmul cluster FILL, GEMM or DRAIN to DRAM, 1 otherwise (opaque). */
static int round_traffic(const sn_program *p, const sn_mesh *mesh, size_t r, range_set *writes, range_set *touched)
{
    const sn_table_round *round = &p->rounds[r];
    for (uint32_t i = 0; i < round->step_count; i++) {
        const sn_table_step *s = &p->steps[round->step_first + i];
        const sn_mesh_unit *u = sn_mesh_find(mesh, s->x, s->y);
        if (s->op != SN_STEP_KICK)
            continue;
        if (!u || u->cu_type != SN_CU_TYPE_MG)
            return 1;
        for (uint32_t k = 0; k < s->kick.flits; k++) {
            sn_payload q = sn_table_row_payload(&p->payloads[round->payload_first + s->kick.first_slot + k]);
            uint64_t op = sn_mg_op(&q), n = sn_mg_n(&q);
            uint64_t addr = SN_MG_DRAM_ADDR(&q);
            if (op == SN_MG_OP_GEMM)
                continue;
            if (op == SN_MG_OP_DRAIN && sn_mg_dnode(&q)) /* the tile goes to a node */
                return 1;
            if (op != SN_MG_OP_FILL && op != SN_MG_OP_DRAIN)
                return 1;
            range x = {addr, addr + n * (op == SN_MG_OP_FILL ? 256 : 32)};
            if (op == SN_MG_OP_DRAIN && writes)
                add(writes, x.lo, x.hi);
            if (touched)
                add(touched, x.lo, x.hi);
        }
    }
    return 0;
}

void sn_settle_plan(sn_program *p, const sn_mesh *mesh, const sn_manifest *m)
{
    for (size_t r = 0; r < p->round_count; r++)
        p->rounds[r].flags &= ~SN_ROUND_SETTLE_PROVEN;
    /* Per call, never static storage: plans run in parallel (--jobs, two Devices in two threads). */
    range_set *sets = m && p->round_count > 1 ? calloc(3, sizeof *sets) : NULL;
    if (sets == NULL)
        return; /* nothing to prove, or no memory to prove it with: every round keeps its settle */
    range_set *pending = &sets[0], *wrote = &sets[1], *next = &sets[2];
    for (size_t r = 0; r + 1 < p->round_count; r++) {
        wrote->n = next->n = 0;
        wrote->full = next->full = 0;
        int proven = round_traffic(p, mesh, r, wrote, NULL) == 0 && round_traffic(p, mesh, r + 1, NULL, next) == 0;
        for (size_t i = 0; proven && i < wrote->n; i++) {
            proven = inside_expected(m, &wrote->r[i]);
            add(pending, wrote->r[i].lo, wrote->r[i].hi);
        }
        for (size_t i = 0; proven && i < next->n; i++)
            proven = !overlaps(pending, &next->r[i]);
        proven = proven && !wrote->full && !next->full && !pending->full;
        if (proven) {
            p->rounds[r].flags |= SN_ROUND_SETTLE_PROVEN;
        } else {
            pending->n = 0; /* the settle is kept: everything written so far lands */
            pending->full = 0;
        }
    }
    free(sets);
}
