/* See run_report.h. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "run_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "err_text.h"
#include "file_out.h"
#include "json_out.h"
#include "mismatch.h"
#include "run_events.h"
#include "sysnode/mesh.h"
#include "sysnode/table.h"
#include "unit_busy.h"

static const char *cu_name(unsigned cu_type)
{
    return cu_type == SN_CU_TYPE_MG ? "MG" : cu_type == SN_CU_TYPE_VC ? "VC" : "?";
}

static const char *verdict(const sn_report_run *run, const sn_replay_result *res)
{
    if (run->status == SN_OK)
        return "match";
    if (run->status == SN_ERR_MISMATCH)
        return res->digest_checked && res->digest_got != res->digest_want ? "digest mismatch" : "mismatch";
    return "error";
}

/* What the three counts are: why busy and the cost model differ, and which
 * feed busy reflects (docs/DESIGN.md §6, "Busy cycles and the feed"). */
static const char UNIT_NOTE[] =
    "busy_cycles counts as CU_COUNTERS does: every cycle a payload is queued, executing or its completion not yet "
    "handed out; service_cycles sums each payload's completion minus the later of its arrival and the previous "
    "completion; both follow the units' timing (kernel words and their waits, memory-node service, sweeps), while "
    "the cost model prices compute alone. Both are this run's, for its payloads as they arrived (first_arrival to "
    "last_arrival): the memory node serves the units' reads in the order they reach it, so where two units read at "
    "once the figures follow the feed; unit-timing §8's RTL figures are for GOs 26 cycles apart, faster than the "
    "card's core sends";

static void write_nodes(FILE *f, const sn_program *p, const sn_run_stats *s)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    sn_table t = sn_program_table(p);
    fputs("  \"nodes\": [", f);
    for (unsigned i = 0; i < mesh.unit_count; i++) {
        const sn_mesh_unit *u = &mesh.units[i];
        uint64_t payloads = 0, completions = 0;
        for (uint32_t k = 0; k < t.step_count; k++)
            if (t.steps[k].op == SN_STEP_KICK && t.steps[k].x == u->x && t.steps[k].y == u->y)
                payloads += t.steps[k].kick.flits;
        fprintf(f, "%s\n    {\"x\": %u, \"y\": %u, \"cu_type\": \"%s\", \"payloads\": %llu, \"completions\": ",
                i ? "," : "", u->x, u->y, cu_name(u->cu_type), (unsigned long long)payloads);
        if (s) {
            for (uint64_t c = 0; c < s->completion_count; c++)
                completions += s->completions[c].x == u->x && s->completions[c].y == u->y;
            fprintf(f, "%llu}", (unsigned long long)completions);
        } else {
            fputs("null}", f);
        }
    }
    fputs("\n  ],\n", f);
}

