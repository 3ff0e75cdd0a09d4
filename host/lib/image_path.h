/* Where a tool finds the runner images when no --image is given: beside the
 * running program, in the build tree (<bin>/../firmware/NAME) or in an
 * installed prefix (<bin>/../lib/sysnode/NAME; docs/user-guide.md
 * "Installing"), so a tool copied or installed elsewhere still finds its
 * images or says where it looked. */
#ifndef SN_HOST_IMAGE_PATH_H
#define SN_HOST_IMAGE_PATH_H

#include <stddef.h>

#include "error.h"

/* Writes the resolved path (no "..", no symlinks) of image NAME (e.g.
 * "runner.elf") into out (n bytes). SN_ERR_IO naming both places looked at
 * and --image when neither holds it, or the program's own path is unknown. */
sn_status sn_image_default(const char *name, char *out, size_t n, sn_error *e);

#endif
