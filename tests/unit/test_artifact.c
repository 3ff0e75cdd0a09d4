/* Artifacts -> rounds -> programs, on the real compiler cases and on small
 * hand-written bad ones. Expected payload words are built from the field
 * layouts of sysnode-facts §3.2 (vector core) and §3.3 (matmul cluster) and
 * each case's disasm.txt, never from the code under test. */
#include "cmocka_main.h"
#include "tmp_folder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact.h"
#include "pack.h"

#define CASE(name) SN_ARTIFACTS_DIR "/compiler/" name

/* Vector-core CU_INST words as ARG3 (sysnode-facts §3.2). */
#define VC_IMEM(addr) (1ull << 60 | (uint64_t)(addr) << 51)
#define VC_DESC(ad, fld, value) (2ull << 60 | (uint64_t)(ad) << 57 | (uint64_t)(fld) << 54 | (uint64_t)(value) << 20)
#define VC_RUN(pc) (3ull << 60 | (uint64_t)(pc) << 51)

static void expect_row(const sn_table_row *p, uint64_t arg3, uint64_t arg2, uint64_t arg1,
                       uint64_t arg0)
{
    assert_int_equal(p->arg3, arg3);
    assert_int_equal(p->arg2, arg2);
    assert_int_equal(p->arg1, arg1);
    assert_int_equal(p->arg0, arg0);
}

static void expect_step(const sn_table_step *s, uint8_t op, uint8_t x, uint8_t y, uint32_t a,
                        uint32_t b)
{
    assert_int_equal(s->op, op);
    assert_int_equal(s->x, x);
    assert_int_equal(s->y, y);
    assert_int_equal(s->reserved, 0);
    assert_int_equal(s->a, a);
    assert_int_equal(s->b, b);
}

/* The 26 vadd payloads (sysnode-facts §3.2 table, vadd128/disasm.txt), with
 * the three DRAM bases of descriptors A0, A1 and A5 given. */
static void expect_vadd_payloads(const sn_table_row *p, uint64_t a0, uint64_t a1, uint64_t a5)
{
    static const uint32_t words[13] = {0xd0000000, 0x80,       0xc0000000, 0xc8000000, 0xe8000000,
                                       0xe8200008, 0xe0000000, 0xa1400000, 0xa1620000, 0x180e0020,
                                       0xa98e0000, 0xf0a00010, 0xf8000000};
    for (unsigned i = 0; i < 13; i++)
        expect_row(&p[i], VC_IMEM(i), 0, 0, words[i]);
    expect_row(&p[13], VC_DESC(2, 0, 0), 0, 0, 0);
    expect_row(&p[14], VC_DESC(2, 1, 0x10008), 0, 0, 0);
    expect_row(&p[15], VC_DESC(3, 0, 8), 0, 0, 0);
    expect_row(&p[16], VC_DESC(3, 1, 0x10008), 0, 0, 0);
    expect_row(&p[17], VC_DESC(4, 0, 0x10), 0, 0, 0);
    expect_row(&p[18], VC_DESC(4, 1, 0x10008), 0, 0, 0);
    expect_row(&p[19], VC_DESC(0, 1, 0x200008), 0, 0, 0);
    expect_row(&p[20], VC_DESC(1, 1, 0x200008), 0, 0, 0);
    expect_row(&p[21], VC_DESC(5, 1, 0x200008), 0, 0, 0);
    expect_row(&p[22], VC_DESC(0, 0, a0), 0, 0, 0);
    expect_row(&p[23], VC_DESC(1, 0, a1), 0, 0, 0);
    expect_row(&p[24], VC_DESC(5, 0, a5), 0, 0, 0);
    expect_row(&p[25], VC_RUN(0), 0, 0, 0);
}

static void vadd128(void **state)
{
    (void)state;
    sn_round r;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, CASE("vadd128/artifact.json"), &e), SN_OK);
    assert_int_equal(r.payload_count, 26);
    assert_int_equal(r.masked_count, 0);
    assert_int_equal(r.step_count, 3);
    expect_step(&r.steps[0], SN_STEP_SEED, 0, 0, 512, 0);
    expect_step(&r.steps[1], SN_STEP_KICK, 1, 0, 0, 26);
    expect_step(&r.steps[2], SN_STEP_AWAIT, 1, 0, 26, 0);
    /* Payload 0: ARG3 = 1 << 60, ARG0 = 0xd0000000; payload 24: A5 base 0x3000. */
    expect_row(&r.payloads[0], 1ull << 60, 0, 0, 0xd0000000);
    expect_row(&r.payloads[24], 0x2a00000300000000ull, 0, 0, 0);
    expect_vadd_payloads(r.payloads, 0x1000, 0x2000, 0x3000);
    sn_round_free(&r);
}

