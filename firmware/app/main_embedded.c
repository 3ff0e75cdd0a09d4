/* The embedded-table runner image: runs the table `sysnode header` generated
 * into table_embedded.h and reports through its status block. */
#include "report.h"
#include "runner.h"
#include "table_embedded.h"

static sn_runner runner;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
static const sn_mesh mesh = SN_MESH_2P2_INIT;

int main(void)
{
    sn_runner_init(&runner, 0, &mesh, &status_block);
    runner.probe_units = 1;
    return sn_app_report(&status_block, sn_runner_run(&runner, &sn_embedded_table));
}
