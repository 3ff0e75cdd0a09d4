/* Every message about a table or a runner run, worded in one place for
 * `sysnode`, `sysnode-sim` and the tests. The firmware reports facts (a
 * table fault, a table-image fault, its status block); this module turns
 * them into words. Each function writes a NUL-terminated message into buf
 * (size bytes, size >= 1; one that does not fit ends in "...", err_text.h)
 * and returns buf. */
#ifndef SN_HOST_MESSAGES_H
#define SN_HOST_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "sysnode/status_block.h"
#include "sysnode/table_image.h"
#include "table_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "round R step S: <rule in words>" for a broken table rule
 * (common/table_check.h; DESIGN.md §2), e.g. "round 0 step 1: kick
 * passes the round's payloads: ends at slot 27, limit 26". */
char *sn_table_fault_describe(const sn_table_fault *fault, char *buf, size_t size);

/* "table: <check> <value>, <expected>" for a failed table-image check
 * (artifacts/FORMAT.md §4), e.g. "table: structure hash 0x1234 at offset
 * 0x30, computed 0x9f00", or for check 15 "table: round 3's payload hash
 * 0x1234 at offset 0xb8, computed 0x9f00". */
char *sn_table_image_describe(const sn_table_image_fault *f, char *buf, size_t size);

/* The runner's first error from its status block (artifacts/FORMAT.md §7):
 * "ok" when none; otherwise the round, step and node, the values the error
 * carries, and for a hang one line per unit still owed completions
 * (awaited, received, owed, flits outstanding). */
char *sn_runner_describe(const sn_status_block *s, char *buf, size_t size);

/* The runner's phase (enum sn_phase, sysnode/status_block.h) in words, e.g.
 * "awaiting completions"; "phase N" for a value the runner never writes. */
char *sn_phase_describe(uint32_t phase, char *buf, size_t size);

/* Where a stopped run was, for a stop the runner did not report itself (the
 * --max-cycles cap, SIGINT): "runner at round R step S, PHASE", from its
 * status block s, which it keeps current as it goes (FORMAT.md §7). */
char *sn_runner_where(const sn_status_block *s, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
