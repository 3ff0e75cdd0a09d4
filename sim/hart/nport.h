/* The core's node port (core-timing §5.5): one transaction at a time; a
 * transaction accepted in cycle a holds the port until a+1+L, its data or
 * acknowledge arrives at a+2+L, and the port accepts again from a+2+L.
 * Priority: page-table walker, L1 fill, L1 write-back, uncached access,
 * instruction fill. The data side (all but the instruction fill) is timed
 * when its instruction enters E, so it is booked in order; the one
 * instruction fill in flight yields to a data request offered no later
 * than the fill's acceptance. */
#ifndef SN_NPORT_H
#define SN_NPORT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sn_nport {
    unsigned latency;     /* L */
    uint64_t data_free;   /* the data side's bookings leave the port free from this cycle */
    bool ifill;           /* an instruction fill is booked */
    uint64_t ifill_accept; /* the cycle it is (or will be) accepted */
} sn_nport;

/* Books a data-side transaction offered from cycle offered; returns the
 * cycle it is accepted (data at the result + 2 + L). */
static inline uint64_t sn_nport_data(sn_nport *p, uint64_t offered)
{
    uint64_t a = offered > p->data_free ? offered : p->data_free;
    uint64_t busy = 2ull + p->latency;
    if (p->ifill) {
        if (p->ifill_accept < offered) { /* the fill holds the port already */
            if (a < p->ifill_accept + busy)
                a = p->ifill_accept + busy;
        } else if (p->ifill_accept < a + busy) { /* the data request wins: the fill waits */
            p->ifill_accept = a + busy;
        }
    }
    p->data_free = a + busy;
    return a;
}

/* Books the instruction fill offered from cycle offered; its acceptance
 * is ifill_accept (moved later by data requests that win over it). */
static inline void sn_nport_ifill(sn_nport *p, uint64_t offered)
{
    p->ifill = true;
    p->ifill_accept = offered > p->data_free ? offered : p->data_free;
}

#endif
