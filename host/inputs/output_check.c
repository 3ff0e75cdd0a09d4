/* No output over an input, nor two outputs on one file (see output_check.h). */
#define _XOPEN_SOURCE 700 /* lstat, realpath */
#include "output_check.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_read.h"
#include "manifest.h"

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
