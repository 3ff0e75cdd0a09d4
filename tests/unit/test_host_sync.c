/* The runner's host sync point (iface/sysnode/host_sync.h,
 * artifacts/FORMAT.md §9) against the mailbox model: it holds after the
 * round that ends with the sync step, with every completion of that round
 * counted, until the release word carries the sync point's number; a host
 * that never answers is a hang that names the sync point; the step's place
 * and fields are table rules. */
#include "cmocka_main.h"

#include <string.h>

#include "runner_fixture.h"
#include "table_check.h"
#include "sysnode/host_sync.h"

static uint64_t release_word, held_word;

static void two_rounds_with_sync(fx *f)
{
    prog_round(&f->p, 3);
    prog_kick(&f->p, 1, 0, 0, 3);
    prog_await(&f->p, 1, 0, 3);
    prog_step(&f->p, SN_STEP_HOST_SYNC, 0, 0, 0, 0);
    prog_round(&f->p, 2);
    prog_kick(&f->p, 1, 1, 0, 2);
    prog_await(&f->p, 1, 1, 2);
}

static void start_with_host(fx *f, uint64_t release)
{
    fx_start(f);
    release_word = release;
    held_word = 0;
    f->r.host_release = &release_word;
    f->r.host_held = &held_word;
    f->r.hang_cycles = 10000;
}

static void released_sync_point_goes_on(void **state)
{
    fx *f = *state;
    two_rounds_with_sync(f);
    start_with_host(f, SN_HOST_RELEASE(1, SN_HOST_NEXT_TABLE));
    assert_int_equal(fx_run(f), SN_OK);
    assert_int_equal(SN_HOST_HELD_SEQ(held_word), 1);
    /* the hold's cycle (host_sync.h): after the first round's work, before the run's end */
    assert_in_range(SN_HOST_HELD_CYCLE32(held_word), 1, f->m->now);
    assert_int_equal(f->r.syncs, 1);
    assert_int_equal(f->r.host_command, SN_HOST_NEXT_TABLE);
    assert_int_equal(f->m->log_count, 5);
    assert_int_equal(f->status.phase, SN_PHASE_DONE);
}

static void unreleased_sync_point_is_a_hang(void **state)
{
    fx *f = *state;
    two_rounds_with_sync(f);
    start_with_host(f, SN_HOST_RELEASE(2, SN_HOST_CONTINUE)); /* another sync point's number */
    assert_int_equal(fx_run(f), SN_ERR_HANG);
    assert_int_equal(SN_HOST_HELD_SEQ(held_word), 1);
    /* the hold's cycle (host_sync.h): after the first round's work, before the run's end */
    assert_in_range(SN_HOST_HELD_CYCLE32(held_word), 1, f->m->now);
    assert_int_equal(f->status.phase, SN_PHASE_HOST_SYNC);
    assert_int_equal(f->status.error_round, 0);
    assert_int_equal(f->status.error_value, 1);
    assert_int_equal(f->status.flits_sent, 3); /* round 0 finished, round 1 never started */
    assert_int_equal(f->m->log_count, 3);
    assert_non_null(strstr(f->msg, "the host did not release host sync point 1 within 10000 cycles"));
}

static void no_host_refuses_sync(void **state)
{
    fx *f = *state;
    two_rounds_with_sync(f);
    fx_start(f);
    assert_int_equal(fx_run(f), SN_ERR_TABLE_STEP);
    assert_int_equal(f->m->log_count, 3);
}

static void sync_must_end_its_round(void **state)
{
    fx *f = *state;
    prog_round(&f->p, 1);
    prog_step(&f->p, SN_STEP_HOST_SYNC, 0, 0, 0, 0);
    prog_kick(&f->p, 1, 0, 0, 1);
    prog_await(&f->p, 1, 0, 1);
    start_with_host(f, SN_HOST_RELEASE(1, 0));
    assert_int_equal(fx_run(f), SN_ERR_TABLE_STEP);
    assert_int_equal(f->status.error_rule, SN_RULE_SYNC_PLACE);
    assert_int_equal(f->status.error_step, 0);
    assert_int_equal(f->m->log_count, 0); /* refused before any GO */

    prog_reset(&f->p);
    prog_round(&f->p, 1);
    prog_kick(&f->p, 1, 0, 0, 1);
    prog_await(&f->p, 1, 0, 1);
    prog_step(&f->p, SN_STEP_HOST_SYNC, 1, 0, 0, 0);
    start_with_host(f, SN_HOST_RELEASE(1, 0));
    assert_int_equal(fx_run(f), SN_ERR_TABLE_STEP);
    assert_int_equal(f->status.error_rule, SN_RULE_SYNC_PLACE);
    assert_int_equal(f->status.error_step, 2);
}

SN_TEST_MAIN(NULL, NULL, SN_FX_TEST(released_sync_point_goes_on),
             SN_FX_TEST(unreleased_sync_point_is_a_hang), SN_FX_TEST(no_host_refuses_sync),
             SN_FX_TEST(sync_must_end_its_round))
