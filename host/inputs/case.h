/* A case directory read once for everything a command does with it: its
 * manifest.json parsed once (sn_case_open) and its program loaded from that
 * manifest once (sn_case_program), kept for the replay, the output check,
 * the report, the timeline and --save-output. */
#ifndef SN_HOST_CASE_H
#define SN_HOST_CASE_H

#include "artifact.h"
#include "error.h"
#include "manifest.h"

typedef struct sn_case {
    sn_manifest m;        /* as sn_manifest_load left it, also after a failure (the files named so far) */
    sn_status m_status;   /* that load's status ... */
    sn_error m_err;       /* ... and its error */
    sn_program prog;      /* after sn_case_program */
    int prog_loaded;      /* 1 once sn_case_program succeeded */
} sn_case;

/* Parses case_dir/manifest.json into c (zeroed first; free with
 * sn_case_free, also after a failure) and returns the load's status,
 * which c keeps with its error for whoever reports it later (a replay
 * reports it where it would have read the manifest). Errors: those of
 * sn_manifest_load. */
sn_status sn_case_open(sn_case *c, const char *case_dir);

/* c's program (sn_program_load_manifest of c->m), loaded on the first call
 * and kept: *out points into c (a replay sets its rounds' settle flags,
 * settle.h). Errors: c's manifest error when it did not load; those of
 * sn_program_load_manifest, on every call (nothing is kept). */
sn_status sn_case_program(sn_case *c, sn_program **out, sn_error *e);

/* Frees everything c owns and zeroes it. */
void sn_case_free(sn_case *c);

#endif
