/* The run report (`sysnode run --report FILE.json`): one JSON object with the
 * verdict and exit code, cycles per round, payloads and completions per
 * node, MMIO counts and boot cycles, wall time, and each unit's busy cycles
 * beside the compiler's cost-model estimate (artifacts-facts §7) with the
 * difference, its first and last arrival (the feed busy reflects,
 * docs/DESIGN.md §6 "Busy cycles and the feed") and a note saying why they
 * differ. Schema:
 * docs/run-report.schema.json; fields in docs/user-guide.md "Seeing what happened". */
#ifndef SN_HOST_RUN_REPORT_H
#define SN_HOST_RUN_REPORT_H

#include "error.h"
#include "replay.h"
#include "transport.h"

typedef struct {
    const char *device;   /* "in-process", "sim", "xdma:..." */
    unsigned cu_version;  /* 4 or 5; 0 when not known (a card's units report their own) */
    sn_status status;     /* what sn_replay_case returned */
    const char *message;  /* its message ("" on a match) */
    int exit_code;        /* the CLI's exit code */
    double wall_seconds;  /* the whole replay: parse, pack, place, run, read back, compare */
} sn_report_run;

/* Writes the report for a replay of opts->case_dir, the case c, that t ran
 * (c and res as sn_replay_read_case left them) to path, whole or not at all
 * (file_out.h); c's program is loaded here if the replay stopped before it
 * (sn_case_program: the manifest is not read again). The counters come from
 * t's stats call; on a window without it (a card) the measured fields are
 * null; for a case whose program does not load (a cut artifact, a missing
 * manifest) "rounds" and "nodes" are null too and the message says why.
 * Errors: SN_ERR_IO naming path. */
sn_status sn_report_write(const char *path, const sn_replay_opts *opts, sn_case *c, const sn_replay_result *res,
                          const sn_report_run *run, sn_transport *t, sn_error *e);

#endif
