/* Runner core unit tests, dispatch side: payloads reach the right unit once,
 * in order, with the right words; the dropped-GO, full-queue, shadow-register
 * and inst_depth rules (DESIGN §2-§3) hold against the mailbox model. Error
 * paths and table validation are in test_runner_faults.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "runner_fixture.h"

int run_fault_tests(void);

/* 1. Two nodes kicked in interleaved slices, one await each for the total. */
static void interleaved_nodes_get_their_payloads_in_order(void **state)
{
    fx *f = *state;
    prog_round(&f->p, 6);
    prog_kick(&f->p, 1, 0, 0, 2);
    prog_kick(&f->p, 1, 2, 2, 2);
    prog_kick(&f->p, 1, 0, 4, 1);
    prog_kick(&f->p, 1, 2, 5, 1);
    prog_await(&f->p, 1, 0, 3);
    prog_await(&f->p, 1, 2, 3);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_OK);

    /* one mailbox, so delivery order is slot order; txn counts accepted GOs from 0 */
    assert_int_equal(f->m->log_count, 6);
    expect_flit(f->m, 0, 1, 0, 0, 0, 0);
    expect_flit(f->m, 1, 1, 0, 0, 1, 1);
    expect_flit(f->m, 2, 1, 2, 0, 2, 2);
    expect_flit(f->m, 3, 1, 2, 0, 3, 3);
    expect_flit(f->m, 4, 1, 0, 0, 4, 4);
    expect_flit(f->m, 5, 1, 2, 0, 5, 5);
    /* row {ARG3,ARG2,ARG1,ARG0}: the row's first word is ARG3 = payload[255:192] */
    assert_true(f->p.payloads[0].arg3 == 0xA300000000000000ull);
    assert_true(f->m->log[0].payload.w[3] == 0xA300000000000000ull);
    assert_true(f->m->log[5].payload.w[0] == 0xA000000000000005ull);
    assert_int_equal(f->m->log[4].seq, 2); /* (1,0)'s third flit */

    assert_int_equal(mbox_model_unit(f->m, 1, 0)->retired, 3);
    assert_int_equal(mbox_model_unit(f->m, 1, 2)->retired, 3);
    assert_int_equal(mbox_model_unit(f->m, 1, 1)->received, 0);
    assert_int_equal(f->m->gos_accepted, 6);
    assert_int_equal(f->m->dropped_go, 0);
    assert_int_equal(f->m->stray_flits, 0);
    assert_int_equal(f->m->bad_access, 0);
    assert_int_equal(f->m->cq_count, 0);
    assert_int_equal(f->status.phase, SN_PHASE_DONE);
    assert_int_equal(f->status.flits_sent, 6);
    assert_int_equal(f->status.completions, 6);
    assert_string_equal(f->msg, "ok");
}

/* 2. One node kicked three times in a round and awaited once for the total;
 * the next round restages from slot 0 and counts from 0 again. */
static void repeated_kicks_awaited_once_per_round(void **state)
{
    fx *f = *state;
    prog_round(&f->p, 10);
    prog_kick(&f->p, 1, 1, 0, 3);
    prog_step(&f->p, SN_STEP_SEED, 0, 0, 512, 0);
    prog_kick(&f->p, 1, 1, 3, 2);
    prog_kick(&f->p, 1, 1, 5, 5);
    prog_await(&f->p, 1, 1, 10);
    prog_round(&f->p, 4);
    prog_kick(&f->p, 1, 1, 0, 4);
    prog_await(&f->p, 1, 1, 4);
    fx_start(f);

    /* a count carried over from round 0 would make round 1 end with 14 != 4 */
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->m->log_count, 14);
    for (uint32_t i = 0; i < 10; i++)
        expect_flit(f->m, i, 1, 1, 0, i, (uint8_t)i);
    for (uint32_t i = 0; i < 4; i++)
        expect_flit(f->m, 10 + i, 1, 1, 1, i, (uint8_t)(10 + i));
    assert_int_equal(mbox_model_unit(f->m, 1, 1)->retired, 14);
    assert_int_equal(f->m->dropped_go, 0);
}

