/* See run_events.h. */
#include "run_events.h"

#include <stdlib.h>
#include <string.h>

#include "sysnode/mesh.h"
#include "sysnode/regs.h"
#include "sysnode/table.h"

static void *array(uint64_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

/* Per-node counters, indexed by SN_NODE_ID. */
typedef struct {
    uint32_t v[256];
} node_counts;

/* The pop at or after *next (in round r's completions) that brings
 * received[node] to want; *next moves past the pops consumed. Returns its
 * cycle + 1, or start when already satisfied, or round_end when never. */
static uint64_t pop_reaching(const sn_run_stats *s, const uint32_t *completion_round, uint32_t r, uint64_t *next,
                             node_counts *received, int node, uint32_t want, uint64_t start, uint64_t round_end,
                             const node_counts *sent)
{
    for (;;) {
        int done;
        if (node >= 0) {
            done = received->v[node] >= want;
        } else { /* barrier: every node has what was sent to it */
            done = 1;
            for (unsigned n = 0; n < 256 && done; n++)
                done = received->v[n] >= sent->v[n];
        }
        if (done)
            return start;
        if (*next >= s->completion_count || completion_round[*next] != r)
            return round_end;
        const sn_completion_record *c = &s->completions[(*next)++];
        received->v[SN_NODE_ID(c->x, c->y)]++;
        start = c->cycle + 1;
    }
}

sn_status sn_run_events_build(const sn_program *p, const sn_run_stats *s, uint64_t end_cycle, int stopped,
                              sn_run_events *ev, sn_error *e)
{
    sn_table t = sn_program_table(p);
    memset(ev, 0, sizeof *ev);
    ev->end = end_cycle;
    ev->round_count = t.round_count;
    uint64_t payloads = 0;
    for (uint32_t i = 0; i < t.step_count; i++)
        if (t.steps[i].op == SN_STEP_KICK)
            payloads += t.steps[i].kick.flits;
    ev->rounds = array(t.round_count, sizeof *ev->rounds);
    ev->gos = array(payloads, sizeof *ev->gos);
    ev->steps = array(t.step_count, sizeof *ev->steps);
    ev->completion_round = array(s->completion_count, sizeof *ev->completion_round);
    ev->completion_go = array(s->completion_count, sizeof *ev->completion_go);
    for (uint32_t u = 0; u < s->unit_count; u++)
        ev->unit_go[u] = array(s->units[u].span_count, sizeof *ev->unit_go[u]);
    int ok = ev->rounds && ev->gos && ev->steps && ev->completion_round && ev->completion_go;
    for (uint32_t u = 0; u < s->unit_count; u++)
        ok = ok && ev->unit_go[u];
    if (!ok)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the run's events");

    /* payload GOs in program order; a stopped run's log ends early */
    uint64_t g = 0, k = 0;
    int first_typed = 1, short_log = 0;
    uint32_t round_count = t.round_count;
    for (uint32_t r = 0; r < t.round_count && !short_log; r++) {
        const sn_table_round *round = &t.rounds[r];
        for (uint32_t i = 0; i < round->step_count && !short_log; i++) {
            const sn_table_step *st = &t.steps[round->step_first + i];
            for (uint32_t f = 0; st->op == SN_STEP_KICK && f < st->kick.flits; f++) {
                while (g < s->go_count && s->gos[g].typed) {
                    if (first_typed)
                        ev->probe_start = s->gos[g].cycle;
                    first_typed = 0;
                    g++;
                }
                if (g == s->go_count && !stopped)
                    return sn_error_set(e, SN_ERR_PROTOCOL, "the window logged %llu payload GOs; the program's kicks "
                                        "send %llu", (unsigned long long)k, (unsigned long long)payloads);
                if (g == s->go_count) {
                    short_log = 1;
                    round_count = k ? ev->gos[k - 1].round + 1 : 0; /* the rounds the run reached */
                    break;
                }
                ev->gos[k++] = (sn_ev_go){s->gos[g].cycle, r, i, st->kick.first_slot + f, (uint8_t)g, st->x, st->y};
                g++;
            }
        }
    }
    for (; g < s->go_count; g++)
        if (!s->gos[g].typed)
            return sn_error_set(e, SN_ERR_PROTOCOL, "the window logged more payload GOs than the program's %llu",
                                (unsigned long long)payloads);
    ev->go_count = k;
    ev->first_payload_go = k ? ev->gos[0].cycle : end_cycle;
    if (first_typed)
        ev->probe_start = ev->first_payload_go;

    /* rounds: from their first payload GO to the next round's (payloads: those sent) */
    k = 0;
    for (uint32_t r = 0; r < round_count; r++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t.rounds[r].step_count; i++)
            if (t.steps[t.rounds[r].step_first + i].op == SN_STEP_KICK)
                n += t.steps[t.rounds[r].step_first + i].kick.flits;
        if (n > ev->go_count - k)
            n = (uint32_t)(ev->go_count - k);
        ev->rounds[r].payloads = n;
        ev->rounds[r].start = n ? ev->gos[k].cycle : (r ? ev->rounds[r - 1].end : ev->first_payload_go);
        if (r)
            ev->rounds[r - 1].end = ev->rounds[r].start;
        k += n;
    }
    ev->round_count = round_count;
    if (round_count)
        ev->rounds[round_count - 1].end = end_cycle;
    for (uint64_t c = 0, r = 0; c < s->completion_count; c++) {
        while (r + 1 < round_count && s->completions[c].cycle >= ev->rounds[r + 1].start)
            r++;
        ev->completion_round[c] = (uint32_t)r;
        if (round_count)
            ev->rounds[r].completions++;
    }

    /* completions to GOs: per node, its BATCH_COMPLETEs take its GOs in order */
    {
        uint64_t next_go[256] = {0};
        for (uint64_t c = 0; c < s->completion_count; c++) {
            const sn_completion_record *cr = &s->completions[c];
            unsigned node = SN_NODE_ID(cr->x, cr->y);
            ev->completion_go[c] = -1;
            if (cr->code != SN_SIG_BATCH_COMPLETE)
                continue;
            while (next_go[node] < ev->go_count && SN_NODE_ID(ev->gos[next_go[node]].x, ev->gos[next_go[node]].y) != node)
                next_go[node]++;
            if (next_go[node] < ev->go_count && ev->gos[next_go[node]].txn == (uint8_t)cr->arg)
                ev->completion_go[c] = (int64_t)next_go[node]++;
        }
    }

    /* steps */
    uint64_t next_pop = 0, si = 0;
    k = 0;
    for (uint32_t r = 0; r < round_count; r++) {
        node_counts received = {{0}}, expected = {{0}}, sent = {{0}};
        uint64_t at = ev->rounds[r].start;
        while (next_pop < s->completion_count && ev->completion_round[next_pop] < r)
            next_pop++;
        for (uint32_t i = 0; i < t.rounds[r].step_count; i++) {
            const sn_table_step *st = &t.steps[t.rounds[r].step_first + i];
            sn_ev_step *out = &ev->steps[si++];
            *out = (sn_ev_step){at, at, r, i, st->op, st->x, st->y, 0};
            int node = SN_NODE_ID(st->x, st->y);
            if (st->op == SN_STEP_KICK) {
                uint32_t flits = st->kick.flits < ev->go_count - k ? st->kick.flits : (uint32_t)(ev->go_count - k);
                if (flits == 0 && st->kick.flits) { /* the run stopped before this kick */
                    si--;
                    break;
                }
                out->count = flits;
                if (flits) {
                    out->start = ev->gos[k].cycle;
                    out->end = ev->gos[k + flits - 1].cycle + 1;
                }
                k += flits;
                sent.v[node] += flits;
                /* completions popped while kicking count towards later awaits */
                while (next_pop < s->completion_count && ev->completion_round[next_pop] == r &&
                       s->completions[next_pop].cycle < out->end) {
                    const sn_completion_record *c = &s->completions[next_pop++];
                    received.v[SN_NODE_ID(c->x, c->y)]++;
                }
            } else if (st->op == SN_STEP_AWAIT) {
                out->count = st->await.completions;
                expected.v[node] += st->await.completions;
                out->end = pop_reaching(s, ev->completion_round, r, &next_pop, &received, node, expected.v[node], at,
                                        ev->rounds[r].end, &sent);
            } else if (st->op == SN_STEP_BARRIER) {
                out->end = pop_reaching(s, ev->completion_round, r, &next_pop, &received, -1, 0, at,
                                        ev->rounds[r].end, &sent);
            }
            at = out->end;
        }
        ev->rounds[r].steps_end = at;
    }
    ev->step_count = si;

    /* unit spans to payload GOs */
    for (uint32_t u = 0; u < s->unit_count; u++) {
        uint64_t n = 0;
        for (uint64_t i = 0; i < ev->go_count && n < s->units[u].span_count; i++)
            if (ev->gos[i].x == s->units[u].x && ev->gos[i].y == s->units[u].y)
                ev->unit_go[u][n++] = i;
        if (n != s->units[u].span_count)
            return sn_error_set(e, SN_ERR_PROTOCOL, "unit (%u,%u) issued %llu payloads; the program sent it %llu",
                                s->units[u].x, s->units[u].y, (unsigned long long)s->units[u].span_count,
                                (unsigned long long)n);
    }
    return SN_OK;
}

void sn_run_events_free(sn_run_events *ev)
{
    free(ev->rounds);
    free(ev->gos);
    free(ev->steps);
    free(ev->completion_round);
    free(ev->completion_go);
    for (unsigned u = 0; u < SN_MESH_MAX_UNITS; u++)
        free(ev->unit_go[u]);
    memset(ev, 0, sizeof *ev);
}
