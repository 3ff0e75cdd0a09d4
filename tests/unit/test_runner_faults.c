/* Runner core unit tests, error side: unit faults, missing, extra, unknown and
 * lost completions, peer acks, and table validation before any GO (DESIGN §2,
 * runner.h's status list). Each expected status, node and count follows from
 * the program and the injected fault, not from the runner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "runner_fixture.h"
#include "table_check.h"

int run_fault_tests(void);

static void expect_error(const fx *f, sn_status st, uint32_t round, uint32_t step, uint32_t node,
                         uint32_t value)
{
    assert_int_equal(f->status.error, st);
    assert_int_equal(f->status.error_round, round);
    assert_int_equal(f->status.error_step, step);
    assert_int_equal(f->status.error_node, node);
    assert_int_equal(f->status.error_value, value);
}

#define expect_in_msg(f, text)                                                                     \
    do {                                                                                           \
        if (!strstr((f)->msg, text))                                                               \
            fail_msg("\"%s\" not in \"%s\"", text, (f)->msg);                                     \
    } while (0)

/* 5. (1,0) faults on its 4th flit of round 1 (a 40-flit kick, step 1) with
 * result 5. The record arrives while the kick is still going out; the runner
 * stops there and sends no GO after reading it. */
static void unit_fault_stops_the_run(void **state)
{
    fx *f = *state;
    mbox_unit_config *u = mbox_config_unit(&f->cfg, 1, 0);
    u->fault_flit = 3;
    u->fault_arg = 5;
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 2, 0, 2);
    prog_await(&f->p, 1, 2, 2);
    prog_round(&f->p, 40);
    prog_step(&f->p, SN_STEP_SEED, 0, 0, 512, 0);
    prog_kick(&f->p, 1, 0, 0, 40);
    prog_await(&f->p, 1, 0, 40);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_ERR_UNIT_FAULT);
    expect_error(f, SN_ERR_UNIT_FAULT, 1, 1, SN_NODE_ID(1, 0), 5);
    assert_int_equal(f->m->gos_after_fault, 0);
    assert_true(f->m->gos_accepted < 2 + 40); /* stopped inside the kick */
    expect_in_msg(f, "round 1 step 1");
    expect_in_msg(f, "SIG_FAULT, argument 5");
    expect_in_msg(f, "node (1,0)");
}

/* 6. (1,0)'s 2nd and (1,2)'s 2nd completions never come: the await for
 * (1,0)'s 3 hangs after 2, and both nodes are named with their counts. */
static void missing_completion_is_a_hang(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 0)->drop_flit = 1;
    mbox_config_unit(&f->cfg, 1, 2)->drop_flit = 1;
    prog_round(&f->p, 5);
    prog_kick(&f->p, 1, 0, 0, 3);
    prog_kick(&f->p, 1, 2, 3, 2);
    prog_await(&f->p, 1, 0, 3);
    prog_await(&f->p, 1, 2, 2);
    fx_start(f);
    f->r.hang_cycles = 10000;

    assert_int_equal(fx_run(f), SN_ERR_HANG);
    assert_int_equal(f->status.error_round, 0);
    assert_int_equal(f->status.error_step, 2);
    assert_int_equal(f->status.error_node, SN_NODE_ID(1, 0));
    assert_true(f->status.error_value > 10000);
    assert_true(f->m->now < 10000 + 2000); /* the bound, not a spin */
    expect_in_msg(f, "round 0 step 2");
    expect_in_msg(f, "node (1,0): awaited 3, received 2, owed 1, flits outstanding 1");
    expect_in_msg(f, "node (1,2): awaited 0, received 1, owed 0, flits outstanding 1");
    assert_null(strstr(f->msg, "(1,1)"));
    assert_null(strstr(f->msg, "(2,1)"));
}

/* 7a. A fused round: (1,1) is kicked once and 8 DATA_RECEIVED acks credited
 * to (1,0), never kicked, follow its completion; awaiting 8 on (1,0) is OK. */
static void peer_acks_credit_their_source(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 1)->inject = (mbox_inject){
        .after_flit = 0, .count = 8, .src_x = 1, .src_y = 0, .code = SN_SIG_DATA_RECEIVED};
    prog_round(&f->p, 1);
    prog_kick(&f->p, 1, 1, 0, 1);
    prog_await(&f->p, 1, 1, 1);
    prog_await(&f->p, 1, 0, 8);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->m->log_count, 1);
    assert_int_equal(mbox_model_unit(f->m, 1, 0)->received, 0);
    assert_int_equal(f->status.completions, 9);
}