/* 3a. A hub that holds each offer 400 cycles: the runner waits STAT[15]
 * before every GO, so nothing is dropped. */
static void slow_hub_drops_no_go(void **state)
{
    fx *f = *state;
    f->cfg.hub_take_cycles = 400;
    prog_round(&f->p, 8);
    prog_kick(&f->p, 1, 0, 0, 4);
    prog_kick(&f->p, 2, 1, 4, 4);
    prog_await(&f->p, 1, 0, 4);
    prog_await(&f->p, 2, 1, 4);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->m->dropped_go, 0);
    assert_int_equal(f->m->log_count, 8);
    for (uint32_t i = 0; i < 8; i++)
        expect_flit(f->m, i, i < 4 ? 1 : 2, i < 4 ? 0 : 1, 0, i, (uint8_t)i);
    assert_true(f->m->log[7].cycle >= 8 * 400); /* the hub really was slow */
}

/* 3b. The model drops a GO written while STAT[15] is set, keeps the offered
 * flit as it was, and does not spend a txn on the dropped GO. */
static void model_drops_back_to_back_go(void **state)
{
    fx *f = *state;
    sn_port *m = f->m;
    mbox_model_init(m, &f->cfg);
    sn_port_write(m, SN_MBOX_DST, SN_DST_VALUE(1, 0));
    sn_port_write(m, SN_MBOX_ARG0, 1);
    sn_port_write(m, SN_MBOX_GO, 1);
    sn_port_write(m, SN_MBOX_GO, 1); /* 2 cycles later: the hub takes after 3 */
    assert_int_equal(m->gos_accepted, 1);
    assert_int_equal(m->dropped_go, 1);

    f->cfg.hub_take_cycles = 50;
    mbox_model_init(m, &f->cfg);
    sn_port_write(m, SN_MBOX_DST, SN_DST_VALUE(1, 0));
    sn_port_write(m, SN_MBOX_ARG0, 1);
    sn_port_write(m, SN_MBOX_GO, 1);
    sn_port_write(m, SN_MBOX_ARG0, 2);
    assert_true(sn_port_read(m, SN_MBOX_STAT) == 1ull << 15);
    sn_port_write(m, SN_MBOX_GO, 1);
    assert_int_equal(m->dropped_go, 1);
    mbox_model_step(m, 100);
    assert_true(sn_port_read(m, SN_MBOX_STAT) == 1); /* taken, and its completion queued */
    sn_port_write(m, SN_MBOX_GO, 1);
    mbox_model_step(m, 100);

    assert_int_equal(m->log_count, 2);
    assert_int_equal(m->log[0].txn, 0);
    assert_true(m->log[0].payload.w[0] == 1);
    assert_int_equal(m->log[1].txn, 1);
    assert_true(m->log[1].payload.w[0] == 2); /* ARG0 held its value across GOs */
    assert_true(sn_port_read(m, SN_MBOX_ARG0) == 2);
}

/* 4a. 40 flits to a unit that retires in 2 cycles, awaited only at the end:
 * more than 16 completions come back during the kick, so the runner must pop
 * them while it waits for STAT[15] or the hub would stop. */
static void long_kick_drains_while_waiting(void **state)
{
    fx *f = *state;
    f->cfg.record = 1;
    mbox_config_unit(&f->cfg, 1, 0)->latency = 2;
    prog_round(&f->p, 40);
    prog_kick(&f->p, 1, 0, 0, 40);
    prog_await(&f->p, 1, 0, 40);
    fx_start(f);

    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->m->log_count, 40);
    for (uint32_t i = 0; i < 40; i++)
        expect_flit(f->m, i, 1, 0, 0, i, (uint8_t)i);
    assert_int_equal(f->m->dropped_go, 0);
    assert_int_equal(f->m->reads[MBOX_REG(SN_MBOX_HEAD)], 40);
    assert_int_equal(f->m->writes[MBOX_REG(SN_MBOX_HEAD)], 40);
    assert_int_equal(f->m->cq_count, 0);

    uint32_t pops = 0; /* before the last GO: more than the queue holds */
    for (uint32_t i = 0, gos = 0; i < f->m->trace_count && gos < 40; i++) {
        const mbox_access *a = &f->m->trace[i];
        gos += a->write && a->offset == SN_MBOX_GO;
        pops += a->write && a->offset == SN_MBOX_HEAD;
    }
    assert_true(pops > SN_CQ_DEPTH);
}

