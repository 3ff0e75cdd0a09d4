/* Argument parsing and input loading shared by the input-taking subcommands (see args.h). */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"
#include "output_check.h"
#include "pack_inputs.h"

/* "sysnode CMD: " head tail, then the usage on stderr; exit status 2. */
static int usage_error(const sn_cli_args *a, const char *head, const char *tail)
{
    fprintf(stderr, "sysnode %s: %s%s\n%s", a->cmd, head, tail, a->usage);
    return 2;
}

int sn_cli_args_parse(sn_cli_args *a, int argc, char **argv)
{
    int options_done = 0;
    a->inputs = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *a->inputs);
    a->ninputs = 0;
    a->out = NULL;
    a->json = 0;
    if (a->inputs == NULL) {
        fprintf(stderr, "sysnode %s: out of memory\n", a->cmd);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if (!options_done && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
            fputs(a->usage, stdout);
            return 0;
        } else if (!options_done && a->out_hint && (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)) {
            if (a->out != NULL)
                return usage_error(a, "-o given twice", "");
            if (i + 1 >= argc)
                return usage_error(a, "-o needs a file name", "");
            a->out = argv[++i];
        } else if (!options_done && a->takes_json && strcmp(arg, "--json") == 0) {
            a->json = 1;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error(a, arg, ": unknown option, or no value after it");
        } else {
            a->inputs[a->ninputs++] = arg;
        }
    }
    if (a->out_hint && a->out == NULL) {
        char msg[64];
        snprintf(msg, sizeof msg, "no output file (-o %s)", a->out_hint);
        return usage_error(a, msg, "");
    }
    if (a->ninputs == 0)
        return usage_error(a, "no inputs given", "");
    return -1;
}

void sn_cli_args_free(sn_cli_args *a)
{
    free(a->inputs);
    a->inputs = NULL;
}

/* The program behind a's inputs, once -o is known to be none of them.
 * *prog is zeroed first, so it can be freed whatever the result. */
static sn_status load_program(const sn_cli_args *a, sn_program *prog, sn_mesh *mesh, sn_error *e)
{
    const sn_output_path out = {"-o", a->out};
    memset(prog, 0, sizeof *prog);
    sn_status st = sn_output_paths_check(&out, 1, a->inputs, (size_t)a->ninputs, NULL, 0, e);
    return st == SN_OK ? sn_pack_load_inputs(a->inputs, (size_t)a->ninputs, prog, mesh, e) : st;
}

int sn_cli_program_command(sn_cli_args *a, int argc, char **argv, sn_cli_program_fn fn)
{
    int rc = sn_cli_args_parse(a, argc, argv);
    if (rc < 0) {
        sn_program prog;
        sn_mesh mesh;
        sn_error err = {0};
        sn_status st = load_program(a, &prog, &mesh, &err);
        if (st == SN_OK)
            st = fn(a, &prog, &mesh, &err);
        sn_program_free(&prog);
        rc = st == SN_OK ? 0 : sn_cli_error(a->cmd, err.msg);
    }
    sn_cli_args_free(a);
    return rc;
}
