/* The bus under the card transport: 64-bit register words at a byte offset of
 * the card's control port (user BAR) and DMA blocks into the SysNode's DRAM.
 * Two backends: the Xilinx XDMA driver's device files, and the simulated
 * card (sim/harness/card_window.h) so the whole card protocol runs in CI.
 * Limits of a DMA transfer (sysnode/host_window.h, from KohakuTPU
 * driver/kohakuaccel/transport/xdma.py@4c61f070): card address and length in
 * whole 64-byte beats, at least 64 bytes, split into transfers of at most
 * 8 MB; never read DRAM that was not written (ECC answers SLVERR and wedges
 * the channel: transport_card.c keeps that rule, the bus does not). */
#ifndef SN_HOST_CARD_BUS_H
#define SN_HOST_CARD_BUS_H

#include <stdint.h>

#include "error.h"
#include "transport.h"

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
    /* Optional (NULL on a card): the simulator's note on the last stop
     * (an unmodelled access, or where a hung runner was). */
    const char *(*stop_message)(void *ctx);
    /* Optional (NULL on a card): the counts of the last run (transport.h). */
    sn_status (*stats)(void *ctx, sn_run_stats *out, sn_error *e);
} sn_card_bus_ops;

typedef struct sn_card_bus {
    const sn_card_bus_ops *ops;
    void *ctx;
} sn_card_bus;

/* The XDMA character devices PREFIX_user (the control port: its load window
 * mapped, single 64-bit loads and stores), PREFIX_h2c_0 and PREFIX_c2h_0
 * (DMA, pwrite/pread at the card address from a page-aligned staging
 * buffer). prefix is e.g. "/dev/xdma0". SN_ERR_IO naming the file and the
 * errno when one cannot be opened read-write or the window cannot be mapped
 * (a regular file standing in must be at least 0x9000 bytes); read64 and
 * write64 take only the window's words (SN_ERR_INPUT otherwise). */
sn_status sn_card_bus_xdma_open(sn_card_bus *b, const char *prefix, sn_error *e);

/* The simulated card with a fresh SysNode (cu_version 0 = 4, as
 * sn_transport_sim_open). SN_ERR_INTERNAL when it cannot be created. */
sn_status sn_card_bus_sim_open(sn_card_bus *b, unsigned cu_version, sn_error *e);

/* The simulator behind a simulated-card bus (for its FST dump), or NULL for
 * another bus. Owned by the bus. */
struct sn_sim;
struct sn_sim *sn_card_bus_sim_of(const sn_card_bus *b);

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

/* The host window spoken over bus (host/session/transport_card.c; protocol in
 * sysnode-facts §1.3). Takes bus over: closing t closes it, and so does a
 * failure here. DRAM reads of beats the host never wrote are refused
 * (SN_ERR_INPUT naming the device and the address); bus errors pass through. */
sn_status sn_transport_card_open(sn_transport *t, sn_card_bus bus, sn_error *e);

/* The simulator behind a card window over the simulated card, else NULL. */
struct sn_sim *sn_transport_card_sim_of(const sn_transport *t);

#endif
