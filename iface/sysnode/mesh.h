/* The mesh description: which coordinates hold which unit type. Shared by the
 * firmware (to recognise completion sources), the host (to decode payloads and
 * validate kicks) and the simulator (to build its endpoints).
 * Source: DESIGN.md §6, sysnode-facts §5 (rv64_mesh_2p2). Freestanding. */
#ifndef SYSNODE_MESH_H
#define SYSNODE_MESH_H

#include <stdint.h>
#include "sysnode/regs.h"

/* Unit types as CU_CAPS[63:48] reports them (sysnode-facts §7.1). */
#define SN_CU_TYPE_VC 0x5643u /* 'VC' vector core */
#define SN_CU_TYPE_MG 0x4D47u /* 'MG' matmul cluster */

#define SN_MESH_MAX_UNITS 16

typedef struct {
    uint8_t x;
    uint8_t y;
    uint16_t cu_type; /* SN_CU_TYPE_* */
} sn_mesh_unit;

typedef struct {
    uint8_t unit_count;
    sn_mesh_unit units[SN_MESH_MAX_UNITS];
} sn_mesh;

/* rv64_mesh_2p2: mat0 (1,1), mat1 (2,1), vec0 (1,0), vec1 (1,2). */
#define SN_MESH_2P2_INIT                                                        \
    {                                                                           \
        4, {                                                                    \
            {1, 1, SN_CU_TYPE_MG}, {2, 1, SN_CU_TYPE_MG},                       \
            {1, 0, SN_CU_TYPE_VC}, {1, 2, SN_CU_TYPE_VC},                       \
        }                                                                       \
    }

/* The node id (SN_NODE_ID) of the mesh's unit i. */
static inline uint32_t sn_mesh_node(const sn_mesh *m, unsigned i)
{
    return SN_NODE_ID(m->units[i].x, m->units[i].y);
}

/* The mesh's node map: by SN_NODE_ID, 1 + the index of the unit there, or 0
 * for the SysNode and for a coordinate with no unit. The table rules' "is a
 * unit" test and the runner's count slots are this one lookup. */
typedef struct {
    uint8_t slot[SN_NODE_COUNT];
    const sn_mesh *mesh;
} sn_mesh_map;

/* Builds the node map of mesh into m, which the caller has zeroed (the
 * firmware clears its runner a word at a time; it has no memset). */
static inline void sn_mesh_map_init(sn_mesh_map *m, const sn_mesh *mesh)
{
    m->mesh = mesh;
    for (unsigned i = 0; i < mesh->unit_count; i++)
        if (sn_mesh_node(mesh, i) != SN_NODE_ID(SN_SYSNODE_X, SN_SYSNODE_Y))
            m->slot[sn_mesh_node(mesh, i)] = (uint8_t)(i + 1);
}

/* Returns the unit at (x, y), or 0 when the mesh has none there. */
static inline const sn_mesh_unit *sn_mesh_find(const sn_mesh *m, unsigned x, unsigned y)
{
    for (unsigned i = 0; i < m->unit_count; i++)
        if (m->units[i].x == x && m->units[i].y == y)
            return &m->units[i];
    return 0;
}

#endif
