/* The card protocol: the host window spoken over a card bus
 * (common/card_bus.h), the same over a card's XDMA devices and over the
 * simulated card. */
#ifndef SN_HOST_TRANSPORT_CARD_H
#define SN_HOST_TRANSPORT_CARD_H

#include "card_bus.h"
#include "error.h"
#include "window.h"

/* The host window spoken over bus (host/session/transport_card.c; protocol in
 * sysnode-facts §1.3). Takes bus over: closing t closes it, and so does a
 * failure here. DRAM reads of beats the host never wrote are refused
 * (SN_ERR_INPUT naming the device and the address); bus errors pass through. */
sn_status sn_transport_card_open(sn_transport *t, sn_card_bus bus, sn_error *e);

#endif
