/* sysnode's simulator behind the GDB stub; see gdb_sim.h. */
#include "gdb_sim.h"

#include <stdio.h>
#include <stdlib.h>

#include "err_text.h"
#include "gdb_stub.h"

#define GDB_SLICE 100000ull /* cycles run between checks for Ctrl-C */

typedef struct session {
    sn_sim *s;
    uint64_t cycle_limit;
    sn_run_status last; /* the latest run's result; cycles 0 before the first */
    uint64_t *breaks;   /* the breakpoints GDB set and has not cleared, to clear when it leaves */
    size_t nbreaks, cap;
} session;

static uint64_t reg(void *ctx, unsigned i)
{
    return sn_sim_debug_register(((session *)ctx)->s, i);
}

static int read_mem(void *ctx, uint64_t addr, void *dst, size_t n)
{
    return sn_sim_debug_read(((session *)ctx)->s, addr, dst, n);
}

static int breakpoint(void *ctx, uint64_t addr, int on)
{
    session *g = ctx;
    size_t i = 0;
    while (i < g->nbreaks && g->breaks[i] != addr)
        i++;
    if (on && i == g->nbreaks && g->nbreaks == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        uint64_t *more = realloc(g->breaks, cap * sizeof *more);
        if (more == NULL)
            return -1;
        g->breaks = more, g->cap = cap;
    }
    int rc = sn_sim_debug_breakpoint(g->s, addr, on);
    if (rc == 0 && on && i == g->nbreaks)
        g->breaks[g->nbreaks++] = addr;
    else if (rc == 0 && !on && i < g->nbreaks)
        g->breaks[i] = g->breaks[--g->nbreaks];
    return rc;
}

static sn_gdb_stop resume(void *ctx, int step, int (*interrupted)(void *), void *ictx, uint64_t *code)
{
    session *g = ctx;
    if (step)
        sn_sim_debug_step(g->s);
    for (;;) {
        uint64_t limit =
            step || g->cycle_limit - g->last.cycles < GDB_SLICE ? g->cycle_limit : g->last.cycles + GDB_SLICE;
        g->last = sn_sim_run(g->s, limit);
        switch (g->last.stop) {
        case SN_RUN_BREAK:
            return SN_GDB_BREAK;
        case SN_RUN_EXITED:
            *code = g->last.exit_code;
            return SN_GDB_EXITED;
        case SN_RUN_CYCLE_LIMIT:
            if (g->last.cycles >= g->cycle_limit)
                return SN_GDB_ENDED;
            if (interrupted(ictx))
                return SN_GDB_INTERRUPTED;
            break;
        default:
            return SN_GDB_ENDED;
        }
    }
}

static int stopped(void *ctx)
{
    (void)ctx;
    return sn_sim_interrupted() != 0;
}

sn_run_status sn_sim_run_gdb(sn_sim *s, uint64_t cycle_limit, int listener)
{
    session g = {s, cycle_limit, {0}, NULL, 0, 0};
    g.last.stop = SN_RUN_BREAK;
    sn_gdb_target t = {&g, reg, read_mem, breakpoint, resume, stopped};
    sn_gdb_end end;
    char err[256];
    if (sn_gdb_serve(&t, listener, &end, err, sizeof err) != 0) {
        g.last.stop = SN_RUN_SIM_ERROR;
        sn_text_fit(g.last.message, sizeof g.last.message, "%s", err);
    } else if (end == SN_GDB_KILLED) {
        g.last.stop = SN_RUN_SIM_ERROR;
        sn_text_fit(g.last.message, sizeof g.last.message, "killed by the debugger");
    } else if (end == SN_GDB_DETACHED && (g.last.stop == SN_RUN_BREAK || g.last.stop == SN_RUN_CYCLE_LIMIT)) {
        /* A breakpoint left in place would stop a run nobody debugs any more. */
        while (g.nbreaks > 0)
            sn_sim_debug_breakpoint(s, g.breaks[--g.nbreaks], 0);
        g.last = sn_sim_run(s, cycle_limit);
    }
    free(g.breaks);
    return g.last;
}
