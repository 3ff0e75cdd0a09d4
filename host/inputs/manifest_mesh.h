/* The mesh a case's manifest describes ("mesh": MG and VC coordinates) as
 * the sn_mesh the table rules and the runner take (DESIGN.md §6). */
#ifndef SN_HOST_MANIFEST_MESH_H
#define SN_HOST_MANIFEST_MESH_H

#include "error.h"
#include "manifest.h"
#include "sysnode/mesh.h"

/* The mesh m describes: its "mesh" MG then VC coordinates when present,
 * else SN_MESH_2P2_INIT (DESIGN.md §6). A coordinate listed again and units
 * past SN_MESH_MAX_UNITS are left out: call sn_mesh_check_manifest first to
 * refuse such a manifest. */
sn_mesh sn_mesh_from_manifest(const sn_manifest *m);

/* SN_OK when m's "mesh" (if any) fits an sn_mesh: at most
 * SN_MESH_MAX_UNITS units, no coordinate listed twice (in MG and VC
 * together). Else SN_ERR_INPUT naming the manifest and the coordinate. */
sn_status sn_mesh_check_manifest(const sn_manifest *m, sn_error *e);

#endif
