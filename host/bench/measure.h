/* One benchmark measurement: a case replayed by one image on the in-process
 * simulator, with the figures computed from what the simulator counted (the
 * host window's stats, transport.h), never from the image's own claims.
 * Definitions (README "Benchmark"):
 *   payload GO      an accepted GO of an untyped send (CU_INST); typed sends
 *                   (the runner's CU_CTRL probes at boot) are not payloads;
 *   steady rounds   every round after the first (the only round when the case
 *                   has one) that sends at least 2 payloads;
 *   cycles per payload (steady)  sum over steady rounds of the cycles from
 *                   the round's first payload GO to its last, divided by the
 *                   sum of (payloads - 1): the GO-to-GO dispatch interval;
 *   MMIO per payload (steady)    the mailbox and RX-queue register accesses
 *                   in the same windows (from the first payload GO's store up
 *                   to, not including, the last one's), over the same divisor;
 *   MMIO per payload (run)       every such access from BOOT to exit over
 *                   the payloads;
 *   busiest unit    the unit with the most busy cycles (the simulator's busy
 *                   spans, sn_unit_busy_cycles): no dispatch can end the run
 *                   before it, so cycles ÷ its busy cycles is the run's
 *                   distance from that bound. */
#ifndef SN_BENCH_MEASURE_H
#define SN_BENCH_MEASURE_H

#include <stdint.h>

#include "error.h"
#include "transport.h"

/* What the case's program sends, read from its artifacts (not from a run). */
typedef struct {
    char name[128];
    uint32_t rounds;
    uint64_t payloads;          /* flits the kicks send over all rounds */
    uint64_t *round_payloads;   /* per round; free with sn_bench_case_free */
} sn_bench_case;

typedef struct {
    uint64_t cycles;            /* simulated CPU cycles from BOOT to exit */
    uint64_t payload_gos;       /* accepted payload GOs: must equal the case's payloads */
    uint64_t boot_to_first_go;  /* cycle of the first payload GO */
    uint32_t steady_rounds;     /* rounds in the steady windows; 0: the figures below are unset (< 0) */
    double steady_cycles_per_payload;
    double steady_mmio_per_payload;
    double run_mmio_per_payload;
    uint64_t mmio_reads, mmio_writes; /* whole run */
    uint64_t busiest_unit_busy; /* the most busy cycles of any unit (sn_unit_busy_cycles): the run's physical bound */
    double wall_seconds;        /* the whole replay: parse, pack, place, run, read back, compare */
    double sim_cycles_per_second; /* cycles over the wall time of the run alone (the transport's wait) */
    double sim_instructions_per_second; /* instructions retired over the same wall time */
} sn_bench_figures;

/* Reads the case at case_dir: its name, rounds and the payloads each round's
 * kicks send (artifacts-facts §1.1). Errors: those of sn_program_load_case. */
sn_status sn_bench_case_load(sn_bench_case *c, const char *case_dir, sn_error *e);
void sn_bench_case_free(sn_bench_case *c);

/* Fills the figures that come from the GO log, MMIO counts and busy spans of
 * one run (payload_gos, boot_to_first_go, steady_rounds,
 * steady_cycles_per_payload, steady_mmio_per_payload, run_mmio_per_payload,
 * busiest_unit_busy; the definitions above) from
 * the window's stats s for case c; typed GOs are skipped. A figure with no
 * steady round is set to -1. Errors: SN_ERR_PROTOCOL when the payload GOs are
 * not c->payloads (the message names c and image); SN_ERR_INTERNAL out of
 * memory. */
sn_status sn_bench_figures_from_stats(const sn_bench_case *c, const sn_run_stats *s, const char *image,
                                      sn_bench_figures *f, sn_error *e);

/* Replays case_dir with image on a fresh simulated SysNode with every unit at
 * cu_version (4 or 5) and the CPU's DRAM latency at dram_latency cycles
 * (0..1000, sn_sim_config), capped at max_cycles, and fills *f. Returns SN_OK only
 * when the outputs match the case's expected bytes and the simulator saw
 * exactly c->payloads payload GOs; otherwise the replay's error
 * (SN_ERR_MISMATCH naming the file and offset, a runner error, a hang) or
 * SN_ERR_PROTOCOL for a payload GO count other than the case's. */
sn_status sn_bench_measure(const sn_bench_case *c, const char *case_dir, const char *image, unsigned cu_version,
                           unsigned dram_latency, uint64_t max_cycles, sn_bench_figures *f, sn_error *e);

#endif
