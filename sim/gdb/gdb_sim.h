/* The simulated SysNode under GDB: the stub (gdb_stub.h) on a booted
 * simulator, for sysnode-sim --gdb and sysnode run --gdb. */
#ifndef SN_GDB_SIM_H
#define SN_GDB_SIM_H

#include <stdint.h>

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serves GDB on listener (sn_gdb_listen, gdb_stub.h; closed here) before
 * the booted image runs, and runs it only as GDB steps and continues (in
 * slices of 100000 cycles between Ctrl-C checks), up to cycle_limit; after
 * GDB detaches or disconnects, the breakpoints it left are cleared and the
 * image runs on to its end. Returns the run's result as
 * sn_sim_run does; SN_RUN_SIM_ERROR with the reason in message if no
 * connection comes or GDB killed the image. */
sn_run_status sn_sim_run_gdb(sn_sim *s, uint64_t cycle_limit, int listener);

#ifdef __cplusplus
}
#endif

#endif
