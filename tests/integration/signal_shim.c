/* LD_PRELOAD shim for outputs.py: sends a signal at the worst moments of the
 * output rule (docs/user-guide.md "Output files"). SN_SIGNAL_AT=POINT:SIGNUM, POINT one of
 *   fsync     the first fsync: the temporary holds every byte, the target is
 *             not yet replaced (pack and header finish too soon for a timer);
 *   tmp_open  right after the open that creates a `.tmp.` file, sent to the
 *             process (as kill(1) does), so that any thread not holding the
 *             signal takes it: in a multithreaded run, not the writer. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The signal number when SN_SIGNAL_AT names point, else 0. */
static int signal_at(const char *point)
{
    const char *at = getenv("SN_SIGNAL_AT");
    size_t n = strlen(point);
    return at != NULL && strncmp(at, point, n) == 0 && at[n] == ':' ? atoi(at + n + 1) : 0;
}

int fsync(int fd)
{
    int sig = signal_at("fsync");
    if (sig != 0)
        raise(sig);
    int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return next(fd);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    int (*next)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    int fd = next(path, flags, mode);
    int sig = signal_at("tmp_open");
    if (sig != 0 && fd >= 0 && strstr(path, ".tmp.") != NULL) {
        kill(getpid(), sig);
        usleep(200000); /* time for another thread to take it */
    }
    return fd;
}
