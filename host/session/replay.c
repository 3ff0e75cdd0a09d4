/* A replay session through the host window (see replay.h). */
#include "replay.h"

#include <string.h>

#include "manifest_mesh.h"
#include "settle.h"

/* The runner image and the simulator are built for rv64_mesh_2p2 (DESIGN §6):
 * a case compiled for another mesh cannot run here, and is refused by name
 * rather than by the runner's CU_CAPS check or a wrong result. */
static sn_status check_mesh(const sn_manifest *m, const sn_mesh *mesh, sn_error *e)
{
    static const sn_mesh sysnode_mesh = SN_MESH_2P2_INIT;
    int same = mesh->unit_count == sysnode_mesh.unit_count;
    for (unsigned i = 0; same && i < mesh->unit_count; i++) {
        const sn_mesh_unit *u = sn_mesh_find(&sysnode_mesh, mesh->units[i].x, mesh->units[i].y);
        same = u && u->cu_type == mesh->units[i].cu_type;
    }
    if (same)
        return SN_OK;
    return sn_error_set(e, SN_ERR_INPUT,
                        "%s: the case's mesh (%u units) is not this SysNode's rv64_mesh_2p2 (MG at (1,1) and "
                        "(2,1), VC at (1,0) and (1,2))",
                        m->path, mesh->unit_count);
}

/* What the case asks of the window and the options, refused before any file
 * is read: host steps on a window that cannot hold the runner for them, and
 * --digest where no compare follows the last round (the runner reads back
 * the first expected output after it). */
static sn_status check_window(const sn_replay_opts *opts, const sn_transport *t, const sn_manifest *m, sn_error *e)
{
    const char *why = t->ops->host_steps_refused ? t->ops->host_steps_refused(t->ctx) : NULL;
    if (m->host_step_count > 0 && why != NULL)
        return sn_error_set(e, SN_ERR_INPUT, "%s: %zu host step%s (the first after round %u): %s", m->path,
                            m->host_step_count, m->host_step_count == 1 ? "" : "s", m->host_steps[0].after_round,
                            why);
    if (opts->digest && m->expected_count == 0)
        return sn_error_set(e, SN_ERR_INPUT, "%s: --digest: the runner reads back the first expected output after "
                            "the last round, and this case compares only at its host steps", m->path);
    return SN_OK;
}

sn_status sn_replay_read_case(const sn_replay_opts *opts, sn_transport *t, sn_case *c, sn_replay_result *res,
                             sn_error *e)
{
    sn_program *prog;
    sn_status st;
    memset(res, 0, sizeof *res);
    res->diff_round = -1;

    /* Check the case (regions inside DRAM before any file is read);
     * sn_replay_program checks the rest before anything reaches the SysNode. */
    sn_manifest *m = &c->m;
    if (c->m_status != SN_OK) {
        *e = c->m_err;
        return c->m_status;
    }
    if ((st = check_window(opts, t, m, e)) != SN_OK ||
        (st = sn_manifest_check_dram(m, t->ops->dram_size(t->ctx), e)) != SN_OK ||
        (st = sn_manifest_read_data(m, e)) != SN_OK || (st = sn_case_program(c, &prog, e)) != SN_OK ||
        (st = sn_mesh_check_manifest(m, e)) != SN_OK)
        return st;
    sn_mesh mesh = sn_mesh_from_manifest(m);
    if ((st = check_mesh(m, &mesh, e)) != SN_OK)
        return st;
    if (!opts->table)
        sn_settle_plan(prog, &mesh, m);
    return sn_replay_program(opts, t, m, prog, res, e);
}

sn_status sn_replay_case(const sn_replay_opts *opts, sn_transport *t, sn_replay_result *res, sn_error *e)
{
    sn_case c;
    sn_case_open(&c, opts->case_dir);
    sn_status st = sn_replay_read_case(opts, t, &c, res, e);
    sn_case_free(&c);
    return st;
}
