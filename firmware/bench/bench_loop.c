/* The benchmark images' table walk (see bench_loop.h). */
#include "bench_loop.h"

#include "report.h"
#include "runner.h"
#include "sysnode/boot_args.h"
#include "sysnode/host_sync.h"
#include "sysnode/status.h"
#include "sysnode/table_image.h"
#include "table_view.h"

__attribute__((section(".sn_boot_args"))) static volatile sn_boot_args boot_args;
__attribute__((section(".sn_status"))) static sn_status_block status_block;
static sn_bench_dispatch dispatch;
static uint32_t syncs; /* host sync points reached since BOOT */

/* Reads STAT once and pops every record it shows. */
static void drain(sn_bench_dispatch *d)
{
    uint64_t queued = sn_stat_queued(sn_port_read(0, SN_MBOX_STAT));
    for (uint64_t i = 0; i < queued; i++)
        sn_bench_pop(d->received, &d->popped, &d->peer_acks);
}

/* Every GO's completion popped, then the write-landing wait of DESIGN §2. */
static void end_round(sn_bench_dispatch *d)
{
    while (sn_bench_in_flight(d) != 0)
        drain(d);
    uint64_t start = sn_port_cycles(0);
    while (sn_port_cycles(0) - start < SN_RUNNER_SETTLE_CYCLES)
        drain(d);
}

/* Holds at the next host sync point after a round has ended (host_sync.h)
 * until the host releases it; STAT is read to pace the poll, as the runner
 * does. A case's host steps only continue, so the command is not read. */
static void host_hold(void)
{
    volatile uint64_t *held = (volatile uint64_t *)SN_HOST_HELD_ADDR;
    volatile const uint64_t *release = (volatile const uint64_t *)SN_HOST_RELEASE_ADDR;
    ++syncs;
    *held = SN_HOST_HELD(syncs, sn_port_cycles(0));
    while (SN_HOST_RELEASE_SEQ(*release) != syncs)
        (void)sn_port_read(0, SN_MBOX_STAT);
}

static void run_round(sn_bench_dispatch *d, const sn_table *t, const sn_table_round *round, sn_bench_kick_fn kick)
{
    int sync = 0;
    for (unsigned n = 0; n < SN_NODE_COUNT; n++)
        d->received[n] = d->expected[n] = 0;
    for (uint32_t i = 0; i < round->step_count; i++) {
        const sn_table_step *s = &t->steps[round->step_first + i];
        uint32_t node = SN_NODE_ID(s->x, s->y);
        switch (s->op) {
        case SN_STEP_KICK:
            kick(d, SN_DST_VALUE(s->x, s->y), &t->payloads[round->payload_first + s->kick.first_slot], s->kick.flits);
            break;
        case SN_STEP_AWAIT:
            d->expected[node] += s->await.completions;
            while ((int32_t)(d->received[node] - d->expected[node]) < 0)
                drain(d);
            break;
        case SN_STEP_BARRIER:
            while (sn_bench_in_flight(d) != 0)
                drain(d);
            break;
        case SN_STEP_HOST_SYNC: /* the round's last step: held after it ends, below */
            sync = 1;
            break;
        default: /* seed: no credit register (DESIGN §2) */
            break;
        }
    }
    end_round(d);
    if (sync)
        host_hold();
}

int sn_bench_run(sn_bench_kick_fn kick)
{
    status_block.error = SN_OK; /* the report (FORMAT.md §7): counts and the first error */
    if (boot_args.magic != SN_BOOT_ARGS_MAGIC || boot_args.version != SN_BOOT_ARGS_VERSION) {
        status_block.error_value = SN_BOOT_ARGS_BAD_MAGIC;
        return sn_app_report(&status_block, SN_ERR_BOOT_ARGS);
    }
    sn_app_report_copy_from(&boot_args); /* where the host reads the report (FORMAT.md §6) */
    const uint8_t *image = sn_table_view(boot_args.table_addr);
    const sn_table_image_header *h = (const sn_table_image_header *)image;
    sn_table t = {
        (const sn_table_round *)(image + h->rounds_offset), (const sn_table_step *)(image + h->steps_offset),
        (const sn_table_row *)(image + h->payloads_offset), h->round_count, h->step_count, h->payload_count,
    };
    sn_bench_dispatch *d = &dispatch;
    *(volatile uint64_t *)SN_HOST_HELD_ADDR = 0;
    sn_port_write(0, SN_MBOX_DST, d->dst); /* the floor's shadow starts true */
    for (uint32_t r = 0; r < t.round_count; r++)
        run_round(d, &t, &t.rounds[r], kick);

    status_block.rounds_run = t.round_count;
    status_block.flits_sent = d->flits;
    status_block.completions = d->popped;
    return sn_app_report(&status_block, SN_OK);
}
