/* Loading through the host window (window.h), shared by `sysnode run`
 * (replay_program.c) and `sysnode flash`: a runner ELF into IMEM and the scratchpad,
 * and the boot-argument block (sysnode-facts §1.3 load path;
 * artifacts/FORMAT.md for the boot arguments). */
#ifndef SN_HOST_WINDOW_LOAD_H
#define SN_HOST_WINDOW_LOAD_H

#include <stdint.h>

#include "elf_image.h"
#include "sysnode/status_block.h"
#include "error.h"
#include "transport.h"

/* Pushes img's IMEM words and SPAD words (with strobes) through t, and
 * clears the boot-argument block (the image reserves it, NOLOAD). Errors:
 * the window's own, or SN_ERR_INPUT naming path when a segment does not fit. */
sn_status sn_window_load_image(sn_transport *t, const sn_elf_image *img, const char *path, sn_error *e);

/* Writes the boot arguments pointing the runner at a table of table_bytes at
 * unit DRAM address table_addr, (result_bytes > 0) at the output it reads
 * back for the digest, and (status_addr != 0, 64-aligned) at the
 * SN_STATUS_COPY_BYTES of DRAM where it leaves a copy of its status block,
 * which this zeroes first (a card answers no read of DRAM never written);
 * with the window's DRAM size. FORMAT.md §6. Errors: the window's. */
sn_status sn_window_write_boot_args(sn_transport *t, uint64_t table_addr, uint64_t table_bytes, uint64_t result_addr,
                                    uint64_t result_bytes, uint64_t status_addr, sn_error *e);

/* Reads the runner's status block from its DRAM copy at status_addr (the
 * host window cannot read the scratchpad, sysnode-facts §1.3) into *out;
 * *valid is 0 when the runner left none there (no SN_STATUS_MAGIC).
 * FORMAT.md §7. Errors: the window's. */
sn_status sn_window_read_status(sn_transport *t, uint64_t status_addr, sn_status_block *out, int *valid,
                                sn_error *e);

#endif
