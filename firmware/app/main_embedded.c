/* The embedded-table runner image: runs the table `sysnode header` generated
 * into table_embedded.h and reports through its status block, left in DRAM
 * too when boot arguments name a copy (FORMAT.md §6). */
#include "report.h"
#include "runner.h"
#include "table_embedded.h"

static sn_runner runner;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
__attribute__((section(".sn_boot_args"))) static volatile sn_boot_args boot_args;
static const sn_mesh mesh = SN_MESH_2P2_INIT;

int main(void)
{
    sn_runner_init(&runner, 0, &mesh, &status_block);
    /* the table is compiled in: only the copy is read, when the host wrote boot arguments */
    if (boot_args.magic == SN_BOOT_ARGS_MAGIC && boot_args.version == SN_BOOT_ARGS_VERSION &&
        sn_app_report_copy_from(&boot_args) != SN_OK) {
        status_block.error_value = SN_BOOT_ARGS_OUTSIDE;
        return sn_app_report(&status_block, SN_ERR_BOOT_ARGS);
    }
    runner.probe_units = 1;
    return sn_app_report(&status_block, sn_runner_run(&runner, &sn_embedded_table));
}