/* 4b. The naive loop (GO, then poll STAT[15], never reading HEAD) against
 * the same unit: after 16 completions the queue is full, the hub holds the
 * port, and the 17th offer never clears. One pop frees it. */
static void naive_loop_deadlocks_without_draining(void **state)
{
    fx *f = *state;
    sn_port *m = f->m;
    mbox_config_unit(&f->cfg, 1, 0)->latency = 2;
    mbox_model_init(m, &f->cfg);

    int stuck = 0;
    for (uint32_t i = 0; i < 40 && !stuck; i++) {
        sn_port_write(m, SN_MBOX_DST, SN_DST_VALUE(1, 0));
        sn_port_write(m, SN_MBOX_ARG0, i);
        sn_port_write(m, SN_MBOX_GO, 1);
        uint64_t deadline = sn_port_cycles(m) + 100000;
        while (sn_stat_offered(sn_port_read(m, SN_MBOX_STAT)))
            if (sn_port_cycles(m) > deadline) {
                stuck = 1;
                break;
            }
    }

    assert_true(stuck);
    /* each flit retires long before the next GO, so exactly 16 got through */
    assert_int_equal(m->log_count, 16);
    assert_int_equal(m->gos_accepted, 17);
    assert_true(sn_port_read(m, SN_MBOX_STAT) == ((1ull << 15) | 16));
    assert_true(m->stall_cycles > 100000);
    assert_int_equal(m->reads[MBOX_REG(SN_MBOX_HEAD)], 0);

    sn_port_write(m, SN_MBOX_HEAD, 0);
    mbox_model_step(m, 10);
    assert_int_equal(m->log_count, 17);
}

/* 10a. The register rule: DST is stored only when it changes (the mailbox
 * holds DST/ARG, facts §2.1), ARG3..ARG0 before every GO, changed or not
 * (DESIGN §3: a store is cheaper than a compare on the card's core). */
static void dst_shadowed_args_stored_every_go(void **state)
{
    fx *f = *state;
    f->cfg.record = 1;
    for (uint32_t i = 0; i < f->cfg.unit_count; i++)
        f->cfg.units[i].latency = 1000; /* no completion between the GOs */
    prog_round(&f->p, 3);
    static const sn_table_row rows[3] = {
        {.arg3 = 0x30, .arg2 = 0x20, .arg1 = 0x10, .arg0 = 0x00},
        {.arg3 = 0x31, .arg2 = 0x20, .arg1 = 0x10, .arg0 = 0x01}, /* ARG3 and ARG0 change */
        {.arg3 = 0x31, .arg2 = 0x20, .arg1 = 0x10, .arg0 = 0x01}, /* only DST changes */
    };
    memcpy(f->p.payloads, rows, sizeof rows);
    prog_kick(&f->p, 1, 0, 0, 2);
    prog_kick(&f->p, 1, 2, 2, 1);
    prog_await(&f->p, 1, 0, 2);
    prog_await(&f->p, 1, 2, 1);
    fx_start(f);
    assert_int_equal(fx_run(f), SN_OK);

    static const struct {
        unsigned offset;
        uint64_t value;
    } want[] = {
        /* without a probe, the runner makes DST what it remembers once, before round 0 */
        {SN_MBOX_DST, 0},
        {SN_MBOX_DST, 0x001}, {SN_MBOX_ARG3, 0x30}, {SN_MBOX_ARG2, 0x20},
        {SN_MBOX_ARG1, 0x10}, {SN_MBOX_ARG0, 0x00}, {SN_MBOX_GO, 0},
        {SN_MBOX_ARG3, 0x31}, {SN_MBOX_ARG2, 0x20}, {SN_MBOX_ARG1, 0x10}, {SN_MBOX_ARG0, 0x01}, {SN_MBOX_GO, 0},
        {SN_MBOX_DST, 0x201}, /* only DST changes; the ARGs are stored all the same */
        {SN_MBOX_ARG3, 0x31}, {SN_MBOX_ARG2, 0x20}, {SN_MBOX_ARG1, 0x10}, {SN_MBOX_ARG0, 0x01}, {SN_MBOX_GO, 0},
    };
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->m->trace_count && n < sizeof want / sizeof want[0]; i++) {
        const mbox_access *a = &f->m->trace[i];
        if (!a->write)
            continue;
        assert_int_equal(a->offset, want[n].offset);
        if (a->offset != SN_MBOX_GO) /* any store is a GO */
            assert_true(a->value == want[n].value);
        n++;
    }
    assert_int_equal(n, sizeof want / sizeof want[0]);
}

