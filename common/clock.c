/* The monotonic clock in seconds (see clock.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "clock.h"

#include <time.h>

double sn_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
