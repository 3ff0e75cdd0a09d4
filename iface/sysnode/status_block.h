/* The runner's status block: a fixed-size record in the scratchpad
 * (SN_STATUS_BLOCK_ADDR) that says where the runner is, what went wrong
 * first, with every fact its message names, and what it counted. It is the
 * runner's report: the host reads it through the scratchpad window after the
 * run (host/session/transport.h) and words the message (common/messages.c);
 * the image itself prints one summary line. Layout: artifacts/FORMAT.md §7.
 * Freestanding. */
#ifndef SYSNODE_STATUS_BLOCK_H
#define SYSNODE_STATUS_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include "sysnode/static_assert.h"
#include "sysnode/regs.h"

/* After the boot-argument block (sysnode/boot_args.h, 0x1_0040). */
#define SN_STATUS_BLOCK_ADDR (SN_SPAD_BASE + 0x80)
#define SN_STATUS_BLOCK_BYTES 0x180u /* what the image reserves there */
#define SN_STATUS_MAGIC 0x32545353u  /* 'SST2': layout version 2 */
#define SN_STATUS_UNITS 8            /* per-unit counts kept for the first 8 units of the mesh */
#define SN_STATUS_NO_NODE 0xFFFFFFFFu
#define SN_STATUS_COPY_BYTES 256u    /* DRAM the host sets aside for the block's copy (whole 64-byte beats) */

enum sn_phase {
    SN_PHASE_BOOT = 1,
    SN_PHASE_KICK = 2,
    SN_PHASE_AWAIT = 3,
    SN_PHASE_BARRIER = 4,
    SN_PHASE_ROUND_END = 5,
    SN_PHASE_DONE = 6,
    SN_PHASE_HOST_SYNC = 7, /* holding at a host sync point after `round` (sysnode/host_sync.h) */
};

/* error_value of SN_ERR_BOOT_ARGS: which check failed. */
enum sn_boot_args_fault {
    SN_BOOT_ARGS_BAD_MAGIC = 1, /* magic or version wrong: no block */
    SN_BOOT_ARGS_OUTSIDE = 2,   /* the table or result region passes dram_bytes */
};

/* One unit's counts in the current round, as of the last report. */
typedef struct {
    uint8_t node;         /* SN_NODE_ID */
    uint8_t reserved;
    uint16_t cu_type;     /* SN_CU_TYPE_* from the mesh description */
    uint32_t expected;    /* cumulative await count */
    uint32_t received;    /* completions credited, peer acks included */
    uint32_t outstanding; /* flits sent and not completed */
} sn_status_unit;
SN_STATIC_ASSERT(sizeof(sn_status_unit) == 16, "a status unit record is 16 bytes");

typedef struct {
    uint32_t magic;       /* SN_STATUS_MAGIC once the runner started */
    uint32_t phase;       /* enum sn_phase */
    uint32_t round;       /* current round index */
    uint32_t step;        /* current step index within the round */
    uint32_t wait_node;   /* SN_NODE_ID of the node waited on, or SN_STATUS_NO_NODE */
    uint32_t error;       /* first error, sn_status; 0 while none */
    uint32_t error_round;
    uint32_t error_step;
    uint32_t error_node;  /* SN_NODE_ID, or SN_STATUS_NO_NODE */
    uint32_t error_value; /* fault code, count, slot or cycles, by error (FORMAT.md §7) */
    uint32_t error_rule;  /* SN_ERR_TABLE_*: the sn_table_rule; SN_ERR_TABLE_IMAGE: the sn_table_image_check */
    uint32_t error_limit; /* what error_value was checked against */
    uint64_t detail[3];   /* SN_ERR_TABLE_IMAGE: value, expected, count; SN_ERR_TRAP: mcause, mepc, mtval */
    uint32_t detail_field;/* SN_ERR_TABLE_IMAGE: the header field's byte offset */
    uint32_t rounds_run;  /* rounds completed */
    uint32_t flits_sent;
    uint32_t completions;
    uint32_t digest_crc32;/* CRC-32 of the result region read back after the last round ... */
    uint32_t digest_done; /* ... valid when 1 */
    uint32_t unit_count;  /* entries of units[] in use */
    uint32_t reserved;
    sn_status_unit units[SN_STATUS_UNITS];
} sn_status_block;
SN_STATIC_ASSERT(sizeof(sn_status_block) == 232 && offsetof(sn_status_block, detail) == 0x30 &&
                     offsetof(sn_status_block, flits_sent) == 0x50 && offsetof(sn_status_block, units) == 0x68,
                 "status block layout is FORMAT.md §7's");
SN_STATIC_ASSERT(sizeof(sn_status_block) <= SN_STATUS_BLOCK_BYTES && sizeof(sn_status_block) <= SN_STATUS_COPY_BYTES,
                 "status block fits its reservation and its DRAM copy");

#endif