/* vadd128's 26 payloads, rows {ARG3, ARG2, ARG1, ARG0}
 * (shared/artifacts/compiler/vadd128/artifact.json, all for vec0 (1,0)). */
static const uint64_t vadd128[26][2] = { /* {ARG3, ARG0}; ARG1 = ARG2 = 0 */
    {0x1000000000000000ull, 0xd0000000}, {0x1008000000000000ull, 0x00000080},
    {0x1010000000000000ull, 0xc0000000}, {0x1018000000000000ull, 0xc8000000},
    {0x1020000000000000ull, 0xe8000000}, {0x1028000000000000ull, 0xe8200008},
    {0x1030000000000000ull, 0xe0000000}, {0x1038000000000000ull, 0xa1400000},
    {0x1040000000000000ull, 0xa1620000}, {0x1048000000000000ull, 0x180e0020},
    {0x1050000000000000ull, 0xa98e0000}, {0x1058000000000000ull, 0xf0a00010},
    {0x1060000000000000ull, 0xf8000000}, {0x2400000000000000ull, 0},
    {0x2440001000800000ull, 0},          {0x2600000000800000ull, 0},
    {0x2640001000800000ull, 0},          {0x2800000001000000ull, 0},
    {0x2840001000800000ull, 0},          {0x2040020000800000ull, 0},
    {0x2240020000800000ull, 0},          {0x2a40020000800000ull, 0},
    {0x2000000100000000ull, 0},          {0x2200000200000000ull, 0},
    {0x2a00000300000000ull, 0},          {0x3000000000000000ull, 0},
};

/* 10b. MMIO operations per payload for a 26-flit single-node kick (the
 * runner's figure of merit, DESIGN §3), printed, split at the last GO into
 * the kick itself and the await's polling (which grows with the unit's
 * latency, 20 cycles a flit here). The asserts pin the store counts the
 * register rule (10a) implies for this data. */
static void vadd128_mmio_per_payload(void **state)
{
    fx *f = *state;
    f->cfg.record = 1;
    prog_round(&f->p, 26);
    for (uint32_t i = 0; i < 26; i++)
        f->p.payloads[i] = (sn_table_row){.arg3 = vadd128[i][0], .arg0 = vadd128[i][1]};
    prog_step(&f->p, SN_STEP_SEED, 0, 0, 512, 0);
    prog_kick(&f->p, 1, 0, 0, 26);
    prog_await(&f->p, 1, 0, 26);
    fx_start(f);
    assert_int_equal(fx_run(f), SN_OK);

    const sn_port *m = f->m;
    assert_int_equal(m->log_count, 26);
    /* DST once with 0 before round 0 (no probe wrote it), then: */
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_DST)], 1 + 1);
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_ARG0)], 26); /* every GO's four ARGs */
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_ARG1)], 26);
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_ARG2)], 26);
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_ARG3)], 26);
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_GO)], 26);
    assert_int_equal(m->reads[MBOX_REG(SN_MBOX_HEAD)], 26);
    assert_int_equal(m->writes[MBOX_REG(SN_MBOX_HEAD)], 26);

    uint32_t last_go = 0, kick_stat = 0, wait_stat = 0;
    for (uint32_t i = 0; i < m->trace_count; i++)
        if (m->trace[i].write && m->trace[i].offset == SN_MBOX_GO)
            last_go = i;
    for (uint32_t i = 0; i < m->trace_count; i++)
        if (!m->trace[i].write && m->trace[i].offset == SN_MBOX_STAT)
            *(i < last_go ? &kick_stat : &wait_stat) += 1;
    printf("vadd128, 26 flits to (1,0): %u MMIO ops = %.2f per payload; through the last GO "
           "%u ops = %.2f per payload (%u STAT reads); %u STAT polls at the await; "
           "%u HEAD reads + %u pops; %llu cycles\n",
           m->trace_count, m->trace_count / 26.0, last_go + 1, (last_go + 1) / 26.0, kick_stat,
           wait_stat, m->reads[MBOX_REG(SN_MBOX_HEAD)], m->writes[MBOX_REG(SN_MBOX_HEAD)],
           (unsigned long long)m->now);
}

