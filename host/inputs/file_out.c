/* Writing an output file whole or not at all (see file_out.h). */
#define _XOPEN_SOURCE 700 /* fsync, lstat, sigprocmask, realpath */
#include "file_out.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"
#include "pack_inputs.h"
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
        snprintf(o->tmp, n, "%s.tmp.%ld.%u", path, (long)getpid(), k);
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

sn_status sn_out_refuse_input(const char *out, const char *const *inputs, size_t n, sn_error *e)
{
    struct stat o, in;
    if (stat(out, &o) != 0)
        return SN_OK; /* nothing there yet to destroy */
    for (size_t i = 0; i < n; i++)
        if (stat(inputs[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino)
            return sn_error_set(e, SN_ERR_INPUT, "%s is the input %s; refusing to write over it", out, inputs[i]);
    return SN_OK;
}

sn_status sn_stdout_check(sn_error *e)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return sn_error_set(e, SN_ERR_IO, "writing to standard output failed: %s",
                            errno ? strerror(errno) : "unknown error");
    return SN_OK;
}

/* The directory part of path, resolved (realpath), into dir[PATH_MAX]; -1 with errno. */
static int parent_of(const char *path, char *dir)
{
    char copy[PATH_MAX];
    if (strlen(path) >= sizeof copy) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(copy, path);
    return realpath(dirname(copy), dir) ? 0 : -1;
}

static const char *base_of(const char *path, char *copy)
{
    strcpy(copy, path); /* parent_of checked the length */
    return basename(copy);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The same output named twice: the same existing file, or the same name in the same directory. */
static int same_output(const sn_output_path *a, const sn_output_path *b)
{
    struct stat sa, sb;
    if (stat(a->path, &sa) == 0 && stat(b->path, &sb) == 0)
        return same_file(&sa, &sb);
    char da[PATH_MAX], db[PATH_MAX], ca[PATH_MAX], cb[PATH_MAX];
    return parent_of(a->path, da) == 0 && parent_of(b->path, db) == 0 && strcmp(da, db) == 0 &&
           strcmp(base_of(a->path, ca), base_of(b->path, cb)) == 0;
}

/* SN_ERR_INPUT when the existing output (its stat *st) is the same file as
 * input, or, for a case directory, as its manifest or any file it names
 * (manifest.h; a manifest that does not load gives the files named so far,
 * the command refuses it itself). */
static sn_status refuse_over_input(const sn_output_path *o, const struct stat *st, const char *input, sn_error *e)
{
    struct stat in;
    if (!sn_path_is_dir(input)) {
        if (stat(input, &in) == 0 && same_file(st, &in))
            return sn_error_set(e, SN_ERR_INPUT, "%s %s is the input %s; refusing to write over it", o->flag,
                                o->path, input);
        return SN_OK;
    }
    sn_manifest m;
    char **paths = NULL;
    size_t count = 0;
    sn_status res = SN_OK;
    sn_manifest_load(&m, input, NULL);
    if (sn_manifest_input_paths(&m, &paths, &count, e) != SN_OK)
        res = SN_ERR_INTERNAL;
    for (size_t k = 0; res == SN_OK && k < count; k++)
        if (stat(paths[k], &in) == 0 && same_file(st, &in))
            res = sn_error_set(e, SN_ERR_INPUT, "%s %s is the input %s; refusing to write over it", o->flag,
                               o->path, paths[k]);
    for (size_t k = 0; paths != NULL && k < count; k++)
        free(paths[k]);
    free(paths);
    sn_manifest_free(&m);
    return res;
}

static sn_status check_one(const sn_output_path *o, const char *const *inputs, size_t ninputs,
                           const char *const *input_dirs, size_t ndirs, sn_error *e)
{
    struct stat st;
    char dir[PATH_MAX];
    if (o->path[0] == '\0')
        return sn_error_set(e, SN_ERR_INPUT, "%s: an empty path", o->flag);
    if (parent_of(o->path, dir) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s %s: its directory is not there: %s", o->flag, o->path,
                            strerror(errno));
    if (access(dir, W_OK | X_OK) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s %s: cannot create files in %s: %s", o->flag, o->path, dir,
                            strerror(errno));
    if (lstat(o->path, &st) != 0)
        return SN_OK; /* a new file */
    if (!S_ISREG(st.st_mode))
        return sn_error_set(e, SN_ERR_INPUT, "%s %s: exists and is not a regular file; not replacing it", o->flag,
                            o->path);
    for (size_t i = 0; i < ninputs; i++) {
        sn_status refused = inputs[i] ? refuse_over_input(o, &st, inputs[i], e) : SN_OK;
        if (refused != SN_OK)
            return refused;
    }
    for (size_t i = 0; i < ndirs; i++) {
        char case_dir[PATH_MAX];
        if (input_dirs[i] && realpath(input_dirs[i], case_dir) && strcmp(case_dir, dir) == 0)
            return sn_error_set(e, SN_ERR_INPUT, "%s %s: is a file of the case directory %s, where the case's "
                                "inputs are; not replacing it (write it elsewhere)", o->flag, o->path,
                                input_dirs[i]);
    }
    return SN_OK;
}

sn_status sn_output_paths_check(const sn_output_path *outputs, size_t noutputs, const char *const *inputs,
                                size_t ninputs, const char *const *input_dirs, size_t ndirs, sn_error *e)
{
    for (size_t i = 0; i < noutputs; i++) {
        if (!outputs[i].path)
            continue;
        sn_status st = check_one(&outputs[i], inputs, ninputs, input_dirs, ndirs, e);
        if (st != SN_OK)
            return st;
        for (size_t j = 0; j < i; j++)
            if (outputs[j].path && same_output(&outputs[i], &outputs[j]))
                return sn_error_set(e, SN_ERR_INPUT, "%s %s and %s %s: the same file", outputs[j].flag,
                                    outputs[j].path, outputs[i].flag, outputs[i].path);
    }
    return SN_OK;
}
