/* The settle proof (host/inputs/settle.c, artifacts/FORMAT.md §3 `flags`): which
 * round ends may skip the version-4 settle. Hand-made matmul cluster
 * programs, each round FILL A, FILL B, GEMM, DRAIN (payload fields restated
 * from sysnode-facts §3.3), decide the flags as worked out here; the real
 * cases show the proof at work (matmul_512x256x512: every DRAIN lands in the
 * expected output at 0xa0000, no FILL reads there) and refusing (mm_silu:
 * vector cores). A wrong proof would also fail the version-4 replays, which
 * run with these flags and must stay bit-exact. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cmocka_main.h"

#include "pack_inputs.h"
#include "settle.h"
#include "sysnode/words.h"

#define CASES SN_ARTIFACTS_DIR "/compiler/"
#define OUT 0x10000u  /* the hand-made case's expected output: [OUT, OUT + 0x1000) */
#define MAX_ROUNDS 4

typedef struct {
    sn_program p;
    sn_table_round rounds[MAX_ROUNDS];
    sn_table_step steps[MAX_ROUNDS];
    sn_table_row payloads[MAX_ROUNDS * 4];
    sn_region out;
    sn_manifest m;
} hand;

/* A matmul cluster payload: op [255:252], addr [251:218], n [217:202]. */
static sn_table_row mg(unsigned op, uint64_t addr, uint64_t n)
{
    sn_payload q = {{0, 0, 0, 0}};
    sn_mg_set_op(&q, op);
    sn_mg_set_addr(&q, addr);
    sn_mg_set_n(&q, n);
    return sn_table_payload_row(&q);
}

/* Round r of h: FILL A at fill, FILL B at 0x3000, GEMM, DRAIN 64 granules to drain; one kick to (1,1). */
static void add_round(hand *h, uint64_t fill, uint64_t drain)
{
    size_t r = h->p.round_count++;
    h->payloads[4 * r + 0] = mg(1, fill, 1);
    h->payloads[4 * r + 1] = mg(1, 0x3000, 1);
    h->payloads[4 * r + 2] = mg(2, 0, 0);
    h->payloads[4 * r + 3] = mg(3, drain, 64);
    h->steps[r] = (sn_table_step){SN_STEP_KICK, 1, 1, 0, .kick = {0, 4}};
    h->rounds[r] = (sn_table_round){.step_first = (uint32_t)r, .step_count = 1, .payload_first = (uint32_t)(4 * r),
                                    .payload_count = 4, .flags = SN_ROUND_SETTLE_PROVEN}; /* stale flag */
}

static void start(hand *h)
{
    memset(h, 0, sizeof *h);
    h->p.rounds = h->rounds;
    h->p.steps = h->steps;
    h->p.payloads = h->payloads;
    h->out = (sn_region){.addr = OUT, .nbytes = 0x1000};
    h->m.expected = &h->out;
    h->m.expected_count = 1;
}

static uint32_t flags(const hand *h, size_t r)
{
    return h->rounds[r].flags;
}

static void plan(hand *h, int with_manifest)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    h->p.step_count = h->p.payload_count = 0;
    sn_settle_plan(&h->p, &mesh, with_manifest ? &h->m : NULL);
}

/* Two-round programs (round r: FILL A at fill[r], DRAIN to drain[r]) and the
 * flags of round 0 worked out for each; round 1 is the last, so it always
 * settles. */
static const struct {
    const char *why;
    uint64_t fill[2], drain[2];
    int with_manifest;
    uint32_t flags0;
} TWO_ROUNDS[] = {
    {"round 1 FILLs elsewhere: round 0's DRAIN is never read, its settle goes", {0x1000, 0x2000}, {OUT, OUT + 0x800}, 1,
     SN_ROUND_SETTLE_PROVEN},
    /* 256 bytes read from OUT + 0x7F0 reach 16 bytes of round 0's 2 KB */
    {"round 1 FILLs what round 0 DRAINed: the settle stays", {0x1000, OUT + 0x7F0}, {OUT, OUT + 0x800}, 1, 0},
    {"round 1 DRAINs over round 0's output: the settle stays (write after write)", {0x1000, 0x2000}, {OUT, OUT + 0x400},
     1, 0},
    {"a DRAIN outside the expected outputs could reach the table: the settle stays", {0x1000, 0x2000}, {0x40000, OUT},
     1, 0},
    {"no manifest, no proof", {0x1000, 0x2000}, {OUT, OUT + 0x800}, 0, 0},
};

