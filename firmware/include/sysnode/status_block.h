/* The runner's status block: a fixed-size record at the start of the
 * scratchpad (SN_STATUS_BLOCK_ADDR) that says where the runner is and what
 * went wrong first. The simulator prints it when a run hangs; on a card the
 * host reads it through the scratchpad window (STYLE 9). Freestanding. */
#ifndef SYSNODE_STATUS_BLOCK_H
#define SYSNODE_STATUS_BLOCK_H

#include <stdint.h>
#include "sysnode/static_assert.h"
#include "sysnode/regs.h"

#define SN_STATUS_BLOCK_ADDR SN_SPAD_BASE
#define SN_STATUS_MAGIC 0x534E5354u /* 'SNST' */

enum sn_phase {
    SN_PHASE_BOOT = 1,
    SN_PHASE_KICK = 2,
    SN_PHASE_AWAIT = 3,
    SN_PHASE_BARRIER = 4,
    SN_PHASE_ROUND_END = 5,
    SN_PHASE_DONE = 6,
};

typedef struct {
    uint32_t magic;       /* SN_STATUS_MAGIC once the runner started */
    uint32_t phase;       /* enum sn_phase */
    uint32_t round;       /* current round index */
    uint32_t step;        /* current step index within the round */
    uint32_t wait_node;   /* SN_NODE_ID of the node waited on, or 0xFFFFFFFF */
    uint32_t error;       /* first error, sn_status; 0 while none */
    uint32_t error_round;
    uint32_t error_step;
    uint32_t error_node;  /* SN_NODE_ID, or 0xFFFFFFFF */
    uint32_t error_value; /* fault code, count or slot, by error */
    uint32_t error_rule;  /* for a table error: the sn_table_rule broken */
    uint32_t error_limit; /* for a table error: what error_value was checked against;
                             for a unit fault: 1 + the slot of the payload that faulted
                             (error_step its kick), 0 when not known */
    uint32_t flits_sent;
    uint32_t completions;
} sn_status_block;
SN_STATIC_ASSERT(sizeof(sn_status_block) == 56, "status block is 56 bytes");

#endif
