/* The progress callback behind sysnode run's progress line (sim.h,
 * sn_sim_set_progress; transport.h, sn_sim_transport_opts.progress): a
 * replay of matmul_512x256x512 with --digest (29 rounds and the runner's
 * read-back, several M cycles) reports at least twice, the k-th report at or after k * SN_SIM_PROGRESS_CYCLES cycles, with
 * rounds done never falling and never above the case's 29, and the replay
 * still matches. Whether a line is printed (a terminal, after a second) is
 * the CLI's and not tested here: it depends on the wall clock. */
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "sim.h"
#include "transport.h"
#include "transport_sim.h"

#define MAX_REPORTS 64

typedef struct {
    unsigned n;
    uint64_t cycles[MAX_REPORTS];
    uint32_t rounds[MAX_REPORTS];
} reports;

static void record(void *ctx, uint64_t cycles, uint32_t rounds_done)
{
    reports *r = ctx;
    if (r->n < MAX_REPORTS) {
        r->cycles[r->n] = cycles;
        r->rounds[r->n] = rounds_done;
    }
    r->n++;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_progress CASE_DIR IMAGE\n");
        return 2;
    }
    reports r = {0};
    sn_sim_transport_opts o = {4, 0, record, &r, 0};
    sn_transport t = {0};
    sn_error e = {0};
    sn_replay_result res;
    sn_replay_opts opts = {argv[1], argv[2], 400000000ull, 1, NULL, 0, NULL, NULL, 0};
    sn_status st = sn_transport_sim_open(&t, &o, &e);
    if (st == SN_OK)
        st = sn_replay_case(&opts, &t, &res, &e);
    sn_transport_close(&t);
    if (st != SN_OK) {
        fprintf(stderr, "test_progress: replay failed: %s\n", e.msg);
        return 1;
    }
    int bad = r.n < 2 || r.n > MAX_REPORTS || res.rounds != 29;
    for (unsigned k = 0; !bad && k < r.n; k++) {
        bad |= r.cycles[k] < (uint64_t)(k + 1) * SN_SIM_PROGRESS_CYCLES || r.cycles[k] > res.cycles;
        bad |= r.rounds[k] > res.rounds || (k > 0 && r.rounds[k] < r.rounds[k - 1]);
        printf("report %u: %llu cycles, %u of %u rounds done\n", k, (unsigned long long)r.cycles[k], r.rounds[k],
               res.rounds);
    }
    printf("%u reports over %llu cycles: %s\n", r.n, (unsigned long long)res.cycles, bad ? "WRONG" : "ok");
    return bad;
}
