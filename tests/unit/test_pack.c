/* The packer (host/inputs/pack.c): every case in artifacts/compiler packs and
 * opens back to the same table; each rule of table_check.h is refused by
 * sn_pack_program with its words and the round's artifact file; the mesh
 * comes from the manifest; the file is written atomically. */
#define _POSIX_C_SOURCE 200809L
#include "cmocka_main.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "messages.h"
#include "manifest_mesh.h"
#include "pack.h"
#include "pack_inputs.h"
#include "sysnode/table_image.h"
#include "table_check.h"

#define CASES SN_ARTIFACTS_DIR "/compiler"

static void pack_and_open(const char *dir, sn_program *p, sn_mesh *mesh)
{
    const char *inputs[] = {dir};
    sn_error e = {0};
    uint8_t *img;
    uint64_t n;
    sn_table t;
    sn_table_image_fault f;
    if (sn_pack_load_inputs(inputs, 1, p, mesh, &e) != SN_OK || sn_pack_program(p, mesh, &img, &n, &e) != SN_OK)
        fail_msg("%s: %s", dir, e.msg);
    assert_int_equal(sn_table_image_open(img, n, &t, &f), SN_OK);
    assert_int_equal(sn_table_image_check_payloads(&t, &f), SN_OK);
    assert_int_equal(t.round_count, p->round_count);
    assert_int_equal(t.step_count, p->step_count);
    assert_int_equal(t.payload_count, p->payload_count);
    for (uint32_t i = 0; i < p->round_count; i++) /* all but the payload hash the packer adds */
        assert_memory_equal(&t.rounds[i], &p->rounds[i], offsetof(sn_table_round, payload_hash));
    assert_memory_equal(t.steps, p->steps, p->step_count * sizeof *p->steps);
    assert_memory_equal(t.payloads, p->payloads, p->payload_count * sizeof *p->payloads);
    free(img);
}

static void every_case_packs(void **state)
{
    (void)state;
    DIR *d = opendir(CASES);
    assert_non_null(d);
    unsigned cases = 0;
    for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
        char dir[512];
        struct stat sb;
        snprintf(dir, sizeof dir, "%s/%s", CASES, ent->d_name);
        if (ent->d_name[0] == '.' || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        sn_program p;
        sn_mesh mesh;
        pack_and_open(dir, &p, &mesh);
        if (strcmp(ent->d_name, "matmul_512x256x512") == 0) {
            assert_int_equal(p.round_count, 29);
            assert_int_equal(p.payload_count, 3328);
        }
        sn_program_free(&p);
        cases++;
    }
    closedir(d);
    assert_true(cases >= 7);
}

static void mesh_from_manifest(void **state)
{
    (void)state;
    sn_manifest m;
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&m, CASES "/mm_silu_32x128x64", &e), SN_OK);
    assert_true(m.has_mesh);
    assert_int_equal(sn_mesh_check_manifest(&m, &e), SN_OK);
    sn_mesh mesh = sn_mesh_from_manifest(&m);
    assert_int_equal(mesh.unit_count, 4);
    assert_int_equal(sn_mesh_find(&mesh, 2, 1)->cu_type, SN_CU_TYPE_MG);
    assert_int_equal(sn_mesh_find(&mesh, 1, 2)->cu_type, SN_CU_TYPE_VC);
    /* A coordinate listed as both MG and VC is refused. */
    m.vc[0] = m.mg[0];
    assert_int_equal(sn_mesh_check_manifest(&m, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "mesh lists (1,1) twice"));
    m.has_mesh = false; /* no "mesh": rv64_mesh_2p2 */
    mesh = sn_mesh_from_manifest(&m);
    assert_int_equal(mesh.unit_count, 4);
    assert_int_equal(sn_mesh_find(&mesh, 1, 0)->cu_type, SN_CU_TYPE_VC);
    m.has_mesh = true;
    sn_manifest_free(&m);
}

/* The node map names exactly the mesh's units, by their index + 1, and
 * neither the SysNode nor an empty coordinate: checked against the mesh's
 * own list for all 256 nodes. */
