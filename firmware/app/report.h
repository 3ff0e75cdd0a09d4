/* How a runner image ends: the status block holds the report (FORMAT.md §7);
 * the console gets one summary line. */
#ifndef SN_APP_REPORT_H
#define SN_APP_REPORT_H

#include "sysnode/status.h"
#include "sysnode/boot_args.h"
#include "sysnode/status_block.h"

/* Latches st as the first error in s when none is (with error_value and
 * error_node unset), stamps the block, copies it (sn_app_report_copy),
 * prints the summary and returns the status the image exits with: s->error,
 * or st when s holds none. */
sn_status sn_app_report(sn_status_block *s, sn_status st);

/* Copies s to the DRAM copy set by sn_app_report_copy_from (if any), then
 * held to its last 8 bytes (SN_HOST_HELD_COPY), for a host that cannot read
 * the scratchpad: at a host sync point (sysnode/host_sync.h) held is the
 * held word, at the exit 0 (no hold). */
void sn_app_report_copy(const sn_status_block *s, uint64_t held);

/* Makes sn_app_report also leave the block in DRAM at the boot arguments'
 * status_addr (FORMAT.md §6; through the uncached alias) when a names a
 * copy; a's magic and version are the caller's to check. Returns SN_OK, or
 * SN_ERR_BOOT_ARGS when the copy is not 8-aligned or passes dram_bytes (or
 * the 36-bit local DRAM offset). */
sn_status sn_app_report_copy_from(const volatile sn_boot_args *a);

/* 1 when the bytes [addr, addr + bytes) of unit DRAM lie inside the DRAM the
 * boot arguments a describe (dram_bytes; the 36-bit local offsets when it is
 * 0 or larger), else 0 (FORMAT.md §6). */
int sn_app_inside_dram(const volatile sn_boot_args *a, uint64_t addr, uint64_t bytes);

#endif
