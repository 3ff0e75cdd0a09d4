/* Argument parsing and input loading shared by the input-taking subcommands (see args.h). */
#include "args.h"

#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "cli_io.h"
#include "file_read.h"
#include "output_check.h"
#include "pack_inputs.h"

int sn_cli_args_parse(sn_cli_args *a, int argc, char **argv)
{
    int rc = sn_opts_parse(a->tool, argc, argv, &a->opts);
    a->inputs = a->opts.operands;
    a->ninputs = a->opts.noperands;
    a->out = a->opts.text[a->tool == SN_TOOL_PACK ? SN_OPT_OUTPUT_TABLE : SN_OPT_OUTPUT_HEADER];
    a->json = a->opts.given[SN_OPT_JSON] != 0;
    return rc;
}

void sn_cli_args_free(sn_cli_args *a)
{
    sn_opts_free(&a->opts);
    a->inputs = NULL;
}

/* The program behind a's inputs, once -o is known to be none of them (for a
 * case directory, none of the files its manifest names: the manifest read
 * once, case.h). *prog is zeroed first, so it can be freed whatever the
 * result. */
static sn_status load_program(const sn_cli_args *a, sn_program *prog, sn_mesh *mesh, sn_error *e)
{
    const sn_output_path out = {"-o", a->out};
    memset(prog, 0, sizeof *prog);
    if (a->ninputs != 1 || !sn_path_is_dir(a->inputs[0])) {
        sn_status st = sn_output_paths_check(&out, 1, a->inputs, a->ninputs, NULL, 0, e);
        return st == SN_OK ? sn_pack_load_inputs(a->inputs, a->ninputs, prog, mesh, e) : st;
    }
    sn_case c;
    char **files = NULL;
    size_t n = 0;
    sn_case_open(&c, a->inputs[0]);
    sn_status st = sn_manifest_input_paths(&c.m, &files, &n, e);
    if (st == SN_OK)
        st = sn_output_paths_check(&out, 1, (const char *const *)files, n, NULL, 0, e);
    if (st == SN_OK && c.m_status != SN_OK) {
        *e = c.m_err;
        st = c.m_status;
    }
    if (st == SN_OK)
        st = sn_pack_load_manifest(&c.m, prog, mesh, e);
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    sn_case_free(&c);
    return st;
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
