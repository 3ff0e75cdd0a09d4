/* Whole-file input for the host: a case file, a manifest, a packed table,
 * an image to flash, read into one heap buffer. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sn_status sn_file_read(const char *path, unsigned char **data, size_t *len, sn_error *e)
{
    if (path[0] == '\0') /* a message would name nothing: ": cannot open" */
        return sn_error_set(e, SN_ERR_IO, "the file's name is empty");
    /* O_NONBLOCK: opening a FIFO must not block before it can be refused. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return sn_error_set(e, SN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    return sn_file_read_fd(fd, path, data, len, e);
}

sn_status sn_file_read_fd(int fd, const char *path, unsigned char **data, size_t *len, sn_error *e)
{
    unsigned char *buf = NULL;
    size_t cap = 0;
    sn_status st = sn_file_read_fd_into(fd, path, &buf, &cap, len, e);
    if (st != SN_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    return SN_OK;
}

sn_status sn_file_read_fd_into(int fd, const char *path, unsigned char **buf, size_t *cap, size_t *len,
                               sn_error *e)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sn_error_set(e, SN_ERR_IO, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > SN_FILE_MAX_BYTES) {
        close(fd);
        return sn_error_set(e, SN_ERR_INPUT, "%s: %llu bytes, more than the %llu a case file may have", path,
                            (unsigned long long)st.st_size, (unsigned long long)SN_FILE_MAX_BYTES);
    }
    size_t size = (size_t)st.st_size;
    if (size + 1 > *cap) {
        unsigned char *grown = realloc(*buf, size + 1);
        if (grown == NULL) {
            close(fd);
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory reading %zu bytes", path, size);
        }
        *buf = grown;
        *cap = size + 1;
    }
    unsigned char *b = *buf;
    size_t n = 0;
    while (n < size) {
        ssize_t got = read(fd, b + n, size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            int err = got < 0 ? errno : 0;
            close(fd);
            return err ? sn_error_set(e, SN_ERR_IO, "%s: read failed: %s", path, strerror(err))
                       : sn_error_set(e, SN_ERR_IO, "%s: shrank while being read (%zu of %zu bytes)", path, n, size);
        }
        n += (size_t)got;
    }
    close(fd);
    b[n] = '\0';
    *len = n;
    return SN_OK;
}

int sn_path_is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}
