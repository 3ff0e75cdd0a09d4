/* See window_load.h. */
#include "window_load.h"

#include <string.h>

#include "sysnode/boot_args.h"

typedef struct {
    sn_transport *t;
    sn_error *e;
} push_ctx;

static int push_imem(void *ctx, uint32_t addr, uint32_t word)
{
    push_ctx *p = ctx;
    return p->t->ops->imem_write(p->t->ctx, addr, word, p->e) == SN_OK ? 0 : -1;
}

static int push_spad(void *ctx, uint32_t offset, uint64_t value, uint8_t strobes)
{
    push_ctx *p = ctx;
    return p->t->ops->spad_write(p->t->ctx, offset, value, strobes, p->e) == SN_OK ? 0 : -1;
}

sn_status sn_window_load_image(sn_transport *t, const sn_elf_image *img, const char *path, sn_error *e)
{
    char err[256];
    push_ctx ctx = {t, e};
    if (sn_elf_image_push(img, push_imem, push_spad, &ctx, err, sizeof err) != 0)
        return e && e->code != SN_OK ? e->code : sn_error_set(e, SN_ERR_INPUT, "%s: %s", path, err);
    /* No boot arguments from an earlier run: they could name a status copy (FORMAT.md §6). */
    for (uint32_t i = 0; i < sizeof(sn_boot_args) / 8; i++) {
        sn_status st = t->ops->spad_write(t->ctx, (uint32_t)(SN_BOOT_ARGS_ADDR - SN_SPAD_BASE + 8 * i), 0, 0xFF, e);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

sn_status sn_window_write_boot_args(sn_transport *t, uint64_t table_addr, uint64_t table_bytes, uint64_t result_addr,
                                    uint64_t result_bytes, uint64_t status_addr, sn_error *e)
{
    static const uint8_t zeros[SN_STATUS_COPY_BYTES];
    sn_boot_args args = {SN_BOOT_ARGS_MAGIC, SN_BOOT_ARGS_VERSION, table_addr,   table_bytes,
                         result_addr,        result_bytes,         t->ops->dram_size(t->ctx), status_addr};
    sn_status zs = status_addr ? t->ops->dram_write(t->ctx, status_addr, zeros, sizeof zeros, e) : SN_OK;
    if (zs != SN_OK)
        return zs;
    uint64_t words[sizeof args / 8];
    memcpy(words, &args, sizeof args);
    for (size_t i = 0; i < sizeof args / 8; i++) {
        sn_status st = t->ops->spad_write(t->ctx, (uint32_t)(SN_BOOT_ARGS_ADDR - SN_SPAD_BASE + 8 * i), words[i],
                                          0xFF, e);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

sn_status sn_window_read_status(sn_transport *t, uint64_t status_addr, sn_status_block *out, int *valid,
                                sn_error *e)
{
    sn_status st = t->ops->dram_read(t->ctx, status_addr, out, sizeof *out, e);
    *valid = st == SN_OK && out->magic == SN_STATUS_MAGIC;
    return st;
}
