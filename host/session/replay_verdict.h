/* The verdict of a replay (DESIGN.md §1, §3; artifacts/FORMAT.md §6, §7):
 * how the runner exited (its status block, a trap, a hang), whether its
 * counts describe the program, its result digest, and the byte-for-byte
 * compare of the expected outputs, into one sn_replay_result. Used by the
 * replay (replay.h) and the device session (device.h), which sit above it. */
#ifndef SN_HOST_REPLAY_VERDICT_H
#define SN_HOST_REPLAY_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "artifact.h"
#include "error.h"
#include "manifest.h"
#include "mismatch.h"
#include "transport.h"
#include "sysnode/status_block.h"

/* Byte written over every expected-output byte no upload covers before
 * boot, so bytes left from an earlier run can never pass for results. */
#define SN_REPLAY_POISON 0xA5

typedef struct {
    char name[128];       /* the manifest's "name", or its start and "..." when longer (common/err_text.h) */
    uint32_t rounds;      /* rounds in the case's artifacts */
    uint32_t flits;       /* payloads the runner sent (its status block) */
    uint32_t completions; /* completions the runner counted */
    uint64_t cycles;      /* simulated CPU cycles from boot to exit */
    uint64_t instret;
    uint64_t table_addr;  /* where the packed table was written */
    uint64_t table_bytes;
    int digest_checked;   /* the runner's result CRC was compared (opts.digest) */
    uint32_t digest_got, digest_want;
    uint64_t output_bytes;
    uint64_t unchanged_bytes; /* expected bytes equal to what the host placed there before the run */
    int all_unchanged;    /* every expected byte is such a byte: no verdict (match is 0) */
    int match;            /* 1 when every expected byte came back */
    int32_t diff_round;   /* first difference: found after this round by a host step, -1 after the last */
    uint64_t diff_offset; /* first difference: offset in the expected file ... */
    uint64_t diff_addr;   /* ... its unit DRAM address ... */
    char diff_file[128];  /* ... the expected file it belongs to (cut with "...": common/err_text.h) ... */
    uint8_t got, want;    /* ... and both bytes */
    uint32_t diff_limit;  /* opts->diff, for the compares */
    sn_mismatch mismatch; /* every difference counted, the first diff_limit per region listed */
    uint32_t dropped_gos; /* GOs the mailbox lost (sn_run_status) */
    char inject[256];     /* what an injected fault did, or "" */
    char errata[512];     /* the core errata the run reproduced, a line each (sn_run_status) */
} sn_replay_result;

/* The unit DRAM address of the runner's status-block copy for a table of
 * table_bytes at table_addr: the first 64-byte beat at or after the table's
 * end (the table is 8-aligned, not always 64-aligned: `sysnode flash`); the
 * host sets SN_STATUS_COPY_BYTES aside there (artifacts/FORMAT.md §6, §7). */
uint64_t sn_replay_status_addr(uint64_t table_addr, uint64_t table_bytes);

/* How the run ended, in words: SN_OK for exit 0; the runner's error from
 * its status block sb (valid: the runner left one; the console otherwise),
 * with its exit status ("hang" only for the runner's own give-up); SN_ERR_TRAP
 * for a halt; SN_ERR_HANG for "stopped at the --max-cycles cap", with where
 * the runner was and the live counts (sim.h sn_sim_stop_where); SN_ERR_INTERNAL
 * for a simulation error (a signal: "interrupted (SIGINT) ..."). image names
 * the runner. */
sn_status sn_replay_run_status(const sn_run_status *r, const sn_status_block *sb, int valid, const char *console,
                               const char *image, sn_error *e);

/* Appends to e's message, for a unit fault in sb, the round, kick step and
 * slot of p's payload that caused it ("; the payload that faulted: round R
 * step S slot N"), where that is knowable (replay_verdict.c, fault_payload). */
void sn_replay_name_fault(const sn_status_block *sb, const sn_program *p, sn_error *e);

/* The flits t's kick steps send, over all rounds (what the runner's
 * flits_sent counts, FORMAT.md §7). Pure. */
uint64_t sn_replay_kicked_flits(const sn_table *t);

/* A --table file (bytes, n bytes) whose header opens (table_image.h) must
 * carry p's rounds and kicked flits: SN_ERR_INPUT naming path and both
 * counts otherwise, before anything runs (a table that does not open is
 * left to the runner's own checks, which name the fault). */
sn_status sn_replay_check_table_file(const char *path, const uint8_t *bytes, uint64_t n, const sn_program *p,
                                     sn_error *e);

/* The runner's counts in sb must describe p (its rounds and kicked flits);
 * sets res->flits and res->completions. SN_ERR_PROTOCOL when the image left
 * no status block or ran another program. */
sn_status sn_replay_check_summary(const sn_status_block *sb, int valid, const sn_program *p, const char *image,
                                  sn_replay_result *res, sn_error *e);

/* The CRC-32 the runner recorded in sb over the first expected output x as
 * it read it after its last round, against x's bytes; res->digest_* are set.
 * SN_ERR_MISMATCH (res->match 0) when they differ: the runner read bytes
 * that had not landed; SN_ERR_PROTOCOL when it recorded none. */
sn_status sn_replay_check_digest(const sn_status_block *sb, const sn_region *x, sn_replay_result *res, sn_error *e);

/* Compares regions x[0..n) (their data) with DRAM through t; after_round
 * names the round a host step compares after (-1: after the last round).
 * SN_OK on a match; SN_ERR_MISMATCH with res->match 0, the first
 * difference in res (file, offset, address, both bytes, diff_round) and in
 * e ("after round R: FILE: offset ..."), and every difference counted in
 * res->mismatch (the first res->diff_limit elements of each region listed);
 * or the transport's error.
 * res->output_bytes grows by the regions' bytes, res->unchanged_bytes by
 * those equal to what the host placed there before the run (the poison,
 * m's uploads before round 0 over it, the last winning, and fills[0..nfills),
 * the MXFP7 the FILL conversion wrote before the boot, over those, then
 * the uploads of every host step before this compare). After the last round (after_round -1),
 * SN_ERR_MISMATCH with res->all_unchanged when every expected byte compared
 * is such a byte: no verdict (docs/user-guide.md "Reading the verdict"). */
sn_status sn_replay_compare(sn_transport *t, const sn_manifest *m, const sn_region *fills, size_t nfills,
                            const sn_region *x, size_t n, int32_t after_round, sn_replay_result *res, sn_error *e);

#endif
