/* Case manifests: every real case in artifacts/compiler/ loads with its data
 * files, vadd128's values match its manifest and the vadd facts
 * (sysnode-facts §3.2, §9), and bad manifests are refused by name. */
#include "cmocka_main.h"
#include "tmp_folder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact.h"
#include "manifest.h"

#define CASES SN_ARTIFACTS_DIR "/compiler/"

static void every_case_loads(void **state)
{
    (void)state;
    /* From artifacts/compiler/index.json: name, rounds. */
    static const struct {
        const char *name;
        size_t rounds;
    } cases[] = {
        {"matmul_512x256x512", 29}, {"matmul_64x128x64", 1}, {"matmul_8x64x8", 1},
        {"mm4x32", 1},              {"mm_silu_32x128x64", 3}, {"vadd128", 1},
        {"vadd128_api", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, CASES "%s", cases[i].name);
        sn_manifest m;
        sn_error e = {0};
        if (sn_manifest_load(&m, dir, &e) != SN_OK || sn_manifest_read_data(&m, &e) != SN_OK)
            fail_msg("%s", e.msg);
        assert_string_equal(m.name, cases[i].name);
        assert_int_equal(m.artifact_count, cases[i].rounds);
        assert_int_equal(m.declared_rounds, (int64_t)cases[i].rounds);
        assert_int_equal(m.upload_count, 2);
        assert_int_equal(m.expected_count, 1);
        assert_true(m.has_mesh);
        assert_non_null(m.uploads[1].data);
        assert_non_null(m.expected[0].data);
        sn_manifest_free(&m);
    }
}

static void vadd128_values(void **state)
{
    (void)state;
    sn_manifest m;
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&m, CASES "vadd128", &e), SN_OK);
    assert_string_equal(m.artifacts[0], "artifact.json");
    assert_string_equal(m.uploads[0].file, "upload_00_00001000.bin");
    assert_int_equal(m.uploads[0].addr, 0x1000);
    assert_int_equal(m.uploads[0].nbytes, 256);
    assert_string_equal(m.uploads[1].file, "upload_01_00002000.bin");
    assert_int_equal(m.uploads[1].addr, 0x2000);
    assert_string_equal(m.expected[0].file, "expected_output.bin");
    assert_int_equal(m.expected[0].addr, 0x3000);
    assert_int_equal(m.expected[0].nbytes, 256);
    assert_null(m.uploads[0].data); /* read only on request */
    /* rv64_mesh_2p2 (DESIGN.md §6): mat0 (1,1), mat1 (2,1), vec0 (1,0), vec1 (1,2). */
    assert_int_equal(m.mg_count, 2);
    assert_int_equal(m.vc_count, 2);
    assert_int_equal(m.mg[1].x, 2);
    assert_int_equal(m.mg[1].y, 1);
    assert_int_equal(m.vc[1].x, 1);
    assert_int_equal(m.vc[1].y, 2);
    assert_int_equal(m.declared_flits, 26);
    assert_int_equal(m.declared_wide_flits, 0);

    assert_int_equal(sn_manifest_read_data(&m, &e), SN_OK);
    /* a(i) = i+1, b(i) = 2(i+1) in FP16 (sysnode-facts §9): a[0] = 1.0 =
     * 0x3C00, b[0] = 2.0 = 0x4000; sums 4200 4600 4880 4A00 (§3.2). */
    const unsigned char *a = m.uploads[0].data, *b = m.uploads[1].data, *c = m.expected[0].data;
    assert_int_equal(a[0] | a[1] << 8, 0x3c00);
    assert_int_equal(b[0] | b[1] << 8, 0x4000);
    static const unsigned sums[4] = {0x4200, 0x4600, 0x4880, 0x4a00};
    for (int i = 0; i < 4; i++)
        assert_int_equal(c[2 * i] | c[2 * i + 1] << 8, sums[i]);
    sn_manifest_free(&m);
}

/* ---- hand-written bad cases ---- */

static void write_file(const char *name, const void *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(data, 1, n, f);
    fclose(f);
}

/* manifest.json in tmpdir, printf-style; the text must fit in 1 KB. */
__attribute__((format(printf, 1, 2))) static void write_manifest_json(const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof text);
    write_file("manifest.json", text, (size_t)n);
}

/* A valid manifest with `uploads` and `expected` spliced in as JSON text. */
static void write_manifest(const char *uploads, const char *expected)
{
    write_manifest_json("{\"name\": \"t\", \"artifacts_in_order\": [\"a.json\"],\n"
                        " \"uploads_before_round0\": %s,\n"
                        " \"expected_outputs_after_last_round\": %s}\n",
                        uploads, expected);
}

/* A manifest whose artifacts_in_order holds `artifacts` (JSON text), with
 * one expected output and `extra` (members, each after a comma) spliced in. */
static void write_artifacts(const char *artifacts, const char *extra)
{
    write_manifest_json("{\"name\": \"t\", \"artifacts_in_order\": [%s], \"uploads_before_round0\": [],"
                        " \"expected_outputs_after_last_round\": [{\"file\": \"o\", \"addr\": 0, \"nbytes\": 1}]%s}",
                        artifacts, extra);
}

