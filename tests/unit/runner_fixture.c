/* Shared set-up for the runner's unit tests (see runner_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "messages.h"
#include "runner_fixture.h"

int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->m = calloc(1, sizeof *f->m);
    if (!f->m) {
        free(f);
        return -1;
    }
    f->cfg = mbox_model_default_config();
    f->mesh = (sn_mesh)SN_MESH_2P2_INIT;
    prog_reset(&f->p);
    *state = f;
    return 0;
}

int fx_teardown(void **state)
{
    fx *f = *state;
    free(f->m);
    free(f);
    return 0;
}

static void fx_cycle_limit(sn_port *m)
{
    fail_msg("the model reached %llu cycles: the runner never returned",
             (unsigned long long)m->now);
}

void fx_start(fx *f)
{
    f->cfg.on_limit = fx_cycle_limit;
    mbox_model_init(f->m, &f->cfg);
    sn_runner_init(&f->r, f->m, &f->mesh, &f->status);
}

sn_status fx_run(fx *f)
{
    /* each round's payload hash over its rows as the test left them, as the
     * packer sets it (FORMAT.md §3); a window outside the rows is the table
     * rules' to refuse */
    const sn_table *t = &f->p.table;
    for (uint32_t i = 0; i < t->round_count; i++)
        if ((uint64_t)f->p.rounds[i].payload_first + f->p.rounds[i].payload_count <= t->payload_count)
            f->p.rounds[i].payload_hash = sn_table_round_payload_hash(t, &f->p.rounds[i]);
    sn_status st = sn_runner_run(&f->r, &f->p.table);
    sn_runner_describe(&f->status, f->msg, sizeof f->msg);
    return st;
}

uint64_t prog_word(uint32_t round, uint32_t slot, unsigned k)
{
    return (uint64_t)(0xA0 + k) << 56 | (uint64_t)(round & 0xFFFF) << 32 | (slot & 0xFFFF);
}

void prog_reset(prog *p)
{
    p->table = (sn_table){.rounds = p->rounds, .steps = p->steps, .payloads = p->payloads};
}

void prog_round(prog *p, uint32_t payload_count)
{
    sn_table *t = &p->table;
    assert_true(t->round_count < PROG_MAX_ROUNDS);
    assert_true(t->payload_count + payload_count <= PROG_MAX_PAYLOADS);
    sn_table_round *r = &p->rounds[t->round_count];
    r->step_first = t->step_count;
    r->step_count = 0;
    r->payload_first = t->payload_count;
    r->payload_count = payload_count;
    for (uint32_t s = 0; s < payload_count; s++) {
        sn_payload q;
        for (unsigned k = 0; k < SN_PAYLOAD_WORDS; k++)
            q.w[k] = prog_word(t->round_count, s, k);
        p->payloads[t->payload_count + s] = sn_table_payload_row(&q);
    }
    t->payload_count += payload_count;
    t->round_count++;
}

void prog_step(prog *p, uint8_t op, uint8_t x, uint8_t y, uint32_t a, uint32_t b)
{
    sn_table *t = &p->table;
    assert_true(t->round_count > 0 && t->step_count < PROG_MAX_STEPS);
    p->steps[t->step_count++] = (sn_table_step){op, x, y, 0, .a = a, .b = b};
    p->rounds[t->round_count - 1].step_count++;
}

void prog_kick(prog *p, uint8_t x, uint8_t y, uint32_t first_slot, uint32_t flits)
{
    prog_step(p, SN_STEP_KICK, x, y, 0, 0);
    p->steps[p->table.step_count - 1].kick.first_slot = first_slot;
    p->steps[p->table.step_count - 1].kick.flits = flits;
}

void prog_await(prog *p, uint8_t x, uint8_t y, uint32_t completions)
{
    prog_step(p, SN_STEP_AWAIT, x, y, 0, 0);
    p->steps[p->table.step_count - 1].await.completions = completions;
}

void expect_flit(const sn_port *m, uint32_t i, uint8_t x, uint8_t y, uint32_t round,
                 uint32_t slot, uint8_t txn)
{
    assert_true(i < m->log_count);
    const mbox_flit *fl = &m->log[i];
    assert_int_equal(fl->x, x);
    assert_int_equal(fl->y, y);
    assert_int_equal(fl->txn, txn);
    for (unsigned k = 0; k < SN_PAYLOAD_WORDS; k++)
        assert_int_equal(fl->payload.w[k], prog_word(round, slot, k));
}
