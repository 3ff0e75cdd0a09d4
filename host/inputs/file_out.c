/* Writing an output file whole or not at all (see file_out.h). */
#define _XOPEN_SOURCE 700 /* fsync, lstat, sigprocmask, realpath */
#include "file_out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err_text.h"
#include "signal_catch.h"

/* Temporaries a signal must remove. A command writes one output at a time;
 * a few slots leave room. */
#define MAX_PENDING 8
static char *volatile pending[MAX_PENDING];

static void remove_pending_and_die(int sig)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending[i] != NULL)
            unlink(pending[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig); /* die of the signal, as without the handler */
}

/* Adds (tmp != NULL) or removes a temporary from the list. A slot changes
 * by one pointer store, so a handler on any thread sees a whole name or
 * none; the lock keeps two threads (--jobs workers) off one slot. The
 * first call installs the handler for the whole process, where the signal
 * is neither ignored nor the command's own (signal_catch.h). */
static int track(char *tmp, const char *untrack)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int installed;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    pthread_mutex_lock(&lock);
    if (!installed) {
        sn_signal_catch(remove_pending_and_die, false);
        installed = 1;
    }
    int ok = tmp == NULL;
    for (int i = 0; i < MAX_PENDING; i++) {
        if (tmp != NULL && !ok && pending[i] == NULL) {
            pending[i] = tmp;
            ok = 1;
        } else if (untrack != NULL && pending[i] == untrack) {
            pending[i] = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok ? 0 : -1;
}

/* SIGINT and SIGTERM wait while a temporary is created and tracked, or
 * untracked and removed: a signal between the two would leave it behind. */
static void hold_signals(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, old);
}

static void release(sn_out *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

sn_status sn_out_open(sn_out *o, const char *path, sn_error *e)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    if (path[0] == '\0')
        return sn_error_set(e, SN_ERR_IO, "empty output path");
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sn_error_set(e, SN_ERR_IO, "%s: exists and is not a regular file; not replacing it", path);
    size_t n = strlen(path) + 48;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (o->path == NULL || o->tmp == NULL) {
        release(o);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    }
    int fd = -1, err = 0;
    sigset_t old;
    hold_signals(&old);
    /* Each name is tracked before it is created: the held signals are this
     * thread's only, and another thread (the simulator's, a --jobs worker)
     * may take one while the file exists. O_EXCL: never reuse a name
     * someone else holds (a name found taken is untracked at once); 0666
     * lets umask decide. */
    int full = 0;
    for (unsigned k = 0; fd < 0 && err == 0 && !full && k < 100; k++) {
        sn_text_fit(o->tmp, n, "%s.tmp.%ld.%u", path, (long)getpid(), k);
        if (track(o->tmp, NULL) != 0) {
            full = 1;
            break;
        }
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            track(NULL, o->tmp);
            if (errno != EEXIST)
                err = errno;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        release(o);
        return err    ? sn_error_set(e, SN_ERR_IO, "%s: cannot create a file there: %s", path, strerror(err))
               : full ? sn_error_set(e, SN_ERR_INTERNAL, "%s: more than %d outputs open at once", path, MAX_PENDING)
                      : sn_error_set(e, SN_ERR_IO, "%s: no free temporary name beside it", path);
    }
    o->f = fdopen(fd, "wb");
    if (o->f == NULL) {
        close(fd);
        sn_out_abort(o);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    }
    return SN_OK;
}

void sn_out_abort(sn_out *o)
{
    if (o->f != NULL)
        fclose(o->f);
    if (o->tmp != NULL) {
        sigset_t old;
        hold_signals(&old);
        unlink(o->tmp); /* before untracking: a signal on another thread in between removes nothing */
        track(NULL, o->tmp);
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    release(o);
}

sn_status sn_out_commit(sn_out *o, sn_error *e)
{
    const char *why = NULL;
    int err = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        why = "write failed", err = errno;
    else if (fsync(fileno(o->f)) != 0)
        why = "fsync failed", err = errno;
    int closed = fclose(o->f);
    o->f = NULL;
    if (why == NULL && closed != 0)
        why = "close failed", err = errno;
    if (why == NULL && rename(o->tmp, o->path) != 0)
        why = "cannot replace it", err = errno;
    if (why != NULL) {
        sn_error_set(e, SN_ERR_IO, "%s: %s: %s; the old file (if any) is untouched", o->path, why,
                     err ? strerror(err) : "unknown error");
        sn_out_abort(o);
        return SN_ERR_IO;
    }
    track(NULL, o->tmp);
    release(o);
    return SN_OK;
}

sn_status sn_file_write_atomic(const char *path, const uint8_t *bytes, uint64_t n, sn_error *e)
{
    sn_out o;
    sn_status st = sn_out_open(&o, path, e);
    if (st != SN_OK)
        return st;
    if (n > 0 && fwrite(bytes, 1, n, o.f) != n) {
        int err = errno;
        sn_out_abort(&o);
        return sn_error_set(e, SN_ERR_IO, "%s: write failed: %s; the old file (if any) is untouched", path,
                            strerror(err));
    }
    return sn_out_commit(&o, e);
}

sn_status sn_stdout_check(sn_error *e)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return sn_error_set(e, SN_ERR_IO, "writing to standard output failed: %s",
                            errno ? strerror(errno) : "unknown error");
    return SN_OK;
}