static void mesh_map_names_the_units(void **state)
{
    (void)state;
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    sn_mesh_map map = {0};
    sn_mesh_map_init(&map, &mesh);
    unsigned units = 0;
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 16; x++) {
            const sn_mesh_unit *u = sn_mesh_find(&mesh, x, y);
            int sysnode = x == SN_SYSNODE_X && y == SN_SYSNODE_Y;
            unsigned want = u && !sysnode ? (unsigned)(u - mesh.units) + 1 : 0;
            assert_int_equal(map.slot[SN_NODE_ID(x, y)], want);
            units += want != 0;
        }
    assert_int_equal(units, 4);
    assert_ptr_equal(map.mesh, &mesh);
}

/* A hand-built one-round program the artifact loader would never produce:
 * seed 512; kick (1,0) base 0 n 2; await (1,0) 2 over 2 payloads (up to
 * 129 payloads for the staging-window rule). */
typedef struct {
    sn_program p;
    char *files[1];
    size_t masked[1];
    sn_table_round round;
    sn_table_step steps[3];
    sn_table_row payloads[129];
} fixture;

static void make(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->files[0] = "round0.json";
    f->round = (sn_table_round){.step_count = 3, .payload_count = 2};
    f->steps[0] = (sn_table_step){SN_STEP_SEED, 0, 0, 0, .seed = {512}};
    f->steps[1] = (sn_table_step){SN_STEP_KICK, 1, 0, 0, .kick = {0, 2}};
    f->steps[2] = (sn_table_step){SN_STEP_AWAIT, 1, 0, 0, .await = {2}};
    f->p = (sn_program){.round_count = 1, .files = f->files, .masked = f->masked, .rounds = &f->round,
                        .steps = f->steps, .step_count = 3, .payloads = f->payloads, .payload_count = 2};
}

