/* The peer fields of a program's payloads against the mesh: a matmul
 * cluster DRAIN to a node (dnode 1) names a vector core that exists and
 * sends its peer ack to the SysNode (sysnode-facts §3.3, §4 "CU_DATA peer
 * burst"; artifacts-facts §5 item 4: dack = (0,0), the compiler's
 * MachineSpec.agent). */
#ifndef SN_HOST_PEER_CHECK_H
#define SN_HOST_PEER_CHECK_H

#include "artifact.h"
#include "error.h"
#include "sysnode/mesh.h"

/* SN_OK, or SN_ERR_TABLE_NODE naming the artifact, round, slot, field and
 * value of the first node DRAIN whose dst_x/dst_y is no vector core of
 * mesh, or whose dack_x/dack_y is not (0,0), with the fix (build the
 * compiler's machine with agent=(0,0)). Checked before anything is sent, on
 * a loaded program, which the table rules have judged (artifact.h). */
sn_status sn_program_check_peers(const sn_program *p, const sn_mesh *mesh, sn_error *e);

#endif
