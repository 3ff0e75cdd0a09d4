/* What differs between an expected output and what the program left there:
 * counts of differing bytes and elements, the first differing elements
 * decoded in the region's element type (FP16 as value and bits, with row and
 * column when the manifest gives a shape; docs/manifest.md), and for FP16 the
 * largest absolute and ULP error. Filled by sn_replay_compare (replay_verdict.h),
 * printed by `sysnode run --diff N` and written into `--report` as
 * "mismatch" (docs/run-report.schema.json). */
#ifndef SN_HOST_MISMATCH_H
#define SN_HOST_MISMATCH_H

#include <stdint.h>
#include <stdio.h>

#include "manifest.h"

#define SN_DIFF_MAX 64     /* elements listed per region at most (--diff 0..64) */
#define SN_DIFF_REGIONS 8  /* differing regions described at most; the rest are counted */

typedef struct {
    uint64_t index;    /* element index in the region */
    uint32_t got, want;/* the element's bits (a byte, or an FP16 word) */
} sn_diff_elem;

typedef struct {
    char file[128];
    int32_t after_round;     /* a host step's compare after this round, -1 after the last */
    uint64_t addr, nbytes;
    int fp16;                /* 2-byte FP16 elements, else bytes */
    uint64_t rows, cols;     /* the manifest's shape, 0, 0 when none */
    uint64_t diff_bytes, diff_elems;
    uint64_t max_ulp, max_ulp_index;       /* FP16: the largest ULP distance and its element */
    double max_abs;                        /* FP16: the largest |got - want| (NaN elements left out) ... */
    uint64_t max_abs_index;                /* ... and its element */
    uint32_t listed;                       /* elem[0..listed): the first differing elements */
    sn_diff_elem elem[SN_DIFF_MAX];
} sn_region_diff;

typedef struct {
    uint64_t diff_bytes, diff_elems, elems; /* over every region compared */
    uint32_t region_count;                  /* regions with a difference ... */
    sn_region_diff regions[SN_DIFF_REGIONS];/* ... the first SN_DIFF_REGIONS of them */
    const sn_region *counted;               /* the last region past those, counted once over its pieces */
    int32_t counted_round;
} sn_mismatch;

/* Compares len bytes of what the program left (got) with the expected
 * bytes (want) at byte offset off of region x, whole elements only (off and
 * len even for FP16), adding to mm; limit: elements to list (0..SN_DIFF_MAX).
 * after_round as for the region's compare. No errors. */
void sn_mismatch_add(sn_mismatch *mm, const sn_region *x, int32_t after_round, uint64_t off, const uint8_t *got,
                     const uint8_t *want, uint64_t len, uint32_t limit);

/* Counts x's elements into mm->elems (once per region compared). */
void sn_mismatch_count_region(sn_mismatch *mm, const sn_region *x);

/* The FP16 word h as a double (subnormals, infinities and NaN included;
 * IEEE 754 binary16). */
double sn_fp16_value(uint16_t h);

/* Prints the listed elements and the largest errors of each region in mm,
 * two spaces in, one line each:
 *   FILE element I (row R, col C) at offset O (DRAM 0xA): got V (0xBITS), expected W (0xBITS), U ULP
 *   FILE: largest error E (at element I), largest ULP error U (at element J)
 * and how many differing elements were not listed. */
void sn_mismatch_print(FILE *f, const sn_mismatch *mm);

/* Writes mm as the report's "mismatch" object (docs/run-report.schema.json). */
void sn_mismatch_write_json(FILE *f, const sn_mismatch *mm);

#endif
