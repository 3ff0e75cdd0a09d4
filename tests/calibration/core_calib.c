/* core_calib: runs the core-timing programs (tests/calibration/programs,
 * README.md) on the hart at each DRAM latency L their expected.tsv rows give
 * and compares with the figures measured on the card's core (core-timing §0,
 * "Whole-run counters": HR_CYCLES and HR_RETIRED as KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/rv64_syscore.v@1a77e97e counts them).
 *
 *   core_calib [--erratum NAME]... EXPECTED.tsv ELF_DIR NAME...
 *       checks every row of each program NAME (ELF_DIR/NAME.elf); prints one
 *       line per row and, for each value out of bounds, measured against
 *       expected; exits 1 if any is, 2 on bad input or a run that does not
 *       reach EXIT. Every run must report (sn_hart_errata) exactly the
 *       errata given as --erratum NAME (WFI_NO_WAIT, L1_BUSY_POLL,
 *       SV39_STALE_XLATE, CSR_TRAP_TWICE): those the core shows there.
 *   core_calib --all EXPECTED.tsv ELF_DIR
 *       every row of the file as a table: bench, L, then expected, got and
 *       error % for cycles, instret, c1 and c2 (probes: the worst of their
 *       seven values in the c1 and c2 columns), the verdict (errata not
 *       checked) and the errata the hart reported; same exit codes.
 *
 * The image goes in as the card's host window loads it (bytes below 0x1_0000
 * to IMEM, from 0x1_0000 to SPAD: common/elf_image.h). The bus is the least
 * the programs use: console capture at R_CONSOLE, EXIT, DCACHE forwarded to
 * the hart, R_DBELL and mailbox STAT reading 0, stores to the read-only
 * R_SATP dropped; no mesh (interrupt lines low); any other control access
 * stops the run as an error naming its offset.
 *
 * Bounds: cycles, instret, c1, c2, i1 and i2 within ±2% (issue 18 item 5);
 * rep, n1 and n2 exact (they are the program's constants). A probe's seven
 * values are exact where they are functional (busy bits, mstatus, addresses,
 * loaded words, counter reads the counter rules fix) and ±2% where they are
 * cycle counts, as each probe's header describes them (probe_kinds). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_image.h"
#include "hart.h"
#include "hart_window.h"
#include "sysnode/regs.h"

#define DRAM_SIZE (16u << 20) /* T-LDD's DRAM region (sysnode-facts §1.6); the programs use < 4 MiB */
#define CYCLE_LIMIT 20000000u /* H-2P2's default limit (sysnode-facts §1.3); the longest row takes 634 K */
#define CONSOLE_MAX 512
#define VALUES 7 /* rep n1 c1 i1 n2 c2 i2, or a probe's s0-s3, s6-s8 */

enum { EXIT_OUT_OF_BOUNDS = 1, EXIT_BAD = 2 };

/* One row of expected.tsv. */
typedef struct row {
    char bench[64];
    unsigned latency;
    uint64_t cycles, instret;
    uint64_t v[VALUES];
} row;

/* How a value is checked: 'x' exact, 'c' within ±2%. */
static const char timing_kinds[VALUES + 1] = "xxccxcc";

/* Each probe's seven values, from its header (programs/probe_*.S). */
static const struct {
    const char *bench;
    const char *kinds;
} probe_kinds[] = {
    /* s0 = cycle at the start, s1-s3 loop times; s6-s8 = 0 */
    {"probe_bp_init", "ccccxxx"},
    /* s0, s1, s2, s3, s6, s8 follow the counter rules (core-timing §11); s7 = time - mcycle, a span of cycles */
    {"probe_counters", "xxxxxcx"},
    /* handler entries, mstatus, mepc, an address */
    {"probe_irq_csr", "xxxxxxx"},
    /* flush times */
    {"probe_l1_flush", "ccccccc"},
    /* s0, s1 cycle counters; the rest 0 */
    {"probe_l1_reset", "ccxxxxx"},
    /* loaded words */
    {"probe_sv39_b2b", "xxxxxxx"},
    {"probe_sv39_st2", "xxxxxxx"},
};

static const char *const value_names[VALUES] = {"rep", "n1", "c1", "i1", "n2", "c2", "i2"};
static const char *const probe_value_names[VALUES] = {"s0", "s1", "s2", "s3", "s6", "s7", "s8"};

