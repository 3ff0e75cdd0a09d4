/* The unit DRAM accesses of a run against the session's live bytes
 * (sn_device_check_accesses, device.h): which payload made each access,
 * and the report of a read of bytes nothing live held. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_map.h"
#include "device.h"
#include "err_text.h"
#include "payload_op.h"
#include "sysnode/mesh.h"

/* The payload a unit's numbered payload was: its round and slot in p. */
typedef struct {
    uint32_t round, slot;
} payload_at;

/* Where each node's payloads of p sit: node n's k-th payload of p is
 * at[first[n] + k], first[SN_NODE_COUNT] the total. NULL when out of memory. */
static payload_at *index_payloads(const sn_program *p, uint32_t first[SN_NODE_COUNT + 1])
{
    sn_table t = sn_program_table(p);
    uint32_t count[SN_NODE_COUNT] = {0};
    for (uint32_t i = 0; i < t.step_count; i++)
        if (t.steps[i].op == SN_STEP_KICK)
            count[SN_NODE_ID(t.steps[i].x, t.steps[i].y)] += t.steps[i].kick.flits;
    first[0] = 0;
    for (unsigned n = 0; n < SN_NODE_COUNT; n++)
        first[n + 1] = first[n] + count[n];
    payload_at *at = malloc((first[SN_NODE_COUNT] ? first[SN_NODE_COUNT] : 1) * sizeof *at);
    if (!at)
        return NULL;
    memset(count, 0, sizeof count);
    for (uint32_t r = 0; r < t.round_count; r++)
        for (uint32_t i = 0; i < t.rounds[r].step_count; i++) {
            const sn_table_step *s = &t.steps[t.rounds[r].step_first + i];
            unsigned n = SN_NODE_ID(s->x, s->y);
            for (uint32_t k = 0; s->op == SN_STEP_KICK && k < s->kick.flits; k++)
                at[first[n] + count[n]++] = (payload_at){r, s->kick.first_slot + k};
        }
    return at;
}

/* The payload's operation as the compiler names it (FILL, RUN, ...). */
static const char *op_name(const sn_program *p, const payload_at *w, uint16_t cu_type)
{
    sn_table t = sn_program_table(p);
    sn_payload q = sn_table_row_payload(&t.payloads[t.rounds[w->round].payload_first + w->slot]);
    return sn_payload_op_name(cu_type, sn_payload_op(&q, cu_type));
}

/* One line naming the access a (its payload w of p, or the unit's payload
 * number when w is NULL) and the bytes of it that were not live. */
static void describe(const sn_program *p, const payload_at *w, const sn_unit_access *a, uint64_t lo, uint64_t hi,
                     uint64_t missing, uint64_t first_missing, char *out, size_t len)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    const sn_mesh_unit *u = sn_mesh_find(&mesh, a->x, a->y);
    uint16_t type = u ? u->cu_type : 0;
    const char *unit = type == SN_CU_TYPE_MG ? "matmul cluster" : type == SN_CU_TYPE_VC ? "vector core" : "unit";
    const char *how = type == SN_CU_TYPE_MG ? "a FILL" : type == SN_CU_TYPE_VC ? "a VFILL" : "a read";
    int n = w ? snprintf(out, len, "%s: round %u slot %u: payload %s", p->files[w->round], w->round, w->slot,
                         op_name(p, w, type))
              : snprintf(out, len, "payload %llu since the boot", (unsigned long long)a->payload);
    if (n >= 0 && (size_t)n < len && a->write)
        sn_text_fit(out + n, len - n, " to the %s at (%u,%u) writes %llu bytes at [0x%llx, 0x%llx)", unit, a->x, a->y,
                 (unsigned long long)(hi - lo), (unsigned long long)lo, (unsigned long long)hi);
    else if (n >= 0 && (size_t)n < len)
        sn_text_fit(out + n, len - n,
                 " to the %s at (%u,%u) reads %llu bytes at [0x%llx, 0x%llx) (%s), %llu of them written by "
                 "neither the host nor an earlier round in this session, first 0x%llx",
                 unit, a->x, a->y, (unsigned long long)(hi - lo), (unsigned long long)lo, (unsigned long long)hi, how,
                 (unsigned long long)missing, (unsigned long long)first_missing);
}

