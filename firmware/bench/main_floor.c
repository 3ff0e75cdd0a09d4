/* runner-floor.elf: the dispatch floor the benchmark compares runner.elf
 * with (firmware/bench/README.md derives it from the core's costs). Per
 * payload: load the row (through the L1 or uncached, whichever the DRAM
 * latency makes cheaper, table_view.h), store ARG0..ARG3, read STAT once
 * (spinning only while a flit is still offered, sysnode-facts §2.1), store
 * GO; the common path falls through every branch but the loop's.
 * Every ARG is stored, changed or not: on the card's core a control-region
 * store is 2 cycles and a compare-and-skip a load-use bubble plus a taken or
 * mispredicted branch, 2 to 6 (core-timing §1). The queue is popped as
 * runner.elf pops it: all of it once STAT shows SN_RUNNER_DRAIN_AT records,
 * or while the offer waits. The runner's loop without its checks. No
 * checks: see bench_loop.h. */
#include "bench_loop.h"
#include "runner.h"

static void floor_kick(sn_bench_dispatch *d, uint64_t dst, const sn_table_row *p, uint32_t n)
{
    uint32_t popped = d->popped, peer_acks = d->peer_acks; /* in registers for the loop */
    /* STAT[15], or SN_RUNNER_DRAIN_AT records queued (bits 3-7 of the count) */
    const uint64_t busy = SN_MASK(stat, offered) | (SN_MASK(stat, queued) & ~7ull);
    if (dst != d->dst) /* one destination per kick */
        sn_port_write(0, SN_MBOX_DST, d->dst = dst);
    for (const sn_table_row *end = p + n; p != end;) {
        /* each row field names its register (sysnode/table.h); GO latched
         * the last flit, so they may precede the STAT check */
        uint64_t a0 = p->arg0, a1 = p->arg1, a2 = p->arg2, a3 = p->arg3;
        sn_port_write(0, SN_MBOX_ARG0, a0);
        sn_port_write(0, SN_MBOX_ARG1, a1);
        sn_port_write(0, SN_MBOX_ARG2, a2);
        sn_port_write(0, SN_MBOX_ARG3, a3);
        uint64_t stat = sn_port_read(0, SN_MBOX_STAT);
        p++; /* between the STAT load and its test: fills the load-use bubble (core-timing §2.4) */
        while (__builtin_expect((stat & busy) != 0, 0)) { /* pop what waits, as the runner does, until the offer is taken */
            for (uint64_t q = sn_stat_queued(stat); q != 0; q--)
                sn_bench_pop(d->received, &popped, &peer_acks);
            stat = sn_port_read(0, SN_MBOX_STAT);
        }
        sn_port_write(0, SN_MBOX_GO, 1);
    }
    d->flits += n;
    d->popped = popped;
    d->peer_acks = peer_acks;
}

int main(void)
{
    return sn_bench_run(floor_kick);
}
