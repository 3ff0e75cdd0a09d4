/* See image_path.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "image_path.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

sn_status sn_image_default(const char *name, char *out, size_t n, sn_error *e)
{
    static const char *const places[] = {"%s/../firmware/%s", "%s/../lib/sysnode/%s"}; /* build tree, prefix */
    char exe[PATH_MAX], tried[2][PATH_MAX], real[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0)
        return sn_error_set(e, SN_ERR_IO, "cannot find the runner image %s: this program's own path is unknown; "
                            "pass --image ELF", name);
    exe[len] = '\0';
    char *dir = dirname(exe);
    for (size_t i = 0; i < 2; i++) {
        snprintf(tried[i], sizeof tried[i], places[i], dir, name);
        if (realpath(tried[i], real) != NULL) {
            if (strlen(real) >= n)
                break;
            memcpy(out, real, strlen(real) + 1);
            return SN_OK;
        }
    }
    return sn_error_set(e, SN_ERR_IO, "cannot find the runner image %s (looked for %s and %s); pass --image ELF",
                        name, tried[0], tried[1]);
}
