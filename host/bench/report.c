/* The benchmark's table and JSON (see report.h). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "file_out.h"
#include "json_out.h"

static double ratio(double a, double b)
{
    return a >= 0 && b > 0 ? a / b : -1;
}

/* A figure, or "-" where it does not apply. */
static void cell(FILE *out, int width, int decimals, double v)
{
    if (v < 0)
        fprintf(out, " %*s", width, "-");
    else
        fprintf(out, " %*.*f", width, decimals, v);
}

void sn_bench_print_table(FILE *out, const sn_bench_row *rows, size_t n, unsigned cu_version,
                          const sn_bench_images *images)
{
    fprintf(out, "sysnode-bench: CU_VERSION %u, runner %s, floor %s, send-and-wait %s\n", cu_version, images->runner,
            images->floor, images->sendwait);
    fprintf(out, "%-20s %6s %8s %10s %10s %8s %7s %7s %8s %7s %8s %7s %10s %7s %7s %9s %9s\n", "case", "rounds",
            "payloads", "cycles", "boot>GO", "cyc/pl", "mmio/pl", "mmio/pl", "floor", "run/", "sendwait", "run/",
            "busiest", "run/", "wall", "Mcycles", "Minsns");
    fprintf(out, "%-20s %6s %8s %10s %10s %8s %7s %7s %8s %7s %8s %7s %10s %7s %7s %9s %9s\n", "", "", "", "", "",
            "steady", "steady", "run", "cyc/pl", "floor", "cyc/pl", "sendw", "unit busy", "busiest", "s", "/wall s",
            "/wall s");
    for (size_t i = 0; i < n; i++) {
        const sn_bench_row *r = &rows[i];
        if (r->status != SN_OK) {
            fprintf(out, "%-20s FAILED (below)\n", r->c.name[0] ? r->c.name : r->dir);
            continue;
        }
        const sn_bench_figures *f = &r->runner;
        fprintf(out, "%-20s %6u %8llu %10llu %10llu", r->c.name, r->c.rounds, (unsigned long long)r->c.payloads,
                (unsigned long long)f->cycles, (unsigned long long)f->boot_to_first_go);
        cell(out, 8, 1, f->steady_cycles_per_payload);
        cell(out, 7, 2, f->steady_mmio_per_payload);
        cell(out, 7, 2, f->run_mmio_per_payload);
        cell(out, 8, 1, r->floor.steady_cycles_per_payload);
        cell(out, 7, 2, ratio(f->steady_cycles_per_payload, r->floor.steady_cycles_per_payload));
        cell(out, 8, 1, r->sendwait.steady_cycles_per_payload);
        cell(out, 7, 2, ratio(f->steady_cycles_per_payload, r->sendwait.steady_cycles_per_payload));
        cell(out, 10, 0, f->busiest_unit_busy ? (double)f->busiest_unit_busy : -1);
        cell(out, 7, 2, ratio((double)f->cycles, (double)f->busiest_unit_busy));
        cell(out, 7, 2, r->runner.wall_seconds + r->floor.wall_seconds + r->sendwait.wall_seconds);
        cell(out, 9, 2, f->sim_cycles_per_second / 1e6);
        cell(out, 9, 2, f->sim_instructions_per_second / 1e6);
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++)
        if (rows[i].status != SN_OK)
            fprintf(out, "sysnode-bench: %s\n", rows[i].error);
}

static void json_number(FILE *o, const char *key, double v, const char *sep)
{
    if (v < 0)
        fprintf(o, "\"%s\": null%s", key, sep);
    else
        fprintf(o, "\"%s\": %.6g%s", key, v, sep);
}

static void json_figures(FILE *o, const char *key, const char *image, const sn_bench_figures *f, const char *sep)
{
    fprintf(o, "      \"%s\": {\"image\": ", key);
    sn_json_write_string(o, image);
    fprintf(o, ", \"output\": \"match\", \"cycles\": %llu, \"payload_gos\": %llu, \"boot_to_first_go\": %llu, "
               "\"steady_rounds\": %u, ",
            (unsigned long long)f->cycles, (unsigned long long)f->payload_gos,
            (unsigned long long)f->boot_to_first_go, f->steady_rounds);
    json_number(o, "steady_cycles_per_payload", f->steady_cycles_per_payload, ", ");
    json_number(o, "steady_mmio_per_payload", f->steady_mmio_per_payload, ", ");
    json_number(o, "run_mmio_per_payload", f->run_mmio_per_payload, ", ");
    fprintf(o, "\"mmio_reads\": %llu, \"mmio_writes\": %llu, \"busiest_unit_busy_cycles\": %llu, ",
            (unsigned long long)f->mmio_reads, (unsigned long long)f->mmio_writes,
            (unsigned long long)f->busiest_unit_busy);
    json_number(o, "run_over_busiest_unit", ratio((double)f->cycles, (double)f->busiest_unit_busy), ", ");
    json_number(o, "wall_seconds", f->wall_seconds, ", ");
    json_number(o, "sim_cycles_per_wall_second", f->sim_cycles_per_second, ", ");
    json_number(o, "sim_instructions_per_wall_second", f->sim_instructions_per_second, "}");
    fprintf(o, "%s\n", sep);
}

sn_status sn_bench_write_json(const char *path, const sn_bench_row *rows, size_t n, unsigned cu_version,
                              const sn_bench_images *images, sn_error *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    if (!o)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    fprintf(o, "{\n  \"cu_version\": %u,\n  \"cases\": [\n", cu_version);
    for (size_t i = 0; i < n; i++) {
        const sn_bench_row *r = &rows[i];
        fprintf(o, "    {\n      \"case\": ");
        sn_json_write_string(o, r->c.name[0] ? r->c.name : r->dir);
        fprintf(o, ",\n      \"dir\": ");
        sn_json_write_string(o, r->dir);
        if (r->status != SN_OK) {
            fprintf(o, ",\n      \"error\": ");
            sn_json_write_string(o, r->error);
            fprintf(o, "\n    }%s\n", i + 1 < n ? "," : "");
            continue;
        }
        fprintf(o, ",\n      \"rounds\": %u,\n      \"payloads\": %llu,\n", r->c.rounds,
                (unsigned long long)r->c.payloads);
        json_figures(o, "runner", images->runner, &r->runner, ",");
        json_figures(o, "floor", images->floor, &r->floor, ",");
        json_figures(o, "sendwait", images->sendwait, &r->sendwait, ",");
        fprintf(o, "      ");
        json_number(o, "runner_over_floor",
                    ratio(r->runner.steady_cycles_per_payload, r->floor.steady_cycles_per_payload), ",\n      ");
        json_number(o, "runner_over_sendwait",
                    ratio(r->runner.steady_cycles_per_payload, r->sendwait.steady_cycles_per_payload), "\n");
        fprintf(o, "    }%s\n", i + 1 < n ? "," : "");
    }
    fprintf(o, "  ]\n}\n");
    if (fclose(o) != 0) {
        free(text);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    }
    sn_status st = sn_file_write_atomic(path, (const uint8_t *)text, len, e);
    free(text);
    return st;
}
