/* See unit_busy.h. */
#include "unit_busy.h"

void sn_busy_count_add(sn_busy_count *c, const sn_busy_span *s)
{
    uint64_t from = s->arrive + 1, to = s->end ? s->end : s->start + 1; /* [from, to) */
    if (from < c->covered)
        from = c->covered;
    if (to > from) {
        c->total += to - from;
        c->covered = to;
    }
}

uint64_t sn_unit_busy_cycles(const sn_unit_busy *b)
{
    sn_busy_count c = {0, 0};
    for (uint64_t i = 0; i < b->span_count; i++)
        sn_busy_count_add(&c, &b->spans[i]);
    return c.total;
}

uint64_t sn_unit_service_cycles(const sn_unit_busy *b, uint64_t i)
{
    const sn_busy_span *s = &b->spans[i];
    if (!s->end)
        return 0;
    uint64_t from = s->arrive;
    if (i && b->spans[i - 1].end > from)
        from = b->spans[i - 1].end;
    return s->end > from ? s->end - from : 0;
}