static void vadd128_api_masked(void **state)
{
    (void)state;
    sn_round r;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, CASE("vadd128_api/artifact.json"), &e), SN_OK);
    assert_int_equal(r.payload_count, 26);
    assert_int_equal(r.masked_count, 26); /* every flit carries header 0x5400 */
    /* The low 256 bits decode as vadd128_api/disasm.txt says. */
    expect_vadd_payloads(r.payloads, 0x20000, 0x20800, 0x21000);
    sn_round_free(&r);
}

static void mm4x32_cluster_fields(void **state)
{
    (void)state;
    sn_round r;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, CASE("mm4x32/artifact.json"), &e), SN_OK);
    assert_int_equal(r.payload_count, 4);
    expect_step(&r.steps[1], SN_STEP_KICK, 1, 1, 0, 4);
    /* sysnode-facts §3.3: op ARG3[63:60], addr ARG3[59:26], n ARG3[25:10],
     * sel ARG3[9]; nk ARG2[55:48], anchor ARG2[47:40]. mm4x32/disasm.txt:
     * FILL 0x1000 n 1 sel 0; FILL 0x2000 n 1 sel 1; GEMM; DRAIN 0x3000 n 1. */
    static const struct {
        uint64_t op, addr, n, sel;
    } want[4] = {{1, 0x1000, 1, 0}, {1, 0x2000, 1, 1}, {2, 0, 0, 0}, {3, 0x3000, 1, 0}};
    for (int i = 0; i < 4; i++) {
        uint64_t a3 = r.payloads[i].arg3, a2 = r.payloads[i].arg2;
        assert_int_equal(a3 >> 60, want[i].op);
        assert_int_equal(a3 >> 26 & ((1ull << 34) - 1), want[i].addr);
        assert_int_equal(a3 >> 10 & 0xffff, want[i].n);
        assert_int_equal(a3 >> 9 & 1, want[i].sel);
        assert_int_equal(a2 >> 48 & 0xff, 1);    /* nk */
        assert_int_equal(a2 >> 40 & 0xff, 0x28); /* anchor = 2 * SBIAS */
    }
    sn_round_free(&r);
}

static void matmul_512_case(void **state)
{
    (void)state;
    sn_program p;
    sn_error e = {0};
    assert_int_equal(sn_program_load_case(&p, CASE("matmul_512x256x512"), &e), SN_OK);
    assert_int_equal(p.round_count, 29);
    assert_int_equal(p.payload_count, 3328);
    assert_int_equal(p.masked_total, 0);
    /* Rounds 0..27 hold 117 payloads and 12 steps, round 28 holds 52 and 7
     * (artifact_*.json); bases restart per round. */
    for (size_t i = 0; i < 29; i++) {
        assert_int_equal(p.rounds[i].payload_first, 117 * i);
        assert_int_equal(p.rounds[i].payload_count, i < 28 ? 117 : 52);
        assert_int_equal(p.rounds[i].step_first, 12 * i);
        assert_int_equal(p.rounds[i].step_count, i < 28 ? 12 : 7);
    }
    assert_int_equal(p.step_count, 28 * 12 + 7);
    /* artifact_000 step 3: kick (1,1) base 26 n 13. */
    expect_step(&p.steps[3], SN_STEP_KICK, 1, 1, 26, 13);
    assert_non_null(strstr(p.files[28], "matmul_512x256x512/artifact_028.json"));
    sn_table t = sn_program_table(&p);
    assert_int_equal(t.round_count, 29);
    assert_int_equal(t.payload_count, 3328);
    assert_ptr_equal(t.payloads, p.payloads);
    sn_program_free(&p);
}

static void mm_silu_case(void **state)
{
    (void)state;
    sn_program p;
    sn_error e = {0};
    assert_int_equal(sn_program_load_case(&p, CASE("mm_silu_32x128x64"), &e), SN_OK);
    assert_int_equal(p.round_count, 3);
    assert_int_equal(p.payload_count, 156);
    assert_int_equal(p.masked_total, 142);
    assert_int_equal(p.masked[0], 0);
    assert_int_equal(p.masked[1], 71);
    /* Round 0 awaits the vector cores' peer acks: await (1,0) 8. */
    expect_step(&p.steps[4], SN_STEP_AWAIT, 1, 0, 8, 0);
    sn_program_free(&p);
}

static void two_files(void **state)
{
    (void)state;
    const char *files[] = {CASE("vadd128/artifact.json"), CASE("mm4x32/artifact.json")};
    sn_program p;
    sn_error e = {0};
    assert_int_equal(sn_program_load(&p, files, 2, &e), SN_OK);
    assert_int_equal(p.round_count, 2);
    assert_int_equal(p.rounds[1].payload_first, 26);
    assert_int_equal(p.rounds[1].step_first, 3);
    assert_int_equal(p.payload_count, 30);
    expect_step(&p.steps[4], SN_STEP_KICK, 1, 1, 0, 4);
    sn_program_free(&p);

    assert_int_equal(sn_program_load(&p, files, 0, &e), SN_ERR_INPUT);
    sn_program_free(&p);
}

