/* The argument shape the input-taking subcommands (header, pack, dump) share:
 * inputs (artifact files, one case directory, or a packed table), -o FILE,
 * --json, -h/--help and "--" to end the options. */
#ifndef SN_CLI_ARGS_H
#define SN_CLI_ARGS_H

typedef struct {
    const char *cmd;      /* the subcommand, for messages */
    const char *usage;    /* its usage text */
    const char *out_hint; /* what -o names ("FILE.h"); NULL: the command takes no -o */
    int takes_json;       /* --json is accepted */
    const char **inputs;  /* the inputs, in order (heap) */
    int ninputs;
    const char *out;      /* -o FILE */
    int json;             /* --json given */
} sn_cli_args;

/* Parses argv[1..argc) into a (cmd, usage, out_hint and takes_json set by the
 * caller). Returns -1 to go on, or the exit code to return now: 0 after
 * printing the usage for -h, 2 after a usage error on stderr (unknown option,
 * -o twice or without a name, no -o where one is needed, no input), 1 when
 * memory runs out. Free with sn_cli_args_free in every case. */
int sn_cli_args_parse(sn_cli_args *a, int argc, char **argv);

void sn_cli_args_free(sn_cli_args *a);

#endif
