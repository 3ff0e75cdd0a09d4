/* A manifest's mesh as an sn_mesh (see manifest_mesh.h). */
#include "manifest_mesh.h"

#include <string.h>

static void add_units(const sn_coord *c, size_t n, uint16_t type, sn_mesh *out)
{
    for (size_t i = 0; i < n && out->unit_count < SN_MESH_MAX_UNITS; i++)
        if (sn_mesh_find(out, c[i].x, c[i].y) == NULL)
            out->units[out->unit_count++] = (sn_mesh_unit){c[i].x, c[i].y, type};
}

sn_mesh sn_mesh_from_manifest(const sn_manifest *m)
{
    static const sn_mesh default_mesh = SN_MESH_2P2_INIT;
    if (!m->has_mesh)
        return default_mesh;
    sn_mesh out;
    memset(&out, 0, sizeof out);
    add_units(m->mg, m->mg_count, SN_CU_TYPE_MG, &out);
    add_units(m->vc, m->vc_count, SN_CU_TYPE_VC, &out);
    return out;
}

sn_status sn_mesh_check_manifest(const sn_manifest *m, sn_error *e)
{
    size_t n = m->mg_count + m->vc_count;
    if (!m->has_mesh)
        return SN_OK;
    if (n > SN_MESH_MAX_UNITS)
        return sn_error_set(e, SN_ERR_INPUT, "%s: mesh lists %zu units, more than %d", m->path, n,
                            SN_MESH_MAX_UNITS);
    for (size_t i = 0; i < n; i++) {
        const sn_coord *a = i < m->mg_count ? &m->mg[i] : &m->vc[i - m->mg_count];
        for (size_t j = 0; j < i; j++) {
            const sn_coord *b = j < m->mg_count ? &m->mg[j] : &m->vc[j - m->mg_count];
            if (a->x == b->x && a->y == b->y)
                return sn_error_set(e, SN_ERR_INPUT, "%s: mesh lists (%u,%u) twice", m->path, a->x, a->y);
        }
    }
    return SN_OK;
}