static void each_rule_refused(void **state)
{
    (void)state;
    static const struct {
        sn_table_rule rule;
        sn_status status;
        const char *words; /* the message after "round0.json: " */
    } R[] = {
        {SN_RULE_STEP_WINDOW, SN_ERR_TABLE_STEP, "round 0 step 0: the round's steps end at 4, limit 3"},
        {SN_RULE_PAYLOAD_WINDOW, SN_ERR_TABLE_SLOT, "round 0 step 0: the round's payloads end at 3, limit 2"},
        {SN_RULE_ROUND_SLOTS, SN_ERR_TABLE_SLOT,
         "round 0 step 0: the round stages more payloads than the staging window: 129, limit 128"},
        {SN_RULE_OPCODE, SN_ERR_TABLE_STEP, "round 0 step 0: unknown step opcode 9"},
        {SN_RULE_RESERVED, SN_ERR_TABLE_STEP, "round 0 step 1: reserved step field is not 0: 1"},
        {SN_RULE_KICK_NODE, SN_ERR_TABLE_NODE, "round 0 step 1: kick to a coordinate with no unit (node (3,3))"},
        {SN_RULE_KICK_EMPTY, SN_ERR_TABLE_SLOT, "round 0 step 1: kick of 0 flits (node (1,0))"},
        {SN_RULE_KICK_WINDOW, SN_ERR_TABLE_SLOT,
         "round 0 step 1: kick passes the staging window: ends at slot 129, limit 128 (node (1,0))"},
        {SN_RULE_KICK_PAYLOADS, SN_ERR_TABLE_SLOT,
         "round 0 step 1: kick passes the round's payloads: ends at slot 3, limit 2 (node (1,0))"},
        {SN_RULE_AWAIT_NODE, SN_ERR_TABLE_NODE, "round 0 step 2: await on a coordinate with no unit (node (0,0))"},
        {SN_RULE_AWAIT_ZERO, SN_ERR_TABLE_STEP, "round 0 step 2: await count of 0 (node (1,0))"},
        {SN_RULE_AWAITS_SHORT, SN_ERR_TABLE_STEP,
         "round 0 (end of round): node awaited for fewer completions than flits kicked to it: awaited 1, kicked 2 "
         "(node (1,0))"},
        {SN_RULE_AWAIT_TOTAL, SN_ERR_TABLE_STEP,
         "round 0 step 2: awaits for the node pass 2^31-1 in the round: this await 2147483648, room 2147483647 "
         "(node (1,0))"},
    };
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        fixture f;
        make(&f);
        switch (R[i].rule) {
        case SN_RULE_STEP_WINDOW: f.round.step_count = 4; break;
        case SN_RULE_PAYLOAD_WINDOW: f.round.payload_count = 3; break;
        case SN_RULE_ROUND_SLOTS: f.round.payload_count = f.p.payload_count = 129; break;
        case SN_RULE_OPCODE: f.steps[0].op = 9; break;
        case SN_RULE_RESERVED: f.steps[1].reserved = 1; break;
        case SN_RULE_KICK_NODE: f.steps[1].x = f.steps[1].y = 3; break;
        case SN_RULE_KICK_EMPTY: f.steps[1].kick.flits = 0; break;
        case SN_RULE_KICK_WINDOW: f.steps[1].kick.first_slot = 127; break;
        case SN_RULE_KICK_PAYLOADS: f.steps[1].kick.first_slot = 1; break;
        case SN_RULE_AWAIT_NODE: f.steps[2].x = 0; break;
        case SN_RULE_AWAIT_ZERO: f.steps[2].await.completions = 0; break;
        case SN_RULE_AWAIT_TOTAL: f.steps[2].await.completions = 0x80000000u; break;
        default: f.steps[2].await.completions = 1; break; /* SN_RULE_AWAITS_SHORT */
        }
        /* The words are table_check's own ... */
        uint32_t kicked[SN_NODE_COUNT] = {0}, awaited[SN_NODE_COUNT] = {0};
        sn_table t = sn_program_table(&f.p);
        sn_table_fault fault;
        char words[256], want[300];
        sn_mesh_map map = {0};
        sn_mesh_map_init(&map, &mesh);
        assert_int_equal(sn_table_check(&t, &map, kicked, awaited, &fault), R[i].status);
        assert_int_equal(fault.rule, R[i].rule);
        assert_string_equal(sn_table_fault_describe(&fault, words, sizeof words), R[i].words);
        /* ... and the packer refuses with them, naming the round's file. */
        sn_error e = {0};
        uint8_t *img = (uint8_t *)&f;
        uint64_t n = 1;
        assert_int_equal(sn_pack_program(&f.p, &mesh, &img, &n, &e), R[i].status);
        assert_null(img);
        assert_int_equal(n, 0);
        snprintf(want, sizeof want, "round0.json: %s", R[i].words);
        assert_string_equal(e.msg, want);
    }
    /* The unbroken fixture packs. */
    fixture f;
    make(&f);
    sn_error e = {0};
    uint8_t *img;
    uint64_t n;
    assert_int_equal(sn_pack_program(&f.p, &mesh, &img, &n, &e), SN_OK);
    assert_int_equal(n, 160 + 2 * 32); /* 1 round of 32 bytes, 3 steps: payloads at 160 */
    free(img);
}

/* The per-node kick tally is 32 bits: kicks could carry it past 2^32 (to
 * 2^32+1, read as 1), and an await of 1 would then cover them. A kick that
 * takes the tally past 2^31-1, the most any awaits can cover, is refused. */
static void kick_tally_cannot_wrap(void **state)
{
    (void)state;
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    sn_mesh_map map = {0};
    sn_mesh_map_init(&map, &mesh);
    const sn_table_round round = {.step_count = 2, .payload_count = 2};
    const sn_table_step kick = {SN_STEP_KICK, 1, 0, 0, .kick = {0, 2}};
    uint32_t kicked[SN_NODE_COUNT] = {0}, awaited[SN_NODE_COUNT] = {0};
    uint32_t node = SN_NODE_ID(1, 0);
    sn_table_fault fault;
    char words[256];
    kicked[node] = 0x7FFFFFFEu;
    assert_int_equal(sn_table_check_step(&kick, &round, &map, kicked, awaited, &fault), SN_ERR_TABLE_STEP);
    assert_int_equal(kicked[node], 0x7FFFFFFEu); /* untouched */
    fault.round = 0;
    fault.step = 1;
    assert_string_equal(sn_table_fault_describe(&fault, words, sizeof words),
                        "round 0 step 1: flits kicked to the node pass 2^31-1 in the round: this kick 2, room 1 "
                        "(node (1,0))");
    /* Up to the limit, a kick is counted. */
    kicked[node] = 0x7FFFFFFDu;
    assert_int_equal(sn_table_check_step(&kick, &round, &map, kicked, awaited, &fault), SN_OK);
    assert_int_equal(kicked[node], 0x7FFFFFFFu);
}

