/* Wall time for the figures the host and the simulator's windows report
 * (a replay's wall seconds, the seconds spent waiting on a window). */
#ifndef SN_COMMON_CLOCK_H
#define SN_COMMON_CLOCK_H

/* Seconds on the monotonic clock (CLOCK_MONOTONIC, POSIX): only the
 * difference of two readings means anything. */
double sn_now_seconds(void);

#endif