/* 7b. The same round with 9 acks: (1,0) got one more than awaited, reported
 * at the round's end (step 3 = after the last step) with both counts. */
static void one_ack_too_many_is_reported(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 1)->inject = (mbox_inject){
        .after_flit = 0, .count = 9, .src_x = 1, .src_y = 0, .code = SN_SIG_DATA_RECEIVED};
    prog_round(&f->p, 1);
    prog_kick(&f->p, 1, 1, 0, 1);
    prog_await(&f->p, 1, 1, 1);
    prog_await(&f->p, 1, 0, 8);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_ERR_EXTRA_COMPLETION);
    expect_error(f, SN_ERR_EXTRA_COMPLETION, 0, 3, SN_NODE_ID(1, 0), 9);
    expect_in_msg(f, "received 9 completions, awaited 8");
    expect_in_msg(f, "node (1,0)");
}

/* 7c. A unit that sends one BATCH_COMPLETE too many (3 for 2 flits). */
static void extra_batch_complete_is_reported(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 2)->inject = (mbox_inject){
        .after_flit = 1, .count = 1, .src_x = 1, .src_y = 2, .code = SN_SIG_BATCH_COMPLETE,
        .arg = 1};
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 2, 0, 2);
    prog_await(&f->p, 1, 2, 2);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_ERR_EXTRA_COMPLETION);
    expect_error(f, SN_ERR_EXTRA_COMPLETION, 0, 2, SN_NODE_ID(1, 2), 3);
}

/* 8a. A record from (3,3), where the mesh has no unit. */
static void completion_from_unknown_coordinate(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 1)->inject = (mbox_inject){
        .after_flit = 0, .count = 1, .src_x = 3, .src_y = 3, .code = SN_SIG_BATCH_COMPLETE};
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 1, 0, 2);
    prog_await(&f->p, 1, 1, 2);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_ERR_UNKNOWN_SOURCE);
    assert_int_equal(f->status.error_node, SN_NODE_ID(3, 3));
    assert_int_equal(f->status.error_value, SN_SIG_BATCH_COMPLETE); /* its code */
    expect_in_msg(f, "no unit");
    expect_in_msg(f, "node (3,3)");
}

/* 8b. 64 acks arrive one a cycle, faster than the runner pops (4 cycles a
 * record). Gen A drops what does not fit and sets STAT[31]: the runner says
 * so at once instead of hanging on the lost acks. Gen B holds them at the hub
 * and the same program passes. */
static void gen_a_overflow_is_lost_not_hang(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 1)->inject = (mbox_inject){
        .after_flit = 0, .count = 64, .src_x = 1, .src_y = 0, .code = SN_SIG_DATA_RECEIVED};
    prog_round(&f->p, 1);
    prog_kick(&f->p, 1, 1, 0, 1);
    prog_await(&f->p, 1, 1, 1);
    prog_await(&f->p, 1, 0, 64);

    f->cfg.gen_a = 1;
    fx_start(f);
    f->r.hang_cycles = 10000;
    assert_int_equal(fx_run(f), SN_ERR_LOST_COMPLETION);
    assert_true(f->m->lost_records > 0);
    assert_true(f->m->now < 10000); /* seen before any hang bound */
    expect_in_msg(f, "STAT[31]");

    f->cfg.gen_a = 0;
    fx_start(f);
    f->r.hang_cycles = 10000;
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->m->lost_records, 0);
    assert_int_equal(f->m->max_queued, SN_CQ_DEPTH);
}

/* 9. Table validation. Round 0 is always a good 2-flit round, so a runner
 * that checked lazily would have sent its GOs before reaching the bad step
 * in round 1; none may reach the mailbox. */
typedef struct {
    const char *name;
    uint32_t payloads;  /* round 1's payload rows */
    sn_table_step bad;  /* round 1 is: seed, bad */
    sn_status status;
    uint32_t step;      /* where the error is reported */
    uint32_t node;
    uint32_t value;
} bad_table;

