/* sysnode run CASE_DIR... [OPTION]... (the options: common/options.c)
 * Replays each case on a simulated SysNode of its own (or, with --device,
 * one case on a card; with --gdb, one case under GDB) through the host window (host/session/replay.h) and prints
 * one verdict line per case, in the order given, plus a summary line when
 * there is more than one; --jobs runs that many cases at a time, one thread
 * and one simulator each. While a replay runs longer than a second and
 * stderr is a terminal, a progress line there shows rounds done and
 * simulated cycles. A mismatch lists the first --diff N differing elements
 * of each region (mismatch.h). After each verdict come any dropped GOs and
 * what --inject did (sim/harness/inject.h); --save-output keeps what the
 * program left in each expected region. Every output is written by the output
 * rule (host/inputs/file_out.h); the trace only when the run reached its wait. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_io.h"
#include "clock.h"
#include "commands.h"
#include "device_check.h"
#include "device_open.h"
#include "signal_catch.h"
#include "replay.h"
#include "file_out.h"
#include "output_check.h"
#include "image_path.h"
#include "manifest.h"
#include "mismatch.h"
#include "options.h"
#include "run_report.h"
#include "timeline.h"
#include "transport_sim.h"

/* A replay shows progress once it has run this long (wall seconds). */
#define PROGRESS_AFTER_SECONDS 1.0

/* A unit read of bytes nothing wrote (device.h), when not --strict. */
static void warn_read(void *ctx, const char *msg)
{
    fprintf(stderr, "sysnode run: %s: warning: %s\n", (const char *)ctx, msg);
}

typedef struct {
    const char *dir;
    sn_case cs;          /* the case, read once (case.h): opened before the output check for one case,
                            by the replay otherwise */
    int cs_open;
    sn_transport t;      /* open after the replay for one case (report, timeline, FST), else closed */
    sn_replay_result res;
    sn_status status;
    sn_error err;
    double started;      /* wall seconds (CLOCK_MONOTONIC) when the replay began */
    double wall;         /* seconds the replay took */
    int progress_shown;  /* a progress line is on the terminal */
    int done;
} case_run;

typedef struct {
    sn_replay_opts opts; /* case_dir set per case */
    unsigned cu_version;
    int lockstep;
    uint64_t dram_latency; /* --dram-latency: the CPU's L (sn_sim_config) */
    const char *trace, *device, *report, *timeline, *fst, *fst_window;
    const char *save_output; /* --save-output DIR */
    int made_save_dir;       /* DIR was made by this run: removed again if nothing was saved in it */
    char **save_paths;       /* ... DIR/<file> for each expected output of the case */
    size_t nsave;
    const char *inject;  /* --inject KIND[@...] (sim/harness/inject.h), or NULL */
    uint64_t fst_from, fst_to;
    int gdb;           /* serve GDB on gdb_port (sim/gdb) */
    uint64_t gdb_port;
    int progress; /* stderr is a terminal */
    case_run *cases;
    size_t ncases, next;
    pthread_mutex_t lock; /* next, done flags, the terminal */
    pthread_cond_t finished;
} run_plan;

typedef struct {
    run_plan *plan;
    case_run *c;
} progress_ctx;

/* What the run lost or had injected, after its verdict or error. */
static void report_faults(const sn_replay_result *res)
{
    if (res->dropped_gos != 0)
        printf("sysnode run: %u GO%s dropped by the mailbox\n", res->dropped_gos, res->dropped_gos == 1 ? "" : "s");
    if (res->inject[0] != '\0')
        printf("sysnode run: %s\n", res->inject);
    if (res->errata[0] != '\0')
        fflush(stdout); /* the warnings follow the verdict in a merged stream too */
    for (const char *p = res->errata; *p;) { /* a warning each: firmware must be written around them */
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(stderr, "sysnode run: warning: the core's erratum reproduced: %.*s\n", n, p);
        p += n + (nl != NULL);
    }
}

static volatile sig_atomic_t stop_signal = 0;

/* SIGINT/SIGTERM while dumping or reporting: the simulation stops at its
 * next mesh cycle, and the dump is closed and the report written before
 * exit (transport_sim.h sn_transport_sim_interrupt). */
static void on_sigint(int sig)
{
    stop_signal = sig;
    sn_transport_sim_interrupt(sig);
}

/* Progress (sn_sim_transport_opts.progress): one line on the terminal,
 * rewritten in place, once the replay has run PROGRESS_AFTER_SECONDS. */