static const char *const erratum_names[SN_ERRATUM_COUNT] = {
    [SN_ERRATUM_WFI_NO_WAIT] = "WFI_NO_WAIT",
    [SN_ERRATUM_L1_BUSY_POLL] = "L1_BUSY_POLL",
    [SN_ERRATUM_SV39_STALE_XLATE] = "SV39_STALE_XLATE",
    [SN_ERRATUM_CSR_TRAP_TWICE] = "CSR_TRAP_TWICE",
};

static void complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("core_calib: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const char *kinds_of(const char *bench)
{
    if (strncmp(bench, "probe_", 6) != 0)
        return timing_kinds;
    for (size_t i = 0; i < sizeof probe_kinds / sizeof probe_kinds[0]; i++)
        if (strcmp(probe_kinds[i].bench, bench) == 0)
            return probe_kinds[i].kinds;
    return NULL;
}

/* ---- expected.tsv ---- */

typedef struct table {
    row *rows;
    size_t n;
} table;

/* Reads the file's rows (the header line first, then one row per bench and
 * latency; 13 tab-separated columns). Returns 0, or -1 naming the file and
 * line that does not parse. */
static int read_table(const char *path, table *t)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        complain("cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    unsigned lineno = 0;
    int rc = 0;
    memset(t, 0, sizeof *t);
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "bench\tlatency\tcycles\tinstret\t", 29) != 0) {
                complain("%s: line 1 is not the header (bench, latency, cycles, instret, ...)", path);
                rc = -1;
                break;
            }
            continue;
        }
        row r;
        memset(&r, 0, sizeof r);
        char per_iter[2][32];
        int got = sscanf(line,
                         "%63s %u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                         " %" SCNu64 " %" SCNu64 " %31s %31s",
                         r.bench, &r.latency, &r.cycles, &r.instret, &r.v[0], &r.v[1], &r.v[2], &r.v[3], &r.v[4],
                         &r.v[5], &r.v[6], per_iter[0], per_iter[1]);
        if (got != 13) {
            complain("%s: line %u: not 13 columns of bench, latency and 11 counts", path, lineno);
            rc = -1;
            break;
        }
        row *grown = realloc(t->rows, (t->n + 1) * sizeof *grown);
        if (grown == NULL) {
            complain("out of memory");
            rc = -1;
            break;
        }
        t->rows = grown;
        t->rows[t->n++] = r;
    }
    if (rc == 0 && ferror(f)) {
        complain("reading %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && t->n == 0) {
        complain("%s: no rows", path);
        rc = -1;
    }
    fclose(f);
    return rc;
}

/* ---- the bus ---- */

typedef struct bus {
    sn_hart *h;
    char console[CONSOLE_MAX];
    size_t console_len;
    bool console_overflow;
} bus;

/* R_DBELL and R_SATP, not named in regs.h (sysnode-facts §1.7) */
#define CTRL_DBELL 0x10
#define CTRL_SATP 0x18

static uint64_t bus_read(void *ctx, uint32_t offset)
{
    bus *b = ctx;
    switch (offset) {
    case SN_CTRL_DCACHE:
        return sn_hart_dcache_read(b->h);
    case CTRL_DBELL: /* no host doorbell */
    case SN_MBOX_STAT: /* no mesh: nothing queued, nothing offered */
        return 0;
    default: {
        char why[112];
        snprintf(why, sizeof why,
                 "read at control offset 0x%" PRIx32 ": the calibration bus serves only DBELL, STAT and DCACHE",
                 offset);
        sn_hart_request_stop(b->h, why);
        return 0;
    }
    }
}

static void bus_write(void *ctx, uint32_t offset, uint64_t value)
{
    bus *b = ctx;
    switch (offset) {
    case SN_CTRL_EXIT:
        sn_hart_request_exit(b->h, value);
        return;
    case SN_CTRL_CONSOLE:
        if (b->console_len + 1 < sizeof b->console)
            b->console[b->console_len++] = (char)(value & 0xFF);
        else
            b->console_overflow = true;
        return;
    case SN_CTRL_DCACHE:
        sn_hart_dcache_write(b->h, value);
        return;
    case CTRL_SATP: /* a read-only mirror: the store has no effect */
        return;
    default: {
        char why[112];
        snprintf(why, sizeof why,
                 "write at control offset 0x%" PRIx32 ": the calibration bus serves only EXIT, CONSOLE, SATP and DCACHE",
                 offset);
        sn_hart_request_stop(b->h, why);
    }
    }
}