/* 11. With inst_depth 4 the unit never holds more than 4 flits, even though
 * it retires slowly; the same kick with the default depth overruns a 4-deep
 * FIFO, so the model would catch a runner that ignored the bound. */
static void inst_depth_bounds_outstanding_flits(void **state)
{
    fx *f = *state;
    mbox_unit_config *u = mbox_config_unit(&f->cfg, 1, 0);
    u->latency = 300;
    u->fifo_depth = 4;
    prog_round(&f->p, 20);
    prog_kick(&f->p, 1, 0, 0, 20);
    prog_await(&f->p, 1, 0, 20);

    fx_start(f);
    f->r.inst_depth = 4;
    assert_int_equal(fx_run(f), SN_OK);
    const mbox_unit *mu = mbox_model_unit(f->m, 1, 0);
    assert_int_equal(mu->max_pending, 4);
    assert_int_equal(mu->fifo_overflow, 0);
    assert_int_equal(mu->retired, 20);
    for (uint32_t i = 0; i < 20; i++)
        expect_flit(f->m, i, 1, 0, 0, i, (uint8_t)i);

    fx_start(f); /* default inst_depth 512 */
    assert_int_equal(fx_run(f), SN_OK);
    mu = mbox_model_unit(f->m, 1, 0);
    assert_true(mu->max_pending > 4);
    assert_true(mu->fifo_overflow > 0);
}

/* Settle (DESIGN §2): a round that used a unit older than CU_VERSION 5 waits
 * settle_cycles at its end; a round of fenced units does not. Two rounds of 4
 * flits, the second on (1,2) only. */
static void settle_only_for_unfenced_units(void **state)
{
    fx *f = *state;
    prog_round(&f->p, 4);
    prog_kick(&f->p, 1, 0, 0, 4);
    prog_await(&f->p, 1, 0, 4);
    prog_round(&f->p, 4);
    prog_kick(&f->p, 1, 2, 0, 4);
    prog_await(&f->p, 1, 2, 4);

    fx_start(f);
    f->r.unit[f->r.map.slot[SN_NODE_ID(1, 0)]].version = 5;
    f->r.unit[f->r.map.slot[SN_NODE_ID(1, 2)]].version = 5;
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->r.settles, 0);
    uint64_t fenced = sn_port_cycles(f->m);

    fx_start(f);
    f->r.unit[f->r.map.slot[SN_NODE_ID(1, 0)]].version = 4; /* round 0 settles, round 1 does not */
    f->r.unit[f->r.map.slot[SN_NODE_ID(1, 2)]].version = 5;
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->r.settles, 1);
    assert_true(sn_port_cycles(f->m) >= fenced + SN_RUNNER_SETTLE_CYCLES);

    fx_start(f); /* never probed: the version is unknown, so both rounds settle */
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(f->r.settles, 2);
}

/* A small deterministic generator (LCG) for the randomized test. */
static uint32_t next_rand(uint64_t *seed, uint32_t bound)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*seed >> 33) % bound;
}

/* 12. 300 random programs: up to 3 rounds of up to 64 payloads cut into
 * kicks to the four units, awaits placed where the flits already kicked
 * cover them, seeds and barriers between; random unit latency, hub speed and
 * inst_depth (with each unit's FIFO exactly that deep). Every payload must
 * arrive exactly once, in table order, with no dropped GO, no FIFO overrun
 * and nothing left queued. */