static void show_progress(void *ctx, uint64_t cycles, uint32_t rounds_done)
{
    progress_ctx *p = ctx;
    if (sn_now_seconds() - p->c->started < PROGRESS_AFTER_SECONDS)
        return;
    pthread_mutex_lock(&p->plan->lock);
    fprintf(stderr, "\r\033[K%s: %u of %u rounds done, %llu cycles", p->c->res.name, rounds_done, p->c->res.rounds,
            (unsigned long long)cycles);
    fflush(stderr);
    p->c->progress_shown = 1;
    pthread_mutex_unlock(&p->plan->lock);
}

/* Opens the case's window (the in-process simulator, or --device), with the
 * FST dump and the trace asked for, and replays the case through it. The
 * window stays open in c->t for the single-case outputs. */
static void replay_one(run_plan *plan, case_run *c)
{
    sn_replay_opts opts = plan->opts;
    progress_ctx pctx = {plan, c};
    sn_sim_transport_opts sim_opts = {plan->cu_version, plan->lockstep, plan->progress ? show_progress : NULL,
                                      &pctx, (unsigned)plan->dram_latency};
    opts.case_dir = c->dir;
    opts.warn_ctx = (void *)c->dir;
    c->started = sn_now_seconds();
    /* the options' combinations with --device are judged before (device_check.h) */
    c->status = plan->gdb    ? sn_transport_sim_open_gdb(&c->t, &sim_opts, (int)plan->gdb_port, &c->err)
                : plan->device ? sn_transport_open_device(&c->t, plan->device, plan->cu_version, &c->err)
                               : sn_transport_sim_open(&c->t, &sim_opts, &c->err);
    if (c->status == SN_OK && plan->inject)
        c->status = sn_transport_sim_inject(&c->t, plan->inject, &c->err);
    int sim = sn_transport_sim_of(&c->t) != NULL;
    if (c->status == SN_OK && sim && (plan->fst || plan->report || plan->timeline || plan->save_output)) {
        /* a stop, not a kill: the dump closed, the report, timeline and outputs written */
        /* Before the dump's files appear, so a signal never finds them without the handler; no SA_RESTART:
         * a wait for a GDB client (accept) ends on the signal too. The output rule's handler, which --trace
         * would put in, then leaves the signal to this stop (signal_catch.h). */
        sn_signal_catch(on_sigint, true);
    }
    if (c->status == SN_OK && plan->fst)
        c->status = sn_transport_sim_fst_open(&c->t, plan->fst, plan->fst_from, plan->fst_to, &c->err);
    if (c->status == SN_OK && plan->trace) {
        sn_transport inner = c->t;
        /* On failure t is left as it was: closed once, by the caller. */
        c->status = sn_transport_record_open(&c->t, inner, plan->trace, &c->err);
    }
    double start = sn_now_seconds();
    if (!c->cs_open) {
        sn_case_open(&c->cs, c->dir); /* its error, if any, is the replay's */
        c->cs_open = 1;
    }
    if (c->status == SN_OK)
        c->status = sn_replay_read_case(&opts, &c->t, &c->cs, &c->res, &c->err);
    c->wall = sn_now_seconds() - start;
    if (plan->trace && c->t.ops) {
        sn_error trace_err = {0};
        /* A verdict with a lost trace is no success. */
        if (sn_transport_record_commit(&c->t, &trace_err) != SN_OK && (c->status == SN_OK || c->status == SN_ERR_MISMATCH)) {
            c->status = trace_err.code ? trace_err.code : SN_ERR_IO;
            c->err = trace_err;
        }
    }
    if (c->progress_shown) {
        pthread_mutex_lock(&plan->lock);
        fputs("\r\033[K", stderr);
        fflush(stderr);
        pthread_mutex_unlock(&plan->lock);
    }
}

/* Prints c's verdict line, after the case's directory when there are
 * several. An error that stopped the replay goes to stderr for a single case
 * (as "sysnode run: ..."), to stdout after the case's directory when there
 * are several. Returns the case's exit code: 0 for a
 * byte-exact match, else 1. */