static void hand_made_programs(void **state)
{
    (void)state;
    hand h;
    for (size_t i = 0; i < sizeof TWO_ROUNDS / sizeof TWO_ROUNDS[0]; i++) {
        start(&h);
        add_round(&h, TWO_ROUNDS[i].fill[0], TWO_ROUNDS[i].drain[0]);
        add_round(&h, TWO_ROUNDS[i].fill[1], TWO_ROUNDS[i].drain[1]);
        plan(&h, TWO_ROUNDS[i].with_manifest);
        if (flags(&h, 0) != TWO_ROUNDS[i].flags0 || flags(&h, 1) != 0)
            fail_msg("%s: flags %u %u", TWO_ROUNDS[i].why, flags(&h, 0), flags(&h, 1));
    }
    /* skipped settles pile up: round 2 reads round 0's output, so round 1's
     * settle stays (it lands round 0's writes too), round 0's can go */
    start(&h);
    add_round(&h, 0x1000, OUT);
    add_round(&h, 0x2000, OUT + 0x800);
    add_round(&h, OUT, OUT + 0x800);
    plan(&h, 1);
    assert_int_equal(flags(&h, 0), SN_ROUND_SETTLE_PROVEN);
    assert_int_equal(flags(&h, 1), 0);
    assert_int_equal(flags(&h, 2), 0);
}

static void real_cases(void **state)
{
    (void)state;
    const char *dirs[] = {CASES "matmul_512x256x512", CASES "mm_silu_32x128x64"};
    for (unsigned c = 0; c < 2; c++) {
        sn_program p;
        sn_mesh mesh;
        sn_error e = {0};
        assert_int_equal(sn_pack_load_inputs(&dirs[c], 1, &p, &mesh, &e), SN_OK); /* plans the settles */
        for (size_t r = 0; r < p.round_count; r++) {
            int proven = c == 0 && r + 1 < p.round_count; /* matmul: all but the last; mm_silu: none */
            if ((p.rounds[r].flags == SN_ROUND_SETTLE_PROVEN) != proven)
                fail_msg("%s round %zu: flags %u", dirs[c], r, p.rounds[r].flags);
        }
        sn_program_free(&p);
    }
}

/* One thread's share of parallel_plans: `reps` plans of its own program,
 * each checked against the flags worked out for it (cmocka's asserts are
 * for the main thread: a wrong plan is counted instead). */
typedef struct {
    int provable; /* round 1 FILLs elsewhere (round 0 proven) or round 0's output (kept) */
    unsigned reps;
    unsigned wrong;
} planner;

static void *plan_many(void *arg)
{
    planner *w = arg;
    hand h;
    for (unsigned i = 0; i < w->reps; i++) {
        start(&h);
        add_round(&h, 0x1000, OUT);
        add_round(&h, w->provable ? 0x2000 : OUT, OUT + 0x800);
        add_round(&h, 0x2000, OUT + 0x800);
        plan(&h, 1);
        w->wrong += flags(&h, 0) != (w->provable ? SN_ROUND_SETTLE_PROVEN : 0u);
    }
    return NULL;
}

/* Two plans at once (sysnode run --jobs, two Devices in two threads) each
 * get their own program's flags: the proof keeps no state between calls. */
static void parallel_plans(void **state)
{
    (void)state;
    planner w[2] = {{1, 20000, 0}, {0, 20000, 0}};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, plan_many, &w[0]), 0);
    plan_many(&w[1]);
    pthread_join(t, NULL);
    assert_int_equal(w[0].wrong, 0);
    assert_int_equal(w[1].wrong, 0);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(hand_made_programs), cmocka_unit_test(real_cases),
             cmocka_unit_test(parallel_plans))
