/* Unit tests of sysnode-bench's figures (host/bench/measure.h) on GO logs
 * written out here, with the expected figures worked by hand from the
 * definitions in docs/DESIGN.md §12: steady rounds are those after the first
 * (the only one in a one-round case) with at least 2 payloads; cycles and
 * MMIO per payload run from a round's first payload GO to its last, over
 * payloads - 1; typed GOs are not payloads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "cmocka_main.h"

#include "measure.h"

static sn_bench_figures figures(uint64_t *round_payloads, uint32_t rounds, const sn_go_record *gos, uint64_t n,
                                uint64_t reads, uint64_t writes, sn_status want)
{
    sn_bench_case c = {"demo", rounds, 0, round_payloads};
    for (uint32_t r = 0; r < rounds; r++)
        c.payloads += round_payloads[r];
    sn_run_stats s = {.mmio_reads = reads, .mmio_writes = writes, .go_count = n, .gos = gos};
    sn_bench_figures f;
    sn_error e = {0};
    memset(&f, 0, sizeof f);
    assert_int_equal(sn_bench_figures_from_stats(&c, &s, "img.elf", &f, &e), want);
    if (want != SN_OK)
        assert_non_null(strstr(e.msg, "demo: img.elf: the simulator saw 5 payload GOs, the case's kicks send 6"));
    return f;
}

/* Rounds of 2, 3 and 1 payloads after one typed probe: only round 1 is
 * steady (round 0 is the first, round 2 has one payload). */
static void steady_round_is_go_to_go(void **state)
{
    (void)state;
    uint64_t rounds[] = {2, 3, 1};
    const sn_go_record gos[] = {
        {50, 3, 1, 0},                                         /* CU_CTRL probe */
        {100, 10, 0, 0},  {140, 16, 0, 0},                     /* round 0 */
        {1000, 40, 0, 0}, {1030, 45, 0, 0}, {1100, 52, 0, 0}, /* round 1 */
        {2000, 70, 0, 0},                                      /* round 2 */
    };
    sn_bench_figures f = figures(rounds, 3, gos, 7, 60, 30, SN_OK);
    assert_int_equal(f.payload_gos, 6);
    assert_int_equal(f.boot_to_first_go, 100);
    assert_int_equal(f.steady_rounds, 1);
    assert_true(f.steady_cycles_per_payload == 50.0); /* (1100 - 1000) / 2 */
    assert_true(f.steady_mmio_per_payload == 6.0);    /* (52 - 40) / 2 */
    assert_true(f.run_mmio_per_payload == 15.0);      /* (60 + 30) / 6 */
}

static void one_round_case_is_its_own_steady_round(void **state)
{
    (void)state;
    uint64_t rounds[] = {4};
    const sn_go_record gos[] = {{10, 0, 0, 0}, {20, 5, 0, 0}, {40, 9, 0, 0}, {70, 21, 0, 0}};
    sn_bench_figures f = figures(rounds, 1, gos, 4, 30, 10, SN_OK);
    assert_int_equal(f.steady_rounds, 1);
    assert_true(f.steady_cycles_per_payload == 20.0); /* (70 - 10) / 3 */
    assert_true(f.steady_mmio_per_payload == 7.0);    /* (21 - 0) / 3 */
    assert_true(f.run_mmio_per_payload == 10.0);      /* 40 / 4 */
}

static void no_steady_round_leaves_the_figures_unset(void **state)
{
    (void)state;
    uint64_t rounds[] = {3, 1};
    const sn_go_record gos[] = {{10, 0, 0, 0}, {20, 5, 0, 0}, {40, 9, 0, 0}, {900, 30, 0, 0}};
    sn_bench_figures f = figures(rounds, 2, gos, 4, 30, 10, SN_OK);
    assert_int_equal(f.steady_rounds, 0);
    assert_true(f.steady_cycles_per_payload < 0);
    assert_true(f.steady_mmio_per_payload < 0);
}

static void other_payload_count_is_refused(void **state)
{
    (void)state;
    uint64_t rounds[] = {2, 3, 1};
    const sn_go_record gos[] = {{50, 3, 1, 0}, {100, 10, 0, 0}, {140, 16, 0, 0}, {1000, 40, 0, 0}, {1030, 45, 0, 0}, {1100, 52, 0, 0}};
    figures(rounds, 3, gos, 6, 60, 30, SN_ERR_PROTOCOL);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(steady_round_is_go_to_go),
             cmocka_unit_test(one_round_case_is_its_own_steady_round),
             cmocka_unit_test(no_steady_round_leaves_the_figures_unset),
             cmocka_unit_test(other_payload_count_is_refused))
