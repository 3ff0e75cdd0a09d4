/* One benchmark measurement (see measure.h). */
#include "measure.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "clock.h"
#include "err_text.h"
#include "replay.h"
#include "transport.h"
#include "transport_sim.h"
#include "unit_busy.h"

sn_status sn_bench_case_load(sn_bench_case *c, const char *case_dir, sn_error *e)
{
    sn_program p;
    memset(c, 0, sizeof *c);
    sn_status st = sn_program_load_case(&p, case_dir, e);
    if (st != SN_OK) {
        sn_program_free(&p);
        return st;
    }
    c->rounds = (uint32_t)p.round_count;
    c->round_payloads = calloc(p.round_count, sizeof *c->round_payloads);
    if (!c->round_payloads) {
        sn_program_free(&p);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", case_dir);
    }
    for (size_t r = 0; r < p.round_count; r++) {
        const sn_table_round *round = &p.rounds[r];
        for (uint32_t i = 0; i < round->step_count; i++) {
            const sn_table_step *s = &p.steps[round->step_first + i];
            if (s->op == SN_STEP_KICK)
                c->round_payloads[r] += s->kick.flits;
        }
        c->payloads += c->round_payloads[r];
    }
    sn_program_free(&p);
    char path[4096];
    sn_text_fit(path, sizeof path, "%s", case_dir);
    sn_text_fit(c->name, sizeof c->name, "%s", basename(path)); /* "dir/" names dir */
    return SN_OK;
}

void sn_bench_case_free(sn_bench_case *c)
{
    free(c->round_payloads);
    memset(c, 0, sizeof *c);
}

sn_status sn_bench_figures_from_stats(const sn_bench_case *c, const sn_run_stats *s, const char *image,
                                      sn_bench_figures *f, sn_error *e)
{
    sn_go_record *gos = malloc((s->go_count ? s->go_count : 1) * sizeof *gos);
    if (!gos)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu GO records", (unsigned long long)s->go_count);
    uint64_t n = 0;
    for (uint64_t i = 0; i < s->go_count; i++)
        if (!s->gos[i].typed)
            gos[n++] = s->gos[i];
    f->payload_gos = n;
    f->steady_rounds = 0;
    if (n != c->payloads) {
        free(gos);
        return sn_error_set(e, SN_ERR_PROTOCOL,
                            "%s: %s: the simulator saw %llu payload GOs, the case's kicks send %llu", c->name, image,
                            (unsigned long long)n, (unsigned long long)c->payloads);
    }
    f->boot_to_first_go = n ? gos[0].cycle : 0;
    f->run_mmio_per_payload = n ? (double)(s->mmio_reads + s->mmio_writes) / (double)n : -1;

    uint64_t first = 0, cycles = 0, mmio = 0, intervals = 0;
    for (uint32_t r = 0; r < c->rounds; first += c->round_payloads[r], r++) {
        uint64_t k = c->round_payloads[r];
        if ((r == 0 && c->rounds > 1) || k < 2)
            continue;
        const sn_go_record *a = &gos[first], *b = &gos[first + k - 1];
        cycles += b->cycle - a->cycle;
        mmio += b->mmio_ops - a->mmio_ops;
        intervals += k - 1;
        f->steady_rounds++;
    }
    f->steady_cycles_per_payload = intervals ? (double)cycles / (double)intervals : -1;
    f->steady_mmio_per_payload = intervals ? (double)mmio / (double)intervals : -1;
    f->busiest_unit_busy = 0;
    for (uint32_t u = 0; u < s->unit_count; u++) {
        uint64_t busy = sn_unit_busy_cycles(&s->units[u]);
        f->busiest_unit_busy = busy > f->busiest_unit_busy ? busy : f->busiest_unit_busy;
    }
    free(gos);
    return SN_OK;
}

sn_status sn_bench_measure(const sn_bench_case *c, const char *case_dir, const char *image, unsigned cu_version,
                           unsigned dram_latency, uint64_t max_cycles, sn_bench_figures *f, sn_error *e)
{
    sn_replay_opts opts = {case_dir, image, max_cycles, 0, NULL, 0, NULL, NULL, 0};
    sn_replay_result res;
    sn_transport t = {0};
    sn_run_stats s;
    memset(f, 0, sizeof *f);
    sn_sim_transport_opts o = {cu_version, 0, NULL, NULL, dram_latency};
    sn_status st = sn_transport_sim_open(&t, &o, e);
    if (st != SN_OK)
        return st;
    double start = sn_now_seconds();
    st = sn_replay_case(&opts, &t, &res, e);
    f->wall_seconds = sn_now_seconds() - start;
    if (st == SN_ERR_MISMATCH) {
        sn_error_set(e, st, "%s: %s: output MISMATCH at %s offset %llu: got 0x%02x, expected 0x%02x", c->name, image,
                     res.diff_file, (unsigned long long)res.diff_offset, res.got, res.want);
    } else if (st != SN_OK) {
        char why[sizeof e->msg];
        sn_text_fit(why, sizeof why, "%s", e->msg);
        sn_error_set(e, st, "%s: %s", c->name, why);
    }
    if (st == SN_OK && !t.ops->stats)
        st = sn_error_set(e, SN_ERR_INPUT, "%s: this host window counts no MMIO or GOs", c->name);
    if (st == SN_OK)
        st = t.ops->stats(t.ctx, &s, e);
    if (st == SN_OK) {
        f->cycles = res.cycles;
        f->mmio_reads = s.mmio_reads;
        f->mmio_writes = s.mmio_writes;
        f->sim_cycles_per_second = s.wait_seconds > 0 ? (double)res.cycles / s.wait_seconds : 0;
        f->sim_instructions_per_second = s.wait_seconds > 0 ? (double)res.instret / s.wait_seconds : 0;
        st = sn_bench_figures_from_stats(c, &s, image, f, e);
    }
    sn_transport_close(&t);
    return st;
}
