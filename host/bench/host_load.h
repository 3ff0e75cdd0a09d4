/* The host side of a replay, in process: reading, checking and packing a
 * case's artifacts (sn_program_load_case + sn_pack_program), timed over many
 * repetitions (docs/DESIGN.md §14). */
#ifndef SN_BENCH_HOST_LOAD_H
#define SN_BENCH_HOST_LOAD_H

#include "error.h"

/* Loads, validates and packs the case at case_dir `reps` times (1..1000)
 * and stores the median wall time of one repetition in seconds in *median.
 * Errors: those of sn_program_load_case and sn_pack_program (the first
 * repetition's), SN_ERR_INPUT for reps outside 1..1000. */
sn_status sn_bench_host_load(const char *case_dir, unsigned reps, double *median, sn_error *e);

#endif
