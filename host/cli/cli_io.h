/* What every sysnode subcommand does at its edges: print an error safely,
 * refuse an output that would destroy an input, check standard output. */
#ifndef SN_CLI_IO_H
#define SN_CLI_IO_H

#include <stddef.h>

#include "error.h"

/* Prints "sysnode CMD: MSG" on stderr with MSG's control characters escaped
 * and its later lines indented (host/lib/escape.h). Returns 1, the exit code
 * of a failed command. */
int sn_cli_error(const char *cmd, const char *msg);

/* SN_ERR_INPUT when out is the same file as any input of the command:
 * inputs[0..n) are files or case directories (a directory stands for its
 * manifest and every file it names, manifest.h); NULL entries are skipped.
 * Run it before anything is opened for writing. A case directory whose
 * manifest cannot be read contributes only the paths it names so far. */
sn_status sn_cli_refuse_output_over_inputs(const char *out, const char *const *inputs, size_t n, sn_error *e);

/* The exit code after standard output is checked: rc, or 1 with
 * "sysnode CMD: writing to standard output failed: ..." on stderr when a
 * write to stdout failed (a full device, a closed pipe). */
int sn_cli_exit(const char *cmd, int rc);

#endif
