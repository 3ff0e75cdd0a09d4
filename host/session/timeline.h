/* The run's timeline (`sysnode run --timeline FILE`) as Chrome trace-event
 * JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open. One
 * process, the SysNode; one track for the runner (boot and table check, the
 * unit probe, each round, its kicks, awaits and barriers, the round-end drain
 * and settle; every GO and completion as an instant with round, step, slot,
 * node and txn) and one track per unit (each payload's busy span). Built
 * from run_events.h. One viewer microsecond is one CPU cycle from BOOT. The
 * same events as SVG: timeline_svg.h. */
#ifndef SN_HOST_TIMELINE_H
#define SN_HOST_TIMELINE_H

#include "error.h"
#include "replay.h"
#include "transport.h"

/* Writes the timeline of the replay of the case c that t just ran (c and
 * res as sn_replay_read_case left them; c's program not loaded again) to
 * path, whole or not at all: an SVG picture when
 * path ends in ".svg" (timeline_svg.h), else trace-event JSON. stop: NULL
 * when the run ended in the runner's exit, else how it stopped (the error's
 * message: a hang, a fault, a refused table, the cap, a signal), marked at
 * the stop's cycle on the runner track (a "stop" instant with "how"), the
 * timeline then running up to there. SN_ERR_INPUT when t keeps no logs (a
 * card) or nothing ran; SN_ERR_PROTOCOL when the logs do not fit the program
 * (run_events.h); SN_ERR_IO naming path. */
sn_status sn_timeline_write(const char *path, sn_case *c, const sn_replay_result *res, const char *stop,
                            sn_transport *t, sn_error *e);

#endif