static void run_bad_table(fx *f, const bad_table *c)
{
    prog_reset(&f->p);
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 0, 0, 2);
    prog_await(&f->p, 1, 0, 2);
    prog_round(&f->p, c->payloads);
    prog_step(&f->p, SN_STEP_SEED, 0, 0, 512, 0);
    prog_step(&f->p, c->bad.op, c->bad.x, c->bad.y, c->bad.a, c->bad.b);
    fx_start(f);

    sn_status st = fx_run(f);
    if (st != c->status || f->m->gos_accepted + f->m->dropped_go != 0)
        fail_msg("%s: status %#x, %u GOs", c->name, st, f->m->gos_accepted + f->m->dropped_go);
    expect_error(f, c->status, 1, c->step, c->node, c->value);
    char where[32];
    snprintf(where, sizeof where, "round 1 step %u", c->step);
    expect_in_msg(f, where);
}

static void bad_tables_send_no_go(void **state)
{
    fx *f = *state;
    const uint32_t none = 0xFFFFFFFFu;
    const bad_table cases[] = {
        {"kick past the round's payloads", 4, {SN_STEP_KICK, 1, 0, 0, .kick = {2, 3}},
         SN_ERR_TABLE_SLOT, 1, SN_NODE_ID(1, 0), 5},
        {"kick past slot 128", 128, {SN_STEP_KICK, 1, 0, 0, .kick = {120, 10}},
         SN_ERR_TABLE_SLOT, 1, SN_NODE_ID(1, 0), 130},
        {"round staging 129 payloads", 129, {SN_STEP_KICK, 1, 0, 0, .kick = {0, 1}},
         SN_ERR_TABLE_SLOT, 0, none, 129},
        {"kick to the SysNode (0,0)", 4, {SN_STEP_KICK, 0, 0, 0, .kick = {0, 1}},
         SN_ERR_TABLE_NODE, 1, SN_NODE_ID(0, 0), 0},
        {"kick to (5,5), no unit", 4, {SN_STEP_KICK, 5, 5, 0, .kick = {0, 1}},
         SN_ERR_TABLE_NODE, 1, SN_NODE_ID(5, 5), 0x0505},
        /* value: the step's x | y << 8, as written; the node ID keeps 4 bits of each */
        {"kick to (17,0), x past 4 bits", 4, {SN_STEP_KICK, 17, 0, 0, .kick = {0, 1}},
         SN_ERR_TABLE_NODE, 1, SN_NODE_ID(1, 0), 0x0011},
        {"await on (1,16), y past 4 bits", 4, {SN_STEP_AWAIT, 1, 16, 0, .await = {1}},
         SN_ERR_TABLE_NODE, 1, SN_NODE_ID(1, 0), 0x1001},
        {"await on (0,0)", 4, {SN_STEP_AWAIT, 0, 0, 0, .await = {1}},
         SN_ERR_TABLE_NODE, 1, SN_NODE_ID(0, 0), 0},
        {"await count 0", 4, {SN_STEP_AWAIT, 1, 0, 0, .await = {0}},
         SN_ERR_TABLE_STEP, 1, SN_NODE_ID(1, 0), 0},
        {"opcode 0", 4, {0, 1, 0, 0, .b = 1}, SN_ERR_TABLE_STEP, 1, none, 0},
        {"opcode 9", 4, {9, 1, 0, 0, .b = 1}, SN_ERR_TABLE_STEP, 1, none, 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_bad_table(f, &cases[i]);
}

/* A node awaited for fewer completions than flits kicked to it (3 kicked,
 * 1 + 1 awaited) is reported after the round's last step, value = awaited. */
static void awaits_short_of_kicks_send_no_go(void **state)
{
    fx *f = *state;
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 0, 0, 2);
    prog_await(&f->p, 1, 0, 2);
    prog_round(&f->p, 3);
    prog_kick(&f->p, 2, 1, 0, 3);
    prog_await(&f->p, 2, 1, 1);
    prog_await(&f->p, 2, 1, 1);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_ERR_TABLE_STEP);
    assert_int_equal(f->m->gos_accepted + f->m->dropped_go, 0);
    expect_error(f, SN_ERR_TABLE_STEP, 1, 3, SN_NODE_ID(2, 1), 2);
    expect_in_msg(f, "round 1 (end of round)");
    expect_in_msg(f, "node (2,1)");
}

/* 6b. A hang inside a kick: inst_depth 1 and (1,0)'s 2nd completion never
 * comes, so the 3rd GO waits for room forever. The status block's counts
 * are those at the hang, GOs of the unfinished kick included: 2 sent, 1
 * completed, 1 outstanding (the runner keeps a kick's counts in locals and
 * must bring them up to date before it reports). */
