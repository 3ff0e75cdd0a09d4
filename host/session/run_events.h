/* What happened in a run, read from the window's counters (transport.h
 * sn_run_stats: the GO log, the completion log, each unit's busy spans)
 * against the program (artifact.h): every payload GO attributed to its round,
 * step, slot and txn, every completion to its round, each step's span on the
 * runner's track, each round's span, and the boot before the first GO. The
 * one source of the timeline (timeline.h) and the run report (run_report.h).
 * Attribution rules (DESIGN.md §2): the runner sends payloads in program
 * order, so the k-th payload GO is the k-th kicked slot; the mailbox numbers
 * every accepted GO from 0 as its 8-bit txn (typed probes included); a unit
 * issues its payloads in arrival order, so its k-th busy span is the k-th
 * payload sent to it; a node's BATCH_COMPLETEs come back in the order its
 * flits went, carrying their txn, so each is matched to its GO. All cycles
 * are CPU cycles from BOOT. */
#ifndef SN_HOST_RUN_EVENTS_H
#define SN_HOST_RUN_EVENTS_H

#include <stdint.h>

#include "artifact.h"
#include "error.h"
#include "transport.h"

typedef struct {
    uint64_t cycle;
    uint32_t round, step, slot; /* slot: the kick's first_slot + its index in the kick */
    uint8_t txn, x, y;
} sn_ev_go;

/* A step on the runner's track: a kick from its first GO to after its last;
 * an await or a barrier from the end of the step before to the pop that
 * satisfied it (end == start when it was satisfied already). */
typedef struct {
    uint64_t start, end;
    uint32_t round, step;
    uint8_t op, x, y; /* SN_STEP_*; x, y of a kick or await */
    uint32_t count;   /* a kick's flits, an await's completions */
} sn_ev_step;

typedef struct {
    uint64_t start;     /* its first payload GO */
    uint64_t steps_end; /* the end of its last step: the round-end drain and settle follow */
    uint64_t end;       /* the next round's first payload GO, or the exit */
    uint32_t payloads, completions;
} sn_ev_round;

typedef struct {
    uint64_t probe_start; /* the first GO of any kind: boot and table check end here */
    uint64_t first_payload_go;
    uint64_t end;         /* the exit */
    uint32_t round_count; /* the rounds the run reached */
    sn_ev_round *rounds;
    uint64_t go_count; /* payload GOs (typed probes not included) */
    sn_ev_go *gos;
    uint64_t step_count;
    sn_ev_step *steps;
    uint32_t *completion_round; /* per stats completion, its round */
    int64_t *completion_go;     /* per stats completion, the payload GO it completes (index in gos), or -1
                                   (a peer ack, a fault, or a txn that does not match) */
    /* each unit's k-th span is payload gos[unit_go[u][k]] */
    uint64_t *unit_go[SN_MESH_MAX_UNITS];
} sn_run_events;

/* Builds ev from a run (end_cycle: the cycles at its stop). stopped: the run
 * ended before the runner's exit (the cap, a signal, a runner error), so the
 * log may end early: ev then holds the rounds the run reached (round_count),
 * the steps up to the first kick it never began, each kick's GOs as far as
 * they went, and an await or barrier left waiting ends at end_cycle.
 * SN_ERR_PROTOCOL naming the counts when the log does not fit the program
 * (more payload GOs than the kicks send; fewer, when not stopped; a unit
 * with more spans than payloads sent to it); SN_ERR_INTERNAL when out of
 * memory. Free with sn_run_events_free in every case. */
sn_status sn_run_events_build(const sn_program *p, const sn_run_stats *s, uint64_t end_cycle, int stopped,
                              sn_run_events *ev, sn_error *e);
void sn_run_events_free(sn_run_events *ev);

#endif
