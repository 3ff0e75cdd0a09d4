/* Times the host's load, validate and pack of a case (see host_load.h). */
#include "host_load.h"

#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "clock.h"
#include "pack.h"

#define MAX_REPS 1000

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sn_status sn_bench_host_load(const char *case_dir, unsigned reps, double *median, sn_error *e)
{
    double times[MAX_REPS];
    if (reps < 1 || reps > MAX_REPS)
        return sn_error_set(e, SN_ERR_INPUT, "%u repetitions: 1..%d", reps, MAX_REPS);
    for (unsigned r = 0; r < reps; r++) {
        sn_program prog;
        sn_mesh mesh = SN_MESH_2P2_INIT;
        uint8_t *table = NULL;
        uint64_t bytes = 0;
        memset(&prog, 0, sizeof prog);
        double start = sn_now_seconds();
        sn_status st = sn_program_load_case(&prog, case_dir, e);
        if (st == SN_OK)
            st = sn_pack_program(&prog, &mesh, &table, &bytes, e);
        times[r] = sn_now_seconds() - start;
        free(table);
        sn_program_free(&prog);
        if (st != SN_OK)
            return st;
    }
    qsort(times, reps, sizeof *times, by_value);
    *median = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
    return SN_OK;
}
