/* The simulator's counters (sim.h sn_sim_get_stats) as a host window's stats
 * (transport.h sn_run_stats): shared by the in-process window and the
 * simulated card. */
#ifndef SN_HOST_TRANSPORT_SIM_STATS_H
#define SN_HOST_TRANSPORT_SIM_STATS_H

#include "sim.h"
#include "transport.h"

/* Owns the records last handed out. Zero-initialise. */
typedef struct {
    sn_go_record *gos;
    sn_completion_record *completions;
    sn_busy_span *spans[SN_MESH_MAX_UNITS];
} sn_sim_stats_copy;

/* Fills out's MMIO counts, GO and completion logs and unit busy spans from
 * sim (valid until the next take or free); out->wait_seconds is left to the
 * caller. SN_ERR_INTERNAL when out of memory. */
sn_status sn_sim_stats_copy_take(sn_sim_stats_copy *c, sn_sim *sim, sn_run_stats *out, sn_error *e);
void sn_sim_stats_copy_free(sn_sim_stats_copy *c);

#endif
