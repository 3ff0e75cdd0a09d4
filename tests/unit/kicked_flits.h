/* Every flit a program's kick steps send, in table order: rounds in order,
 * each round's steps in order, a kick's flits from its first slot on
 * (artifacts/FORMAT.md §2, DESIGN.md §2). */
#ifndef SN_TEST_KICKED_FLITS_H
#define SN_TEST_KICKED_FLITS_H

#include <stddef.h>
#include <stdint.h>

#include "artifact.h"

/* fn(ctx, kick, payload): the kick step that sends the flit and the index
 * of the flit's payload in p->payloads. */
typedef void (*kicked_flit_fn)(void *ctx, const sn_table_step *kick, size_t payload);

static inline void each_kicked_flit(const sn_program *p, kicked_flit_fn fn, void *ctx)
{
    for (size_t r = 0; r < p->round_count; r++) {
        const sn_table_round *round = &p->rounds[r];
        for (uint32_t k = 0; k < round->step_count; k++) {
            const sn_table_step *st = &p->steps[round->step_first + k];
            if (st->op != SN_STEP_KICK)
                continue;
            for (uint32_t i = 0; i < st->kick.flits; i++)
                fn(ctx, st, round->payload_first + st->kick.first_slot + i);
        }
    }
}

#endif
