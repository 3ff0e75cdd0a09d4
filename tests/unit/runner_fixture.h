/* Shared set-up for the runner's unit tests: a mailbox model, the
 * rv64_mesh_2p2 mesh, a runner, and a small builder for hand-made sn_table
 * programs whose payload words say where they came from. */
#ifndef RUNNER_FIXTURE_H
#define RUNNER_FIXTURE_H

#include <stdint.h>
#include "mbox_model.h"
#include "runner.h"

#define PROG_MAX_ROUNDS 4
#define PROG_MAX_STEPS 256
#define PROG_MAX_PAYLOADS 256

typedef struct {
    sn_table_round rounds[PROG_MAX_ROUNDS];
    sn_table_step steps[PROG_MAX_STEPS];
    sn_table_row payloads[PROG_MAX_PAYLOADS];
    sn_table table;
} prog;

typedef struct {
    sn_port *m;              /* the model, heap-allocated (it is large) */
    mbox_model_config cfg;   /* edited by a test before fx_start */
    sn_mesh mesh;
    sn_status_block status;
    sn_runner r;
    prog p;
    char msg[1024];          /* the status block worded (common/messages.h) */
} fx;

/* cmocka setup/teardown: a default-config model, an empty program. */
int fx_setup(void **state);
int fx_teardown(void **state);
/* A cmocka test between fx_setup and fx_teardown. */
#define SN_FX_TEST(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

/* Resets the model with f->cfg, its cycle limit failing the test, and
 * initialises the runner over it; a test may then adjust f->r (hang_cycles,
 * inst_depth) before fx_run. */
void fx_start(fx *f);
/* Runs f->p and fills f->msg with its status block worded by the host. */
sn_status fx_run(fx *f);

/* The word the builder puts in mailbox register ARG<k> for a round's slot:
 * 0xA<k> in the top byte, the round at [47:32], the slot at [15:0]. */
uint64_t prog_word(uint32_t round, uint32_t slot, unsigned k);

/* Empties p (no rounds, steps or payloads). */
void prog_reset(prog *p);
/* Starts a round holding payload_count payload rows made of prog_word. */
void prog_round(prog *p, uint32_t payload_count);
/* Appends a step to the current round: any op with its words as stored
 * (a, b), or a kick or an await by their named words. */
void prog_step(prog *p, uint8_t op, uint8_t x, uint8_t y, uint32_t a, uint32_t b);
void prog_kick(prog *p, uint8_t x, uint8_t y, uint32_t first_slot, uint32_t flits);
void prog_await(prog *p, uint8_t x, uint8_t y, uint32_t completions);

/* Asserts that log entry i is round/slot's payload delivered to (x, y) with
 * the given txn: ARG<k> = prog_word(round, slot, k) for every k. */
void expect_flit(const sn_port *m, uint32_t i, uint8_t x, uint8_t y, uint32_t round,
                 uint32_t slot, uint8_t txn);

#endif