static void write_measured(FILE *f, const sn_run_stats *s, const sn_run_events *ev)
{
    fprintf(f, "  \"boot_cycles\": %llu,\n", (unsigned long long)ev->first_payload_go);
    fprintf(f, "  \"mmio\": {\"reads\": %llu, \"writes\": %llu},\n", (unsigned long long)s->mmio_reads,
            (unsigned long long)s->mmio_writes);
    fputs("  \"round_cycles\": [", f);
    for (uint32_t r = 0; r < ev->round_count; r++) {
        const sn_ev_round *rd = &ev->rounds[r];
        fprintf(f, "%s\n    {\"round\": %u, \"payloads\": %u, \"completions\": %u, \"start\": %llu, \"cycles\": %llu}",
                r ? "," : "", r, rd->payloads, rd->completions, (unsigned long long)rd->start,
                (unsigned long long)(rd->end - rd->start));
    }
    fputs("\n  ],\n  \"units\": [", f);
    for (uint32_t u = 0; u < s->unit_count; u++) {
        const sn_unit_busy *b = &s->units[u];
        uint64_t busy = sn_unit_busy_cycles(b), service = 0, estimate = 0;
        uint64_t first = b->span_count ? b->spans[0].arrive : 0;
        uint64_t last = b->span_count ? b->spans[b->span_count - 1].arrive : 0;
        for (uint64_t i = 0; i < b->span_count; i++) {
            service += sn_unit_service_cycles(b, i);
            estimate += b->spans[i].estimate;
        }
        fprintf(f,
                "%s\n    {\"x\": %u, \"y\": %u, \"cu_type\": \"%s\", \"payloads\": %llu, \"busy_cycles\": %llu, "
                "\"service_cycles\": %llu, \"cost_model_cycles\": %llu, \"difference\": %lld, "
                "\"first_arrival\": %llu, \"last_arrival\": %llu, \"note\": ",
                u ? "," : "", b->x, b->y, cu_name(b->cu_type), (unsigned long long)b->span_count,
                (unsigned long long)busy, (unsigned long long)service, (unsigned long long)estimate,
                (long long)(busy - estimate), (unsigned long long)first, (unsigned long long)last);
        sn_json_write_string(f, UNIT_NOTE);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

sn_status sn_report_write(const char *path, const sn_replay_opts *opts, sn_case *c, const sn_replay_result *res,
                          const sn_report_run *run, sn_transport *t, sn_error *e)
{
    sn_program *prog;
    sn_run_stats stats;
    sn_run_events ev;
    sn_error ignored = {0};
    char *text = NULL;
    size_t len = 0;
    memset(&ev, 0, sizeof ev);
    /* A case that does not load still gets its report (the message says why), its program's fields null. */
    int loaded = sn_case_program(c, &prog, &ignored) == SN_OK;
    /* measured fields for a run that ran on a window that counts, as far as it went */
    int stopped = run->status != SN_OK && (run->status != SN_ERR_MISMATCH || res->diff_round >= 0); /* a host
                                                                   step's mismatch stops the run at its sync point */
    int measured = loaded && res->cycles && t->ops && t->ops->stats && t->ops->stats(t->ctx, &stats, &ignored) == SN_OK &&
                   sn_run_events_build(prog, &stats, res->cycles, stopped, &ev, &ignored) == SN_OK;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        sn_run_events_free(&ev);
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the report");
    }
    fputs("{\n  \"schema\": \"sysnode-run-report/1\",\n  \"case\": ", f);
    sn_json_write_string(f, res->name[0] ? res->name : opts->case_dir);
    fputs(",\n  \"case_dir\": ", f);
    sn_json_write_string(f, opts->case_dir);
    fputs(",\n  \"image\": ", f);
    sn_json_write_string(f, opts->image);
    fputs(",\n  \"device\": ", f);
    sn_json_write_string(f, run->device);
    if (run->cu_version)
        fprintf(f, ",\n  \"cu_version\": %u", run->cu_version);
    else
        fputs(",\n  \"cu_version\": null", f);
    fprintf(f, ",\n  \"verdict\": \"%s\",\n  \"exit_code\": %d,\n  \"message\": ", verdict(run, res), run->exit_code);
    sn_json_write_string(f, run->message);
    if (loaded)
        fprintf(f, ",\n  \"rounds\": %zu", prog->round_count);
    else
        fputs(",\n  \"rounds\": null", f);
    fprintf(f, ",\n  \"payloads\": %u,\n  \"completions\": %u,\n  \"cycles\": %llu,\n"
               "  \"instret\": %llu,\n  \"output_bytes\": %llu,\n  \"wall_seconds\": %.6f,\n",
            res->flits, res->completions, (unsigned long long)res->cycles,
            (unsigned long long)res->instret, (unsigned long long)res->output_bytes, run->wall_seconds);
    fputs("  \"errata\": [", f);
    for (const char *p = res->errata, *sep = ""; *p; sep = ", ") {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[sizeof res->errata];
        sn_text_fit(line, sizeof line, "%.*s", (int)n, p);
        fputs(sep, f);
        sn_json_write_string(f, line);
        p += n + (nl != NULL);
    }
    fputs("],\n", f);
    fputs("  \"mismatch\": ", f);
    if (res->mismatch.diff_bytes)
        sn_mismatch_write_json(f, &res->mismatch);
    else
        fputs("null", f);
    fputs(",\n", f);
    if (loaded)
        write_nodes(f, prog, measured ? &stats : NULL);
    else
        fputs("  \"nodes\": null,\n", f);
    if (measured) {
        fprintf(f, "  \"sim_wall_seconds\": %.6f,\n", stats.wait_seconds);
        write_measured(f, &stats, &ev);
    } else {
        fputs("  \"sim_wall_seconds\": null,\n  \"boot_cycles\": null,\n  \"mmio\": null,\n"
              "  \"round_cycles\": null,\n  \"units\": null,\n", f);
    }
    fputs("  \"cycle_unit\": \"CPU cycles from BOOT\"\n}\n", f);
    int failed = ferror(f);
    fclose(f);
    sn_run_events_free(&ev);
    sn_status st = failed ? sn_error_set(e, SN_ERR_INTERNAL, "%s: composing the report failed", path)
                : sn_file_write_atomic(path, (const uint8_t *)text, len, e);
    free(text);
    return st;
}
