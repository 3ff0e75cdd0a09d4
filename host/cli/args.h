/* The argument shape the input-taking subcommands (header, pack, dump) share:
 * inputs (artifact files, one case directory, or a packed table), -o FILE
 * or --json, read by the option table (common/options.h). */
#ifndef SN_CLI_ARGS_H
#define SN_CLI_ARGS_H

#include "artifact.h"
#include "error.h"
#include "options.h"
#include "sysnode/mesh.h"

typedef struct {
    sn_tool tool;         /* the subcommand (common/options.h) */
    const char *cmd;      /* its name, for messages */
    const char **inputs;  /* the inputs, in order (the options' operands) */
    size_t ninputs;
    const char *out;      /* -o FILE, NULL for a command without */
    int json;             /* --json given */
    sn_opts opts;
} sn_cli_args;

/* Parses argv[1..argc) into a (tool and cmd set by the caller) by the
 * option table (sn_opts_parse). Returns -1 to go on, or the exit code to
 * return now: 0 after --help or --version, 2 after a usage error on stderr
 * (an unknown option, -o twice or missing, no input), 1 when memory runs
 * out. Free with sn_cli_args_free in every case. */
int sn_cli_args_parse(sn_cli_args *a, int argc, char **argv);

void sn_cli_args_free(sn_cli_args *a);

/* What such a command does with the program and mesh it loaded: SN_OK, or
 * an error in e for the caller to print. */
typedef sn_status (*sn_cli_program_fn)(const sn_cli_args *a, const sn_program *prog, const sn_mesh *mesh,
                                       sn_error *e);

/* The whole of such a command: parses argv into a (sn_cli_args_parse),
 * refuses an -o that is one of the inputs (host/inputs/output_check.h), loads the
 * inputs as a program and its mesh (host/inputs/pack_inputs.h), runs fn and
 * prints any error as "sysnode CMD: ..." (cli_io.h). Returns the exit code:
 * 0, 1 after an error, or sn_cli_args_parse's (0 for -h, 2 for bad usage). */
int sn_cli_program_command(sn_cli_args *a, int argc, char **argv, sn_cli_program_fn fn);

#endif