static void bus_advance(void *ctx, uint64_t cycle)
{
    (void)ctx;
    (void)cycle;
}

/* ---- one run ---- */

typedef struct measured {
    uint64_t cycles, instret;
    uint64_t v[VALUES];
    unsigned errata;
} measured;

/* Runs path at latency L and parses its console line "NAME v0 .. v6" (hex).
 * Returns 0, or -1 naming the image and L when it does not load, does not
 * reach EXIT with code 0 within CYCLE_LIMIT, or prints anything else. */
static int run_one(const char *path, const char *bench, unsigned latency, measured *m)
{
    char err[512];
    sn_elf_image img;
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0) {
        complain("%s: %s", path, err);
        return -1;
    }
    uint8_t *dram = calloc(1, DRAM_SIZE);
    bus b;
    memset(&b, 0, sizeof b);
    sn_hart_bus hb = {&b, bus_read, bus_write, bus_advance, NULL}; /* no mesh: both lines low */
    sn_hart *h = dram != NULL ? sn_hart_create(&hb, dram, DRAM_SIZE, err, sizeof err) : NULL;
    int rc = -1;
    if (h == NULL) {
        complain("%s: %s", path, dram != NULL ? err : "out of memory");
        goto out;
    }
    b.h = h;
    if (sn_elf_image_push(&img, win_imem, win_spad, h, err, sizeof err) != 0) {
        complain("%s: %s", path, err);
        goto out;
    }
    if (sn_hart_set_dram_latency(h, latency) != 0) {
        complain("%s: DRAM latency %u refused by the hart", path, latency);
        goto out;
    }
    if (sn_hart_boot(h, err, sizeof err) != 0) {
        complain("%s: %s", path, err);
        goto out;
    }
    sn_hart_result r = sn_hart_run(h, CYCLE_LIMIT);
    b.console[b.console_len] = '\0';
    switch (r.stop) {
    case SN_HART_EXITED:
        break;
    case SN_HART_HALTED:
        complain("%s at L=%u: core halted, mcause %" PRIu64 " at pc 0x%" PRIx64 " after %" PRIu64
                 " cycles; console: \"%s\"",
                 path, latency, r.mcause, r.pc, r.cycles, b.console);
        goto out;
    case SN_HART_CYCLE_LIMIT:
        complain("%s at L=%u: hang: no EXIT after %" PRIu64 " cycles (pc 0x%" PRIx64 "); console: \"%s\"", path,
                 latency, r.cycles, r.pc, b.console);
        goto out;
    default:
        complain("%s at L=%u: simulation stopped after %" PRIu64 " cycles (pc 0x%" PRIx64 "): %s; console: \"%s\"",
                 path, latency, r.cycles, r.pc, r.message, b.console);
        goto out;
    }
    if (r.exit_code != 0) {
        complain("%s at L=%u: exit code 0x%" PRIx64 ", expected 0", path, latency, r.exit_code);
        goto out;
    }
    if (b.console_overflow) {
        complain("%s at L=%u: console longer than %d bytes: \"%s...\"", path, latency, CONSOLE_MAX - 1, b.console);
        goto out;
    }
    size_t name_len = strlen(bench);
    const char *p = b.console + name_len;
    if (strncmp(b.console, bench, name_len) != 0 || *p != ' ') {
        complain("%s at L=%u: console \"%s\" does not start with \"%s \"", path, latency, b.console, bench);
        goto out;
    }
    for (int i = 0; i < VALUES; i++) {
        char *end;
        if (*p != ' ' || p[1] == ' ' || p[1] == '-' || p[1] == '+') {
            complain("%s at L=%u: console \"%s\": value %d missing", path, latency, b.console, i + 1);
            goto out;
        }
        errno = 0;
        m->v[i] = strtoull(p + 1, &end, 16);
        if (end == p + 1 || errno != 0) {
            complain("%s at L=%u: console \"%s\": value %d is not hex", path, latency, b.console, i + 1);
            goto out;
        }
        p = end;
    }
    if (strcmp(p, "\n") != 0) {
        complain("%s at L=%u: console \"%s\": \"%s\" after the seven values, not one newline", path, latency,
                 b.console, p);
        goto out;
    }
    m->cycles = r.cycles;
    m->instret = r.instret;
    m->errata = sn_hart_errata(h);
    rc = 0;
