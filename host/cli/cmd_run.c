/* sysnode run CASE_DIR... [--jobs N] [--image ELF] [--max-cycles N] [--cu-version 4|5]
 *                         [--trace FILE] [--digest] [--table TABLE.bin] [--lockstep]
 * Replays each case on a simulated SysNode of its own through the host
 * window (host/lib/replay.h) and prints one verdict line per case, in the
 * order given, plus a summary line when there is more than one; --jobs runs
 * that many cases at a time, one thread and one simulator each. While a
 * replay runs longer than a second and stderr is a terminal, a progress line
 * there shows rounds done and simulated cycles. */
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "replay.h"

/* Cycle cap well above the runner's own hang detection (8 M cycles without a
 * completion), so the runner reports a hang itself with each node's debt. */
#define DEFAULT_MAX_CYCLES 400000000ull
#define MAX_JOBS 256
/* A replay shows progress once it has run this long (wall seconds). */
#define PROGRESS_AFTER_SECONDS 1.0

static const char USAGE[] =
    "usage: sysnode run CASE_DIR... [--jobs N] [--image ELF] [--max-cycles N] [--cu-version 4|5] [--digest]\n"
    "                         [--lockstep] [--trace FILE] [--table TABLE.bin]   (--trace, --table: one case)\n";

typedef struct {
    const char *dir;
    sn_replay_result res;
    sn_status status;
    sn_error err;
    double started;    /* wall seconds (CLOCK_MONOTONIC) when the replay began */
    int progress_shown; /* a progress line is on the terminal */
    int done;
} case_run;

typedef struct {
    sn_replay_opts opts; /* case_dir set per case */
    unsigned cu_version;
    int lockstep;
    const char *trace;
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

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress (sn_sim_transport_opts.progress): one line on the terminal,
 * rewritten in place, once the replay has run PROGRESS_AFTER_SECONDS. */
static void show_progress(void *ctx, uint64_t cycles, uint32_t rounds_done)
{
    progress_ctx *p = ctx;
    if (now_seconds() - p->c->started < PROGRESS_AFTER_SECONDS)
        return;
    pthread_mutex_lock(&p->plan->lock);
    fprintf(stderr, "\r\033[K%s: %u of %u rounds done, %llu cycles", p->c->res.name, rounds_done, p->c->res.rounds,
            (unsigned long long)cycles);
    fflush(stderr);
    p->c->progress_shown = 1;
    pthread_mutex_unlock(&p->plan->lock);
}

static void replay_one(run_plan *plan, case_run *c)
{
    sn_replay_opts opts = plan->opts;
    progress_ctx pctx = {plan, c};
    sn_sim_transport_opts sim_opts = {plan->cu_version, plan->lockstep, plan->progress ? show_progress : NULL,
                                      &pctx};
    sn_transport t = {0};
    opts.case_dir = c->dir;
    c->started = now_seconds();
    c->status = sn_transport_sim_open(&t, &sim_opts, &c->err);
    if (c->status == SN_OK && plan->trace) {
        sn_transport inner = t;
        /* On failure t is left as it was: closed once, below. */
        c->status = sn_transport_record_open(&t, inner, plan->trace, &c->err);
    }
    if (c->status == SN_OK)
        c->status = sn_replay_case(&opts, &t, &c->res, &c->err);
    sn_transport_close(&t);
    if (c->progress_shown) {
        pthread_mutex_lock(&plan->lock);
        fputs("\r\033[K", stderr);
        fflush(stderr);
        pthread_mutex_unlock(&plan->lock);
    }
}

/* Prints c's verdict line. An error that stopped the replay goes to stderr
 * for a single case (as "sysnode run: ..."), to stdout after the case's
 * directory when there are several. Returns 1 for a byte-exact match. */
static int print_verdict(const case_run *c, int several)
{
    const sn_replay_result *res = &c->res;
    if (c->status != SN_OK && c->status != SN_ERR_MISMATCH) {
        if (several)
            printf("%s: error: %s\n", c->dir, c->err.msg);
        else
            fprintf(stderr, "sysnode run: %s\n", c->err.msg);
        return 0;
    }
    if (c->status == SN_ERR_MISMATCH && res->digest_checked && res->digest_got != res->digest_want) {
        printf("%s: %u round%s, %u flits, %u completions, %llu cycles: RESULT DIGEST MISMATCH: %s\n", res->name,
               res->rounds, res->rounds == 1 ? "" : "s", res->flits, res->completions,
               (unsigned long long)res->cycles, c->err.msg);
        return 0;
    }
    printf("%s: %u round%s, %u flits, %u completions, %llu cycles, %llu output bytes: ", res->name, res->rounds,
           res->rounds == 1 ? "" : "s", res->flits, res->completions, (unsigned long long)res->cycles,
           (unsigned long long)res->output_bytes);
    if (res->match && res->digest_checked)
        printf("match (the runner's own read-back: CRC-32 0x%08x)\n", res->digest_got);
    else if (res->match)
        printf("match\n");
    else
        printf("MISMATCH at %s offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x\n", res->diff_file,
               (unsigned long long)res->diff_offset, (unsigned long long)res->diff_addr, res->got, res->want);
    return res->match;
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
        pthread_mutex_lock(&plan->lock);
        plan->cases[i].done = 1;
        pthread_cond_broadcast(&plan->finished);
        pthread_mutex_unlock(&plan->lock);
    }
}

