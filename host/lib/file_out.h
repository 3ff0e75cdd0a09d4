/* Writing an output file whole or not at all: the host's generated headers
 * and packed tables go through here, so a failure never leaves a partial
 * file and never replaces what is not a regular file. */
#ifndef SN_HOST_FILE_OUT_H
#define SN_HOST_FILE_OUT_H

#include <stdint.h>

#include "error.h"

/* Writes bytes[0..n) to path: into a fresh temporary beside it (O_EXCL),
 * fsync'ed, then renamed over it; the temporary is removed on failure.
 * Refuses (SN_ERR_IO) a path that exists and is not a regular file (a
 * device, FIFO, directory or symlink), naming it. Errors name path, not the
 * temporary, with the system's reason. */
sn_status sn_file_write_atomic(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e);

#endif
