/* Which paths a command may write, half of the output rule (the other half,
 * how a file is written whole or not at all, is file_out.h): checked before
 * a command opens anything for writing or runs, so an output never replaces
 * an input, another output or something that is not a regular file. */
#ifndef SN_HOST_OUTPUT_CHECK_H
#define SN_HOST_OUTPUT_CHECK_H

#include <stddef.h>

#include "error.h"

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

#endif
