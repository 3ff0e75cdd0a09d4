/* sysnode run CASE_DIR [--image ELF] [--max-cycles N] [--cu-version 4|5]
 *                      [--trace FILE] [--digest] [--table TABLE.bin] [--device sim|xdma:PREFIX]
 *                      [--report FILE.json] [--timeline FILE.json] [--fst FILE.fst [--fst-window FROM:TO]]
 *                      [--gdb PORT]
 * Replays a case on the simulated SysNode (or, with --device, a card) through the host window and prints
 * one verdict line (host/lib/replay.h). */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "replay.h"
#include "sim.h"
#include "output_paths.h"
#include "run_report.h"
#include "timeline.h"

/* Cycle cap well above the runner's own hang detection (8 M cycles without a
 * completion), so the runner reports a hang itself with each node's debt. */
#define DEFAULT_MAX_CYCLES 400000000ull

static const char USAGE[] =
    "usage: sysnode run CASE_DIR [--image ELF] [--max-cycles N] [--cu-version 4|5] [--trace FILE] [--digest]\n"
    "                         [--table TABLE.bin] [--device sim|xdma:PREFIX] [--report FILE.json]\n"
    "                         [--timeline FILE.json] [--fst FILE.fst [--fst-window FROM:TO]] [--gdb PORT]\n";

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
    unsigned long long v = strtoull(text, &end, 0);
    if (!*text || *end || text[0] == '-' || v < min || v > max) {
        fprintf(stderr, "sysnode run: %s wants a number in %llu..%llu, got '%s'\n", flag,
                (unsigned long long)min, (unsigned long long)max, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* --fst-window FROM:TO, mesh cycles from BOOT, FROM < TO. */
static int parse_window(const char *text, uint64_t *from, uint64_t *to)
{
    char *end;
    errno = 0;
    unsigned long long a = strtoull(text, &end, 0), b;
    if (end == text || *end != ':' || text[0] == '-' || end[1] == '-' || errno == ERANGE) {
        fprintf(stderr, "sysnode run: --fst-window wants FROM:TO (mesh cycles from BOOT), got '%s'\n", text);
        return -1;
    }
    const char *rest = end + 1;
    b = strtoull(rest, &end, 0);
    if (end == rest || *end || b <= a || errno == ERANGE) {
        fprintf(stderr, "sysnode run: --fst-window wants FROM:TO with FROM < TO, got '%s'\n", text);
        return -1;
    }
    *from = a;
    *to = b;
    return 0;
}

static volatile sig_atomic_t stop_signal = 0;

/* SIGINT/SIGTERM while dumping or reporting: the simulation stops at its
 * next mesh cycle, and the dump is closed and the report written before
 * exit (sim.h sn_sim_interrupt). */
static void on_sigint(int sig)
{
    stop_signal = sig;
    sn_sim_interrupt();
}

static sn_status fst_open(sn_sim *sim, const char *path, uint64_t from, uint64_t to, sn_error *e)
{
    char why[512];
    if (sn_sim_fst_open(sim, path, from, to, why, sizeof why) != 0)
        return sn_error_set(e, SN_ERR_IO, "--fst: %s", why);
    return SN_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints the verdict line (or the error) and returns the exit code. */
static int print_verdict(sn_status st, const sn_replay_result *res, const sn_error *err)
{
    if (st != SN_OK && st != SN_ERR_MISMATCH) {
        fprintf(stderr, "sysnode run: %s\n", err->msg);
        return 1;
    }
    if (st == SN_ERR_MISMATCH && res->digest_checked && res->digest_got != res->digest_want) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles: RESULT DIGEST MISMATCH: %s\n", res->name,
               res->rounds, res->rounds == 1 ? "" : "s", res->flits, res->completions,
               (unsigned long long)res->cycles, err->msg);
        return 1;
    }
    printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes: ", res->name, res->rounds,
           res->rounds == 1 ? "" : "s", res->flits, res->completions, (unsigned long long)res->cycles,
           (unsigned long long)res->output_bytes);
    if (res->match && res->digest_checked)
        printf("match (the runner's own read-back: CRC-32 0x%08x)\n", res->digest_got);
    else if (res->match)
        printf("match\n");
    else if (res->diff_round >= 0)
        printf("MISMATCH after round %d at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n",
               res->diff_round, res->diff_file, (unsigned long long)res->diff_offset,
               (unsigned long long)res->diff_addr, res->got, res->want);
    else
        printf("MISMATCH at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n", res->diff_file,
               (unsigned long long)res->diff_offset, (unsigned long long)res->diff_addr, res->got, res->want);
    return res->match ? 0 : 1;
}

