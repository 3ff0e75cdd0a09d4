/* The DRAM-table runner image: one image for every program. The host writes
 * a packed table (artifacts/FORMAT.md) into DRAM and the boot-argument block
 * into the scratchpad, then boots. The image reads the table through the
 * uncached alias (the L1 is not coherent with what the host wrote), checks
 * it completely before any GO, probes every unit's CU_CAPS, and runs it. */
#include <stdint.h>

#include "report.h"
#include "runner.h"
#include "sysnode/boot_args.h"
#include "sysnode/table_image.h"

static sn_runner runner;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
__attribute__((section(".sn_boot_args"))) static volatile sn_boot_args boot_args;
static const sn_mesh mesh = SN_MESH_2P2_INIT;

/* Unit DRAM addresses are 36-bit local offsets (sysnode-facts §6). */
#define DRAM_LOCAL_LIMIT (1ull << 36)

int main(void)
{
    static char text[256];
    sn_table table;
    sn_table_image_fault fault;

    sn_runner_init(&runner, 0, &mesh, &status_block);
    if (boot_args.magic != SN_BOOT_ARGS_MAGIC || boot_args.version != SN_BOOT_ARGS_VERSION)
        return sn_app_fail(SN_ERR_BOOT_ARGS, "no boot-argument block at 0x10040 (magic or version wrong)");
    if (boot_args.table_addr >= DRAM_LOCAL_LIMIT || boot_args.table_bytes > DRAM_LOCAL_LIMIT - boot_args.table_addr)
        return sn_app_fail(SN_ERR_BOOT_ARGS, "boot arguments place the table outside DRAM");

    const void *image = (const void *)(uintptr_t)(SN_DRAM_CPU_BASE | (1ull << SN_UNCACHED_BIT) | boot_args.table_addr);
    sn_status st = sn_table_image_open(image, boot_args.table_bytes, &table, &fault);
    if (st != SN_OK)
        return sn_app_fail(st, sn_table_image_describe(&fault, text, sizeof text));

    runner.probe_units = 1;
#ifdef SN_RUNNER_NO_SETTLE
    runner.settle_cycles = 0; /* the negative-test image: shows why the settle exists */
#endif
    st = sn_runner_run(&runner, &table);
    return sn_app_report(&runner, st, table.round_count);
}
