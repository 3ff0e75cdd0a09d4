/* The table rules (see table_check.h). */
#include "table_check.h"

#define NO_NODE 0xFFFFFFFFu

/* A step's (x, y) is a unit's: both below 16 (SN_NODE_ID keeps 4 bits of
 * each) and the node map has a unit there, not the SysNode. */
static int is_unit(const sn_mesh_map *map, const sn_table_step *s)
{
    return (s->x | s->y) < 16 && map->slot[SN_NODE_ID(s->x, s->y)] != 0;
}

/* The value a KICK_NODE or AWAIT_NODE fault carries: the step's own x and
 * y, which the node ID (4 bits each) cannot hold when they are 16 or more. */
static uint32_t coordinate(const sn_table_step *s)
{
    return (uint32_t)s->x | (uint32_t)s->y << 8;
}

static sn_status found(sn_table_fault *f, sn_status status, sn_table_rule rule, uint32_t node, uint32_t value,
                       uint32_t limit)
{
    f->status = status;
    f->rule = rule;
    f->node = node;
    f->value = value;
    f->limit = limit;
    return status;
}

sn_status sn_table_check_await_total(const sn_table_step *s, uint32_t awaited, sn_table_fault *f)
{
    if (s->await.completions > SN_AWAIT_TOTAL_MAX - awaited)
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_AWAIT_TOTAL, SN_NODE_ID(s->x, s->y), s->await.completions,
                     SN_AWAIT_TOTAL_MAX - awaited);
    return SN_OK;
}

sn_status sn_table_check_step(const sn_table_step *s, const sn_table_round *round, const sn_mesh_map *map,
                              uint32_t *kicked, uint32_t *awaited, sn_table_fault *f)
{
    uint32_t node = SN_NODE_ID(s->x, s->y);
    if (s->reserved != 0)
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_RESERVED, NO_NODE, s->reserved, 0);
    switch (s->op) {
    case SN_STEP_SEED:
    case SN_STEP_BARRIER:
        return SN_OK;
    case SN_STEP_HOST_SYNC:
        if ((s->x | s->y | s->a | s->b) != 0) /* its place: sn_table_check_round */
            return found(f, SN_ERR_TABLE_STEP, SN_RULE_SYNC_PLACE, NO_NODE, 0, 0);
        return SN_OK;
    case SN_STEP_KICK:
        if (!is_unit(map, s))
            return found(f, SN_ERR_TABLE_NODE, SN_RULE_KICK_NODE, node, coordinate(s), 0);
        if (s->kick.flits == 0)
            return found(f, SN_ERR_TABLE_SLOT, SN_RULE_KICK_EMPTY, node, 0, 0);
        if (s->kick.first_slot > SN_STAGE_SLOTS || s->kick.flits > SN_STAGE_SLOTS - s->kick.first_slot)
            return found(f, SN_ERR_TABLE_SLOT, SN_RULE_KICK_WINDOW, node, s->kick.first_slot + s->kick.flits,
                         SN_STAGE_SLOTS);
        if (s->kick.first_slot + s->kick.flits > round->payload_count)
            return found(f, SN_ERR_TABLE_SLOT, SN_RULE_KICK_PAYLOADS, node, s->kick.first_slot + s->kick.flits,
                         round->payload_count);
        /* flits <= 128 here: the subtraction cannot wrap. */
        if (kicked && kicked[node] > SN_AWAIT_TOTAL_MAX - s->kick.flits)
            return found(f, SN_ERR_TABLE_STEP, SN_RULE_KICK_TOTAL, node, s->kick.flits,
                         kicked[node] < SN_AWAIT_TOTAL_MAX ? SN_AWAIT_TOTAL_MAX - kicked[node] : 0);
        if (kicked)
            kicked[node] += s->kick.flits;
        return SN_OK;
    case SN_STEP_AWAIT:
        if (!is_unit(map, s))
            return found(f, SN_ERR_TABLE_NODE, SN_RULE_AWAIT_NODE, node, coordinate(s), 0);
        if (s->await.completions == 0)
            return found(f, SN_ERR_TABLE_STEP, SN_RULE_AWAIT_ZERO, node, 0, 0);
        if (awaited && sn_table_check_await_total(s, awaited[node], f) != SN_OK)
            return f->status;
        if (awaited)
            awaited[node] += s->await.completions;
        return SN_OK;
    default:
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_OPCODE, NO_NODE, s->op, 0);
    }
}

