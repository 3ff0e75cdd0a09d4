/* The inputs the pack, dump and header commands take: one case directory
 * or artifact files, as a program and its mesh. */
#ifndef SN_HOST_PACK_INPUTS_H
#define SN_HOST_PACK_INPUTS_H

#include <stddef.h>

#include "artifact.h"
#include "error.h"
#include "manifest.h"
#include "sysnode/mesh.h"

/* Loads the inputs the pack and dump commands take: one case directory
 * (its manifest's rounds and mesh), or artifact files in round order (mesh
 * rv64_mesh_2p2), its manifest read once. *p is zeroed first; free it with
 * sn_program_free, also after a failure. Errors: those of sn_program_load,
 * sn_program_load_manifest, sn_manifest_load and
 * sn_mesh_check_manifest; SN_ERR_INPUT for no inputs or a directory given
 * with other inputs. */
sn_status sn_pack_load_inputs(const char *const *inputs, size_t n, sn_program *p, sn_mesh *mesh, sn_error *e);

/* sn_pack_load_inputs of one case directory whose manifest m the caller
 * read (sn_case_open; m stays the caller's): its mesh and its rounds, the
 * settle plan made. Errors: those of sn_mesh_check_manifest and
 * sn_program_load_manifest. */
sn_status sn_pack_load_manifest(const sn_manifest *m, sn_program *p, sn_mesh *mesh, sn_error *e);

#endif
