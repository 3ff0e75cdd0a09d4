/* System test of the simulator's benchmark counters (sim.h sn_sim_get_stats,
 * the source of sysnode-bench's figures) on the embedded vadd128 image. The
 * runner keeps no MMIO count of its own (it would cost the dispatch loop), so
 * the counts are held to what the protocol forces, from the runner's status
 * block: at least one STAT read per GO and a HEAD read per completion, a
 * store per GO, per completion popped and per CU_CTRL reply popped, and the
 * payload registers written at least once per payload that changes them
 * (every one of vadd128's rows changes ARG3). The GO log must hold
 * the 4 CU_CTRL probes (typed, one per unit of the 2x2 mesh, DESIGN §6) and
 * then vadd128's 26 payloads (its manifest's total_flits), at increasing
 * cycles inside the run, with the MMIO count never decreasing. And the
 * DRAM latency of sn_sim_config reaches the units' memory transactions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmocka_main.h"

#include "sim.h"

#define CYCLE_LIMIT 20000000ull
#define VADD128_FLITS 26
#define MESH_UNITS 4

static void counts_hold_what_the_protocol_forces(void **state)
{
    (void)state;
    char err[256];
    sn_sim *sim = sn_sim_create(NULL, err, sizeof err);
    assert_non_null(sim);
    assert_int_equal(sn_sim_load_image(sim, SN_EMBEDDED_IMAGE, err, sizeof err), 0);
    for (int run = 0; run < 2; run++) { /* a second BOOT starts the counts again */
        assert_int_equal(sn_sim_boot(sim, err, sizeof err), 0);
        sn_run_status r = sn_sim_run(sim, CYCLE_LIMIT);
        assert_int_equal(r.stop, SN_RUN_EXITED);
        assert_int_equal(r.exit_code, 0);

        sn_status_block sb;
        assert_int_equal(sn_sim_status_block(sim, &sb), 0);
        assert_int_equal(sb.flits_sent, VADD128_FLITS);
        assert_int_equal(sb.completions, VADD128_FLITS);

        sn_run_stats s;
        sn_sim_get_stats(sim, &s);
        uint64_t reads = s.mmio_reads, writes = s.mmio_writes;
        uint64_t gos = MESH_UNITS + VADD128_FLITS;
        assert_true(reads >= gos + sb.completions + 4 * MESH_UNITS); /* STAT per GO, HEAD per record, RX reads */
        assert_true(writes >= gos + sb.completions + MESH_UNITS + VADD128_FLITS); /* GO, pops, RX pops, ARG3 */
        assert_int_equal(s.go_count, MESH_UNITS + VADD128_FLITS);
        assert_int_equal(s.go_count, sn_sim_accepted_gos(sim));
        for (uint64_t i = 0; i < s.go_count; i++) {
            assert_int_equal(s.gos[i].typed, i < MESH_UNITS);
            assert_true(s.gos[i].cycle > 0 && s.gos[i].cycle < r.cycles);
            assert_true(s.gos[i].mmio_ops < reads + writes);
            if (i > 0) {
                assert_true(s.gos[i].cycle > s.gos[i - 1].cycle);
                assert_true(s.gos[i].mmio_ops > s.gos[i - 1].mmio_ops); /* at least the previous GO */
            }
        }
    }
    sn_sim_destroy(sim);
}

/* The vadd128 RUN's accept-to-completion span (its kernel's K + 5, unit-timing
 * §2.1) with sn_sim_config.dram_latency L: its 16 VFILL words are 16 memory
 * transactions, each L later (unit-timing §4.5), and the rest of the kernel
 * waits for them, so the span grows by 16 L. */
static uint64_t run_span(unsigned dram_latency)
{
    char err[256];
    sn_sim_config cfg = {.dram_latency = dram_latency};
    sn_sim *sim = sn_sim_create(&cfg, err, sizeof err);
    assert_non_null(sim);
    assert_int_equal(sn_sim_load_image(sim, SN_EMBEDDED_IMAGE, err, sizeof err), 0);
    assert_int_equal(sn_sim_boot(sim, err, sizeof err), 0);
    sn_run_status r = sn_sim_run(sim, CYCLE_LIMIT);
    assert_int_equal(r.stop, SN_RUN_EXITED);
    assert_int_equal(r.exit_code, 0);
    sn_run_stats s;
    sn_sim_get_stats(sim, &s);
    assert_int_equal(s.unit_count, 1);
    assert_int_equal(s.units[0].span_count, VADD128_FLITS);
    const sn_busy_span *run = &s.units[0].spans[VADD128_FLITS - 1];
    uint64_t span = run->end - run->start;
    sn_sim_destroy(sim);
    return span;
}

static void dram_latency_reaches_the_units(void **state)
{
    (void)state;
    assert_int_equal(run_span(0), 477 + 5); /* unit-timing §2.2: vadd128's K */
    assert_int_equal(run_span(30), 477 + 5 + 16 * 30);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(counts_hold_what_the_protocol_forces),
             cmocka_unit_test(dram_latency_reaches_the_units))
