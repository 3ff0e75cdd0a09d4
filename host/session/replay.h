/* A replay session: one prebuilt runner image for every program. Through the
 * host window (window.h) it poisons the expected-output ranges, writes the
 * case's operands, loads the image, writes the packed table
 * (artifacts/FORMAT.md) and the boot arguments, boots, does the case's host
 * steps at the runner's sync points (FORMAT.md §9), waits for exit within a
 * cycle cap, reads the outputs back and compares them byte for byte
 * (DESIGN.md §1, §3; the case layout of artifacts-facts §5). */
#ifndef SN_HOST_REPLAY_H
#define SN_HOST_REPLAY_H

#include <stdint.h>

#include "artifact.h"
#include "case.h"
#include "device.h"
#include "error.h"
#include "manifest.h"
#include "replay_verdict.h"
#include "transport.h"

typedef struct {
    const char *case_dir;
    const char *image;       /* runner ELF */
    uint64_t max_cycles;     /* CPU cycles before the run counts as a hang */
    int digest;              /* ask the runner to read back and CRC the first expected output */
    const char *table;       /* a packed table to run instead of packing the case's artifacts;
                                the host does not check it: the runner does, before any GO */
    int strict;              /* a unit read of bytes no upload or round wrote is an error (device.h) */
    sn_device_warn_fn warn;  /* else it is reported here (NULL: not at all) */
    void *warn_ctx;
    uint32_t diff;           /* differing elements to list per region (mismatch.h), 0..SN_DIFF_MAX */
} sn_replay_opts;

/* Replays opts->case_dir through t (opened by the caller). Returns SN_OK on a
 * byte-exact match, SN_ERR_MISMATCH when the outputs differ (res says where)
 * or when every expected byte equals the byte placed there before the run
 * (res->all_unchanged: a program that did nothing would pass),
 * or the error that stopped it (with opts->digest, also SN_ERR_MISMATCH when
 * the CRC the runner computed over the first expected output as it read it
 * after its last round differs from the expected bytes' CRC: what a consumer
 * on the SysNode would have read): SN_ERR_INPUT/SN_ERR_IO for a bad case or
 * image (nothing is written to the SysNode; a case with host steps on a
 * window whose host_steps_refused names a reason, and --digest on a case
 * that compares only at host steps, are refused before any file is read),
 * the runner's own exit status
 * with its status block worded in e, SN_ERR_TRAP for a halt, SN_ERR_HANG when the
 * cycle cap passes, SN_ERR_INTERNAL for a simulation error. */
sn_status sn_replay_case(const sn_replay_opts *opts, sn_transport *t, sn_replay_result *res, sn_error *e);

/* sn_replay_case of a case the caller opened (sn_case_open of
 * opts->case_dir) and keeps for what follows the run: the manifest read
 * once, its data read into c->m and its program loaded into c (settle flags
 * set), neither read again. c's manifest error, when it did not load, is
 * reported here, where the replay would have read it. Errors: those of
 * sn_replay_case. */
sn_status sn_replay_read_case(const sn_replay_opts *opts, sn_transport *t, sn_case *c, sn_replay_result *res,
                              sn_error *e);

/* sn_replay_case after the case is loaded (m read, p from
 * sn_case_program, the mesh checked): every expected output of every
 * point poisoned, then the uploads before round 0 written, FILLs converted,
 * one BOOT; at each host step the runner holds (device.h), the step's
 * expected outputs are compared (a difference is SN_ERR_MISMATCH naming the
 * round, res->diff_round), its uploads written and the runner released; the
 * run ends with the compare after the last round. opts->table replaces the
 * packed table. Errors: those of sn_replay_case; SN_ERR_INPUT for an
 * expected output at the top of DRAM where the table goes, an upload over
 * the table, or a FILL of bytes no earlier upload wrote (all before anything
 * is written); SN_ERR_PROTOCOL when the runner exits before a host step. */
sn_status sn_replay_program(const sn_replay_opts *opts, sn_transport *t, const sn_manifest *m, const sn_program *p,
                            sn_replay_result *res, sn_error *e);

#endif
