/* The --device choice: a card through its XDMA device files, or the
 * simulated card. Made here, above both the host's card protocol and the
 * simulator, for the programs that link both (sysnode, libsysnode;
 * docs/DESIGN.md §3). */
#ifndef SN_COMPOSE_DEVICE_OPEN_H
#define SN_COMPOSE_DEVICE_OPEN_H

#include "error.h"
#include "window.h"

/* The host window named by a --device spec (docs/user-guide.md "On a card"):
 * "sim"               the simulated card (a fresh SysNode, cu_version as in
 *                     sn_transport_sim_open) through the card protocol;
 * "xdma:PREFIX"       a card through the XDMA device files PREFIX_user,
 *                     PREFIX_h2c_0, PREFIX_c2h_0 (e.g. xdma:/dev/xdma0).
 * SN_ERR_INPUT for another spec, or a cu_version with xdma (a card's units
 * are what they are); SN_ERR_IO naming the file and errno when a device file
 * cannot be opened. */
sn_status sn_transport_open_device(sn_transport *t, const char *device, unsigned cu_version, sn_error *e);

/* 1 when device has the shape of a --device spec ("sim", "xdma:PREFIX"),
 * else 0: the command line refuses another as bad usage (exit 2) before it
 * opens anything. */
int sn_device_spec_valid(const char *device);

/* 1 when a valid spec names a card ("xdma:PREFIX"), 0 for the simulated
 * one ("sim"): what a card cannot do (dump a mesh, log GOs, take a unit
 * generation) is refused by that. */
int sn_device_spec_is_card(const char *device);

#endif
