/* Peer fields of node DRAINs (see peer_check.h). */
#include "peer_check.h"

#include "sysnode/words.h"

sn_status sn_program_check_peers(const sn_program *p, const sn_mesh *mesh, sn_error *e)
{
    sn_table t = sn_program_table(p);
    for (uint32_t r = 0; r < t.round_count; r++)
        for (uint32_t i = 0; i < t.rounds[r].step_count; i++) {
            const sn_table_step *s = &t.steps[t.rounds[r].step_first + i];
            const sn_mesh_unit *u = s->op == SN_STEP_KICK ? sn_mesh_find(mesh, s->x, s->y) : NULL;
            for (uint32_t k = 0; u && u->cu_type == SN_CU_TYPE_MG && k < s->kick.flits; k++) {
                uint32_t slot = s->kick.first_slot + k;
                sn_payload q = sn_table_row_payload(&t.payloads[t.rounds[r].payload_first + slot]);
                if (sn_mg_op(&q) != SN_MG_OP_DRAIN || !sn_mg_dnode(&q))
                    continue;
                unsigned dx = (unsigned)sn_mg_dst_x(&q), dy = (unsigned)sn_mg_dst_y(&q);
                const sn_mesh_unit *dst = sn_mesh_find(mesh, dx, dy);
                if (!dst || dst->cu_type != SN_CU_TYPE_VC)
                    return sn_error_set(e, SN_ERR_TABLE_NODE,
                                        "%s: round %u slot %u: the DRAIN to a node names dst_x/dst_y (%u,%u), which "
                                        "is no vector core of this mesh (VC at (1,0) and (1,2))",
                                        p->files[r], r, slot, dx, dy);
                unsigned ax = (unsigned)sn_mg_dack_x(&q), ay = (unsigned)sn_mg_dack_y(&q);
                if (ax != 0 || ay != 0)
                    return sn_error_set(e, SN_ERR_TABLE_NODE,
                                        "%s: round %u slot %u: the DRAIN to (%u,%u) sends its peer ack to dack_x/dack_y "
                                        "(%u,%u), not the SysNode (0,0): %s; build the compiler's machine with "
                                        "agent=(0,0) (sysnode.kohakutpu does)",
                                        p->files[r], r, slot, dx, dy, ax, ay,
                                        sn_mesh_find(mesh, ax, ay) ? "that unit does not take the ack's flit type"
                                                                   : "this mesh has no node there");
            }
        }
    return SN_OK;
}