sn_status sn_device_check_accesses(sn_device *d, const sn_program *p, sn_error *e)
{
    if (!d->tracking)
        return SN_OK;
    const sn_unit_access *acc;
    size_t n;
    sn_status st = d->t->ops->take_accesses(d->t->ctx, &acc, &n, e);
    uint32_t first[SN_NODE_COUNT + 1];
    payload_at *at = st == SN_OK ? index_payloads(p, first) : NULL;
    if (st == SN_OK && !at)
        st = sn_error_set(e, SN_ERR_INTERNAL, "out of memory for the payloads of %zu rounds", p->round_count);
    if (st != SN_OK)
        return st;
    /* One report per payload: a walk's strided reads are many accesses.
     * Every write is applied, also after an error, so the live bytes stay
     * true for the session's next run. */
    const sn_unit_access *open = NULL;
    const payload_at *open_at = NULL;
    uint64_t lo = 0, hi = 0, missing = 0, first_missing = 0;
    for (size_t i = 0; i <= n; i++) {
        const sn_unit_access *a = i < n ? &acc[i] : NULL;
        if (a && (a->addr > d->dram_bytes || a->nbytes > d->dram_bytes - a->addr))
            continue; /* the simulator stopped the run for it */
        unsigned node = a ? SN_NODE_ID(a->x, a->y) : 0;
        uint64_t k = a ? a->payload - d->sent[node] : 0;
        const payload_at *w = a && a->payload >= d->sent[node] && k < first[node + 1] - first[node]
                                  ? &at[first[node] + k]
                                  : NULL;
        int same = open && a && a->x == open->x && a->y == open->y && a->payload == open->payload;
        uint64_t first_here = 0;
        uint64_t clear = a && !a->write ? sn_byte_map_count_clear(d->live, a->addr, a->nbytes, &first_here) : 0;
        if (open && (!same || (a && a->write))) {
            char msg[512];
            describe(p, open_at, open, lo, hi, missing, first_missing, msg, sizeof msg);
            if (d->strict && st == SN_OK)
                st = sn_error_set(e, SN_ERR_INPUT, "%s (strict: a read of bytes no one wrote is an error)", msg);
            else if (!d->strict && d->warn)
                d->warn(d->warn_ctx, msg);
            open = NULL;
        }
        if (!a)
            break;
        /* The runner writes its status copy after its table at each hold and at its exit, over whatever a
         * unit wrote there before (FORMAT.md §6): those bytes are lost, so such a write is refused. */
        uint64_t copy_lo = sn_replay_status_addr(d->table_addr, d->table_bytes), copy_hi = copy_lo + SN_STATUS_COPY_BYTES;
        if (a->write && d->table_bytes && a->addr < copy_hi && copy_lo < a->addr + a->nbytes && st == SN_OK) {
            char msg[512];
            describe(p, w, a, a->addr, a->addr + a->nbytes, 0, 0, msg, sizeof msg);
            st = sn_error_set(e, SN_ERR_INPUT, "%s, over the runner's status copy at [0x%llx, 0x%llx) after its table: "
                              "the runner writes it at each hold and at its exit, and those bytes are lost (write "
                              "below the table, 0x%llx)", msg, (unsigned long long)copy_lo, (unsigned long long)copy_hi,
                              (unsigned long long)d->table_addr);
        }
        if (a->write) {
            sn_byte_map_set(d->live, a->addr, a->addr + a->nbytes, 1);
        } else if (clear && open) {
            lo = a->addr < lo ? a->addr : lo;
            hi = a->addr + a->nbytes > hi ? a->addr + a->nbytes : hi;
            missing += clear;
        } else if (clear) {
            open = a;
            open_at = w;
            lo = a->addr;
            hi = a->addr + a->nbytes;
            missing = clear;
            first_missing = first_here;
        }
    }
    free(at);
    return st;
}
