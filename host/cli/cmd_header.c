/* `sysnode header`: artifacts (or a case directory) -> the embedded-table C
 * header the firmware image compiles in (DESIGN.md §4, host/inputs/ctable.h). */
#include "args.h"
#include "commands.h"
#include "ctable.h"

/* prog was judged by the table rules as it loaded (artifact.h): no header for a table pack refuses. */
static sn_status write_header(const sn_cli_args *a, const sn_program *prog, const sn_mesh *mesh, sn_error *e)
{
    (void)mesh;
    return sn_ctable_write_file(a->out, prog, e);
}

int sn_cmd_header(int argc, char **argv)
{
    sn_cli_args a = {.tool = SN_TOOL_HEADER, .cmd = "header"};
    return sn_cli_program_command(&a, argc, argv, write_header);
}
