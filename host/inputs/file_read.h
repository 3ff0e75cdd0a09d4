/* Reads whole files for the host: artifacts, manifests, operands, packed
 * tables and images to flash. Only a regular file is read, never one that
 * could block (a FIFO or device), and no file over SN_FILE_MAX_BYTES. */
#ifndef SN_HOST_FILE_READ_H
#define SN_HOST_FILE_READ_H

#include <stddef.h>

#include "error.h"

/* The largest file a case may hand the host (operands of the largest
 * compiler case are 256 KB; DRAM is 16 MiB by default). */
#define SN_FILE_MAX_BYTES (1ull << 30)

/* Reads the whole file at `path` into a fresh heap buffer (*data, *len
 * bytes, plus a NUL after the end that *len does not count). The caller
 * frees *data. Only a regular file is read (a FIFO or device is refused
 * without blocking); SN_ERR_IO names the path and the system's reason;
 * SN_ERR_INPUT for a file over SN_FILE_MAX_BYTES. */
sn_status sn_file_read(const char *path, unsigned char **data, size_t *len, sn_error *e);

/* sn_file_read of the file already open as `fd` (O_NONBLOCK), labelled
 * `path`: one fstat, one buffer. Closes fd in every case. */
sn_status sn_file_read_fd(int fd, const char *path, unsigned char **data, size_t *len, sn_error *e);

/* sn_file_read_fd into the caller's buffer *buf of *cap bytes (NULL and 0
 * at first), regrown to the file's size plus its NUL when it is smaller:
 * a reader of many files in a row (a case's artifacts) allocates once per
 * larger file. *buf stays the caller's to free, also after a failure. */
sn_status sn_file_read_fd_into(int fd, const char *path, unsigned char **buf, size_t *cap, size_t *len,
                               sn_error *e);

/* 1 when path names a directory (a case directory among the inputs), else 0. */
int sn_path_is_dir(const char *path);

#endif