/* A step's x or y of 16 or more names no unit, and the message names it as
 * the step wrote it: SN_NODE_ID keeps 4 bits of each, so (17,0) would read
 * as (1,0), which is the mesh's vector core. */
static void wide_coordinate_named_as_written(void **state)
{
    (void)state;
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    static const struct {
        int step;
        uint8_t x, y;
        const char *words;
    } W[] = {
        {1, 17, 0, "round0.json: round 0 step 1: kick to a coordinate with no unit (node (17,0))"},
        {1, 1, 16, "round0.json: round 0 step 1: kick to a coordinate with no unit (node (1,16))"},
        {2, 255, 255, "round0.json: round 0 step 2: await on a coordinate with no unit (node (255,255))"},
    };
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
        fixture f;
        make(&f);
        f.steps[W[i].step].x = W[i].x;
        f.steps[W[i].step].y = W[i].y;
        sn_error e = {0};
        uint8_t *img = NULL;
        uint64_t n = 0;
        assert_int_equal(sn_pack_program(&f.p, &mesh, &img, &n, &e), SN_ERR_TABLE_NODE);
        assert_null(img);
        assert_string_equal(e.msg, W[i].words);
    }
}

static void inputs_and_file(void **state)
{
    (void)state;
    sn_program p;
    sn_mesh mesh;
    sn_error e = {0};
    const char *mixed[] = {CASES "/vadd128", CASES "/vadd128/artifact.json"};
    assert_int_equal(sn_pack_load_inputs(mixed, 2, &p, &mesh, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "a case directory must be the only input"));
    sn_program_free(&p);
    assert_int_equal(sn_pack_load_inputs(mixed, 0, &p, &mesh, &e), SN_ERR_INPUT);
    sn_program_free(&p);

    /* Artifacts as rounds, default mesh; the written file holds the image
     * and nothing is left beside it. */
    const char *files[] = {CASES "/vadd128/artifact.json", CASES "/mm4x32/artifact.json"};
    uint8_t *img;
    uint64_t n;
    assert_int_equal(sn_pack_load_inputs(files, 2, &p, &mesh, &e), SN_OK);
    assert_int_equal(sn_pack_program(&p, &mesh, &img, &n, &e), SN_OK);
    char dir[] = "/tmp/sn_test_pack_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/table.bin", dir);
    assert_int_equal(sn_pack_write_file(path, img, n, &e), SN_OK);
    assert_int_equal(sn_pack_write_file(path, img, n, &e), SN_OK); /* over an existing file */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *back = malloc(n + 1);
    assert_int_equal(fread(back, 1, n + 1, f), n);
    fclose(f);
    assert_memory_equal(back, img, n);
    DIR *d = opendir(dir);
    unsigned entries = 0;
    for (struct dirent *ent; (ent = readdir(d)) != NULL;)
        entries += ent->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    /* An unwritable place is an I/O error naming the file. */
    char bad[96];
    snprintf(bad, sizeof bad, "%s/missing/table.bin", dir);
    assert_int_equal(sn_pack_write_file(bad, img, n, &e), SN_ERR_IO);
    assert_non_null(strstr(e.msg, "missing/table.bin"));
    unlink(path);
    rmdir(dir);
    free(back);
    free(img);
    sn_program_free(&p);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(every_case_packs), cmocka_unit_test(mesh_from_manifest),
             cmocka_unit_test(mesh_map_names_the_units),
             cmocka_unit_test(each_rule_refused), cmocka_unit_test(kick_tally_cannot_wrap),
             cmocka_unit_test(wide_coordinate_named_as_written),
             cmocka_unit_test(inputs_and_file))
