/* runner-sendwait.elf: one payload at a time, the approach of KohakuTPU's
 * own SysNode test (tests/rv64/mesh_art.c@cbc49f36, T-ART in sysnode-facts):
 * wait until no flit is offered, write DST and ARG0..ARG3 whole, store GO,
 * then poll STAT until that flit's completion is popped (peer acks popped on
 * the way are credited too). The benchmark's second reference (docs/DESIGN.md
 * §12); no checks: see bench_loop.h. */
#include "bench_loop.h"

static void sendwait_kick(sn_bench_dispatch *d, uint64_t dst, const sn_table_row *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const sn_table_row *row = &p[i]; /* each field names its register (sysnode/table.h) */
        uint64_t stat;
        while (sn_stat_offered(stat = sn_port_read(0, SN_MBOX_STAT)))
            if (sn_stat_queued(stat))
                sn_bench_pop(d->received, &d->popped, &d->peer_acks);
        sn_port_write(0, SN_MBOX_DST, dst);
        sn_port_write(0, SN_MBOX_ARG0, row->arg0);
        sn_port_write(0, SN_MBOX_ARG1, row->arg1);
        sn_port_write(0, SN_MBOX_ARG2, row->arg2);
        sn_port_write(0, SN_MBOX_ARG3, row->arg3);
        sn_port_write(0, SN_MBOX_GO, 1);
        d->flits++;
        while (sn_bench_in_flight(d) != 0)
            if (sn_stat_queued(sn_port_read(0, SN_MBOX_STAT)))
                sn_bench_pop(d->received, &d->popped, &d->peer_acks);
    } /* d->dst is the floor's shadow: this loop writes every register */
}

int main(void)
{
    return sn_bench_run(sendwait_kick);
}
