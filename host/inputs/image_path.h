/* Where a tool or the library finds the runner images when no image is
 * named: beside the running program or the loaded libsysnode, in the build
 * tree or in an installed prefix (docs/user-guide.md "Installing"), so a
 * copy or an install still finds its images, or says where it looked.
 *   program <bin>/sysnode:         <bin>/../firmware/NAME, <bin>/../lib/sysnode/NAME
 *   library <lib>/libsysnode.so.1: <lib>/../firmware/NAME, <lib>/sysnode/NAME */
#ifndef SN_HOST_IMAGE_PATH_H
#define SN_HOST_IMAGE_PATH_H

#include <stddef.h>

#include "error.h"

/* Writes the resolved path (no "..", no symlinks) of image NAME (e.g.
 * "runner.elf") beside the running program into out (n bytes). SN_ERR_IO
 * naming both places looked at and --image when neither holds it, or the
 * program's own path is unknown. */
sn_status sn_image_default(const char *name, char *out, size_t n, sn_error *e);

/* The same beside the shared object holding this code (libsysnode): for
 * the library and the Python package, whose program is the interpreter. */
sn_status sn_image_beside_library(const char *name, char *out, size_t n, sn_error *e);

#endif