static void hang_inside_a_kick_reports_its_counts(void **state)
{
    fx *f = *state;
    mbox_config_unit(&f->cfg, 1, 0)->drop_flit = 1;
    prog_round(&f->p, 10);
    prog_kick(&f->p, 1, 0, 0, 10);
    prog_await(&f->p, 1, 0, 10);
    fx_start(f);
    f->r.inst_depth = 1;
    f->r.hang_cycles = 10000;

    assert_int_equal(fx_run(f), SN_ERR_HANG);
    assert_int_equal(f->status.error_step, 0);
    assert_int_equal(f->status.phase, SN_PHASE_KICK);
    assert_int_equal(f->status.flits_sent, 2); /* flit 0 completed, flit 1 never does */
    assert_int_equal(f->status.completions, 1);
    const sn_status_unit *u = &f->status.units[2]; /* (1,0) in rv64_mesh_2p2 */
    assert_int_equal(u->node, SN_NODE_ID(1, 0));
    assert_int_equal(u->received, 1);
    assert_int_equal(u->outstanding, 1);
    expect_in_msg(f, "hang: no completion for ");
    expect_in_msg(f, "while sending to (1,0); owed:\n  node (1,0): awaited 0, received 1, owed 0, flits outstanding 1");
}

/* The runner's quick kick and seed tests (sn_table_kick_ok over the step's
 * three words, sn_table_seed_ok over its first) pass exactly the kicks and
 * the seeds the full step check (sn_table_check_step, checked alone) passes
 * and no other step, over every opcode and the edges of each field, on
 * rv64_mesh_2p2. */
static void quick_step_test_agrees_with_the_rules(void **state)
{
    fx *f = *state;
    static const uint8_t coords[] = {0, 1, 2, 3, 15, 16, 17, 255};
    static const uint32_t counts[] = {0, 1, 2, 25, 26, 27, 127, 128, 129, 0x7FFFFFFFu, 0xFFFFFFFFu};
    static const uint32_t round_payloads[] = {0, 26, 128};
    fx_start(f);
    uint32_t checked = 0;
    for (unsigned op = 0; op <= 5; op++)
        for (unsigned xi = 0; xi < sizeof coords; xi++)
            for (unsigned yi = 0; yi < sizeof coords; yi++)
                for (unsigned reserved = 0; reserved <= 1; reserved++)
                    for (unsigned ai = 0; ai < sizeof counts / sizeof counts[0]; ai++)
                        for (unsigned bi = 0; bi < sizeof counts / sizeof counts[0]; bi++)
                            for (unsigned ri = 0; ri < 3; ri++) {
                                sn_table_step s = {(uint8_t)op, coords[xi], coords[yi], (uint8_t)reserved,
                                                   .a = counts[ai], .b = counts[bi]};
                                sn_table_round round = {0, 1, 0, round_payloads[ri], 0, 0, 0};
                                sn_table_fault fault;
                                int full = sn_table_check_step(&s, &round, &f->r.map, NULL, NULL, &fault) == SN_OK;
                                uint32_t head;
                                memcpy(&head, &s, sizeof head); /* {reserved, y, x, op}, little-endian */
                                int kick = full && op == SN_STEP_KICK, seed = full && op == SN_STEP_SEED;
                                if (sn_table_kick_ok(head, s.a, s.b, round.payload_count, f->r.map.slot) != kick ||
                                    sn_table_seed_ok(head) != seed)
                                    fail_msg("op %u (%u,%u) reserved %u a %u b %u payloads %u: the quick tests disagree "
                                             "with the full check (%d)",
                                             op, s.x, s.y, reserved, s.a, s.b, round.payload_count, full);
                                checked++;
                            }
    assert_true(checked > 100000);
}

int run_fault_tests(void)
{
    const struct CMUnitTest tests[] = {
        SN_FX_TEST(unit_fault_stops_the_run), SN_FX_TEST(missing_completion_is_a_hang),
        SN_FX_TEST(peer_acks_credit_their_source), SN_FX_TEST(one_ack_too_many_is_reported),
        SN_FX_TEST(extra_batch_complete_is_reported), SN_FX_TEST(completion_from_unknown_coordinate),
        SN_FX_TEST(gen_a_overflow_is_lost_not_hang), SN_FX_TEST(bad_tables_send_no_go),
        SN_FX_TEST(awaits_short_of_kicks_send_no_go), SN_FX_TEST(quick_step_test_agrees_with_the_rules),
        SN_FX_TEST(hang_inside_a_kick_reports_its_counts),
    };
    return cmocka_run_group_tests_name("runner faults", tests, NULL, NULL);
}
