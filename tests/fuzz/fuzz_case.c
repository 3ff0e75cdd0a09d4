/* libFuzzer target: the path a case takes from JSON to a packed table
 * (manifest -> regions -> artifacts -> program -> table rules -> pack ->
 * the table image check). The input is a case as fuzz_dir.h lays it out:
 * manifest.json, NUL, the text of every artifact, NUL, the bytes of every
 * region. Any crash, sanitizer report or a
 * packed table that fails its own image check or rules is a bug. Seeds:
 * make_seeds.c, from the real cases. Run through scripts/fuzz. */
#include <stdint.h>
#include <stdlib.h>

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

/* The rest of the path for the case whose manifest sn_manifest_load left
 * as m with status st. */
static void pack_and_verify(sn_manifest *m, sn_status st)
{
    sn_program p;
    sn_error e = {0};
    uint8_t *image = NULL;
    uint64_t bytes = 0;
    if (st == SN_OK)
        st = sn_manifest_check_dram(m, SN_DRAM_DEFAULT_SIZE, &e);
    if (st == SN_OK)
        st = sn_manifest_read_data(m, &e);
    if (st == SN_OK)
        st = sn_mesh_check_manifest(m, &e);
    sn_mesh mesh = sn_mesh_from_manifest(m);
    int loaded = st == SN_OK && sn_program_load_case(&p, sn_fuzz_dir(), &e) == SN_OK;
    if (loaded)
        sn_settle_plan(&p, &mesh, m); /* as sysnode run: the proof and the peer check read rows before the rules */
    if (loaded && sn_program_check_peers(&p, &mesh, &e) == SN_OK &&
        sn_pack_program(&p, &mesh, &image, &bytes, &e) == SN_OK) {
        /* What the packer writes must pass the firmware's own checks. */
        sn_table t;
        sn_table_image_fault fault;
        sn_table_fault rule;
        static uint32_t kicked[SN_NODE_COUNT], awaited[SN_NODE_COUNT];
        sn_mesh_map map = {0};
        sn_mesh_map_init(&map, &mesh);
        if (sn_table_image_open(image, bytes, &t, &fault) != SN_OK ||
            sn_table_check(&t, &map, kicked, awaited, &rule) != SN_OK)
            abort();
    }
    if (st == SN_OK)
        sn_program_free(&p);
    free(image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sn_manifest m;
    sn_error e = {0};
    pack_and_verify(&m, sn_fuzz_write_case(data, size, &m, &e));
    sn_manifest_free(&m);
    return 0;
}
