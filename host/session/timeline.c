/* See timeline.h. Trace-event format: "X" complete events (ts, dur), "i"
 * instants, "M" metadata naming the process and the tracks. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "err_text.h"
#include "file_out.h"
#include "json_out.h"
#include "run_events.h"
#include "timeline_svg.h"
#include "sysnode/regs.h"
#include "sysnode/table.h"
#include "unit_busy.h"

enum { RUNNER_TRACK = 0 }; /* unit u is track u + 1 */

static const char *cu_name(unsigned cu_type)
{
    return cu_type == SN_CU_TYPE_MG ? "MG" : "VC";
}

static void span(FILE *f, int *first, unsigned tid, const char *cat, uint64_t start, uint64_t end, const char *name,
                 const char *args)
{
    fprintf(f, "%s\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"cat\":\"%s\",\"name\":\"%s\",\"ts\":%llu,\"dur\":%llu,"
               "\"args\":{%s}}",
            *first ? "" : ",", tid, cat, name, (unsigned long long)start,
            (unsigned long long)(end > start ? end - start : 0), args);
    *first = 0;
}

static void instant(FILE *f, int *first, const char *cat, uint64_t at, const char *name, const char *args)
{
    fprintf(f, "%s\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"cat\":\"%s\",\"name\":\"%s\",\"ts\":%llu,"
               "\"args\":{%s}}",
            *first ? "" : ",", RUNNER_TRACK, cat, name, (unsigned long long)at, args);
    *first = 0;
}

static void write_events(FILE *f, const char *name, const sn_run_stats *s, const sn_run_events *ev,
                         uint64_t end_cycle, const char *stop)
{
    char label[96], args[192];
    int first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 CPU cycle from BOOT\"},"
          "\"traceEvents\":[", f);
    fputs("\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":", f);
    char title[300];
    sn_text_fit(title, sizeof title, "SysNode %s", name);
    sn_json_write_string(f, title);
    fputs("}}", f);
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"runner\"}}",
            RUNNER_TRACK);
    for (uint32_t u = 0; u < s->unit_count; u++)
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%s (%u,%u)\"}}",
                u + 1, cu_name(s->units[u].cu_type), s->units[u].x, s->units[u].y);
    first = 0;

    span(f, &first, RUNNER_TRACK, "boot", 0, ev->probe_start, "boot and table check", "");
    if (ev->first_payload_go > ev->probe_start)
        span(f, &first, RUNNER_TRACK, "boot", ev->probe_start, ev->first_payload_go, "unit probe", "");
    for (uint32_t r = 0; r < ev->round_count; r++) {
        const sn_ev_round *rd = &ev->rounds[r];
        sn_text_fit(label, sizeof label, "round %u", r);
        sn_text_fit(args, sizeof args, "\"round\":%u,\"payloads\":%u,\"completions\":%u", r, rd->payloads,
                 rd->completions);
        span(f, &first, RUNNER_TRACK, "round", rd->start, rd->end, label, args);
        if (rd->end > rd->steps_end)
            span(f, &first, RUNNER_TRACK, "round end", rd->steps_end, rd->end, "round end: drain, settle",
                 args);
    }
    static const char *const OPS[] = {[SN_STEP_SEED] = "seed", [SN_STEP_KICK] = "kick", [SN_STEP_AWAIT] = "await",
                                      [SN_STEP_BARRIER] = "barrier", [SN_STEP_HOST_SYNC] = "host sync"};
    for (uint64_t i = 0; i < ev->step_count; i++) {
        const sn_ev_step *st = &ev->steps[i];
        if (st->op == SN_STEP_SEED || st->op >= sizeof OPS / sizeof OPS[0] || !OPS[st->op])
            continue;
        if (st->op == SN_STEP_BARRIER || st->op == SN_STEP_HOST_SYNC)
            sn_text_fit(label, sizeof label, "%s", OPS[st->op]);
        else
            sn_text_fit(label, sizeof label, "%s (%u,%u) %u", OPS[st->op], st->x, st->y, st->count);
        sn_text_fit(args, sizeof args, "\"round\":%u,\"step\":%u", st->round, st->step);
        span(f, &first, RUNNER_TRACK, "step", st->start, st->end, label, args);
    }
    for (uint64_t i = 0; i < ev->go_count; i++) {
        const sn_ev_go *g = &ev->gos[i];
        sn_text_fit(args, sizeof args, "\"round\":%u,\"step\":%u,\"slot\":%u,\"txn\":%u,\"node\":\"(%u,%u)\"", g->round,
                 g->step, g->slot, g->txn, g->x, g->y);
        instant(f, &first, "go", g->cycle, "GO", args);
    }
    for (uint64_t i = 0; i < s->completion_count; i++) {
        const sn_completion_record *c = &s->completions[i];
        if (ev->completion_go[i] >= 0) {
            const sn_ev_go *g = &ev->gos[ev->completion_go[i]];
            sn_text_fit(args, sizeof args,
                     "\"round\":%u,\"step\":%u,\"slot\":%u,\"txn\":%u,\"node\":\"(%u,%u)\",\"code\":%u", g->round,
                     g->step, g->slot, g->txn, c->x, c->y, c->code);
        } else if (c->code == SN_SIG_BATCH_COMPLETE)
            sn_text_fit(args, sizeof args, "\"round\":%u,\"node\":\"(%u,%u)\",\"code\":%u,\"txn\":%u",
                     ev->completion_round[i], c->x, c->y, c->code, c->arg & 0xFF);
        else
            sn_text_fit(args, sizeof args, "\"round\":%u,\"node\":\"(%u,%u)\",\"code\":%u,\"arg\":%u",
                     ev->completion_round[i], c->x, c->y, c->code, c->arg);
        instant(f, &first, "completion", c->cycle, "completion", args);
    }
    for (uint32_t u = 0; u < s->unit_count; u++) {
        sn_busy_count count = {0, 0};
        for (uint64_t k = 0; k < s->units[u].span_count; k++) {
            const sn_busy_span *b = &s->units[u].spans[k];
            const sn_ev_go *g = &ev->gos[ev->unit_go[u][k]];
            sn_text_fit(label, sizeof label, "round %u slot %u", g->round, g->slot);
            sn_text_fit(args, sizeof args, "\"round\":%u,\"step\":%u,\"slot\":%u,\"txn\":%u,\"cost_model_cycles\":%u,"
                     "\"service_cycles\":%llu,\"arrive\":%llu",
                     g->round, g->step, g->slot, g->txn, b->estimate,
                     (unsigned long long)sn_unit_service_cycles(&s->units[u], k), (unsigned long long)b->arrive);
            /* to the cycle before the completion taps, where the next payload may be
             * accepted, or to that accept when the completion waited to leave */
            uint64_t end = b->end > b->start + 1 ? b->end - 1 : b->start + 1;
            if (k + 1 < s->units[u].span_count && s->units[u].spans[k + 1].start < end)
                end = s->units[u].spans[k + 1].start;
            span(f, &first, u + 1, "busy", b->start, end, label, args);
            /* the unit's CU_COUNTERS busy as its completion leaves */
            sn_busy_count_add(&count, b);
            if (b->end)
                fprintf(f, ",\n{\"ph\":\"C\",\"pid\":1,\"name\":\"busy %s (%u,%u)\",\"ts\":%llu,"
                        "\"args\":{\"CU_COUNTERS busy\":%llu}}",
                        cu_name(s->units[u].cu_type), s->units[u].x, s->units[u].y, (unsigned long long)b->end,
                        (unsigned long long)count.total);
        }
    }
    if (stop) { /* the run did not end in the runner's exit: where and how it stopped */
        fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":%u,\"cat\":\"stop\",\"name\":\"stop\",\"ts\":%llu,"
                   "\"args\":{\"how\":",
                RUNNER_TRACK, (unsigned long long)end_cycle);
        sn_json_write_string(f, stop);
        fputs("}}", f);
    }
    fputs("\n]}\n", f);
}