/* write_manifest with no uploads and one expected output: the 32 bytes of
 * out.bin at 0, with "sha256" the text `digest`. */
static void write_out_sha256(const char *digest)
{
    char expected[256];
    snprintf(expected, sizeof expected, "[{\"file\": \"out.bin\", \"addr\": 0, \"nbytes\": 32, \"sha256\": \"%s\"}]",
             digest);
    write_manifest("[]", expected);
}

static void expect_fail(const char *msg)
{
    sn_manifest m;
    sn_error e = {0};
    sn_status st = sn_manifest_load(&m, tmpdir, &e);
    if (st == SN_OK)
        st = sn_manifest_read_data(&m, &e);
    sn_manifest_free(&m);
    assert_int_not_equal(st, SN_OK);
    if (strstr(e.msg, msg) == NULL)
        fail_msg("got \"%s\", wanted \"%s\"", e.msg, msg);
}

static void size_mismatch(void **state)
{
    (void)state;
    unsigned char bytes[64] = {0};
    write_file("in.bin", bytes, 16);
    write_file("out.bin", bytes, 31);
    write_manifest("[{\"file\": \"in.bin\", \"addr\": 4096, \"nbytes\": 16}]",
                   "[{\"file\": \"out.bin\", \"addr\": 8192, \"nbytes\": 32}]");
    char want[256];
    snprintf(want, sizeof want, "%s/out.bin: 31 bytes, but %s/manifest.json says nbytes 32", tmpdir,
             tmpdir);
    expect_fail(want);

    write_file("out.bin", bytes, 32);
    sn_manifest m;
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&m, tmpdir, &e), SN_OK);
    assert_int_equal(sn_manifest_read_data(&m, &e), SN_OK);
    assert_false(m.has_mesh);
    assert_int_equal(m.declared_rounds, -1);
    sn_manifest_free(&m);

    write_manifest("[{\"file\": \"missing.bin\", \"addr\": 0, \"nbytes\": 1}]",
                   "[{\"file\": \"out.bin\", \"addr\": 8192, \"nbytes\": 32}]");
    expect_fail("missing.bin: cannot open");
}

static void bad_members(void **state)
{
    (void)state;
    const char *out = "[{\"file\": \"out.bin\", \"addr\": 8192, \"nbytes\": 32}]";
    write_manifest("[{\"file\": \"../in.bin\", \"addr\": 0, \"nbytes\": 1}]", out);
    expect_fail("file \"../in.bin\" must be a plain file name in the case directory");
    write_manifest("[{\"file\": \"in.bin\", \"nbytes\": 1}]", out);
    expect_fail("missing member \"addr\"");
    write_manifest("[{\"file\": \"in.bin\", \"addr\": -4096, \"nbytes\": 1}]", out);
    expect_fail("addr must be an integer in 0..1099511627775, found -4096");
    write_manifest("[{\"file\": \"in.bin\", \"addr\": 0, \"nbytes\": 0}]", out);
    expect_fail("nbytes (up to the 40-bit limit) must be an integer in 1..");
    write_manifest("[]", "[]");
    expect_fail("\"expected_outputs_after_last_round\" is empty");
    write_manifest("[]", "{\"file\": \"out.bin\", \"addr\": 0, \"nbytes\": 1}");
    expect_fail("\"expected_outputs_after_last_round\" must be an array, found an object");
    /* Line 3 is " \"expected_outputs_after_last_round\": [{,}]}": the stray
     * ',' is at column 41. */
    write_manifest("[]", "[{,}]");
    expect_fail("manifest.json:3:41 (byte");

    static const char no_name[] = "{\"artifacts_in_order\": [\"a.json\"], \"uploads_before_round0\": [],"
                                  " \"expected_outputs_after_last_round\": []}";
    write_file("manifest.json", no_name, sizeof no_name - 1);
    expect_fail("manifest.json:1:1 (byte 0): missing member \"name\"");

    write_artifacts("\"a.json\"", ", \"mesh\": {\"MG\": [[1, 16]], \"VC\": []}");
    expect_fail("mesh y must be an integer in 0..15, found 16");

    write_artifacts("", "");
    expect_fail("\"artifacts_in_order\" is empty");

    sn_manifest m;
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&m, "/nonexistent/case", &e), SN_ERR_IO);
    assert_non_null(strstr(e.msg, "/nonexistent/case/manifest.json: cannot open"));
    sn_manifest_free(&m);
    /* An empty name is not the root directory's /manifest.json. */
    assert_int_equal(sn_manifest_load(&m, "", &e), SN_ERR_IO);
    assert_string_equal(e.msg, "the case directory's name is empty");
    sn_manifest_free(&m);
    sn_program p;
    assert_int_equal(sn_program_load_case(&p, "", &e), SN_ERR_IO);
    assert_string_equal(e.msg, "the case directory's name is empty");
    sn_program_free(&p);
}

