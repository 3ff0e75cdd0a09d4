/* The simulated card: the SysNode's host window as a card presents it
 * (sysnode-facts §1.3, iface/sysnode/host_window.h): the 4 KB
 * load window at +0x8000 of the control port (LOAD_CTL/LOAD_DATA streaming
 * into IMEM and SPAD, the pass-through BOOT/STATUS/EXIT/HALTPC/CYCLES/RETIRED
 * registers, the 256-byte console FIFO) and DMA into DRAM within the XDMA
 * limits, over one simulated SysNode (sim.h). Simulated time passes only when
 * the host reads STATUS: SN_HW_POLL_CYCLES CPU cycles per read, so a poll
 * loop is the card's clock and every run is deterministic. C API. */
#ifndef SN_CARD_WINDOW_H
#define SN_CARD_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sn_card_window sn_card_window;

/* A card with a fresh SysNode built from cfg (sim.h). NULL with the reason in
 * err (errlen bytes) when the simulator cannot be created. */
sn_card_window *sn_card_window_create(const sn_sim_config *cfg, char *err, size_t errlen);
void sn_card_window_destroy(sn_card_window *w);

/* One 64-bit register access at a byte offset of the control port (the
 * window is [0x8000, 0x9000)). Returns 0, or -1 with the reason in err for an
 * offset outside the window, one this model does not implement, or a
 * LOAD_DATA word past the end of IMEM (32 KB) or SPAD (32 KB). */
int sn_card_window_read(sn_card_window *w, uint64_t offset, uint64_t *value, char *err, size_t errlen);
int sn_card_window_write(sn_card_window *w, uint64_t offset, uint64_t value, char *err, size_t errlen);

/* One DMA transfer of n bytes at unit DRAM address addr (H2C: write, C2H:
 * read). addr and n must be multiples of SN_HW_DMA_ALIGN (64), n in
 * [64, 8 MB], inside DRAM; a read must touch only 64-byte granules a DMA
 * write reached before (unwritten ECC answers SLVERR), and after a refused
 * read every later transfer fails (the channel is wedged, as on the card).
 * Returns 0, or -1 with the reason in err. */
int sn_card_window_dma_write(sn_card_window *w, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen);
int sn_card_window_dma_read(sn_card_window *w, uint64_t addr, void *dst, uint64_t n, char *err, size_t errlen);

/* DRAM bytes of the simulated SysNode. */
uint64_t sn_card_window_dram_size(const sn_card_window *w);

/* The simulator's reason for the last stop with SN_HW_STATUS_SIM_ERROR, or a
 * hang's where-the-runner-was note; "" when none. */
const char *sn_card_window_stop_message(const sn_card_window *w);

/* The SysNode behind the card, for its counters (sn_sim_get_stats). */
sn_sim *sn_card_window_sim(sn_card_window *w);

#ifdef __cplusplus
}
#endif
#endif
