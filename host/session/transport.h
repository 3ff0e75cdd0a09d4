/* The host's transports over the window of common/window.h: the recorder
 * and closing. Everything above this interface works the same on the
 * simulator and on a card (DESIGN §3). */
#ifndef SN_HOST_TRANSPORT_H
#define SN_HOST_TRANSPORT_H

#include "error.h"
#include "window.h"

/* The simulated SysNode's windows (sn_transport_sim_open, the simulated
 * card's bus) are the simulator's: sim/transport/transport_sim.h; the
 * device choice between them and a card is host/compose/device_open.h's. */

/* A transport that forwards every access to inner and records one line per
 * host-window access for trace_path: the operation, its address and every
 * data byte in hex, so two traces compare byte for byte. The trace goes to a
 * temporary beside trace_path (host/inputs/file_out.h); closing the transport
 * without sn_transport_record_commit removes it and closes inner. Errors:
 * those of sn_out_open (t and inner are then untouched). */
sn_status sn_transport_record_open(sn_transport *t, sn_transport inner, const char *trace_path, sn_error *e);

/* Puts the recorded trace in place (sn_out_commit) when the run reached its
 * wait; a run refused or stopped before it leaves no trace and an old file
 * untouched. SN_OK for a transport that does not record. SN_ERR_IO naming
 * the trace when any line could not be written. */
sn_status sn_transport_record_commit(sn_transport *t, sn_error *e);

/* Closes t (NULL-safe on a zeroed transport). */
void sn_transport_close(sn_transport *t);

#endif
