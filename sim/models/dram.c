/* Flat DRAM model and its sn_mem_port adapter; see dram.h. */
#include "dram.h"

#include <string.h>

#include "sysnode/status.h"
#include "zeroed.h"

int sn_dram_init(sn_dram *d, uint64_t size)
{
    d->bytes = NULL;
    d->size = 0;
    if (size == 0)
        return SN_ERR_INPUT;
    if ((uint64_t)(size_t)size != size) /* larger than this host can address */
        return SN_ERR_INTERNAL;
    d->bytes = sn_zeroed_alloc((size_t)size); /* pages a run never touches cost nothing */
    if (d->bytes == NULL)
        return SN_ERR_INTERNAL;
    d->size = size;
    return SN_OK;
}

void sn_dram_free(sn_dram *d)
{
    sn_zeroed_free(d->bytes, (size_t)d->size);
    d->bytes = NULL;
    d->size = 0;
}

/* [addr, addr+n) inside [0, size), written so that addr + n cannot wrap. */
static int inside(const sn_dram *d, uint64_t addr, uint64_t n)
{
    return addr <= d->size && n <= d->size - addr;
}

int sn_dram_read(const sn_dram *d, uint64_t addr, void *dst, uint64_t n)
{
    if (!inside(d, addr, n))
        return SN_ERR_INPUT;
    if (n != 0)
        memcpy(dst, d->bytes + addr, (size_t)n);
    return SN_OK;
}

int sn_dram_write(sn_dram *d, uint64_t addr, const void *src, uint64_t n)
{
    if (!inside(d, addr, n))
        return SN_ERR_INPUT;
    if (n != 0)
        memcpy(d->bytes + addr, src, (size_t)n);
    return SN_OK;
}

static int port_read(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    return sn_dram_read(ctx, addr, dst, n) == SN_OK ? 0 : -1;
}

static int port_write(void *ctx, uint64_t addr, const void *src, uint32_t n)
{
    return sn_dram_write(ctx, addr, src, n) == SN_OK ? 0 : -1;
}

sn_mem_port sn_dram_port(sn_dram *d)
{
    sn_mem_port p = {.ctx = d, .read = port_read, .write = port_write};
    return p;
}
