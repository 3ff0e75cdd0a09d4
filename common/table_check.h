/* The table rules: what a table must satisfy before the runner issues any GO.
 * One implementation, compiled into the firmware (checked before the first
 * GO) and into the host (checked when packing or emitting a table), so both
 * refuse the same tables; the host words a fault (common/messages.h).
 * Rules: DESIGN.md §2, artifacts-facts §1.2 (kohakuaccel/runtime/loader.py, dispatch.py@7703ee8).
 * Freestanding. */
#ifndef SN_TABLE_CHECK_H
#define SN_TABLE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "sysnode/mesh.h"
#include "sysnode/status.h"
#include "sysnode/table.h"

/* Which rule a table broke; 0 is none. */
typedef enum {
    SN_RULE_NONE = 0,
    SN_RULE_STEP_WINDOW,    /* the round's steps run past the table's steps */
    SN_RULE_PAYLOAD_WINDOW, /* the round's payloads run past the table's payloads */
    SN_RULE_ROUND_SLOTS,    /* the round stages more than 128 payloads */
    SN_RULE_OPCODE,         /* a step opcode that is not seed/kick/await/barrier */
    SN_RULE_RESERVED,       /* a reserved step field is not 0 */
    SN_RULE_KICK_NODE,      /* a kick to a coordinate with no unit, or to the SysNode */
    SN_RULE_KICK_EMPTY,     /* a kick of 0 flits */
    SN_RULE_KICK_WINDOW,    /* a kick past the 128-slot staging window */
    SN_RULE_KICK_PAYLOADS,  /* a kick past the round's payloads */
    SN_RULE_AWAIT_NODE,     /* an await on a coordinate with no unit, or on the SysNode */
    SN_RULE_AWAIT_ZERO,     /* an await count of 0 */
    SN_RULE_AWAITS_SHORT,   /* a node awaited for fewer completions than flits kicked to it */
    SN_RULE_AWAIT_TOTAL,    /* a node's awaits in a round pass SN_AWAIT_TOTAL_MAX */
    SN_RULE_ROUND_FLAGS,    /* a round flag bit that is not defined (sysnode/table.h) */
    SN_RULE_SYNC_PLACE,     /* a host sync step that is not its round's last step, or has a field not 0 */
    SN_RULE_KICK_TOTAL,     /* a node's kicked flits in a round pass SN_AWAIT_TOTAL_MAX */
    SN_RULE_ROUND_RESERVED, /* a round record's reserved word is not 0 */
} sn_table_rule;

/* The most completions a round may await from one node, and so the most
 * flits it may kick to one: the runner compares its per-round counts
 * wrap-safely (as signed differences), so a total must stay below 2^31. Both
 * 32-bit tallies are checked before they grow, so neither can wrap (2^32+1
 * kicked flits would otherwise pass an await of 1). */
#define SN_AWAIT_TOTAL_MAX 0x7FFFFFFFu

typedef struct {
    sn_status status;   /* SN_ERR_TABLE_STEP, _SLOT or _NODE */
    sn_table_rule rule;
    uint32_t round;
    uint32_t step;      /* step index in the round; step_count for a whole-round rule */
    uint32_t node;      /* SN_NODE_ID, or 0xFFFFFFFF */
    uint32_t value;     /* the offending slot, count or opcode */
    uint32_t limit;     /* what it was checked against */
} sn_table_fault;

/* Checks every round of t against the mesh of map (a step's node is a unit
 * when map->slot has it, sysnode/mesh.h). kicked and awaited are scratch arrays
 * of SN_NODE_COUNT words (zero on entry, zero again on return). Returns SN_OK,
 * or the first fault's status with *fault describing it. */
sn_status sn_table_check(const sn_table *t, const sn_mesh_map *map, uint32_t *kicked, uint32_t *awaited,
                         sn_table_fault *fault);

/* Checks round `index` of t alone, as sn_table_check does for every round:
 * its record (sn_table_check_round_record), each step, the host sync's
 * place, and every node's awaits against its kicks. */
sn_status sn_table_check_round(const sn_table *t, uint32_t index, const sn_mesh_map *map, uint32_t *kicked,
                               uint32_t *awaited, sn_table_fault *fault);