out:
    sn_hart_destroy(h);
    free(dram);
    sn_elf_image_free(&img);
    return rc;
}

/* ---- comparison ---- */

/* got within ±2% of expected (an expected 0 must be met exactly). */
static bool within(uint64_t got, uint64_t expected)
{
    uint64_t d = got > expected ? got - expected : expected - got;
    return d * 50 <= expected;
}

static double error_pct(uint64_t got, uint64_t expected)
{
    if (expected == 0)
        return got == 0 ? 0.0 : 100.0;
    return 100.0 * ((double)got - (double)expected) / (double)expected;
}

/* The value index of the worst relative error among a row's seven values. */
static int worst(const row *e, const measured *m)
{
    int w = 0;
    double we = -1;
    for (int i = 0; i < VALUES; i++) {
        double x = error_pct(m->v[i], e->v[i]);
        x = x < 0 ? -x : x;
        if (x > we) {
            we = x;
            w = i;
        }
    }
    return w;
}

typedef struct check {
    const char *name;
    uint64_t got, expected;
    bool exact;
} check;

#define NO_ERRATA_CHECK (~0u)

/* Checks m against e, and (unless errata_wanted is NO_ERRATA_CHECK) that
 * the hart reported exactly the errata in errata_wanted; with verbose,
 * prints every value out of bounds. Returns the number out of bounds. */
static int compare(const row *e, const measured *m, const char *kinds, unsigned errata_wanted, bool verbose)
{
    int bad = 0;
    bool probe = kinds != timing_kinds;
    check checks[2 + VALUES] = {{"cycles", m->cycles, e->cycles, false}, {"instret", m->instret, e->instret, false}};
    for (int i = 0; i < VALUES; i++)
        checks[2 + i] = (check){probe ? probe_value_names[i] : value_names[i], m->v[i], e->v[i], kinds[i] == 'x'};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        bool ok = checks[i].exact ? checks[i].got == checks[i].expected : within(checks[i].got, checks[i].expected);
        if (ok)
            continue;
        bad++;
        if (verbose)
            printf("  %s L=%u: %s expected %" PRIu64 " got %" PRIu64 " (%+.2f%%, %s)\n", e->bench, e->latency,
                   checks[i].name, checks[i].expected, checks[i].got, error_pct(checks[i].got, checks[i].expected),
                   checks[i].exact ? "must be exact" : "bound ±2%");
    }
    for (unsigned k = 0; errata_wanted != NO_ERRATA_CHECK && k < SN_ERRATUM_COUNT; k++) {
        bool wanted = errata_wanted >> k & 1, got = m->errata >> k & 1;
        if (wanted == got)
            continue;
        bad++;
        if (verbose)
            printf("  %s L=%u: erratum %s %s (sn_hart_errata 0x%x)\n", e->bench, e->latency, erratum_names[k],
                   wanted ? "not reported by the hart" : "reported, but the core shows it only where --erratum says",
                   m->errata);
    }
    return bad;
}

/* The names of the errata in bits, comma-separated, or "-". */
static const char *errata_list(unsigned bits, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < SN_ERRATUM_COUNT; k++)
        if (bits >> k & 1)
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s", used ? "," : "", erratum_names[k]);
    return used ? buf : "-";
}

static void print_table_header(void)
{
    printf("%-20s %3s | %8s %8s %7s | %8s %8s %7s | %8s %8s %7s | %8s %8s %7s | %-7s %s\n", "bench", "L", "cycles",
           "got", "err%", "instret", "got", "err%", "c1", "got", "err%", "c2", "got", "err%", "verdict", "errata");
}

