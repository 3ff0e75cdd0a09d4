/* The host window onto the in-process simulator (see transport.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"
#include "transport.h"

static sn_status sim_imem_write(void *ctx, uint32_t addr, uint32_t word, sn_error *e)
{
    if (sn_sim_imem_write(ctx, addr, word) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "IMEM write at 0x%x: outside the 32 KB window or not 4-aligned", addr);
    return SN_OK;
}

static sn_status sim_spad_write(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes, sn_error *e)
{
    if (sn_sim_spad_write(ctx, offset, value, strobes) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "SPAD write at offset 0x%x: outside the 32 KB window or not 8-aligned",
                            offset);
    return SN_OK;
}

static sn_status sim_dram_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    if (sn_sim_dram_write(ctx, addr, src, n) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "DRAM write of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)",
                            (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)sn_sim_dram_size(ctx));
    return SN_OK;
}

static sn_status sim_dram_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    if (sn_sim_dram_read(ctx, addr, dst, n) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "DRAM read of %llu bytes at 0x%llx passes the end of DRAM (%llu bytes)",
                            (unsigned long long)n, (unsigned long long)addr,
                            (unsigned long long)sn_sim_dram_size(ctx));
    return SN_OK;
}

static sn_status sim_boot(void *ctx, sn_error *e)
{
    char err[256];
    if (sn_sim_boot(ctx, err, sizeof err) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "boot: %s", err);
    return SN_OK;
}

static sn_status sim_wait(void *ctx, uint64_t cycle_limit, sn_run_status *out, sn_error *e)
{
    (void)e;
    sn_sim_result r = sn_sim_run(ctx, cycle_limit);
    static const sn_run_stop stops[] = {
        [SN_SIM_EXITED] = SN_RUN_EXITED,
        [SN_SIM_HALTED] = SN_RUN_HALTED,
        [SN_SIM_CYCLE_LIMIT] = SN_RUN_CYCLE_LIMIT,
        [SN_SIM_ERROR] = SN_RUN_SIM_ERROR,
    };
    out->stop = stops[r.stop];
    out->exit_code = r.exit_code;
    out->halt_cause = r.halt_cause;
    out->cycles = r.cycles;
    out->instret = r.instret;
    out->dropped_gos = sn_sim_dropped_gos(ctx);
    snprintf(out->message, sizeof out->message, "%s", r.message);
    snprintf(out->inject, sizeof out->inject, "%s", sn_sim_inject_report(ctx));
    return SN_OK;
}

static const char *sim_console(void *ctx)
{
    return sn_sim_console(ctx);
}

static uint64_t sim_dram_size(void *ctx)
{
    return sn_sim_dram_size(ctx);
}

static void sim_close(void *ctx)
{
    sn_sim_destroy(ctx);
}

static const sn_transport_ops sim_ops = {
    sim_imem_write, sim_spad_write, sim_dram_write, sim_dram_read, sim_boot,
    sim_wait,       sim_console,    sim_dram_size,  sim_close,
};

sn_status sn_transport_sim_open(sn_transport *t, unsigned cu_version, sn_error *e)
{
    char err[256];
    sn_sim_config cfg = {0, cu_version};
    sn_sim *s = sn_sim_create(&cfg, err, sizeof err);
    if (!s)
        return sn_error_set(e, SN_ERR_INTERNAL, "simulator: %s", err);
    t->ops = &sim_ops;
    t->ctx = s;
    return SN_OK;
}

sn_status sn_transport_sim_inject(sn_transport *t, const char *spec, sn_error *e)
{
    char err[256];
    sn_inject_spec j;
    if (t->ops != &sim_ops)
        return sn_error_set(e, SN_ERR_INTERNAL, "--inject needs the simulator's own transport");
    if (sn_inject_parse(spec, &j, err, sizeof err) != 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s", err);
    sn_sim_set_inject(t->ctx, &j);
    return SN_OK;
}

void sn_transport_close(sn_transport *t)
{
    if (t && t->ops)
        t->ops->close(t->ctx);
    if (t) {
        t->ops = NULL;
        t->ctx = NULL;
    }
}
