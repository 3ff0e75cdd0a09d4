/* `sysnode pack`: artifacts (or a case directory) -> the DRAM-resident
 * table image the DRAM runner walks (artifacts/FORMAT.md, host/lib/pack.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "cli_io.h"
#include "file_out.h"
#include "commands.h"
#include "pack.h"
#include "pack_inputs.h"

#define USAGE                                                                   \
    "usage: sysnode pack ARTIFACT.json [ARTIFACT.json ...] -o TABLE.bin\n"      \
    "       sysnode pack CASE_DIR -o TABLE.bin\n"                               \
    "Checks the rounds against the table rules and writes them as a packed\n"   \
    "table (artifacts/FORMAT.md). Artifacts are rounds in the order given; a\n" \
    "case directory's manifest.json gives its order and its mesh.\n"

int sn_cmd_pack(int argc, char **argv)
{
    sn_cli_args a = {.cmd = "pack", .usage = USAGE, .out_hint = "TABLE.bin"};
    int rc = sn_cli_args_parse(&a, argc, argv);
    if (rc < 0) {
        sn_program prog;
        sn_mesh mesh;
        sn_error err = {0};
        uint8_t *image = NULL;
        uint64_t bytes = 0;
        const sn_output_path out = {"-o", a.out};
        sn_status st = sn_output_paths_check(&out, 1, a.inputs, (size_t)a.ninputs, NULL, 0, &err);
        if (st == SN_OK)
            st = sn_pack_load_inputs(a.inputs, (size_t)a.ninputs, &prog, &mesh, &err);
        if (st == SN_OK)
            st = sn_pack_program(&prog, &mesh, &image, &bytes, &err);
        if (st == SN_OK)
            st = sn_pack_write_file(a.out, image, bytes, &err);
        if (st == SN_OK) /* a.out was opened by name: it is a path, printed as one */
            printf("%s: %zu round%s, %zu steps, %zu payloads, %" PRIu64 " bytes\n", a.out, prog.round_count,
                   prog.round_count == 1 ? "" : "s", prog.step_count, prog.payload_count, bytes);
        else
            sn_cli_error("pack", err.msg);
        free(image);
        sn_program_free(&prog);
        rc = st == SN_OK ? 0 : 1;
    }
    sn_cli_args_free(&a);
    return rc;
}
