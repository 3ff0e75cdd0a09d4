/* The simulator's side of the host window (common/window.h): the in-process
 * simulated SysNode as a window, the simulated card's bus (common/card_bus.h),
 * and what a program asks of that simulator beyond the window (fault
 * injection, GDB, the FST dump, a stop on a signal). Only the programs that
 * compose the host's session with the simulator include it; the host's
 * libraries do not (docs/DESIGN.md §3). */
#ifndef SN_SIM_TRANSPORT_SIM_H
#define SN_SIM_TRANSPORT_SIM_H

#include <stdint.h>

#include "card_bus.h"
#include "error.h"
#include "window.h"

/* How the in-process simulator is built and watched. */
typedef struct {
    unsigned cu_version; /* every unit's CU_VERSION, 4 or 5; 0 = default 4 (DESIGN.md §6) */
    int lockstep;        /* nonzero: clock the mesh every cycle (sim/README.md, Clocking) */
    /* called about every 2^20 simulated cycles while the image runs, with the
     * cycles since BOOT and the rounds the runner has finished; may be NULL */
    void (*progress)(void *ctx, uint64_t cycles, uint32_t rounds_done);
    void *progress_ctx;
    unsigned dram_latency; /* DRAM latency L in cycles, the CPU's and the units' (sn_sim_config) */
} sn_sim_transport_opts;

/* The in-process simulator (sim/harness/sim.h) with the default mesh behind
 * the window, built as o says (NULL: the defaults). SN_ERR_INTERNAL when the
 * simulator cannot be created. */
sn_status sn_transport_sim_open(sn_transport *t, const sn_sim_transport_opts *o, sn_error *e);

/* Requests one injected fault for the runs of t, a transport from
 * sn_transport_sim_open: spec is "KIND[@ROUND:STEP|@CYCLE]"
 * (sim/harness/inject.h). SN_ERR_INPUT naming the spec and the kinds when it
 * is malformed. */
sn_status sn_transport_sim_inject(sn_transport *t, const char *spec, sn_error *e);

/* Checks an --inject spec before any transport exists: SN_OK, or
 * SN_ERR_INPUT naming the spec and the kinds, as sn_transport_sim_inject. */
sn_status sn_transport_sim_inject_check(const char *spec, sn_error *e);

/* The same, with the image run under GDB (sim/gdb/gdb_sim.h): listens on
 * 127.0.0.1:gdb_port at once (0: a free port, printed on stderr), and the
 * first wait serves GDB's remote protocol there before the image runs.
 * SN_ERR_INPUT naming --gdb and the port when it cannot be listened on. */
sn_status sn_transport_sim_open_gdb(sn_transport *t, const sn_sim_transport_opts *o, int gdb_port, sn_error *e);

/* The simulated card with a fresh SysNode (cu_version 0 = 4, as
 * sn_transport_sim_open), as a card bus whose sim operation is set.
 * SN_ERR_INTERNAL when it cannot be created. */
sn_status sn_card_bus_sim_open(sn_card_bus *b, unsigned cu_version, sn_error *e);

/* The simulator behind t, through its optional sim operation (window.h): an
 * in-process window's or the simulated card's under a card window; NULL for
 * another window (a card, a recorder). Owned by t; opaque here (tests may
 * include sim/harness/sim.h for its internals). */
struct sn_sim *sn_transport_sim_of(const sn_transport *t);

/* FP16 elements the unit at (x, y) clamped since BOOT (sn_sim_saturated) on
 * the in-process simulator t, or UINT64_MAX for another transport (a card
 * does not count them). */
uint64_t sn_transport_sim_saturated(const sn_transport *t, unsigned x, unsigned y);

/* Starts an FST dump of the mesh of t's simulator (sim/harness/sim.h
 * sn_sim_fst_open) into path, covering mesh cycles [from, to). SN_ERR_INPUT when t is
 * no simulated SysNode; SN_ERR_IO naming path when it cannot be written. */
sn_status sn_transport_sim_fst_open(const sn_transport *t, const char *path, uint64_t from, uint64_t to,
                                    sn_error *e);

/* Closes the FST dump of t's simulator, if one is open. SN_ERR_IO with the
 * dump's reason when its file could not be completed. */
sn_status sn_transport_sim_fst_close(const sn_transport *t, sn_error *e);

/* Async-signal-safe: every running simulation stops at its next mesh cycle
 * (the run ends as SN_RUN_SIM_ERROR) so a signal handler can close dumps and
 * write reports before exit. */
void sn_transport_sim_interrupt(int sig);

#endif
