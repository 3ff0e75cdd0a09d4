/* The embedded table as C source: `sysnode header` turns a program into a
 * header the firmware image compiles in (DESIGN.md §7; the layout is
 * iface/sysnode/table.h). */
#ifndef SN_HOST_CTABLE_H
#define SN_HOST_CTABLE_H

#include <stdio.h>

#include "artifact.h"
#include "error.h"

/* Writes the header text for program p to `out`: a banner naming the
 * generator and every round's artifact file, `#include "sysnode/table.h"`,
 * then static const arrays sn_embedded_rounds, sn_embedded_steps and
 * sn_embedded_payloads (payload rows as four hex words {ARG3, ARG2, ARG1,
 * ARG0}) and `static const sn_table sn_embedded_table`. An empty step or
 * payload list is emitted as a NULL pointer (C has no empty arrays). The
 * text compiles freestanding; the including file must use
 * sn_embedded_table. SN_ERR_IO if writing fails (message names `label`). */
sn_status sn_ctable_write(FILE *out, const char *label, const sn_program *p, sn_error *e);

/* Writes the header to `path` atomically: a temporary file in the same
 * directory, flushed and renamed over `path`, so a failure leaves any old
 * file untouched and no partial one. SN_ERR_IO names the path and reason. */
sn_status sn_ctable_write_file(const char *path, const sn_program *p, sn_error *e);

#endif