static int print_verdict(const case_run *c, int several)
{
    const sn_replay_result *res = &c->res;
    if (c->status != SN_OK && c->status != SN_ERR_MISMATCH) {
        if (several)
            printf("%s: error: %s\n", c->dir, c->err.msg);
        else
            sn_cli_error("run", c->err.msg);
        report_faults(res);
        return 1;
    }
    if (several) /* the directory as given, as an error line has it: two copies of a case stay apart */
        printf("%s: ", c->dir);
    if (res->all_unchanged) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes: NO VERDICT: %s\n",
               res->name, res->rounds, res->rounds == 1 ? "" : "s", res->flits, res->completions,
               (unsigned long long)res->cycles, (unsigned long long)res->output_bytes, c->err.msg);
        report_faults(res);
        return 1;
    }
    if (c->status == SN_ERR_MISMATCH && res->digest_checked && res->digest_got != res->digest_want) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles: RESULT DIGEST MISMATCH: %s\n", res->name,
               res->rounds, res->rounds == 1 ? "" : "s", res->flits, res->completions,
               (unsigned long long)res->cycles, c->err.msg);
        report_faults(res);
        return 1;
    }
    printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes (%llu as before the run): ",
           res->name, res->rounds, res->rounds == 1 ? "" : "s", res->flits, res->completions,
           (unsigned long long)res->cycles, (unsigned long long)res->output_bytes,
           (unsigned long long)res->unchanged_bytes);
    if (res->match && res->digest_checked)
        printf("match (the runner's own read-back: CRC-32 0x%08x)\n", res->digest_got);
    else if (res->match)
        printf("match\n");
    else {
        const sn_mismatch *mm = &res->mismatch;
        if (res->diff_round >= 0)
            printf("MISMATCH after round %d at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x",
                   res->diff_round, res->diff_file, (unsigned long long)res->diff_offset,
                   (unsigned long long)res->diff_addr, res->got, res->want);
        else
            printf("MISMATCH at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x", res->diff_file,
                   (unsigned long long)res->diff_offset, (unsigned long long)res->diff_addr, res->got, res->want);
        printf("; %llu of %llu bytes, %llu of %llu elements differ\n", (unsigned long long)mm->diff_bytes,
               (unsigned long long)res->output_bytes, (unsigned long long)mm->diff_elems,
               (unsigned long long)mm->elems);
        sn_mismatch_print(stdout, mm);
    }
    report_faults(res);
    return res->match ? 0 : 1;
}

/* --save-output: what the program left in each expected output region of
 * the case, read back through the window after the run however it ended,
 * to DIR/<file> by the output rule. Returns 0, or 1 after saying why. */
static int save_outputs(run_plan *plan, case_run *c)
{
    const sn_manifest *m = &c->cs.m;
    if (!c->res.cycles || !c->t.ops) {
        fprintf(stderr, "sysnode run: --save-output: the run never started: nothing saved in %s\n", plan->save_output);
        return 1;
    }
    for (size_t i = 0; i < m->expected_count; i++) {
        const sn_region *x = &m->expected[i];
        sn_error e = {0};
        uint8_t *bytes = malloc(x->nbytes);
        sn_status st = bytes ? c->t.ops->dram_read(c->t.ctx, x->addr, bytes, x->nbytes, &e)
                             : sn_error_set(&e, SN_ERR_INTERNAL, "out of memory for %llu bytes",
                                            (unsigned long long)x->nbytes);
        if (st == SN_OK)
            st = sn_file_write_atomic(plan->save_paths[i], bytes, x->nbytes, &e);
        free(bytes);
        if (st != SN_OK) {
            fprintf(stderr, "sysnode run: --save-output: %s\n", e.msg);
            return 1;
        }
    }
    return 0;
}

/* After one case's verdict: closes the FST dump, writes the report, the
 * timeline and the saved outputs asked for, closes the window. Returns the
 * exit code. */
