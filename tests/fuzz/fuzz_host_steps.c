/* libFuzzer target: manifests with host steps (artifacts/FORMAT.md §9),
 * written as a case (fuzz_dir.h), through everything the host does with
 * them before a SysNode is touched: the manifest's list of input files, the
 * DRAM check of every region, reading every region's file, the program with
 * its host sync steps, the settle proof and the packer. A crash or
 * sanitizer report is a bug, and so is a broken promise: the input list
 * must name the manifest, every artifact and every region of every point in
 * time; a region that passed the DRAM check must lie inside DRAM; the
 * packed table must pass the firmware's own checks, with a host sync step
 * ending exactly the rounds a host step follows. Seeds: make_seeds.c, the real cases with a host step added. Run
 * through scripts/fuzz. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "fuzz_dir.h"
#include "manifest.h"
#include "manifest_mesh.h"
#include "pack.h"
#include "peer_check.h"
#include "settle.h"
#include "sysnode/regs.h"
#include "sysnode/table_image.h"
#include "table_check.h"

static size_t region_count(const sn_manifest *m)
{
    size_t n = m->upload_count + m->expected_count;
    for (size_t k = 0; k < m->host_step_count; k++)
        n += m->host_steps[k].upload_count + m->host_steps[k].expected_count;
    return n;
}

static void check_inside(const sn_region *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].addr >= SN_DRAM_DEFAULT_SIZE || r[i].nbytes > SN_DRAM_DEFAULT_SIZE - r[i].addr)
            abort();
}

static void check_inputs(const sn_manifest *m)
{
    char **paths = NULL;
    size_t n = 0;
    if (sn_manifest_input_paths(m, &paths, &n, NULL) != SN_OK || n != 1 + m->artifact_count + region_count(m))
        abort();
    for (size_t i = 0; i < n; i++) {
        if (paths[i] == NULL)
            abort();
        free(paths[i]);
    }
    free(paths);
}

/* The packed table of m's program passes the firmware's checks, and a host
 * sync step ends round r exactly when a host step follows it. */
static void check_table(const sn_manifest *m, const sn_mesh *mesh)
{
    sn_program p;
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    sn_error e = {0};
    if (sn_program_load_case(&p, sn_fuzz_dir(), &e) != SN_OK) {
        sn_program_free(&p); /* what the failed load made */
        return;
    }
    sn_settle_plan(&p, mesh, m);
    if (sn_program_check_peers(&p, mesh, &e) == SN_OK && sn_pack_program(&p, mesh, &image, &bytes, &e) == SN_OK) {
        sn_table t;
        sn_table_image_fault fault;
        sn_table_fault rule;
        static uint32_t kicked[SN_NODE_COUNT], awaited[SN_NODE_COUNT];
        sn_mesh_map map = {0};
        sn_mesh_map_init(&map, mesh);
        if (sn_table_image_open(image, bytes, &t, &fault) != SN_OK ||
            sn_table_check(&t, &map, kicked, awaited, &rule) != SN_OK)
            abort();
        for (uint32_t r = 0; r < t.round_count; r++) {
            int step_follows = 0;
            for (size_t k = 0; k < m->host_step_count; k++)
                step_follows |= m->host_steps[k].after_round == r;
            const sn_table_round *round = &t.rounds[r];
            int sync = round->step_count > 0 &&
                       t.steps[round->step_first + round->step_count - 1].op == SN_STEP_HOST_SYNC;
            if (sync != step_follows)
                abort();
        }
    }
    free(image);
    sn_program_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sn_manifest m;
    sn_error e = {0};
    sn_status st = sn_fuzz_write_case(data, size, &m, &e);
    if (m.path != NULL)
        check_inputs(&m); /* also after a failed load: the files named so far */
    if (st == SN_OK && sn_manifest_check_dram(&m, SN_DRAM_DEFAULT_SIZE, &e) == SN_OK) {
        check_inside(m.uploads, m.upload_count);
        check_inside(m.expected, m.expected_count);
        for (size_t k = 0; k < m.host_step_count; k++) {
            check_inside(m.host_steps[k].uploads, m.host_steps[k].upload_count);
            check_inside(m.host_steps[k].expected, m.host_steps[k].expected_count);
        }
        if (sn_manifest_read_data(&m, &e) == SN_OK && sn_mesh_check_manifest(&m, &e) == SN_OK) {
            sn_mesh mesh = sn_mesh_from_manifest(&m);
            check_table(&m, &mesh);
        }
    }
    sn_manifest_free(&m);
    return 0;
}