sn_status sn_table_check_round_record(const sn_table *t, const sn_table_round *round, sn_table_fault *f)
{
    if (round->step_first > t->step_count || round->step_count > t->step_count - round->step_first)
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_STEP_WINDOW, NO_NODE, round->step_first + round->step_count,
                     t->step_count);
    if (round->payload_first > t->payload_count || round->payload_count > t->payload_count - round->payload_first)
        return found(f, SN_ERR_TABLE_SLOT, SN_RULE_PAYLOAD_WINDOW, NO_NODE,
                     round->payload_first + round->payload_count, t->payload_count);
    if (round->payload_count > SN_STAGE_SLOTS)
        return found(f, SN_ERR_TABLE_SLOT, SN_RULE_ROUND_SLOTS, NO_NODE, round->payload_count, SN_STAGE_SLOTS);
    if (round->flags & ~SN_ROUND_SETTLE_PROVEN)
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_ROUND_FLAGS, NO_NODE, round->flags, SN_ROUND_SETTLE_PROVEN);
    if (round->reserved != 0)
        return found(f, SN_ERR_TABLE_STEP, SN_RULE_ROUND_RESERVED, NO_NODE, round->reserved, 0);
    return SN_OK;
}

sn_status sn_table_check_round(const sn_table *t, uint32_t index, const sn_mesh_map *map, uint32_t *kicked,
                               uint32_t *awaited, sn_table_fault *f)
{
    const sn_table_round *round = &t->rounds[index];
    f->round = index;
    f->step = 0;
    sn_status st = sn_table_check_round_record(t, round, f);
    /* read once: the tallies' stores would otherwise reload them per step */
    const uint32_t step_count = round->step_count, payload_count = round->payload_count;
    const sn_table_step *s = &t->steps[round->step_first];
    for (uint32_t i = 0; i < step_count && st == SN_OK; i++, s++) {
        f->step = i;
        /* Most steps are kicks: the quick test on the step's three words
         * (the record passed, so payload_count <= SN_STAGE_SLOTS) with the
         * KICK_TOTAL rule, each word read once; any other step, and a kick
         * over its total, gets the full rules. A tally is at most
         * SN_AWAIT_TOTAL_MAX and flits at most SN_STAGE_SLOTS: the sum cannot
         * wrap. */
        const uint32_t *word = (const uint32_t *)(const void *)s;
        uint32_t head = word[0], flits = word[2], node = sn_step_word_node(head);
        uint32_t total = kicked[node] + flits;
        if (sn_table_kick_ok(head, word[1], flits, payload_count, map->slot) && total <= SN_AWAIT_TOTAL_MAX) {
            kicked[node] = total;
            continue;
        }
        st = sn_table_check_step(s, round, map, kicked, awaited, f);
        if (st == SN_OK && s->op == SN_STEP_HOST_SYNC && i + 1 != step_count)
            st = found(f, SN_ERR_TABLE_STEP, SN_RULE_SYNC_PLACE, NO_NODE, 0, 0);
    }
    /* Only units of the mesh are ever counted: other coordinates are refused. */
    for (unsigned u = 0; u < map->mesh->unit_count; u++) {
        uint32_t n = sn_mesh_node(map->mesh, u);
        if (st == SN_OK && awaited[n] < kicked[n]) {
            f->step = round->step_count;
            st = found(f, SN_ERR_TABLE_STEP, SN_RULE_AWAITS_SHORT, n, awaited[n], kicked[n]);
        }
        kicked[n] = awaited[n] = 0;
    }
    return st;
}

sn_status sn_table_check(const sn_table *t, const sn_mesh_map *map, uint32_t *kicked, uint32_t *awaited,
                         sn_table_fault *fault)
{
    fault->status = SN_OK;
    fault->rule = SN_RULE_NONE;
    for (uint32_t i = 0; i < t->round_count; i++) {
        sn_status st = sn_table_check_round(t, i, map, kicked, awaited, fault);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}