static void print_table_row(const row *e, const measured *m, const char *kinds, int bad)
{
    int a = 2, b = 5; /* c1, c2 */
    if (kinds != timing_kinds)
        a = b = worst(e, m);
    char errata[96];
    printf("%-20s %3u | %8" PRIu64 " %8" PRIu64 " %+7.2f | %8" PRIu64 " %8" PRIu64 " %+7.2f | %8" PRIu64
           " %8" PRIu64 " %+7.2f | %8" PRIu64 " %8" PRIu64 " %+7.2f | %-7s %s\n",
           e->bench, e->latency, e->cycles, m->cycles, error_pct(m->cycles, e->cycles), e->instret, m->instret,
           error_pct(m->instret, e->instret), e->v[a], m->v[a], error_pct(m->v[a], e->v[a]), e->v[b], m->v[b],
           error_pct(m->v[b], e->v[b]), bad ? "OUT" : "ok", errata_list(m->errata, errata, sizeof errata));
}

static int usage(void)
{
    fputs("usage: core_calib [--erratum NAME]... EXPECTED.tsv ELF_DIR NAME...\n"
          "       core_calib --all EXPECTED.tsv ELF_DIR\n",
          stderr);
    return EXIT_BAD;
}

int main(int argc, char **argv)
{
    bool all = false;
    unsigned errata_wanted = 0;
    static const struct option longopts[] = {
        {"all", no_argument, NULL, 'a'}, {"erratum", required_argument, NULL, 'e'}, {NULL, 0, NULL, 0}};
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "+", longopts, NULL)) != -1;) {
        if (c == 'a') {
            all = true;
        } else if (c == 'e') {
            unsigned k = 0;
            while (k < SN_ERRATUM_COUNT && strcmp(erratum_names[k], optarg) != 0)
                k++;
            if (k == SN_ERRATUM_COUNT) {
                complain("--erratum %s: not one of WFI_NO_WAIT, L1_BUSY_POLL, SV39_STALE_XLATE, CSR_TRAP_TWICE",
                         optarg);
                return EXIT_BAD;
            }
            errata_wanted |= 1u << k;
        } else {
            complain("unknown option or missing value: %s", argv[optind - 1]);
            return usage();
        }
    }
    int i = optind;
    if (argc - i < 2 || (all ? argc - i != 2 : argc - i < 3))
        return usage();
    table t;
    if (read_table(argv[i], &t) != 0)
        return EXIT_BAD;
    const char *dir = argv[i + 1];
    char **names = argv + i + 2;
    int name_count = argc - i - 2;
    int out_of_bounds = 0, failed = 0, checked = 0;
    for (int k = 0; k < name_count; k++) { /* every name asked for has rows, before anything runs */
        size_t j = 0;
        while (j < t.n && strcmp(t.rows[j].bench, names[k]) != 0)
            j++;
        if (j == t.n) {
            complain("%s: no row for %s", argv[i], names[k]);
            free(t.rows);
            return EXIT_BAD;
        }
    }
    if (all)
        print_table_header();
    for (size_t j = 0; j < t.n; j++) {
        const row *e = &t.rows[j];
        bool wanted = all;
        for (int k = 0; k < name_count && !wanted; k++)
            wanted = strcmp(e->bench, names[k]) == 0;
        if (!wanted)
            continue;
        const char *kinds = kinds_of(e->bench);
        if (kinds == NULL) {
            complain("%s: %s is a probe whose values core_calib does not know how to check", argv[i], e->bench);
            failed++;
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.elf", dir, e->bench);
        measured m;
        checked++;
        if (run_one(path, e->bench, e->latency, &m) != 0) {
            failed++;
            continue;
        }
        int bad = compare(e, &m, kinds, all ? NO_ERRATA_CHECK : errata_wanted, !all);
        if (all)
            print_table_row(e, &m, kinds, bad);
        else
            printf("%s L=%u: cycles %" PRIu64 " (expected %" PRIu64 ", %+.2f%%), instret %" PRIu64
                   " (expected %" PRIu64 ", %+.2f%%): %s\n",
                   e->bench, e->latency, m.cycles, e->cycles, error_pct(m.cycles, e->cycles), m.instret, e->instret,
                   error_pct(m.instret, e->instret), bad ? "OUT OF BOUNDS" : "ok");
        out_of_bounds += bad != 0;
    }
    printf("core_calib: %d of %d runs within bounds, %d out of bounds, %d did not run\n",
           checked - out_of_bounds - failed, checked, out_of_bounds, failed);
    free(t.rows);
    return failed ? EXIT_BAD : out_of_bounds ? EXIT_OUT_OF_BOUNDS : 0;
}
