/* See transport_sim_stats.h. */
#include "transport_sim_stats.h"

#include <stdlib.h>

sn_status sn_sim_stats_copy_take(sn_sim_stats_copy *c, const sn_sim *sim, sn_run_stats *out, sn_error *e)
{
    sn_sim_stats s;
    sn_sim_get_stats(sim, &s);
    free(c->gos);
    c->gos = calloc(s.go_count ? s.go_count : 1, sizeof *c->gos);
    if (!c->gos)
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu GO records", (unsigned long long)s.go_count);
    for (uint64_t i = 0; i < s.go_count; i++)
        c->gos[i] = (sn_go_record){s.gos[i].cycle, s.gos[i].mmio_ops, s.gos[i].typed};
    out->mmio_reads = s.mmio_reads;
    out->mmio_writes = s.mmio_writes;
    out->go_count = s.go_count;
    out->gos = c->gos;
    return SN_OK;
}

void sn_sim_stats_copy_free(sn_sim_stats_copy *c)
{
    free(c->gos);
    c->gos = NULL;
}
