/* See unit_busy.h. */
#include "unit_busy.h"

uint64_t sn_unit_busy_cycles(const sn_unit_busy *b)
{
    uint64_t total = 0, covered = 0; /* cycles below `covered` are counted */
    for (uint64_t i = 0; i < b->span_count; i++) {
        const sn_busy_span *s = &b->spans[i];
        uint64_t from = s->arrive + 1, to = s->end ? s->end : s->start + 1; /* [from, to) */
        if (from < covered)
            from = covered;
        if (to > from) {
            total += to - from;
            covered = to;
        }
    }
    return total;
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
