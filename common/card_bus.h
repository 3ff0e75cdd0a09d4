/* The bus under the card transport: 64-bit register words at a byte offset of
 * the card's control port (user BAR) and DMA blocks into the SysNode's DRAM.
 * Two backends: the Xilinx XDMA driver's device files (host/session/
 * card_bus_xdma.h), and the simulated card (sim/transport/transport_sim.h
 * over sim/harness/card_window.h) so the whole card protocol runs in CI.
 * Limits of a DMA transfer (sysnode/host_window.h, from KohakuTPU
 * driver/kohakuaccel/transport/xdma.py@4c61f070): card address and length in
 * whole 64-byte beats, at least 64 bytes, split into transfers of at most
 * 8 MB; never read DRAM that was not written (ECC answers SLVERR and wedges
 * the channel: transport_card.c keeps that rule, the bus does not). */
#ifndef SN_COMMON_CARD_BUS_H
#define SN_COMMON_CARD_BUS_H

#include <stdint.h>

#include "error.h"
#include "window.h"

typedef struct sn_card_bus_ops {
    /* One 64-bit register at byte offset (8-aligned) of the control port.
     * SN_ERR_INPUT naming the device and the offset when it is not a word of
     * the load window; SN_ERR_IO naming the device, offset and errno. */
    sn_status (*read64)(void *ctx, uint64_t offset, uint64_t *value, sn_error *e);
    sn_status (*write64)(void *ctx, uint64_t offset, uint64_t value, sn_error *e);
    /* n bytes at unit DRAM address addr: both multiples of 64, n >= 64 (else
     * SN_ERR_INPUT, nothing moved); moved in transfers of at most 8 MB.
     * SN_ERR_IO naming the device, the card address and the errno. */
    sn_status (*dma_write)(void *ctx, uint64_t addr, const void *src, uint64_t n, sn_error *e);
    sn_status (*dma_read)(void *ctx, uint64_t addr, void *dst, uint64_t n, sn_error *e);
    /* DRAM bytes the host lays out (the simulator's size; the first 16 MiB of a card's). */
    uint64_t (*dram_size)(void *ctx);
    /* What the device is called in messages ("sim", "/dev/xdma0"). */
    const char *(*name)(void *ctx);
    void (*close)(void *ctx);
    /* Optional (NULL on a card): the simulator's note on the last halt or
     * simulation error (an unmodelled access, a trap). Not used at the cap,
     * where a card's host knows only the runner's status copy. */
    const char *(*stop_message)(void *ctx);
    /* Optional (NULL on a card): the counts of the last run (window.h). */
    sn_status (*stats)(void *ctx, sn_run_stats *out, sn_error *e);
    /* Optional (NULL on a card): the simulator behind the simulated card, for
     * the window's own sim operation (window.h). Owned by the bus. */
    struct sn_sim *(*sim)(void *ctx);
} sn_card_bus_ops;

typedef struct sn_card_bus {
    const sn_card_bus_ops *ops;
    void *ctx;
} sn_card_bus;

/* Splits a DMA of n bytes at addr into transfers of at most
 * SN_HW_DMA_MAX_BYTES and calls move(ctx, card_addr, buffer_offset, length)
 * for each in order, stopping at the first error. SN_ERR_INPUT (naming
 * device, addr and n, nothing moved) when addr or n is not a multiple of 64
 * or n < 64. The one place the XDMA limits are applied on the host. */
sn_status sn_card_dma_split(const char *device, const char *dir, uint64_t addr, uint64_t n,
                            sn_status (*move)(void *ctx, uint64_t card_addr, uint64_t offset, uint64_t len,
                                              sn_error *e),
                            void *ctx, sn_error *e);

/* Closes b (NULL-safe on a zeroed bus). */
void sn_card_bus_close(sn_card_bus *b);

#endif
