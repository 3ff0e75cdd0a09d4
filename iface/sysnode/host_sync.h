/* The host sync point (artifacts/FORMAT.md §9): a round whose last step is
 * SN_STEP_HOST_SYNC ends as every round does (all completions in, writes
 * landed), then the runner holds: it writes the sync point's number (1 for
 * the first since BOOT) to the held word, sets its status block's phase to
 * SN_PHASE_HOST_SYNC and waits until the host writes that number, with a
 * command, to the release word. Both words sit in the scratchpad in the last
 * 16 bytes the image reserves for its status block (NOLOAD, past the block):
 * the host zeroes the release word before BOOT, the runner the held word.
 * The held word also carries the low 32 bits of mcycle when the runner
 * reached the hold, so a host that polls (a card, or the in-process
 * simulator's steps) still counts a run's cycles to the hold exactly.
 * A card's host cannot read the scratchpad (sysnode-facts §1.3), so at each
 * hold the runner first copies its status block to the DRAM status copy the
 * boot arguments name and the held word to the copy's last 8 bytes
 * (SN_HOST_HELD_COPY), then writes the held word; the release word is written
 * through the load window, which the card has.
 * Freestanding. */
#ifndef SYSNODE_HOST_SYNC_H
#define SYSNODE_HOST_SYNC_H

#include "sysnode/static_assert.h"
#include "sysnode/status_block.h"

#define SN_HOST_RELEASE_ADDR (SN_STATUS_BLOCK_ADDR + SN_STATUS_BLOCK_BYTES - 16) /* u64, written by the host */
#define SN_HOST_HELD_ADDR (SN_STATUS_BLOCK_ADDR + SN_STATUS_BLOCK_BYTES - 8)     /* u64, written by the runner */
SN_STATIC_ASSERT(sizeof(sn_status_block) <= SN_STATUS_BLOCK_BYTES - 16, "the host sync words follow the status block");
/* Byte offset of the held word's copy in the DRAM status copy (boot_args.h status_addr). */
#define SN_HOST_HELD_COPY (SN_STATUS_COPY_BYTES - 8)
SN_STATIC_ASSERT(sizeof(sn_status_block) <= SN_HOST_HELD_COPY, "the held word's copy follows the status block's");

/* Release word: bits 31:0 the sync point released, bits 39:32 a command. */
#define SN_HOST_RELEASE(seq, cmd) ((uint64_t)(uint32_t)(seq) | (uint64_t)(cmd) << 32)
#define SN_HOST_RELEASE_SEQ(word) ((uint32_t)(word))
#define SN_HOST_RELEASE_CMD(word) ((uint32_t)((word) >> 32) & 0xFF)

/* Held word: bits 31:0 the sync point reached, bits 63:32 mcycle[31:0] then. */
#define SN_HOST_HELD(seq, cycle) ((uint64_t)(uint32_t)(seq) | (uint64_t)(uint32_t)(cycle) << 32)
#define SN_HOST_HELD_SEQ(word) ((uint32_t)(word))
#define SN_HOST_HELD_CYCLE32(word) ((uint32_t)((word) >> 32))

enum sn_host_command {
    SN_HOST_CONTINUE = 0,   /* go on with the next round (after a table's last round: finish) */
    SN_HOST_NEXT_TABLE = 1, /* after a table's last round: run the table the boot arguments now name */
};

#endif
