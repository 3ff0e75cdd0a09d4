/* What every card bus shares (see card_bus.h): the DMA limits. */
#include "card_bus.h"

#include "sysnode/host_window.h"

sn_status sn_card_dma_split(const char *device, const char *dir, uint64_t addr, uint64_t n,
                            sn_status (*move)(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len,
                                              sn_error *e),
                            void *ctx, sn_error *e)
{
    if (n < SN_HW_DMA_MIN_BYTES || addr % SN_HW_DMA_ALIGN || n % SN_HW_DMA_ALIGN)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s: DMA %s of %llu bytes at 0x%llx: a transfer is at least %llu bytes, card address "
                            "and length in whole %llu-byte beats",
                            device, dir, (unsigned long long)n, (unsigned long long)addr, SN_HW_DMA_MIN_BYTES,
                            SN_HW_DMA_ALIGN);
    for (uint64_t off = 0; off < n; off += SN_HW_DMA_MAX_BYTES) {
        uint64_t len = n - off < SN_HW_DMA_MAX_BYTES ? n - off : SN_HW_DMA_MAX_BYTES;
        sn_status st = move(ctx, addr + off, off, len, e);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

void sn_card_bus_close(sn_card_bus *b)
{
    if (b && b->ops)
        b->ops->close(b->ctx);
    if (b) {
        b->ops = NULL;
        b->ctx = NULL;
    }
}