static void random_programs_deliver_everything_once(void **state)
{
    fx *f = *state;
    static const uint8_t xy[4][2] = {{1, 1}, {2, 1}, {1, 0}, {1, 2}};
    uint64_t seed = 12345;
    for (int trial = 0; trial < 300; trial++) {
        uint32_t depth = next_rand(&seed, 2) ? 1 + next_rand(&seed, 6) : SN_INST_DEPTH_DEFAULT;
        f->cfg = mbox_model_default_config();
        f->cfg.hub_take_cycles = 1 + next_rand(&seed, 30);
        for (uint32_t u = 0; u < 4; u++) {
            f->cfg.units[u].latency = 1 + next_rand(&seed, 80);
            f->cfg.units[u].fifo_depth = depth;
        }
        prog_reset(&f->p);

        struct want {
            uint8_t node;
            uint32_t round, slot;
        } want[PROG_MAX_ROUNDS * 64];
        uint32_t nwant = 0;
        uint32_t rounds = 1 + next_rand(&seed, 3);
        for (uint32_t rd = 0; rd < rounds; rd++) {
            uint32_t n = 1 + next_rand(&seed, 64), kicked[4] = {0}, awaited[4] = {0};
            prog_round(&f->p, n);
            for (uint32_t slot = 0; slot < n;) {
                uint32_t node = next_rand(&seed, 4), len = 1 + next_rand(&seed, n - slot);
                if (next_rand(&seed, 4) == 0)
                    prog_step(&f->p, next_rand(&seed, 2) ? SN_STEP_SEED : SN_STEP_BARRIER, 0, 0,
                              0, 0);
                prog_kick(&f->p, xy[node][0], xy[node][1], slot, len);
                for (uint32_t i = 0; i < len; i++)
                    want[nwant++] = (struct want){(uint8_t)node, rd, slot + i};
                kicked[node] += len;
                slot += len;
                uint32_t other = next_rand(&seed, 4); /* await what is already kicked */
                if (kicked[other] > awaited[other] && next_rand(&seed, 2)) {
                    prog_await(&f->p, xy[other][0], xy[other][1], kicked[other] - awaited[other]);
                    awaited[other] = kicked[other];
                }
            }
            for (uint32_t u = 0; u < 4; u++)
                if (kicked[u] > awaited[u])
                    prog_await(&f->p, xy[u][0], xy[u][1], kicked[u] - awaited[u]);
        }
        fx_start(f);
        if (depth != SN_INST_DEPTH_DEFAULT)
            f->r.inst_depth = depth;

        sn_status st = fx_run(f);
        if (st != SN_OK)
            fail_msg("trial %d: %s", trial, f->msg);
        assert_int_equal(f->m->log_count, nwant);
        for (uint32_t i = 0; i < nwant; i++)
            expect_flit(f->m, i, xy[want[i].node][0], xy[want[i].node][1], want[i].round,
                        want[i].slot, (uint8_t)i);
        assert_int_equal(f->m->dropped_go, 0);
        assert_int_equal(f->m->cq_count + f->m->hub_count, 0);
        for (uint32_t u = 0; u < 4; u++)
            assert_int_equal(f->m->units[u].fifo_overflow, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        SN_FX_TEST(interleaved_nodes_get_their_payloads_in_order),
        SN_FX_TEST(repeated_kicks_awaited_once_per_round), SN_FX_TEST(slow_hub_drops_no_go),
        SN_FX_TEST(model_drops_back_to_back_go), SN_FX_TEST(long_kick_drains_while_waiting),
        SN_FX_TEST(naive_loop_deadlocks_without_draining), SN_FX_TEST(dst_shadowed_args_stored_every_go),
        SN_FX_TEST(vadd128_mmio_per_payload), SN_FX_TEST(settle_only_for_unfenced_units),
        SN_FX_TEST(inst_depth_bounds_outstanding_flits), SN_FX_TEST(random_programs_deliver_everything_once),
    };
    int failed = cmocka_run_group_tests_name("runner dispatch", tests, NULL, NULL);
    return failed + run_fault_tests();
}
