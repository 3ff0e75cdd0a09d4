/* A replay session: one prebuilt runner image for every program. Through the
 * host window (transport.h) it loads the image, writes the case's operands,
 * the packed table (artifacts/FORMAT.md) and the boot arguments, poisons the
 * expected-output ranges, boots, waits for exit within a cycle cap, reads the
 * outputs back and compares them byte for byte (DESIGN.md §1, §3; the case
 * layout of artifacts-facts §5). */
#ifndef SN_HOST_REPLAY_H
#define SN_HOST_REPLAY_H

#include <stdint.h>

#include "error.h"
#include "transport.h"

/* Byte written over every expected-output byte no upload covers before
 * boot, so bytes left from an earlier run can never pass for results. */
#define SN_REPLAY_POISON 0xA5

/* The packed table goes at the top of DRAM, on a 4 KB boundary. */
#define SN_REPLAY_TABLE_ALIGN 4096u

typedef struct {
    const char *case_dir;
    const char *image;       /* runner ELF */
    uint64_t max_cycles;     /* CPU cycles before the run counts as a hang */
    int digest;              /* ask the runner to read back and CRC the first expected output */
    const char *table;       /* a packed table to run instead of packing the case's artifacts;
                                the host does not check it: the runner does, before any GO */
} sn_replay_opts;

typedef struct {
    char name[128];
    uint32_t rounds;      /* rounds in the case's artifacts */
    uint32_t flits;       /* payloads the runner sent (its console summary) */
    uint32_t completions; /* completions the runner counted */
    uint64_t cycles;      /* simulated CPU cycles from boot to exit */
    uint64_t instret;
    uint64_t table_addr;  /* where the packed table was written */
    uint64_t table_bytes;
    uint64_t mxfp7_regions; /* FILL regions converted from FP16 to MXFP7 */
    int digest_checked;   /* the runner's result CRC was compared (opts.digest) */
    uint32_t digest_got, digest_want;
    uint64_t output_bytes;
    uint64_t unchanged_bytes; /* expected bytes equal to what the host placed there before the run */
    int all_unchanged;    /* every expected byte is such a byte: no verdict (match is 0) */
    int match;            /* 1 when every expected byte came back */
    uint64_t diff_offset; /* first difference: offset in the expected file ... */
    uint64_t diff_addr;   /* ... its unit DRAM address ... */
    char diff_file[128];  /* ... the expected file it belongs to ... */
    uint8_t got, want;    /* ... and both bytes */
    uint32_t dropped_gos; /* GOs the mailbox lost (sn_run_status) */
    char inject[256];     /* what an injected fault did, or "" */
} sn_replay_result;

/* Replays opts->case_dir through t (opened by the caller). Returns SN_OK on a
 * byte-exact match, SN_ERR_MISMATCH when the outputs differ (res says where)
 * or when every expected byte equals the byte placed there before the run
 * (res->all_unchanged: a program that did nothing would pass),
 * or the error that stopped it (with opts->digest, also SN_ERR_MISMATCH when
 * the CRC the runner computed over the first expected output as it read it
 * after its last round differs from the expected bytes' CRC: what a consumer
 * on the SysNode would have read): SN_ERR_INPUT/SN_ERR_IO for a bad case or
 * image (nothing is written to the SysNode), the runner's own exit status
 * with its console line in e, SN_ERR_TRAP for a halt, SN_ERR_HANG when the
 * cycle cap passes, SN_ERR_INTERNAL for a simulation error. */
sn_status sn_replay_case(const sn_replay_opts *opts, sn_transport *t, sn_replay_result *res, sn_error *e);

#endif