static int finish_single(run_plan *plan, case_run *c, int rc)
{
    sn_error fst_err = {0};
    if (plan->fst && sn_transport_sim_fst_close(&c->t, &fst_err) != SN_OK) {
        fprintf(stderr, "sysnode run: %s\n", fst_err.msg);
        rc = 1;
    } else if (plan->fst && c->res.cycles && plan->fst_from >= c->res.cycles) { /* the mesh keeps the CPU's cycles */
        fprintf(stderr, "sysnode run: --fst: the run ended at cycle %llu, before the window %s: %s holds no cycle\n",
                (unsigned long long)c->res.cycles, plan->fst_window, plan->fst);
    }
    if (stop_signal)
        rc = 128 + stop_signal; /* the status the report records is the one the process exits with */
    sn_error out_err = {0};
    if (plan->report) {
        sn_replay_opts opts = plan->opts;
        opts.case_dir = c->dir;
        opts.warn_ctx = (void *)c->dir;
        int card = plan->device && strcmp(plan->device, "sim") != 0;
        sn_report_run run = {plan->device ? plan->device : "in-process",
                             card ? 0u : plan->cu_version ? plan->cu_version : (unsigned)sn_options[SN_OPT_CU_VERSION].def, c->status,
                             c->status == SN_OK ? "" : c->err.msg, rc, c->wall};
        if (sn_report_write(plan->report, &opts, &c->cs, &c->res, &run, &c->t, &out_err) != SN_OK) {
            fprintf(stderr, "sysnode run: --report: %s\n", out_err.msg);
            rc = 1;
        }
    }
    /* however the run ended; a stop other than the runner's exit is marked */
    int exited = c->status == SN_OK || (c->status == SN_ERR_MISMATCH && c->res.diff_round < 0); /* not a host step's */
    if (plan->timeline && sn_timeline_write(plan->timeline, &c->cs, &c->res, exited ? NULL : c->err.msg, &c->t,
                                            &out_err) != SN_OK) {
        fprintf(stderr, "sysnode run: --timeline: %s\n", out_err.msg);
        rc = 1;
    }
    if (plan->save_output && save_outputs(plan, c) != 0)
        rc = 1;
    sn_transport_close(&c->t);
    return stop_signal ? 128 + stop_signal : rc;
}

static void *worker(void *arg)
{
    run_plan *plan = arg;
    for (;;) {
        pthread_mutex_lock(&plan->lock);
        size_t i = plan->next++;
        pthread_mutex_unlock(&plan->lock);
        if (i >= plan->ncases)
            return NULL;
        replay_one(plan, &plan->cases[i]);
        sn_transport_close(&plan->cases[i].t);
        sn_case_free(&plan->cases[i].cs);
        pthread_mutex_lock(&plan->lock);
        plan->cases[i].done = 1;
        pthread_cond_broadcast(&plan->finished);
        pthread_mutex_unlock(&plan->lock);
    }
}

/* Several cases on `jobs` threads, printing verdicts in the order given as
 * soon as each and those before it are done, then the summary. Returns the
 * exit code. */
static int run_several(run_plan *plan, unsigned jobs)
{
    unsigned started = 0;
    size_t matched = 0;
    if (jobs > plan->ncases)
        jobs = (unsigned)plan->ncases;
    pthread_t *threads = calloc(jobs, sizeof *threads);
    for (unsigned j = 1; j < jobs; j++) /* this thread is the jobs-th worker */
        if (threads && pthread_create(&threads[started], NULL, worker, plan) == 0)
            started++;
    worker(plan);
    for (size_t i = 0; i < plan->ncases; i++) {
        pthread_mutex_lock(&plan->lock);
        while (!plan->cases[i].done)
            pthread_cond_wait(&plan->finished, &plan->lock);
        pthread_mutex_unlock(&plan->lock);
        matched += print_verdict(&plan->cases[i], 1) == 0;
        fflush(stdout);
    }
    for (unsigned j = 0; j < started; j++)
        pthread_join(threads[j], NULL);
    free(threads);
    printf("%zu cases: %zu match, %zu failed\n", plan->ncases, matched, plan->ncases - matched);
    return matched == plan->ncases ? 0 : 1;
}

/* --save-output DIR for the case c: DIR made if missing (it must be a
 * directory), and DIR/<file> named for each expected output of c's
 * manifest, for the output check before the run (a DIR made here is
 * removed again if the run saves nothing in it). A case that compares only
 * at its host steps has no region to keep: refused, as --digest is
 * (replay.h), before DIR is made. */
