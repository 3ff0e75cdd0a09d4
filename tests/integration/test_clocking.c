/* Event-driven clocking is exact: one case, one runner image and one unit
 * generation replayed twice with --digest and a trace, once with the mesh
 * clocked every cycle (lockstep, the reference) and once event-driven. The
 * two must agree on everything a user or the runner can see: the replay's
 * status and message, the verdict (rounds, flits, completions, cycles,
 * instructions, digest, first difference), the runner's status block and
 * console, the GOs the mailbox took and dropped, the window's MMIO counts,
 * GO log (cycle and MMIO count of every GO), completion log and each unit's
 * busy spans (the run report's and timeline's sources), every trace byte and every
 * DRAM byte at the end. The event-driven run must also have clocked fewer
 * edges, so the shortcut was taken (sim/README.md, Clocking).
 *
 * usage: test_clocking CASE_DIR IMAGE CU_VERSION TRACE_PREFIX [MAX_CYCLES]
 * (MAX_CYCLES: the cycle cap, default 400 M, as sysnode run's). Writes TRACE_PREFIX.lockstep.trace and TRACE_PREFIX.event.trace. Exits 0
 * when the runs agree, 1 naming the first thing that differs, 2 on usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "sim.h"
#include "transport.h"
#include "transport_sim.h"

#define DEFAULT_MAX_CYCLES 400000000ull

typedef struct {
    sn_status status;
    sn_error error;
    sn_replay_result res;
    int has_status_block;
    sn_status_block status_block;
    char *console;
    uint32_t accepted_gos, dropped_gos;
    sn_run_stats stats; /* the window's MMIO counts, GO log, completion log and busy spans */
    sn_go_record *gos;
    sn_completion_record *completions;
    sn_busy_span *spans[SN_MESH_MAX_UNITS];
    uint64_t edges;
    uint8_t *dram;
    uint64_t dram_size;
    char *trace;
    long trace_bytes;
} run_record;

