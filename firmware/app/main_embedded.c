/* The embedded-table runner image: runs the table `sysnode header` generated
 * into table_embedded.h, prints one summary line and exits with the status. */
#include "console.h"
#include "fmt.h"
#include "runner.h"
#include "table_embedded.h"

static sn_runner runner;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
static const sn_mesh mesh = SN_MESH_2P2_INIT;

int main(void)
{
    static char line[1536];
    sn_fmt f;
    sn_runner_init(&runner, 0, &mesh, &status_block);
    sn_status st = sn_runner_run(&runner, &sn_embedded_table);

    sn_fmt_init(&f, line, sizeof line);
    if (st != SN_OK) {
        sn_fmt_str(&f, "runner: error ");
        sn_fmt_hex(&f, st);
        sn_fmt_str(&f, ": ");
        sn_console_puts(line);
        sn_console_puts(sn_runner_describe(&runner, line, sizeof line));
        sn_console_puts("\n");
        return st;
    }
    sn_fmt_str(&f, "runner: ok rounds=");
    sn_fmt_dec(&f, sn_embedded_table.round_count);
    sn_fmt_str(&f, " flits=");
    sn_fmt_dec(&f, runner.total_flits);
    sn_fmt_str(&f, " completions=");
    sn_fmt_dec(&f, runner.total_completions);
    sn_fmt_str(&f, " mmio_reads=");
    sn_fmt_dec(&f, runner.mmio.reads);
    sn_fmt_str(&f, " mmio_writes=");
    sn_fmt_dec(&f, runner.mmio.writes);
    sn_fmt_str(&f, "\n");
    sn_console_puts(line);
    return SN_OK;
}
