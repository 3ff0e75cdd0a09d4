/* The one rule for every file the host writes (the trace, packed tables,
 * generated headers): bytes go to a fresh temporary in the target's folder,
 * every write is checked, the file is flushed, fsync'ed and closed, and only
 * then renamed over the target. On an error, SIGINT or SIGTERM the temporary
 * is removed and an old file at the target stays as it was. Which paths a
 * command may write is output_check.h's rule. */
#ifndef SN_HOST_FILE_OUT_H
#define SN_HOST_FILE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* An output file being written. */
typedef struct sn_out {
    char *path; /* the target, as given (heap) */
    char *tmp;  /* the temporary beside it (heap); NULL once committed or aborted */
    FILE *f;    /* writes go here */
} sn_out;

/* Opens a fresh temporary "PATH.tmp.PID.N" beside path (O_EXCL) for
 * writing and registers it for removal on SIGINT and SIGTERM. Refuses
 * (SN_ERR_IO, naming path) an empty path and one that exists and is not a
 * regular file (a device, FIFO, directory or symlink); SN_ERR_IO with the
 * system's reason when the folder takes no file. *o is zeroed on failure. */
sn_status sn_out_open(sn_out *o, const char *path, sn_error *e);

/* Flushes, fsyncs and closes the temporary, then renames it over the target.
 * SN_ERR_IO naming the target when any write since sn_out_open failed or any
 * of these steps fails; the temporary is then removed and the target left as
 * it was. Frees what *o owns in every case. */
sn_status sn_out_commit(sn_out *o, sn_error *e);

/* Closes and removes the temporary, leaving the target as it was; frees what
 * *o owns. Safe on a zeroed, committed or aborted sn_out. */
void sn_out_abort(sn_out *o);

/* Writes bytes[0..n) to path through sn_out_open / sn_out_commit. Errors as
 * theirs. */
sn_status sn_file_write_atomic(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e);

/* Flushes stdout; SN_ERR_IO "writing to standard output failed: REASON" when
 * that or any earlier write to it failed (a full device, a closed pipe). */
sn_status sn_stdout_check(sn_error *e);

#endif
