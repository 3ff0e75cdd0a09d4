/* Where the sections of a packed table image start for a program of given
 * counts (artifacts/FORMAT.md §2-§3), for the packer and for the loaders
 * that refuse a case whose table could not fit before reading it all. */
#ifndef SN_HOST_TABLE_LAYOUT_H
#define SN_HOST_TABLE_LAYOUT_H

#include <stdint.h>

/* Byte offsets from the image's start: the 64-byte header, then 20 B per
 * round, 12 B per step aligned to 8, 32 B per payload aligned to 32, and
 * nothing after the payloads (total = the image's bytes). */
typedef struct {
    uint64_t rounds_off, steps_off, payloads_off, total;
} sn_table_layout;

/* The one layout of an image of these counts (FORMAT.md §3: each section
 * where the previous ends, aligned). Counts up to 2^32 each do not
 * overflow. */
sn_table_layout sn_table_layout_of(uint64_t rounds, uint64_t steps, uint64_t payloads);

#endif
