/* A unit's busy counter and per-payload service from its spans
 * (transport.h sn_busy_span), as the unit RTL counts them. */
#ifndef SN_UNIT_BUSY_H
#define SN_UNIT_BUSY_H

#include <stdint.h>

#include "transport.h"

/* CU_COUNTERS[31:0]: the cycles with a payload queued, executing or its
 * completion not yet handed out, the size of the union of [arrive + 1,
 * end - 1] over the spans (unit-timing §1); a span without a completion
 * (end 0) counts to its last known cycle, its start. Cycles. */
uint64_t sn_unit_busy_cycles(const sn_unit_busy *b);

/* Span i's service: end - max(arrive, the previous span's end), the time
 * the unit spent on it alone (unit-timing §0); 0 without a completion.
 * Cycles. */
uint64_t sn_unit_service_cycles(const sn_unit_busy *b, uint64_t i);

#endif
