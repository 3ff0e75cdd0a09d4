/* What every sysnode subcommand does at its edges: print an error safely,
 * check standard output. Outputs are checked by host/inputs/output_check.h. */
#ifndef SN_CLI_IO_H
#define SN_CLI_IO_H

#include <stddef.h>

#include "error.h"

/* Prints "sysnode CMD: MSG" on stderr with MSG's control characters escaped
 * and its later lines indented (common/escape.h). Returns 1, the exit code
 * of a failed command. */
int sn_cli_error(const char *cmd, const char *msg);

/* The exit code after standard output is checked: rc, or 1 with
 * "sysnode CMD: writing to standard output failed: ..." on stderr when a
 * write to stdout failed (a full device, a closed pipe). */
int sn_cli_exit(const char *cmd, int rc);

#endif
