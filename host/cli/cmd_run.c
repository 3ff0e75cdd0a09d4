/* sysnode run CASE_DIR [--image ELF] [--max-cycles N] [--cu-version 4|5]
 *                      [--trace FILE] [--digest] [--table TABLE.bin]
 *                      [--inject KIND[@ROUND:STEP|@CYCLE]]
 * Replays a case on the simulated SysNode through the host window and prints
 * one verdict line (host/lib/replay.h). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_io.h"
#include "commands.h"
#include "replay.h"

/* Cycle cap well above the runner's own hang detection (8 M cycles without a
 * completion), so the runner reports a hang itself with each node's debt. */
#define DEFAULT_MAX_CYCLES 400000000ull

static const char USAGE[] =
    "usage: sysnode run CASE_DIR [--image ELF] [--max-cycles N] [--cu-version 4|5] [--trace FILE] [--digest]\n"
    "                         [--table TABLE.bin] [--inject KIND[@ROUND:STEP|@CYCLE]]\n";

/* What the run lost or had injected, after its verdict or error. */
static void report_faults(const sn_replay_result *res)
{
    if (res->dropped_gos != 0)
        printf("sysnode run: %u GO%s dropped by the mailbox\n", res->dropped_gos, res->dropped_gos == 1 ? "" : "s");
    if (res->inject[0] != '\0')
        printf("sysnode run: %s\n", res->inject);
}

/* The DRAM-table image the build makes: <bin>/../firmware/runner.elf. */
static int default_image(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0)
        return -1;
    exe[len] = '\0';
    return snprintf(out, n, "%s/../firmware/runner.elf", dirname(exe)) < (int)n ? 0 : -1;
}

static int parse_u64(const char *flag, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10); /* decimal: "010" is ten */
    if (!*text || *end || text[0] == '-' || v < min || v > max) {
        fprintf(stderr, "sysnode run: %s wants a number in %llu..%llu, got '%s'\n", flag,
                (unsigned long long)min, (unsigned long long)max, text);
        return -1;
    }
    *out = v;
    return 0;
}

int sn_cmd_run(int argc, char **argv)
{
    sn_replay_opts opts = {0};
    char image[PATH_MAX];
    const char *trace = NULL, *inject = NULL;
    uint64_t cu_version = 0;
    opts.max_cycles = DEFAULT_MAX_CYCLES;
    for (int i = 1; i < argc; i++) {
        int has_value = i + 1 < argc;
        if (!strcmp(argv[i], "--image") && has_value) {
            opts.image = argv[++i];
        } else if (!strcmp(argv[i], "--digest")) {
            opts.digest = 1;
        } else if (!strcmp(argv[i], "--table") && has_value) {
            opts.table = argv[++i];
        } else if (!strcmp(argv[i], "--inject") && has_value && !inject) {
            inject = argv[++i];
        } else if (!strcmp(argv[i], "--trace") && has_value) {
            trace = argv[++i];
        } else if (!strcmp(argv[i], "--max-cycles") && has_value) {
            if (parse_u64("--max-cycles", argv[++i], 1, UINT64_MAX / 2, &opts.max_cycles) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--cu-version") && has_value) {
            if (parse_u64("--cu-version", argv[++i], 4, 5, &cu_version) != 0)
                return 2;
        } else if (argv[i][0] != '-' && !opts.case_dir) {
            opts.case_dir = argv[i];
        } else {
            fputs(USAGE, stderr);
            return 2;
        }
    }
    if (!opts.case_dir) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (!opts.image) {
        if (default_image(image, sizeof image) != 0) {
            fprintf(stderr, "sysnode run: cannot locate the runner image; pass --image\n");
            return 1;
        }
        opts.image = image;
    }

    sn_error err = {0};
    sn_transport t = {0};
    const char *inputs[] = {opts.case_dir, opts.image, opts.table};
    if (trace && sn_cli_refuse_output_over_inputs(trace, inputs, 3, &err) != SN_OK)
        return sn_cli_error("run", err.msg);
    sn_status st = sn_transport_sim_open(&t, (unsigned)cu_version, &err);
    if (st == SN_OK && inject && sn_transport_sim_inject(&t, inject, &err) != SN_OK) {
        sn_transport_close(&t);
        fprintf(stderr, "sysnode run: %s\n%s", err.msg, USAGE);
        return 2;
    }
    if (st == SN_OK && trace) {
        sn_transport inner = t;
        /* On failure t is left as it was: closed once, below. */
        st = sn_transport_record_open(&t, inner, trace, &err);
    }
    sn_replay_result res;
    memset(&res, 0, sizeof res);
    if (st == SN_OK)
        st = sn_replay_case(&opts, &t, &res, &err);
    sn_error trace_err = {0};
    sn_status trace_st = t.ops ? sn_transport_record_commit(&t, &trace_err) : SN_OK;
    sn_transport_close(&t);
    if (st != SN_OK && st != SN_ERR_MISMATCH) {
        sn_cli_error("run", err.msg);
        report_faults(&res);
        if (trace_st != SN_OK)
            sn_cli_error("run", trace_err.msg);
        return 1;
    }
    if (trace_st != SN_OK) /* a verdict with a lost trace is no success */
        return sn_cli_error("run", trace_err.msg);
    if (res.all_unchanged) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes: NO VERDICT: %s\n",
               res.name, res.rounds, res.rounds == 1 ? "" : "s", res.flits, res.completions,
               (unsigned long long)res.cycles, (unsigned long long)res.output_bytes, err.msg);
        report_faults(&res);
        return 1;
    }
    if (st == SN_ERR_MISMATCH && res.digest_checked && res.digest_got != res.digest_want) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles: RESULT DIGEST MISMATCH: %s\n", res.name,
               res.rounds, res.rounds == 1 ? "" : "s", res.flits, res.completions, (unsigned long long)res.cycles,
               err.msg);
        report_faults(&res);
        return 1;
    }
    printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes (%llu as before the run): ",
           res.name, res.rounds, res.rounds == 1 ? "" : "s", res.flits, res.completions,
           (unsigned long long)res.cycles, (unsigned long long)res.output_bytes,
           (unsigned long long)res.unchanged_bytes);
    if (res.match && res.digest_checked)
        printf("match (the runner's own read-back: CRC-32 0x%08x)\n", res.digest_got);
    else if (res.match)
        printf("match\n");
    else
        printf("MISMATCH at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n", res.diff_file,
               (unsigned long long)res.diff_offset, (unsigned long long)res.diff_addr, res.got, res.want);
    report_faults(&res);
    return res.match ? 0 : 1;
}
