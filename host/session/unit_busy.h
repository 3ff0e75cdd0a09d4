/* A unit's busy counter and per-payload service from its spans
 * (transport.h sn_busy_span), as the unit RTL counts them. */
#ifndef SN_UNIT_BUSY_H
#define SN_UNIT_BUSY_H

#include <stdint.h>

#include "transport.h"

/* CU_COUNTERS[31:0] as it counts: the cycles with a payload queued,
 * executing or its completion not yet handed out, the size of the union of
 * [arrive + 1, end - 1] over the spans added so far, in order (unit-timing
 * §1). A span without a completion (end 0) counts to its start. Cycles. */
typedef struct sn_busy_count {
    uint64_t total;
    uint64_t covered; /* cycles below it are counted */
} sn_busy_count;

/* Adds the next span (spans are added in accept order). */
void sn_busy_count_add(sn_busy_count *c, const sn_busy_span *s);

/* The busy counter over all of b's spans. Cycles. */
uint64_t sn_unit_busy_cycles(const sn_unit_busy *b);

/* Span i's service: end - max(arrive, the previous span's end), the time
 * the unit spent on it alone (unit-timing §0); 0 without a completion.
 * Cycles. */
uint64_t sn_unit_service_cycles(const sn_unit_busy *b, uint64_t i);

#endif
