/* Writing an output file whole or not at all (see file_out.h). */
#define _POSIX_C_SOURCE 200809L /* fsync, lstat */
#include "file_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Creates a fresh temporary beside path; *tmp is heap, the caller frees it. */
static sn_status open_temp(const char *path, char **tmp, int *fd, sn_error *e)
{
    size_t n = strlen(path) + 48;
    *tmp = malloc(n);
    if (*tmp == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    /* O_EXCL: never reuse a name someone else holds; 0666 lets umask decide. */
    for (unsigned k = 0; k < 100; k++) {
        snprintf(*tmp, n, "%s.tmp.%ld.%u", path, (long)getpid(), k);
        *fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (*fd >= 0)
            return SN_OK;
        if (errno != EEXIST)
            return sn_error_set(e, SN_ERR_IO, "%s: cannot create a file there: %s", path, strerror(errno));
    }
    return sn_error_set(e, SN_ERR_IO, "%s: no free temporary name beside it", path);
}

static sn_status write_all(int fd, const char *path, const uint8_t *bytes, uint64_t n, sn_error *e)
{
    while (n > 0) {
        ssize_t got = write(fd, bytes, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return sn_error_set(e, SN_ERR_IO, "%s: write failed: %s", path, got < 0 ? strerror(errno) : "no progress");
        bytes += got;
        n -= (uint64_t)got;
    }
    return fsync(fd) == 0 ? SN_OK : sn_error_set(e, SN_ERR_IO, "%s: fsync failed: %s", path, strerror(errno));
}

sn_status sn_file_write_atomic(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e)
{
    struct stat st;
    if (path[0] == '\0')
        return sn_error_set(e, SN_ERR_IO, "empty output path");
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sn_error_set(e, SN_ERR_IO, "%s: exists and is not a regular file; not replacing it", path);
    char *tmp = NULL;
    int fd = -1;
    sn_status rc = open_temp(path, &tmp, &fd, e);
    if (rc == SN_OK) {
        rc = write_all(fd, path, bytes, n, e);
        if (close(fd) != 0 && rc == SN_OK)
            rc = sn_error_set(e, SN_ERR_IO, "%s: close failed: %s", path, strerror(errno));
        if (rc == SN_OK && rename(tmp, path) != 0)
            rc = sn_error_set(e, SN_ERR_IO, "%s: cannot replace it: %s", path, strerror(errno));
        if (rc != SN_OK)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}