static sn_status save_plan(run_plan *plan, const sn_case *c, sn_error *e)
{
    struct stat sb;
    if (c->m_status != SN_OK) {
        *e = c->m_err;
        return c->m_status;
    }
    if (c->m.expected_count == 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s: the case compares only at its host steps, and --save-output "
                            "keeps the expected outputs after the last round: nothing to save", c->m.path);
    if (mkdir(plan->save_output, 0777) == 0)
        plan->made_save_dir = 1; /* here, for the output check of DIR/<file> */
    else if (errno != EEXIST)
        return sn_error_set(e, SN_ERR_IO, "cannot make the folder %s: %s", plan->save_output, strerror(errno));
    if (stat(plan->save_output, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return sn_error_set(e, SN_ERR_INPUT, "%s is not a folder", plan->save_output);
    plan->save_paths = calloc(c->m.expected_count + 1, sizeof *plan->save_paths);
    if (!plan->save_paths)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
    plan->nsave = c->m.expected_count;
    size_t n = strlen(plan->save_output);
    int slash = n > 0 && plan->save_output[n - 1] == '/';
    for (size_t i = 0; i < c->m.expected_count; i++) {
        const char *file = c->m.expected[i].file;
        plan->save_paths[i] = malloc(n + 1 + strlen(file) + 1);
        if (!plan->save_paths[i])
            return sn_error_set(e, SN_ERR_INTERNAL, "out of memory");
        sprintf(plan->save_paths[i], "%s%s%s", plan->save_output, slash ? "" : "/", file);
    }
    return SN_OK;
}

/* plan's settings from the options, and the checks of how they combine
 * (bad usage: 2 after saying why). Returns -1 to go on. */
static int plan_options(run_plan *plan, const sn_opts *o)
{
    plan->opts.max_cycles = o->num[SN_OPT_MAX_CYCLES];
    plan->opts.warn = warn_read;
    plan->opts.diff = (uint32_t)o->num[SN_OPT_DIFF];
    plan->opts.image = o->text[SN_OPT_IMAGE];
    plan->opts.digest = o->given[SN_OPT_DIGEST] != 0;
    plan->opts.strict = o->given[SN_OPT_STRICT] != 0;
    plan->opts.table = o->text[SN_OPT_TABLE];
    plan->cu_version = o->given[SN_OPT_CU_VERSION] ? (unsigned)o->num[SN_OPT_CU_VERSION] : 0; /* 0: the card's own */
    plan->lockstep = o->given[SN_OPT_LOCKSTEP] != 0;
    plan->dram_latency = o->num[SN_OPT_DRAM_LATENCY];
    plan->fst = o->text[SN_OPT_FST];
    plan->fst_window = o->text[SN_OPT_FST_WINDOW];
    plan->fst_from = o->num[SN_OPT_FST_WINDOW];
    plan->fst_to = plan->fst_window ? o->num2[SN_OPT_FST_WINDOW] : UINT64_MAX;
    plan->timeline = o->text[SN_OPT_TIMELINE];
    plan->report = o->text[SN_OPT_REPORT];
    plan->inject = o->text[SN_OPT_INJECT];
    plan->device = o->text[SN_OPT_DEVICE];
    plan->trace = o->text[SN_OPT_TRACE];
    plan->gdb = o->given[SN_OPT_GDB] != 0;
    plan->gdb_port = o->num[SN_OPT_GDB];
    plan->save_output = o->text[SN_OPT_SAVE_OUTPUT];
    sn_error why = {0};
    if (plan->inject && sn_transport_sim_inject_check(plan->inject, &why) != SN_OK)
        return sn_opts_usage_error(SN_TOOL_RUN, "%s", why.msg);
    int combined = sn_cli_device_check(SN_TOOL_RUN, o);
    if (combined >= 0)
        return combined;
    if (plan->fst_window && plan->fst_to <= plan->fst_from)
        return sn_opts_usage_error(SN_TOOL_RUN, "--fst-window wants FROM:TO with FROM < TO, got '%s'", plan->fst_window);
    if (plan->fst_window && !plan->fst)
        return sn_opts_usage_error(SN_TOOL_RUN, "--fst-window %s without --fst: nothing would be dumped",
                                   plan->fst_window);
    for (int id = 0; id < SN_OPT_COUNT; id++) {
        if ((sn_options[id].flags & SN_OPTF_ONE_CASE) && o->given[id] && o->noperands > 1)
            return sn_opts_usage_error(SN_TOOL_RUN, "--%s names one file, device or port, so it takes one case (%zu "
                                       "given)", sn_options[id].name, o->noperands);
    }
    return -1;
}

int sn_cmd_run(int argc, char **argv)
{
    static run_plan plan; /* zero: no optional outputs */
    char image[PATH_MAX];
    sn_opts o;
    int rc = sn_opts_parse(SN_TOOL_RUN, argc, argv, &o);
    /* the command's inputs for the output check: the image, the table, then the case directories */
    const char **inputs = rc < 0 ? calloc(o.noperands + 2, sizeof *inputs) : NULL;
    const char **dirs = inputs ? inputs + 2 : NULL;
    size_t ndirs = o.noperands;
    char **case_files = NULL; /* what the one case reads, for the output check */
    size_t ncase_files = 0;
    if (rc >= 0)
        goto out;
    rc = 1;
    if (!dirs) {
        fputs("sysnode run: out of memory\n", stderr);
        goto out;
    }
    memcpy(dirs, o.operands, ndirs * sizeof *dirs);
    rc = plan_options(&plan, &o);
    if (rc >= 0)
        goto out;
    rc = 1;
    uint64_t jobs = o.num[SN_OPT_JOBS];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0 && jobs > (uint64_t)cores) /* allowed, but never silently slower */
        fprintf(stderr, "sysnode run: --jobs %llu is more than the %ld cores here: the cases take turns on them\n",
                (unsigned long long)jobs, cores);
    if (plan.opts.image && access(plan.opts.image, R_OK) != 0) {
        fprintf(stderr, "sysnode run: --image %s: %s\n", plan.opts.image, strerror(errno));
        goto out;
    }
    if (!plan.opts.image) {
        sn_error img_err = {0};
        if (sn_image_default("runner.elf", image, sizeof image, &img_err) != SN_OK) {
            fprintf(stderr, "sysnode run: %s\n", img_err.msg);
            goto out;
        }
        plan.opts.image = image;
    }
    plan.ncases = ndirs;
    plan.cases = calloc(ndirs, sizeof *plan.cases);
    if (!plan.cases) {
        fputs("sysnode run: out of memory\n", stderr);
        goto out;
    }
    for (size_t i = 0; i < ndirs; i++)
        plan.cases[i].dir = dirs[i];
    /* One case: read here, once, for the output check and --save-output as for the replay. Several take
     * no output, so each is read by its replay. */
    sn_error path_err = {0};
    if (ndirs == 1) {
        plan.cases[0].cs_open = 1;
        sn_case_open(&plan.cases[0].cs, dirs[0]);
        if (sn_manifest_input_paths(&plan.cases[0].cs.m, &case_files, &ncase_files, &path_err) != SN_OK) {
            fprintf(stderr, "sysnode run: %s\n", path_err.msg);
            goto out;
        }
    }
    if (plan.save_output && save_plan(&plan, &plan.cases[0].cs, &path_err) != SN_OK) {
        fprintf(stderr, "sysnode run: --save-output: %s\n", path_err.msg);
        goto out;
    }
    size_t noutputs = 4 + plan.nsave;
    sn_output_path *outputs = calloc(noutputs, sizeof *outputs);
    const char **checked_inputs = calloc(2 + ncase_files, sizeof *checked_inputs);
    if (!outputs || !checked_inputs) {
        free(outputs);
        free(checked_inputs);
        fputs("sysnode run: out of memory\n", stderr);
        goto out;
    }
    outputs[0] = (sn_output_path){"--report", plan.report};
    outputs[1] = (sn_output_path){"--timeline", plan.timeline};
    outputs[2] = (sn_output_path){"--fst", plan.fst};
    outputs[3] = (sn_output_path){"--trace", plan.trace};
    for (size_t i = 0; i < plan.nsave; i++)
        outputs[4 + i] = (sn_output_path){"--save-output", plan.save_paths[i]};
    /* the image, the table, and every file the one case reads (its manifest's files, not read again) */
    checked_inputs[0] = plan.opts.image;
    checked_inputs[1] = plan.opts.table;
    for (size_t i = 0; i < ncase_files; i++)
        checked_inputs[2 + i] = case_files[i];
    sn_status checked =
        sn_output_paths_check(outputs, noutputs, checked_inputs, 2 + ncase_files, dirs, ndirs, &path_err);
    free(outputs);
    free(checked_inputs);
    if (checked != SN_OK) {
        fprintf(stderr, "sysnode run: %s\n", path_err.msg);
        goto out;
    }
    plan.progress = isatty(STDERR_FILENO);
    pthread_mutex_init(&plan.lock, NULL);
    pthread_cond_init(&plan.finished, NULL);
    if (ndirs == 1) {
        replay_one(&plan, &plan.cases[0]);
        rc = finish_single(&plan, &plan.cases[0], print_verdict(&plan.cases[0], 0));
    } else {
        rc = run_several(&plan, (unsigned)jobs);
    }
out:
    if (plan.made_save_dir)
        rmdir(plan.save_output); /* only when empty: a run refused or never started leaves no folder behind */
    for (size_t i = 0; plan.cases && i < plan.ncases; i++)
        sn_case_free(&plan.cases[i].cs);
    free(plan.cases);
    for (size_t i = 0; i < ncase_files; i++)
        free(case_files[i]);
    free(case_files);
    for (size_t i = 0; plan.save_paths && i < plan.nsave; i++)
        free(plan.save_paths[i]);
    free(plan.save_paths);
    free(inputs);
    sn_opts_free(&o);
    return rc;
}