/* Whether path names an SVG picture rather than trace-event JSON. */
static int is_svg(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".svg") == 0;
}

sn_status sn_timeline_write(const char *path, sn_case *c, const sn_replay_result *res, const char *stop,
                            sn_transport *t, sn_error *e)
{
    sn_program *prog = NULL;
    sn_run_stats stats;
    sn_run_events ev;
    char *text = NULL;
    size_t len = 0;
    memset(&ev, 0, sizeof ev);
    if (!res->cycles)
        return sn_error_set(e, SN_ERR_INPUT, "%s: the run never started (nothing reached the SysNode): no timeline",
                            path);
    if (!t->ops->stats)
        return sn_error_set(e, SN_ERR_INPUT, "%s: this host window keeps no GO or completion log", path);
    sn_status st = t->ops->stats(t->ctx, &stats, e);
    if (st == SN_OK)
        st = sn_case_program(c, &prog, e);
    if (st == SN_OK)
        st = sn_run_events_build(prog, &stats, res->cycles, stop != NULL, &ev, e);
    FILE *f = st == SN_OK ? open_memstream(&text, &len) : NULL;
    if (st == SN_OK && !f)
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the timeline");
    if (f) {
        if (is_svg(path))
            sn_timeline_svg(f, res->name, &stats, &ev, res->cycles, stop);
        else
            write_events(f, res->name, &stats, &ev, res->cycles, stop);
        int failed = ferror(f);
        fclose(f);
        st = failed ? sn_error_set(e, SN_ERR_INTERNAL, "%s: composing the timeline failed", path)
                    : sn_file_write_atomic(path, (const uint8_t *)text, len, e);
    }
    free(text);
    sn_run_events_free(&ev);
    return st;
}