int sn_cmd_run(int argc, char **argv)
{
    sn_replay_opts opts = {0};
    char image[PATH_MAX];
    const char *trace = NULL;
    const char *device = NULL;
    const char *report = NULL;
    const char *timeline = NULL;
    const char *fst = NULL, *fst_window = NULL;
    uint64_t fst_from = 0, fst_to = UINT64_MAX;
    uint64_t cu_version = 0, gdb_port = 0;
    int gdb = 0;
    opts.max_cycles = DEFAULT_MAX_CYCLES;
    for (int i = 1; i < argc; i++) {
        int has_value = i + 1 < argc;
        if (!strcmp(argv[i], "--image") && has_value) {
            opts.image = argv[++i];
        } else if (!strcmp(argv[i], "--digest")) {
            opts.digest = 1;
        } else if (!strcmp(argv[i], "--table") && has_value) {
            opts.table = argv[++i];
        } else if (!strcmp(argv[i], "--fst") && has_value) {
            fst = argv[++i];
        } else if (!strcmp(argv[i], "--fst-window") && has_value) {
            fst_window = argv[i + 1];
            if (parse_window(argv[++i], &fst_from, &fst_to) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--timeline") && has_value) {
            timeline = argv[++i];
        } else if (!strcmp(argv[i], "--report") && has_value) {
            report = argv[++i];
        } else if (!strcmp(argv[i], "--device") && has_value) {
            device = argv[++i];
        } else if (!strcmp(argv[i], "--trace") && has_value) {
            trace = argv[++i];
        } else if (!strcmp(argv[i], "--max-cycles") && has_value) {
            if (parse_u64("--max-cycles", argv[++i], 1, UINT64_MAX / 2, &opts.max_cycles) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--gdb") && has_value) {
            if (parse_u64("--gdb", argv[++i], 0, 65535, &gdb_port) != 0)
                return 2;
            gdb = 1;
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
    if (fst_window && !fst) {
        fprintf(stderr, "sysnode run: --fst-window %s without --fst: nothing would be dumped\n", fst_window);
        return 2;
    }
    const sn_output_path outputs[] = {{"--report", report}, {"--timeline", timeline}, {"--fst", fst},
                                      {"--trace", trace}};
    const char *inputs[] = {opts.image, opts.table};
    if (sn_output_paths_check(outputs, sizeof outputs / sizeof outputs[0], inputs, 2, &opts.case_dir, 1, &err) !=
        SN_OK) {
        fprintf(stderr, "sysnode run: %s\n", err.msg);
        return 1;
    }
    sn_transport t = {0};
    sn_status st = gdb && device ? sn_error_set(&err, SN_ERR_INPUT, "--gdb serves the in-process simulator; it "
                                                                  "does not combine with --device %s", device)
                   : gdb    ? sn_transport_sim_open_gdb(&t, (unsigned)cu_version, (int)gdb_port, &err)
                   : device ? sn_transport_open_device(&t, device, (unsigned)cu_version, &err)
                            : sn_transport_sim_open(&t, (unsigned)cu_version, &err);
    sn_sim *sim = sn_transport_sim_of(&t);
    if (st == SN_OK && fst && !sim)
        st = sn_error_set(&err, SN_ERR_INPUT, "--fst: %s is a card; only a simulated SysNode has a mesh to dump",
                          device);
    if (st == SN_OK && timeline && !sim) /* before the run: nothing reaches the card */
        st = sn_error_set(&err, SN_ERR_INPUT, "--timeline: %s is a card; it keeps no logs of GOs, completions and "
                          "unit spans, only a simulated SysNode has them", device);
    if (st == SN_OK && sim && (fst || report)) { /* the dump is closed and the report written on a stop */
        /* Before the dump's files appear, so a signal never finds them without the handler; no SA_RESTART:
         * a wait for a GDB client (accept) ends on the signal too. */
        struct sigaction sa = {.sa_handler = on_sigint};
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    if (st == SN_OK && fst)
        st = fst_open(sim, fst, fst_from, fst_to, &err);
    if (st == SN_OK && trace) {
        sn_transport inner = t;
        /* On failure t is left as it was: closed once, below. */
        st = sn_transport_record_open(&t, inner, trace, &err);
    }
    sn_replay_result res;
    memset(&res, 0, sizeof res);
    double start = now_seconds();
    if (st == SN_OK)
        st = sn_replay_case(&opts, &t, &res, &err);
    double wall = now_seconds() - start;
    int rc = print_verdict(st, &res, &err);
    char why[512];
    if (fst && sim && sn_sim_fst_close(sim, why, sizeof why) != 0) {
        fprintf(stderr, "sysnode run: --fst: %s\n", why);
        rc = 1;
    } else if (fst && res.cycles && fst_from >= res.cycles) { /* the mesh keeps in step with the CPU's cycles */
        fprintf(stderr, "sysnode run: --fst: the run ended at cycle %llu, before the window %s: %s holds no cycle\n",
                (unsigned long long)res.cycles, fst_window, fst);
    }
    if (stop_signal)
        rc = 128 + stop_signal; /* the status the report records is the one the process exits with */
    sn_error out_err = {0};
    if (report) {
        int card = device && strcmp(device, "sim") != 0;
        sn_report_run run = {device ? device : "in-process", card ? 0u : cu_version ? (unsigned)cu_version : 4u, st,
                             st == SN_OK ? "" : err.msg, rc, wall};
        if (sn_report_write(report, &opts, &res, &run, &t, &out_err) != SN_OK) {
            fprintf(stderr, "sysnode run: --report: %s\n", out_err.msg);
            rc = 1;
        }
    }
    if (timeline && (st == SN_OK || st == SN_ERR_MISMATCH) &&
        sn_timeline_write(timeline, opts.case_dir, &res, &t, &out_err) != SN_OK) {
        fprintf(stderr, "sysnode run: --timeline: %s\n", out_err.msg);
        rc = 1;
    }
    sn_transport_close(&t);
    return stop_signal ? 128 + (int)stop_signal : rc;
}
