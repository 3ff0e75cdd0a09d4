/* `sysnode header`: artifacts (or a case directory) -> the embedded-table C
 * header the firmware image compiles in (DESIGN.md §4, host/lib/ctable.h). */
#include <stdio.h>

#include "args.h"
#include "artifact.h"
#include "cli_io.h"
#include "file_out.h"
#include "commands.h"
#include "ctable.h"
#include "pack.h"
#include "pack_inputs.h"

#define USAGE                                                                  \
    "usage: sysnode header ARTIFACT.json [ARTIFACT.json ...] -o FILE.h\n"      \
    "       sysnode header CASE_DIR -o FILE.h\n"                               \
    "Checks the rounds against the table rules, as pack does, and writes the\n" \
    "firmware's embedded artifact table as a C header. Artifacts are rounds,\n" \
    "in the order given; a case directory's manifest.json gives\n"             \
    "its own order (artifacts_in_order).\n"

int sn_cmd_header(int argc, char **argv)
{
    sn_cli_args a = {.cmd = "header", .usage = USAGE, .out_hint = "FILE.h"};
    int rc = sn_cli_args_parse(&a, argc, argv);
    if (rc < 0) {
        sn_program prog;
        sn_mesh mesh;
        sn_error err = {0};
        const sn_output_path out = {"-o", a.out};
        sn_status st = sn_output_paths_check(&out, 1, a.inputs, (size_t)a.ninputs, NULL, 0, &err);
        if (st == SN_OK)
            st = sn_pack_load_inputs(a.inputs, (size_t)a.ninputs, &prog, &mesh, &err);
        if (st == SN_OK) /* the same judge as pack: no header for a table pack refuses */
            st = sn_program_check(&prog, &mesh, &err);
        if (st == SN_OK)
            st = sn_ctable_write_file(a.out, &prog, &err);
        sn_program_free(&prog);
        if (st != SN_OK)
            sn_cli_error("header", err.msg);
        rc = st == SN_OK ? 0 : 1;
    }
    sn_cli_args_free(&a);
    return rc;
}
