/* The one rule for every file the host writes (the trace, packed tables,
 * generated headers): bytes go to a fresh temporary in the target's folder,
 * every write is checked, the file is flushed, fsync'ed and closed, and only
 * then renamed over the target. On an error, SIGINT or SIGTERM the temporary
 * is removed and an old file at the target stays as it was. An output that
 * is the same file (inode) as an input is refused before anything is opened
 * for writing. */
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

typedef struct {
    const char *flag; /* "--report", for messages */
    const char *path; /* NULL: not asked for */
} sn_output_path;

/* Checked before a command opens anything for writing or runs (sysnode
 * run's --report, --timeline, --fst, --trace; pack -o, header -o;
 * sysnode-bench's --json). Refuses (SN_ERR_INPUT, naming the flag and path)
 * an output that:
 *  - exists and is not a regular file (a device such as /dev/full, a FIFO,
 *    a directory or a symlink: it would be replaced by a rename);
 *  - is the same file as one of inputs[0..ninputs) (an image, a table; a
 *    case directory stands for its manifest and every file it names), as
 *    an existing file directly in one of input_dirs[0..ndirs) (a case
 *    directory: its manifest, artifacts and operands live there, by plain
 *    name), or as another output (the same existing file, or the same name
 *    in the same directory);
 *  - lies in a directory that does not exist or that this process cannot
 *    write (the file is created beside its path and renamed over it).
 * NULL entries of inputs and outputs are skipped. */
sn_status sn_output_paths_check(const sn_output_path *outputs, size_t noutputs, const char *const *inputs,
                                size_t ninputs, const char *const *input_dirs, size_t ndirs, sn_error *e);

/* SN_ERR_INPUT when out names an existing file that is the same file
 * (device and inode) as any of inputs[0..n) (each a file path; one that does
 * not exist is skipped): "OUT is the input INPUT; refusing to write over it".
 * SN_OK otherwise, and when out does not exist yet. */
sn_status sn_out_refuse_input(const char *out, const char *const *inputs, size_t n, sn_error *e);

/* Flushes stdout; SN_ERR_IO "writing to standard output failed: REASON" when
 * that or any earlier write to it failed (a full device, a closed pipe). */
sn_status sn_stdout_check(sn_error *e);

#endif