/* ---- bad artifacts ---- */

/* Writes an artifact whose flits are `nflits` small integers and whose steps
 * are `steps` (JSON text); returns its path (static buffer). */
static const char *write_artifact(size_t nflits, const char *steps)
{
    static char path[64];
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"machine\": \"t\", \"flits\": [", f);
    for (size_t i = 0; i < nflits; i++)
        fprintf(f, "%s%zu", i ? ", " : "", i + 1);
    fprintf(f, "], \"steps\": %s, \"meta\": {}}", steps);
    fclose(f);
    return path;
}

static void expect_fail(const char *path, sn_status code, const char *msg)
{
    sn_round r;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, path, &e), code);
    sn_round_free(&r);
    if (strncmp(e.msg, path, strlen(path)) != 0 || strstr(e.msg, msg) == NULL)
        fail_msg("got \"%s\", wanted \"%s\"", e.msg, msg);
}

/* The artifact at path parses as a round (sn_round_load), and the loader
 * of programs refuses it through the one judge of the table rules
 * (sn_program_check, common/table_check.c) with code and the firmware's own
 * words msg, naming the file: no program leaves the loader unjudged. */
static void expect_rule(const char *path, sn_status code, const char *msg)
{
    sn_round r;
    sn_program p;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, path, &e), SN_OK);
    sn_round_free(&r);
    assert_int_equal(sn_program_load(&p, &path, 1, &e), code);
    sn_program_free(&p);
    if (strncmp(e.msg, path, strlen(path)) != 0 || strstr(e.msg, msg) == NULL)
        fail_msg("got \"%s\", wanted \"%s\"", e.msg, msg);
}

static void kick_past_window(void **state)
{
    (void)state;
    expect_rule(write_artifact(26, "[[\"seed\", 512], [\"kick\", 1, 0, 120, 26], [\"await\", 1, 0, 26]]"),
                SN_ERR_TABLE_SLOT, ": round 0 step 1: kick passes the staging window: ends at slot 146, limit 128 (node (1,0))");
}

/* The host judged these rules with its own words and codes before; the
 * firmware's are the only ones now (a kick of 0 flits is 0x12 on both). */
static void bad_steps(void **state)
{
    (void)state;
    expect_rule(write_artifact(26, "[[\"kick\", 1, 0, 20, 10]]"), SN_ERR_TABLE_SLOT,
                ": round 0 step 0: kick passes the round's payloads: ends at slot 30, limit 26 (node (1,0))");
    expect_rule(write_artifact(26, "[[\"kick\", 1, 0, 0, 0]]"), SN_ERR_TABLE_SLOT,
                ": round 0 step 0: kick of 0 flits (node (1,0))");
    expect_rule(write_artifact(26, "[[\"seed\", 1], [\"await\", 1, 0, 0]]"), SN_ERR_TABLE_STEP,
                ": round 0 step 1: await count of 0 (node (1,0))");
    expect_rule(write_artifact(129, "[]"), SN_ERR_TABLE_SLOT,
                ": round 0 step 0: the round stages more payloads than the staging window: 129, limit 128");
    expect_fail(write_artifact(26, "[[\"kick\", 16, 0, 0, 1]]"), SN_ERR_TABLE_NODE,
                "step 0 (kick) field x: coordinate 16 outside 0..15");
    expect_fail(write_artifact(26, "[[\"barrier\"], [\"await\", 0, 99, 1]]"), SN_ERR_TABLE_NODE,
                "step 1 (await) field y: coordinate 99 outside 0..15");
    expect_fail(write_artifact(1, "[[\"seed\", 1], [\"wait\", 1, 0, 1]]"), SN_ERR_TABLE_STEP,
                "step 1: unknown tag \"wait\"");
    expect_fail(write_artifact(1, "[[\"kick\", 1, 0, 0]]"), SN_ERR_TABLE_STEP,
                "step 0: kick takes 4 fields, found 3");
    expect_fail(write_artifact(1, "[[\"barrier\", 0]]"), SN_ERR_TABLE_STEP,
                "step 0: barrier takes 0 fields, found 1");
    expect_fail(write_artifact(1, "[\"seed\"]"), SN_ERR_TABLE_STEP,
                "step 0 must be an array starting with a tag string");
    expect_fail(write_artifact(1, "[[512, \"seed\"]]"), SN_ERR_TABLE_STEP,
                "step 0 must be an array starting with a tag string");
    /* {"machine": "t", "flits": [1], "steps": [["kick", 1, 0, -1, 1]]...:
     * the -1 is at byte 56. */
    expect_fail(write_artifact(1, "[[\"kick\", 1, 0, -1, 1]]"), SN_ERR_TABLE_STEP,
                ":1:57 (byte 56): step 0 (kick) field base must be an integer in 0..4294967295, found -1");
    expect_fail(write_artifact(1, "[[\"seed\", 4294967296]]"), SN_ERR_TABLE_STEP,
                "step 0 (seed) field n must be an integer in 0..4294967295, found 4294967296");
    expect_fail(write_artifact(1, "[[\"seed\", \"512\"]]"), SN_ERR_TABLE_STEP,
                "step 0 (seed) field n must be an integer");
}