static char *read_file(const char *path, long *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *bytes = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)*bytes + 1);
    if (buf && fread(buf, 1, (size_t)*bytes, f) != (size_t)*bytes) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* A heap copy of n elements of size bytes at src (the stats arrays live only
 * until the window's next call); NULL when memory runs out. */
static void *copy(const void *src, uint64_t n, size_t size)
{
    void *p = malloc(n ? n * size : 1);
    if (p && n)
        memcpy(p, src, n * size);
    return p;
}

/* Replays the case on a fresh simulator; 0, or -1 when it could not start. */
static int replay(const char *case_dir, const char *image, unsigned cu_version, uint64_t max_cycles, int lockstep,
                  const char *trace, run_record *out)
{
    sn_transport sim = {0}, t = {0};
    sn_sim_transport_opts o = {cu_version, lockstep, NULL, NULL, 0};
    memset(out, 0, sizeof *out);
    if (sn_transport_sim_open(&sim, &o, &out->error) != SN_OK ||
        sn_transport_record_open(&t, sim, trace, &out->error) != SN_OK) {
        fprintf(stderr, "test_clocking: %s\n", out->error.msg);
        sn_transport_close(&sim);
        return -1;
    }
    sn_sim *s = sn_transport_sim_of(&sim);
    sn_replay_opts opts = {case_dir, image, max_cycles, 1, NULL, 0, NULL, NULL, 0};
    out->status = sn_replay_case(&opts, &t, &out->res, &out->error);
    out->has_status_block = sn_sim_status_block(s, &out->status_block) == 0;
    out->console = strdup(sn_sim_console(s));
    out->accepted_gos = sn_sim_accepted_gos(s);
    out->dropped_gos = sn_sim_dropped_gos(s);
    out->edges = sn_sim_mesh_edges(s);
    if (t.ops->stats(t.ctx, &out->stats, &out->error) != SN_OK)
        return -1;
    out->gos = copy(out->stats.gos, out->stats.go_count, sizeof *out->gos);
    out->completions = copy(out->stats.completions, out->stats.completion_count, sizeof *out->completions);
    int copied = out->gos && out->completions;
    for (uint32_t u = 0; u < out->stats.unit_count; u++)
        copied &= (out->spans[u] = copy(out->stats.units[u].spans, out->stats.units[u].span_count,
                                        sizeof *out->spans[u])) != NULL;
    out->dram_size = sn_sim_dram_size(s);
    out->dram = malloc(out->dram_size);
    int ok = out->console && copied && out->dram && sn_sim_dram_read(s, 0, out->dram, out->dram_size) == 0;
    sn_error trace_err = {0}; /* the trace is put in place by the output rule (host/inputs/file_out.h) */
    ok = ok && sn_transport_record_commit(&t, &trace_err) == SN_OK;
    sn_transport_close(&t);
    out->trace = read_file(trace, &out->trace_bytes);
    if (!ok || !out->trace) {
        fprintf(stderr, "test_clocking: could not collect the run's state (trace %s)\n", trace);
        return -1;
    }
    return 0;
}

static int differ(const char *what, const char *lockstep, const char *event)
{
    fprintf(stderr, "test_clocking: %s differs: lockstep %s, event-driven %s\n", what, lockstep, event);
    return 1;
}

static int differ_u64(const char *what, uint64_t lockstep, uint64_t event)
{
    char a[32], b[32];
    snprintf(a, sizeof a, "%llu", (unsigned long long)lockstep);
    snprintf(b, sizeof b, "%llu", (unsigned long long)event);
    return differ(what, a, b);
}

#define SAME_U64(field)                                                                                           \
    do {                                                                                                          \
        if (l->field != e->field)                                                                                 \
            return differ_u64(#field, l->field, e->field);                                                        \
    } while (0)

static int compare(const run_record *l, const run_record *e)
{
    SAME_U64(status);
    if (strcmp(l->error.msg, e->error.msg) != 0)
        return differ("message", l->error.msg, e->error.msg);
    if (strcmp(l->res.name, e->res.name) != 0 || strcmp(l->res.diff_file, e->res.diff_file) != 0)
        return differ("case name or differing file", l->res.diff_file, e->res.diff_file);
    SAME_U64(res.rounds);
    SAME_U64(res.flits);
    SAME_U64(res.completions);
    SAME_U64(res.cycles);
    SAME_U64(res.instret);
    SAME_U64(res.table_addr);
    SAME_U64(res.digest_checked);
    SAME_U64(res.digest_got);
    SAME_U64(res.digest_want);
    SAME_U64(res.output_bytes);
    SAME_U64(res.match);
    SAME_U64(res.diff_offset);
    SAME_U64(res.got);
    SAME_U64(res.want);
    SAME_U64(has_status_block);
    if (memcmp(&l->status_block, &e->status_block, sizeof l->status_block) != 0)
        return differ("runner status block", "(56 bytes)", "(other bytes)");
    if (strcmp(l->console, e->console) != 0)
        return differ("console", l->console, e->console);
    SAME_U64(accepted_gos);
    SAME_U64(dropped_gos);
    SAME_U64(stats.mmio_reads);
    SAME_U64(stats.mmio_writes);
    SAME_U64(stats.go_count);
    for (uint64_t i = 0; i < l->stats.go_count; i++)
        if (l->gos[i].cycle != e->gos[i].cycle || l->gos[i].mmio_ops != e->gos[i].mmio_ops ||
            l->gos[i].typed != e->gos[i].typed)
            return differ_u64("GO log entry", i, i);
    SAME_U64(stats.completion_count);
    for (uint64_t i = 0; i < l->stats.completion_count; i++)
        if (l->completions[i].cycle != e->completions[i].cycle || l->completions[i].x != e->completions[i].x ||
            l->completions[i].y != e->completions[i].y || l->completions[i].code != e->completions[i].code ||
            l->completions[i].arg != e->completions[i].arg)
            return differ_u64("completion log entry", i, i);
    SAME_U64(stats.unit_count);
    for (uint32_t u = 0; u < l->stats.unit_count; u++) {
        const sn_unit_busy *a = &l->stats.units[u], *b = &e->stats.units[u];
        if (a->x != b->x || a->y != b->y || a->cu_type != b->cu_type || a->span_count != b->span_count)
            return differ_u64("busy spans of unit", u, u);
        for (uint64_t i = 0; i < a->span_count; i++)
            if (l->spans[u][i].arrive != e->spans[u][i].arrive || l->spans[u][i].start != e->spans[u][i].start ||
                l->spans[u][i].end != e->spans[u][i].end || l->spans[u][i].estimate != e->spans[u][i].estimate)
                return differ_u64("busy span of unit", u, u);
    }
    SAME_U64(trace_bytes);
    if (memcmp(l->trace, e->trace, (size_t)l->trace_bytes) != 0)
        return differ("trace", "(bytes)", "(other bytes)");
    SAME_U64(dram_size);
    for (uint64_t i = 0; i < l->dram_size; i++)
        if (l->dram[i] != e->dram[i])
            return differ_u64("final DRAM byte at unit address", i, i);
    if (e->edges >= l->edges)
        return differ_u64("mesh edges (the event-driven run must take fewer)", l->edges, e->edges);
    return 0;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    uint64_t max_cycles = argc == 6 ? strtoull(argv[5], &end, 0) : DEFAULT_MAX_CYCLES;
    if ((argc != 5 && argc != 6) || (strcmp(argv[3], "4") != 0 && strcmp(argv[3], "5") != 0) ||
        (end && (*end || max_cycles == 0))) {
        fprintf(stderr, "usage: test_clocking CASE_DIR IMAGE 4|5 TRACE_PREFIX [MAX_CYCLES]\n");
        return 2;
    }
    unsigned cu_version = (unsigned)atoi(argv[3]);
    size_t n = strlen(argv[4]) + 32;
    char *lock_trace = malloc(n), *event_trace = malloc(n);
    snprintf(lock_trace, n, "%s.lockstep.trace", argv[4]);
    snprintf(event_trace, n, "%s.event.trace", argv[4]);
    static run_record lockstep, event;
    int failed = replay(argv[1], argv[2], cu_version, max_cycles, 1, lock_trace, &lockstep) != 0 ||
                 replay(argv[1], argv[2], cu_version, max_cycles, 0, event_trace, &event) != 0;
    free(lock_trace);
    free(event_trace);
    if (failed)
        return 1;
    int rc = compare(&lockstep, &event);
    printf("%s %s cu_version %u: status %d, %llu cycles, %llu trace bytes, edges %llu lockstep / %llu event: %s\n",
           lockstep.res.name, argv[2], cu_version, lockstep.status, (unsigned long long)lockstep.res.cycles,
           (unsigned long long)lockstep.trace_bytes, (unsigned long long)lockstep.edges,
           (unsigned long long)event.edges, rc == 0 ? "same" : "DIFFERENT");
    return rc;
}
