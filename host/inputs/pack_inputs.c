/* A case directory or artifact files as a program and mesh (see
 * pack_inputs.h). */
#include "pack_inputs.h"

#include <string.h>

#include "file_read.h"
#include "manifest_mesh.h"
#include "settle.h"

sn_status sn_pack_load_manifest(const sn_manifest *m, sn_program *p, sn_mesh *mesh, sn_error *e)
{
    memset(p, 0, sizeof *p);
    sn_status st = sn_mesh_check_manifest(m, e);
    if (st == SN_OK)
        *mesh = sn_mesh_from_manifest(m);
    if (st == SN_OK && (st = sn_program_load_manifest(p, m, e)) == SN_OK)
        sn_settle_plan(p, mesh, m); /* the case's outputs make the settle proof possible */
    return st;
}

sn_status sn_pack_load_inputs(const char *const *inputs, size_t n, sn_program *p, sn_mesh *mesh, sn_error *e)
{
    static const sn_mesh default_mesh = SN_MESH_2P2_INIT;
    memset(p, 0, sizeof *p);
    *mesh = default_mesh;
    if (n == 0)
        return sn_error_set(e, SN_ERR_INPUT, "no artifacts or case directory given");
    if (n == 1 && sn_path_is_dir(inputs[0])) {
        sn_manifest m;
        sn_status st = sn_manifest_load(&m, inputs[0], e);
        if (st == SN_OK)
            st = sn_pack_load_manifest(&m, p, mesh, e);
        sn_manifest_free(&m);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        if (sn_path_is_dir(inputs[i]))
            return sn_error_set(e, SN_ERR_INPUT, "%s: a case directory must be the only input", inputs[i]);
    return sn_program_load(p, inputs, n, e);
}
