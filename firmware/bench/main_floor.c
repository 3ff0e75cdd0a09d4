/* runner-floor.elf: the dispatch floor the benchmark compares runner.elf
 * with (README "Benchmark"; issue 7). Per payload: load it from the DRAM
 * table, read STAT once (spinning only while a flit is still offered,
 * sysnode-facts §2.1), write only the mailbox registers whose value changed
 * (the mailbox holds DST/ARG across GOs, DESIGN §3), store GO, and pop one
 * completion if STAT showed one. No checks: see bench_loop.h. */
#include "bench_loop.h"

static void floor_kick(sn_bench_dispatch *d, uint64_t dst, const sn_table_payload *p, uint32_t n)
{
    uint64_t reg_dst = d->reg[0], a0 = d->reg[1], a1 = d->reg[2], a2 = d->reg[3], a3 = d->reg[4];
    uint32_t popped = d->popped, peer_acks = d->peer_acks; /* in registers for the loop */
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *w = p[i].arg; /* {ARG3, ARG2, ARG1, ARG0} (artifacts/FORMAT.md §3) */
        uint64_t stat;
        while (sn_stat_offered(stat = sn_port_read(0, SN_MBOX_STAT)))
            if (sn_stat_queued(stat))
                sn_bench_pop(d->received, &popped, &peer_acks);
        if (dst != reg_dst)
            sn_port_write(0, SN_MBOX_DST, reg_dst = dst);
        if (w[3] != a0)
            sn_port_write(0, SN_MBOX_ARG0, a0 = w[3]);
        if (w[2] != a1)
            sn_port_write(0, SN_MBOX_ARG1, a1 = w[2]);
        if (w[1] != a2)
            sn_port_write(0, SN_MBOX_ARG2, a2 = w[1]);
        if (w[0] != a3)
            sn_port_write(0, SN_MBOX_ARG3, a3 = w[0]);
        sn_port_write(0, SN_MBOX_GO, 1);
        if (sn_stat_queued(stat))
            sn_bench_pop(d->received, &popped, &peer_acks);
    }
    d->flits += n;
    d->popped = popped;
    d->peer_acks = peer_acks;
    d->reg[0] = reg_dst;
    d->reg[1] = a0;
    d->reg[2] = a1;
    d->reg[3] = a2;
    d->reg[4] = a3;
}

int main(void)
{
    return sn_bench_run(floor_kick);
}
