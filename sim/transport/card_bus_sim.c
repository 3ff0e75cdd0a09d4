/* The card bus over the simulated card (see common/card_bus.h and
 * sim/harness/card_window.h): the same register words and DMA limits as the
 * XDMA devices, so CI runs the whole card protocol. */
#include <stdlib.h>

#include "card_bus.h"
#include "card_window.h"
#include "sim.h"
#include "transport_sim.h"

typedef struct {
    sn_card_window *card;
    /* for move(): the caller's buffer of the transfer in progress */
    const uint8_t *src;
    uint8_t *dst;
} sim_card;

static sn_status card_error(sn_error *e, const char *why)
{
    return sn_error_set(e, SN_ERR_IO, "sim: %s", why);
}

static sn_status sim_read64(void *ctx, uint64_t offset, uint64_t *value, sn_error *e)
{
    char err[256];
    sim_card *c = ctx;
    return sn_card_window_read(c->card, offset, value, err, sizeof err) == 0 ? SN_OK : card_error(e, err);
}

static sn_status sim_write64(void *ctx, uint64_t offset, uint64_t value, sn_error *e)
{
    char err[256];
    sim_card *c = ctx;
    return sn_card_window_write(c->card, offset, value, err, sizeof err) == 0 ? SN_OK : card_error(e, err);
}

/* One piece of the transfer in progress: to the card from c->src + offset,
 * or from the card into c->dst + offset. */
static sn_status dma_move(sim_card *c, int to_card, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    char err[256];
    int rc = to_card ? sn_card_window_dma_write(c->card, card_addr, c->src + offset, len, err, sizeof err)
                     : sn_card_window_dma_read(c->card, card_addr, c->dst + offset, len, err, sizeof err);
    return rc == 0 ? SN_OK : card_error(e, err);
}

static sn_status h2c_move(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    return dma_move(ctx, 1, card_addr, offset, len, e);
}

static sn_status c2h_move(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len, sn_error *e)
{
    return dma_move(ctx, 0, card_addr, offset, len, e);
}

static sn_status sim_dma_write(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e)
{
    sim_card *c = ctx;
    c->src = src;
    return sn_card_dma_split("sim", "write", addr, n, h2c_move, c, e);
}

static sn_status sim_dma_read(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e)
{
    sim_card *c = ctx;
    c->dst = dst;
    return sn_card_dma_split("sim", "read", addr, n, c2h_move, c, e);
}

static uint64_t sim_dram_size(void *ctx)
{
    return sn_card_window_dram_size(((sim_card *)ctx)->card);
}

static const char *sim_name(void *ctx)
{
    (void)ctx;
    return "sim";
}

static void sim_close(void *ctx)
{
    sim_card *c = ctx;
    sn_card_window_destroy(c->card);
    free(c);
}

static const char *sim_stop_message(void *ctx)
{
    return sn_card_window_stop_message(((sim_card *)ctx)->card);
}

static sn_status sim_stats(void *ctx, sn_run_stats *out, sn_error *e)
{
    (void)e;
    sn_sim_get_stats(sn_card_window_sim(((sim_card *)ctx)->card), out);
    return SN_OK;
}

static struct sn_sim *sim_sim(void *ctx)
{
    return sn_card_window_sim(((sim_card *)ctx)->card);
}

static const sn_card_bus_ops sim_card_ops = {
    sim_read64, sim_write64, sim_dma_write, sim_dma_read, sim_dram_size, sim_name, sim_close, sim_stop_message,
    sim_stats,  sim_sim,
};

sn_status sn_card_bus_sim_open(sn_card_bus *b, unsigned cu_version, sn_error *e)
{
    char err[256];
    sn_sim_config cfg = {0, cu_version, 0, 0};
    sim_card *c = calloc(1, sizeof *c);
    if (!c)
        return sn_error_set(e, SN_ERR_INTERNAL, "sim: out of memory");
    c->card = sn_card_window_create(&cfg, err, sizeof err);
    if (!c->card) {
        free(c);
        return sn_error_set(e, SN_ERR_INTERNAL, "sim: %s", err);
    }
    b->ops = &sim_card_ops;
    b->ctx = c;
    return SN_OK;
}
