/* The output files a command writes after a run (sysnode run's --report,
 * --timeline, --fst, --trace; sysnode-bench's --json), checked before the
 * run starts, so a run never ends by destroying one of its own inputs or
 * failing to write what it measured. */
#ifndef SN_HOST_OUTPUT_PATHS_H
#define SN_HOST_OUTPUT_PATHS_H

#include <stddef.h>

#include "error.h"

typedef struct {
    const char *flag; /* "--report", for messages */
    const char *path; /* NULL: not asked for */
} sn_output_path;

/* Refuses (SN_ERR_INPUT, naming the flag and path) an output that:
 *  - exists and is not a regular file (a device such as /dev/full, a FIFO,
 *    a directory or a symlink: it would be replaced by a rename);
 *  - is the same file as one of inputs[0..ninputs) (an image, a table), as
 *    an existing file directly in one of input_dirs[0..ndirs) (a case
 *    directory: its manifest, artifacts and operands live there, by plain
 *    name), or as another output (the same existing file, or the same name
 *    in the same directory);
 *  - lies in a directory that does not exist or that this process cannot
 *    write (the file is created beside its path and renamed over it).
 * NULL entries of inputs and outputs are skipped. */
sn_status sn_output_paths_check(const sn_output_path *outputs, size_t noutputs, const char *const *inputs,
                                size_t ninputs, const char *const *input_dirs, size_t ndirs, sn_error *e);

#endif