/* Runs every case on `jobs` threads, printing verdicts in the order given as
 * soon as each and those before it are done. Returns the cases that matched. */
static size_t run_all(run_plan *plan, unsigned jobs)
{
    pthread_t threads[MAX_JOBS];
    unsigned started = 0;
    size_t matched = 0;
    if (jobs > plan->ncases)
        jobs = (unsigned)plan->ncases;
    for (unsigned j = 1; j < jobs; j++) /* this thread is the jobs-th worker */
        if (pthread_create(&threads[started], NULL, worker, plan) == 0)
            started++;
    worker(plan);
    for (size_t i = 0; i < plan->ncases; i++) {
        pthread_mutex_lock(&plan->lock);
        while (!plan->cases[i].done)
            pthread_cond_wait(&plan->finished, &plan->lock);
        pthread_mutex_unlock(&plan->lock);
        matched += (size_t)print_verdict(&plan->cases[i], plan->ncases > 1);
        fflush(stdout);
    }
    for (unsigned j = 0; j < started; j++)
        pthread_join(threads[j], NULL);
    return matched;
}

int sn_cmd_run(int argc, char **argv)
{
    static run_plan plan; /* zero: no trace, no lockstep, defaults */
    char image[PATH_MAX];
    uint64_t cu_version = 0, jobs = 1;
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    size_t ndirs = 0;
    int rc = 2;
    plan.opts.max_cycles = DEFAULT_MAX_CYCLES;
    if (!dirs) {
        fputs("sysnode run: out of memory\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        int has_value = i + 1 < argc;
        if (!strcmp(argv[i], "--image") && has_value) {
            plan.opts.image = argv[++i];
        } else if (!strcmp(argv[i], "--digest")) {
            plan.opts.digest = 1;
        } else if (!strcmp(argv[i], "--lockstep")) {
            plan.lockstep = 1;
        } else if (!strcmp(argv[i], "--table") && has_value) {
            plan.opts.table = argv[++i];
        } else if (!strcmp(argv[i], "--trace") && has_value) {
            plan.trace = argv[++i];
        } else if (!strcmp(argv[i], "--max-cycles") && has_value) {
            if (parse_u64("--max-cycles", argv[++i], 1, UINT64_MAX / 2, &plan.opts.max_cycles) != 0)
                goto out;
        } else if (!strcmp(argv[i], "--cu-version") && has_value) {
            if (parse_u64("--cu-version", argv[++i], 4, 5, &cu_version) != 0)
                goto out;
        } else if (!strcmp(argv[i], "--jobs") && has_value) {
            if (parse_u64("--jobs", argv[++i], 1, MAX_JOBS, &jobs) != 0)
                goto out;
        } else if (argv[i][0] != '-') {
            dirs[ndirs++] = argv[i];
        } else {
            fputs(USAGE, stderr);
            goto out;
        }
    }
    if (ndirs == 0) {
        fputs(USAGE, stderr);
        goto out;
    }
    if (ndirs > 1 && (plan.trace || plan.opts.table)) {
        fprintf(stderr, "sysnode run: %s names one file, so it takes one case (%zu given)\n%s",
                plan.trace ? "--trace" : "--table", ndirs, USAGE);
        goto out;
    }
    rc = 1;
    if (!plan.opts.image) {
        if (default_image(image, sizeof image) != 0) {
            fprintf(stderr, "sysnode run: cannot locate the runner image; pass --image\n");
            goto out;
        }
        plan.opts.image = image;
    }
    plan.cu_version = (unsigned)cu_version;
    plan.progress = isatty(STDERR_FILENO);
    plan.ncases = ndirs;
    plan.cases = calloc(ndirs, sizeof *plan.cases);
    if (!plan.cases) {
        fputs("sysnode run: out of memory\n", stderr);
        goto out;
    }
    for (size_t i = 0; i < ndirs; i++)
        plan.cases[i].dir = dirs[i];
    pthread_mutex_init(&plan.lock, NULL);
    pthread_cond_init(&plan.finished, NULL);
    size_t matched = run_all(&plan, (unsigned)jobs);
    if (ndirs > 1)
        printf("%zu cases: %zu match, %zu failed\n", ndirs, matched, ndirs - matched);
    rc = matched == ndirs ? 0 : 1;
    free(plan.cases);
out:
    free(dirs);
    return rc;
}