/* Writes `text` as the artifact file and returns its path. */
static const char *write_text(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "%s/raw.json", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void bad_flits_and_shape(void **state)
{
    (void)state;
    /* {"flits": [ is 11 bytes: the first flit starts at byte 11. */
    expect_fail(write_text("{\"flits\": [01], \"steps\": []}"), SN_ERR_INPUT,
                ":1:12 (byte 11): invalid number \"01\"");
    expect_fail(write_text("{\"flits\": [-1], \"steps\": []}"), SN_ERR_INPUT,
                ":1:12 (byte 11): flit 0: \"-1\" is signed");
    expect_fail(write_text("{\"flits\": [1, 1.5], \"steps\": []}"), SN_ERR_INPUT,
                ":1:15 (byte 14): flit 1: \"1.5\" is not an integer");
    expect_fail(write_text("{\"flits\": [1e3], \"steps\": []}"), SN_ERR_INPUT,
                "(byte 11): flit 0: \"1e3\" is not an integer");
    expect_fail(write_text("{\"flits\": [12a4], \"steps\": []}"), SN_ERR_INPUT,
                "(byte 11): invalid number \"12a4\"");
    expect_fail(write_text("{\"flits\": [\"0x10\"], \"steps\": []}"), SN_ERR_INPUT,
                "(byte 11): flit 0 must be a number, found a string");
    /* 2^288 */
    expect_fail(write_text("{\"flits\": [497323236409786642155382248146820840100456150797347717440463976893159497012533375533056], \"steps\": []}"),
                SN_ERR_INPUT, "(byte 11): flit 0: \"4973");
    expect_fail(write_text("{\"flits\": [1,], \"steps\": []}"), SN_ERR_INPUT,
                "(byte 13): expected a value, found ']'");
    expect_fail(write_text("{\"flits\": [1], \"steps\": [[\"seed\", 1]"), SN_ERR_INPUT,
                "unexpected end of input (truncated document)");
    expect_fail(write_text("{\"flits\": [], \"steps\": [], \"buffers\": []}"), SN_ERR_INPUT,
                "(byte 27): unknown member \"buffers\"");
    expect_fail(write_text("{\"flits\": []}"), SN_ERR_INPUT, "(byte 0): missing member \"steps\"");
    expect_fail(write_text("{\"flits\": {}, \"steps\": []}"), SN_ERR_INPUT,
                "\"flits\" must be an array, found an object");
    expect_fail(write_text("[]"), SN_ERR_INPUT, "an artifact must be an object, found an array");

    /* An empty round is valid: nothing to stage, nothing to do. */
    sn_round r;
    sn_error e = {0};
    assert_int_equal(sn_round_load(&r, write_text("{\"flits\": [], \"steps\": []}"), &e), SN_OK);
    assert_int_equal(r.payload_count, 0);
    assert_int_equal(r.step_count, 0);
    sn_round_free(&r);

    assert_int_equal(sn_round_load(&r, "/nonexistent/artifact.json", &e), SN_ERR_IO);
    sn_round_free(&r);
}

static void program_names_failing_round(void **state)
{
    (void)state;
    const char *bad = write_artifact(2, "[[\"kick\", 1, 0, 0, 3]]");
    const char *files[] = {CASE("vadd128/artifact.json"), bad};
    sn_program p;
    sn_error e = {0};
    assert_int_equal(sn_program_load(&p, files, 2, &e), SN_ERR_TABLE_SLOT);
    assert_non_null(strstr(e.msg, bad));
    assert_non_null(strstr(e.msg, ": round 1 step 0: kick passes the round's payloads"));
    sn_program_free(&p);
}

SN_TEST_MAIN(tmp_folder_make, tmp_folder_remove, cmocka_unit_test(vadd128), cmocka_unit_test(vadd128_api_masked),
             cmocka_unit_test(mm4x32_cluster_fields), cmocka_unit_test(matmul_512_case),
             cmocka_unit_test(mm_silu_case), cmocka_unit_test(two_files), cmocka_unit_test(kick_past_window),
             cmocka_unit_test(bad_steps), cmocka_unit_test(bad_flits_and_shape),
             cmocka_unit_test(program_names_failing_round))
