/* The DRAM-table runner image: one image for every program. The host writes
 * a packed table (artifacts/FORMAT.md) into DRAM and the boot-argument block
 * into the scratchpad, then boots. The image reads the table through the
 * L1 or the uncached alias, whichever is faster (table_view.h), checks
 * its header, structure and table rules before any GO, probes every unit's
 * CU_CAPS, and runs it, checking each round's payload rows before the
 * round's first GO. */
#include <stdint.h>

#include "crc32.h"
#include "report.h"
#include "runner.h"
#include "sysnode/boot_args.h"
#include "sysnode/host_sync.h"
#include "sysnode/table_image.h"
#include "table_view.h"

static sn_runner runner;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
__attribute__((section(".sn_boot_args"))) static volatile sn_boot_args boot_args;
static const sn_mesh mesh = SN_MESH_2P2_INIT;

static const void *uncached(uint64_t unit_addr)
{
    return (const void *)(uintptr_t)(SN_DRAM_CPU_BASE | (1ull << SN_UNCACHED_BIT) | unit_addr);
}

/* Reads the result region back through the uncached alias, as the CPU sees
 * DRAM at that moment, and records its CRC-32 in the status block: the host
 * compares it with the expected bytes' CRC. What it shows is what a consumer
 * on the SysNode would read right after the runner's last round. sn_crc32
 * reads it a 64-bit uncached load per aligned word (crc32.c). */
static void digest_results(void)
{
    status_block.digest_crc32 = sn_crc32(uncached(boot_args.result_addr), boot_args.result_bytes);
    status_block.digest_done = 1;
}

/* Refuses the boot-argument block: `which` is an sn_boot_args_fault. */
static int boot_args_refused(uint32_t which)
{
    status_block.error_value = which;
    return sn_app_report(&status_block, SN_ERR_BOOT_ARGS);
}

/* The table and the result region lie inside DRAM (FORMAT.md §6). */
static int args_inside_dram(void)
{
    return sn_app_inside_dram(&boot_args, boot_args.table_addr, boot_args.table_bytes) &&
           sn_app_inside_dram(&boot_args, boot_args.result_addr, boot_args.result_bytes);
}

int main(void)
{
    sn_table table;
    sn_table_image_fault fault;

    sn_runner_init(&runner, 0, &mesh, &status_block);
    if (boot_args.magic != SN_BOOT_ARGS_MAGIC || boot_args.version != SN_BOOT_ARGS_VERSION)
        return boot_args_refused(SN_BOOT_ARGS_BAD_MAGIC);
    runner.host_release = (volatile const uint64_t *)SN_HOST_RELEASE_ADDR;
    runner.host_held = (volatile uint64_t *)SN_HOST_HELD_ADDR;
    *runner.host_held = 0;
    runner.hold_copy = sn_app_report_copy;
    runner.probe_units = 1;
    /* A live host session (host_sync.h) hands over one table after another,
     * each ending at a sync point; the units keep their state throughout. */
    sn_status st;
    do {
        if (runner.host_command == SN_HOST_NEXT_TABLE) /* written while the runner held */
            sn_table_view_fresh();
        runner.host_command = SN_HOST_CONTINUE;
        if (sn_app_report_copy_from(&boot_args) != SN_OK || !args_inside_dram())
            return boot_args_refused(SN_BOOT_ARGS_OUTSIDE);
        st = sn_table_image_open(sn_table_view(boot_args.table_addr), boot_args.table_bytes, &table, &fault);
        if (st != SN_OK) {
            sn_runner_image_fault(&status_block, &fault);
            return sn_app_report(&status_block, st);
        }
        st = sn_runner_run(&runner, &table);
        runner.probe_units = 0; /* probed once per BOOT */
    } while (st == SN_OK && runner.host_command == SN_HOST_NEXT_TABLE);
    if (st == SN_OK && boot_args.result_bytes != 0)
        digest_results();
    return sn_app_report(&status_block, st);
}
