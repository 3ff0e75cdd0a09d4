/* The branch predictor; see bpred.h (core-timing §3.1-3.3). */
#include "bpred.h"

#include <string.h>

#define BTB_INDEX(pc) ((unsigned)((pc) >> 2) & 0xFF)
#define BTB_TAG(pc) ((uint16_t)(((pc) >> 10) & 0x7FF))
#define BTB_TARGET(t) ((t) & 0x7FFFFFFFFEull) /* bits [38:1] */

void sn_bpred_reset(sn_bpred *b)
{
    memset(b, 0, sizeof *b);
    memset(b->pht, 1, sizeof b->pht);
}

static unsigned pht_index(const sn_bpred *b, uint64_t pc)
{
    return ((unsigned)(pc >> 2) ^ b->ghist) & 0x3FF;
}

void sn_bpred_lookup(const sn_bpred *b, uint64_t pc, bool *hit, uint64_t *target, uint8_t *counter)
{
    unsigned i = BTB_INDEX(pc);
    *hit = b->btb_valid[i] && b->btb_tag[i] == BTB_TAG(pc);
    *target = b->btb_target[i];
    *counter = b->pht[pht_index(b, pc)];
}

void sn_bpred_train(sn_bpred *b, uint64_t cycle, uint64_t pc, bool cond, bool taken, uint64_t target)
{
    unsigned i = pht_index(b, pc);
    uint8_t v = b->pht[i]; /* read now: the write of the cycle before lands only at its end */
    if (!cond)
        v = 3;
    else if (taken)
        v = v < 3 ? v + 1 : 3;
    else
        v = v > 0 ? v - 1 : 0;
    b->next = (sn_bp_write){.valid = true,
                            .btb = taken,
                            .cycle = cycle + 1,
                            .pht_index = (uint16_t)i,
                            .pht_value = v,
                            .btb_index = (uint8_t)BTB_INDEX(pc),
                            .btb_tag = BTB_TAG(pc),
                            .btb_target = BTB_TARGET(target)};
    if (cond) {
        b->shift = true;
        b->shift_taken = taken;
    }
    b->busy = true;
}

void sn_bpred_end_cycle(sn_bpred *b, uint64_t cycle)
{
    if (b->pending.valid && b->pending.cycle <= cycle) {
        const sn_bp_write *w = &b->pending;
        if (w->cycle >= SN_BP_CLEAR_CYCLES) {
            b->pht[w->pht_index] = w->pht_value;
            if (w->btb) {
                b->btb_valid[w->btb_index] = true;
                b->btb_tag[w->btb_index] = w->btb_tag;
                b->btb_target[w->btb_index] = w->btb_target;
            }
        }
        b->pending.valid = false;
    }
    if (b->next.valid) {
        b->pending = b->next;
        b->next.valid = false;
    }
    if (b->shift) {
        b->ghist = (uint8_t)(b->ghist << 1 | b->shift_taken);
        b->shift = false;
    }
    b->busy = b->pending.valid;
}
