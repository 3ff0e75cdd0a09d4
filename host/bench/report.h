/* The benchmark's output: one row per case, printed as a text table or
 * written as JSON with the same figures (docs/DESIGN.md §12 defines every
 * column; measure.h the figures). */
#ifndef SN_BENCH_REPORT_H
#define SN_BENCH_REPORT_H

#include <stdio.h>

#include "error.h"
#include "measure.h"

/* The three images a row was measured with. */
typedef struct {
    const char *runner;
    const char *floor;
    const char *sendwait;
} sn_bench_images;

typedef struct {
    const char *dir;
    sn_bench_case c;
    sn_bench_figures runner, floor, sendwait;
    sn_status status;   /* SN_OK when all three replays matched and were measured */
    char error[512];    /* else the first failure, naming case and image */
} sn_bench_row;

/* Prints the table (cycles per payload, ratios runner ÷ floor and runner ÷
 * send-and-wait, the busiest unit's busy cycles and run ÷ them, wall time)
 * and, under it, every failed row's error. */
void sn_bench_print_table(FILE *out, const sn_bench_row *rows, size_t n, unsigned cu_version,
                          const sn_bench_images *images);

/* Writes the same figures as JSON to path, whole or not at all
 * (sn_file_write_atomic). A figure that does not apply (no steady round) is
 * null. Errors: SN_ERR_IO naming path; SN_ERR_INTERNAL out of memory. */
sn_status sn_bench_write_json(const char *path, const sn_bench_row *rows, size_t n, unsigned cu_version,
                              const sn_bench_images *images, sn_error *e);

#endif
