/* The run's timeline as a standalone SVG picture (`sysnode run --timeline
 * FILE.svg`), which any browser or image viewer opens offline: the same
 * events as the trace-event JSON (timeline.h, from run_events.h) on one time
 * axis in CPU cycles from BOOT. A row for the runner (boot, the unit probe,
 * each round, its kicks, awaits and barriers, the round-end drain and
 * settle, a tick per GO and per completion) and a row per unit (each
 * payload's busy span), the stop marked in red when the run did not end in
 * the runner's exit. Every mark carries its figures as data-* attributes
 * and a <title> tooltip, so a reader (or a test) can check it against the
 * verdict. */
#ifndef SN_HOST_TIMELINE_SVG_H
#define SN_HOST_TIMELINE_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "run_events.h"
#include "transport.h"

/* Writes the SVG of the run named name (s: the window's logs, ev: built from
 * them) that ended at end_cycle to f. stop: how the run stopped when it did
 * not end in the runner's exit (a cap, a signal, a runner error), else NULL.
 * Errors: none of its own; the caller checks ferror(f). */
void sn_timeline_svg(FILE *f, const char *name, const sn_run_stats *s, const sn_run_events *ev, uint64_t end_cycle,
                     const char *stop);

#endif
