/* The boot-argument block: written by the host into the scratchpad before it
 * pulses BOOT, read by the DRAM-table runner at start. It says where the
 * packed table (artifacts/FORMAT.md) sits in DRAM and, optionally, which
 * result region the runner should read back and digest (CRC-32) after its
 * last round, and where in DRAM it leaves a copy of its status block (the
 * host window cannot read the scratchpad: sysnode-facts §1.3). The image
 * reserves the block (NOLOAD, never zeroed by crt0) at a fixed address.
 * Freestanding. */
#ifndef SYSNODE_BOOT_ARGS_H
#define SYSNODE_BOOT_ARGS_H

#include <stdint.h>
#include "sysnode/regs.h"
#include "sysnode/static_assert.h"

#define SN_BOOT_ARGS_ADDR (SN_SPAD_BASE + 0x40)
#define SN_BOOT_ARGS_MAGIC 0x41424E53u /* 'SNBA' */
#define SN_BOOT_ARGS_VERSION 2u

typedef struct {
    uint32_t magic;       /* SN_BOOT_ARGS_MAGIC */
    uint32_t version;     /* SN_BOOT_ARGS_VERSION */
    uint64_t table_addr;  /* unit DRAM address of the table's first byte */
    uint64_t table_bytes; /* bytes the host wrote there */
    uint64_t result_addr; /* unit DRAM address of a result region to digest, or 0 */
    uint64_t result_bytes;/* its size; 0: no digest */
    uint64_t dram_bytes;  /* DRAM behind the unit addresses; 0: unknown (the 36-bit local offset bounds) */
    uint64_t status_addr; /* unit DRAM address (64-aligned) the runner copies its status block to as it
                             exits and at each host sync point (host_sync.h), for a host that cannot read
                             the scratchpad; 0: no copy */
} sn_boot_args;
SN_STATIC_ASSERT(sizeof(sn_boot_args) == 56, "boot-argument block is 56 bytes");

#endif