/* A two-round manifest with `steps` as its "host_steps" (FORMAT.md §9). */
static void write_stepped(const char *steps, const char *expected)
{
    write_manifest_json("{\"name\": \"t\", \"artifacts_in_order\": [\"a.json\", \"b.json\", \"a.json\"],\n"
                        " \"uploads_before_round0\": [],\n"
                        " \"expected_outputs_after_last_round\": %s,\n \"host_steps\": %s}\n",
                        expected, steps);
}

/* "sha256": 64 hex digits of either case, checked against the file read;
 * anything else refused. An artifact name is labelled by its index. */
static void digests_and_names(void **state)
{
    (void)state;
    unsigned char zeros[32] = {0};
    write_file("out.bin", zeros, sizeof zeros);
    static const char *const good[] = {"66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
                                       "66687AADF862BD776C8FC18B8E9F8E20089714856EE233B3902A591D0D5F2925"};
    for (int i = 0; i < 2; i++) {
        write_out_sha256(good[i]);
        sn_manifest m;
        sn_error e = {0};
        assert_int_equal(sn_manifest_load(&m, tmpdir, &e), SN_OK);
        assert_true(m.expected[0].has_sha256);
        assert_int_equal(m.expected[0].sha256[0], 0x66);
        assert_int_equal(m.expected[0].sha256[31], 0x25);
        assert_int_equal(sn_manifest_read_data(&m, &e), SN_OK);
        sn_manifest_free(&m);
    }
    static const char *const bad[] = {"66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f292",
                                      "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f29250",
                                      "g6687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
                                      "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f292 ",
                                      "-6687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"};
    for (int i = 0; i < 5; i++) {
        write_out_sha256(bad[i]);
        expect_fail("\"sha256\" is not 64 hex digits");
    }
    write_out_sha256("76687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
    expect_fail("out.bin: SHA-256 66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925, but");

    write_artifacts("\"a.json\", \"sub/b.json\"", "");
    expect_fail("artifact 1 \"sub/b.json\" must be a plain file name in the case directory");
    write_artifacts("\"a.json\", \"b.json\", \"c\\u001b.json\"", "");
    expect_fail("artifact 2 holds control character 0x1b at byte 1");
}

static void host_steps(void **state)
{
    (void)state;
    unsigned char bytes[32] = {1, 2, 3};
    write_file("in.bin", bytes, 16);
    write_file("out.bin", bytes, 32);
    const char *out = "[{\"file\": \"out.bin\", \"addr\": 8192, \"nbytes\": 32}]";
    /* Only a host step compares: the last round's list may be empty. */
    write_stepped("[{\"after_round\": 0, \"expected_outputs\": [{\"file\": \"out.bin\", \"addr\": 8192, \"nbytes\": 32}]},"
                  " {\"after_round\": 1, \"uploads\": [{\"file\": \"in.bin\", \"addr\": 8192, \"nbytes\": 16}]}]",
                  "[]");
    sn_manifest m;
    sn_error e = {0};
    assert_int_equal(sn_manifest_load(&m, tmpdir, &e), SN_OK);
    assert_int_equal(sn_manifest_read_data(&m, &e), SN_OK);
    assert_int_equal(m.host_step_count, 2);
    assert_int_equal(m.host_steps[0].after_round, 0);
    assert_int_equal(m.host_steps[0].expected_count, 1);
    assert_int_equal(m.host_steps[0].upload_count, 0);
    assert_int_equal(m.host_steps[0].expected[0].data[2], 3);
    assert_int_equal(m.host_steps[1].after_round, 1);
    assert_int_equal(m.host_steps[1].uploads[0].addr, 8192);
    assert_int_equal(m.host_steps[1].uploads[0].nbytes, 16);
    sn_manifest_free(&m);

    write_stepped("[{\"after_round\": 2, \"uploads\": []}]", out);
    expect_fail("\"after_round\" (after the previous step, before the last round) must be an integer in 0..1, found 2");
    write_stepped("[{\"after_round\": 1, \"uploads\": [{\"file\": \"in.bin\", \"addr\": 0, \"nbytes\": 16}]},"
                  " {\"after_round\": 1, \"uploads\": [{\"file\": \"in.bin\", \"addr\": 0, \"nbytes\": 16}]}]",
                  out);
    expect_fail("must be an integer in 2..1, found 1");
    write_stepped("[{\"after_round\": 0}]", out);
    expect_fail("host_steps[0] neither compares nor uploads");
    write_stepped("[{\"after_round\": 0, \"uploads\": [{\"file\": \"in.bin\", \"addr\": 0, \"nbytes\": 15}]}]", out);
    expect_fail("in.bin: 16 bytes, but");
    write_stepped("[{\"after_round\": 0, \"uploads\": [{\"file\": \"in.bin\", \"addr\": 0, \"nbytes\": 16}]}]", "[]");
    expect_fail("is empty and no host step compares");
    write_stepped("{}", out);
    expect_fail("\"host_steps\" must be an array, found an object");
}

SN_TEST_MAIN(tmp_folder_make, tmp_folder_remove, cmocka_unit_test(every_case_loads), cmocka_unit_test(vadd128_values),
             cmocka_unit_test(size_mismatch), cmocka_unit_test(bad_members), cmocka_unit_test(host_steps),
             cmocka_unit_test(digests_and_names))
