/* See image_path.h. */
#define _GNU_SOURCE /* dladdr, realpath */
#include "image_path.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err_text.h"

/* The first of dir/places[i]/name that exists, resolved into out. */
static sn_status find(const char *dir, const char *const places[2], const char *name, const char *pass, char *out,
                      size_t n, sn_error *e)
{
    char tried[2][PATH_MAX], real[PATH_MAX];
    for (size_t i = 0; i < 2; i++) {
        sn_text_fit(tried[i], sizeof tried[i], places[i], dir, name);
        if (realpath(tried[i], real) != NULL && strlen(real) < n) {
            memcpy(out, real, strlen(real) + 1);
            return SN_OK;
        }
    }
    return sn_error_set(e, SN_ERR_IO, "cannot find the runner image %s (looked for %s and %s); pass %s", name,
                        tried[0], tried[1], pass);
}

sn_status sn_image_default(const char *name, char *out, size_t n, sn_error *e)
{
    static const char *const places[2] = {"%s/../firmware/%s", "%s/../lib/sysnode/%s"}; /* build tree, prefix */
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0)
        return sn_error_set(e, SN_ERR_IO, "cannot find the runner image %s: this program's own path is unknown; "
                            "pass --image ELF", name);
    exe[len] = '\0';
    return find(dirname(exe), places, name, "--image ELF", out, n, e);
}

sn_status sn_image_beside_library(const char *name, char *out, size_t n, sn_error *e)
{
    static const char *const places[2] = {"%s/../firmware/%s", "%s/sysnode/%s"}; /* build tree, prefix */
    Dl_info info;
    char lib[PATH_MAX];
    if (dladdr((void *)sn_image_beside_library, &info) == 0 || !info.dli_fname ||
        realpath(info.dli_fname, lib) == NULL)
        return sn_error_set(e, SN_ERR_IO, "cannot find the runner image %s: the library's own path is unknown; "
                            "name an image (SYSNODE_IMAGE)", name);
    return find(dirname(lib), places, name, "an image (SYSNODE_IMAGE, or the image option)", out, n, e);
}
