/* See transport_sim_stats.h. */
#include "transport_sim_stats.h"

#include <stdlib.h>
#include <string.h>

#include "sysnode/regs.h"

static void *array(uint64_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

sn_status sn_sim_stats_copy_take(sn_sim_stats_copy *c, sn_sim *sim, sn_run_stats *out, sn_error *e)
{
    sn_sim_stats s;
    sn_sim_get_stats(sim, &s);
    sn_sim_stats_copy_free(c);
    memset(out, 0, sizeof *out);
    c->gos = array(s.go_count, sizeof *c->gos);
    c->completions = array(s.completion_count, sizeof *c->completions);
    int ok = c->gos && c->completions && s.unit_count <= SN_MESH_MAX_UNITS;
    for (uint64_t u = 0; ok && u < s.unit_count; u++)
        ok = (c->spans[u] = array(s.units[u].span_count, sizeof *c->spans[u])) != NULL;
    if (!ok) {
        sn_sim_stats_copy_free(c);
        return sn_error_set(e, SN_ERR_INTERNAL, "out of memory for %llu GO and %llu completion records",
                            (unsigned long long)s.go_count, (unsigned long long)s.completion_count);
    }
    for (uint64_t i = 0; i < s.go_count; i++)
        c->gos[i] = (sn_go_record){s.gos[i].cycle, s.gos[i].mmio_ops, s.gos[i].typed};
    for (uint64_t i = 0; i < s.completion_count; i++) {
        uint64_t w = s.completions[i].head;
        c->completions[i] = (sn_completion_record){s.completions[i].cycle, (uint8_t)sn_head_src_x(w),
                                                   (uint8_t)sn_head_src_y(w), (uint8_t)sn_head_code(w),
                                                   sn_head_arg(w)};
    }
    for (uint64_t u = 0; u < s.unit_count; u++) {
        const sn_sim_unit_busy *b = &s.units[u];
        for (uint64_t i = 0; i < b->span_count; i++)
            c->spans[u][i] = (sn_busy_span){b->spans[i].arrive, b->spans[i].start, b->spans[i].end,
                                            b->spans[i].estimate};
        out->units[u] = (sn_unit_busy){(uint8_t)b->x, (uint8_t)b->y, (uint16_t)b->cu_type, b->span_count, c->spans[u]};
    }
    out->mmio_reads = s.mmio_reads;
    out->mmio_writes = s.mmio_writes;
    out->go_count = s.go_count;
    out->gos = c->gos;
    out->completion_count = s.completion_count;
    out->completions = c->completions;
    out->unit_count = (uint32_t)s.unit_count;
    return SN_OK;
}

void sn_sim_stats_copy_free(sn_sim_stats_copy *c)
{
    free(c->gos);
    free(c->completions);
    for (unsigned u = 0; u < SN_MESH_MAX_UNITS; u++)
        free(c->spans[u]);
    memset(c, 0, sizeof *c);
}
