/* A card bus over the Xilinx XDMA driver's device files (common/card_bus.h). */
#ifndef SN_HOST_CARD_BUS_XDMA_H
#define SN_HOST_CARD_BUS_XDMA_H

#include "card_bus.h"
#include "error.h"

/* The XDMA character devices PREFIX_user (the control port: its load window
 * mapped, single 64-bit loads and stores), PREFIX_h2c_0 and PREFIX_c2h_0
 * (DMA, pwrite/pread at the card address from a page-aligned staging
 * buffer). prefix is e.g. "/dev/xdma0". SN_ERR_IO naming the file and the
 * errno when one cannot be opened read-write or the window cannot be mapped
 * (a regular file standing in must be at least 0x9000 bytes); read64 and
 * write64 take only the window's words (SN_ERR_INPUT otherwise). */
sn_status sn_card_bus_xdma_open(sn_card_bus *b, const char *prefix, sn_error *e);

#endif
