/* `sysnode pack`: artifacts (or a case directory) -> the DRAM-resident
 * table image the DRAM runner walks (artifacts/FORMAT.md, host/inputs/pack.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "commands.h"
#include "pack.h"

static sn_status pack(const sn_cli_args *a, const sn_program *prog, const sn_mesh *mesh, sn_error *e)
{
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    sn_status st = sn_pack_program(prog, mesh, &image, &bytes, e);
    if (st == SN_OK)
        st = sn_pack_write_file(a->out, image, bytes, e);
    if (st == SN_OK) /* a->out was opened by name: it is a path, printed as one */
        printf("%s: %zu round%s, %zu steps, %zu payloads, %" PRIu64 " bytes\n", a->out, prog->round_count,
               prog->round_count == 1 ? "" : "s", prog->step_count, prog->payload_count, bytes);
    free(image);
    return st;
}

int sn_cmd_pack(int argc, char **argv)
{
    sn_cli_args a = {.tool = SN_TOOL_PACK, .cmd = "pack"};
    return sn_cli_program_command(&a, argc, argv, pack);
}