/* The rules of round alone, without its steps (step and payload windows
 * inside t, at most SN_STAGE_SLOTS payloads, no undefined flag, reserved 0):
 * SN_OK, or the fault's status with fault->rule, status, node, value and
 * limit set (not round or step). sn_table_check_round starts with it; the
 * runner applies it to its copy of each round record just before the round
 * runs, and each step's rules to its copy of the step as it reaches it. */
sn_status sn_table_check_round_record(const sn_table *t, const sn_table_round *round, sn_table_fault *fault);

/* Checks one step of round against the step rules (opcode, reserved field,
 * node, kick windows, await count). kicked and awaited (SN_NODE_COUNT words)
 * accumulate the round's totals, or are NULL to check the step alone (the
 * runner does so on its own copy of each step just before it acts on it).
 * Sets fault->rule, status, node, value and limit; not round or step. */
sn_status sn_table_check_step(const sn_table_step *s, const sn_table_round *round, const sn_mesh_map *map,
                              uint32_t *kicked, uint32_t *awaited, sn_table_fault *fault);

/* The AWAIT_TOTAL rule for await step s in a round whose earlier awaits for
 * s's node total `awaited` completions (at most SN_AWAIT_TOTAL_MAX): SN_OK,
 * or SN_ERR_TABLE_STEP with fault->rule, status, node, value (its count) and
 * limit (the room left) set. sn_table_check_step applies it with its
 * tallies; the runner with its own per-round count as it runs each await
 * (a unit may have written a larger count over the checked one). */
sn_status sn_table_check_await_total(const sn_table_step *s, uint32_t awaited, sn_table_fault *fault);

/* A kick step's first word, {reserved, y, x, op} (FORMAT.md §3): op KICK,
 * x and y below 16 and reserved 0 under one mask. */
#define SN_KICK_WORD_MASK 0xFFF0F0FFu
SN_STATIC_ASSERT(offsetof(sn_table_step, x) == 1 && offsetof(sn_table_step, y) == 2 &&
                     offsetof(sn_table_step, kick.first_slot) == 4 && offsetof(sn_table_step, kick.flits) == 8 &&
                     SN_STEP_KICK < 256,
                 "a kick reads as three little-endian words {head, first_slot, flits}");

/* The node a step's first word names: SN_NODE_ID(x, y) of {reserved, y, x, op}. */
static inline uint32_t sn_step_word_node(uint32_t head)
{
    return (head >> 8 & 0xF) | (head >> 12 & 0xF0);
}

/* A seed step's first word, {reserved, y, x, op}: op SEED and reserved 0
 * under one mask (its x and y are not read). */
#define SN_SEED_WORD_MASK 0xFF0000FFu

/* 1 when a step whose first word is head is a seed that passes
 * sn_table_check_step's rules (no word but the first is read), else 0. */
static inline int sn_table_seed_ok(uint32_t head)
{
    return (head & SN_SEED_WORD_MASK) == SN_STEP_SEED;
}

/* The step rules of sn_table_check_step for a kick checked alone, over the
 * step read as its three words (head, kick.first_slot, kick.flits) and a node
 * map (sn_mesh_map's slot: nonzero for a unit of the mesh, 0 for the SysNode
 * or no unit): 1 when the step is a kick that passes every one of them, 0
 * for any other step (the runner then checks its copy with
 * sn_table_check_step). slot_count is the round's payload count, at most
 * SN_STAGE_SLOTS (sn_table_check_round's rule), so a window inside the
 * round's payloads is inside the staging slots. The runner re-checks every
 * kick with it just before acting on it; test_runner_faults checks that it
 * agrees with sn_table_check_step. */
static inline int sn_table_kick_ok(uint32_t head, uint32_t first_slot, uint32_t flits, uint32_t slot_count,
                                   const uint8_t *is_unit)
{
    /* the window inside the payloads without a 64-bit sum: first_slot + flits <= slot_count */
    return (head & SN_KICK_WORD_MASK) == SN_STEP_KICK && is_unit[sn_step_word_node(head)] && flits != 0 &&
           first_slot <= slot_count && flits <= slot_count - first_slot;
}

#endif
