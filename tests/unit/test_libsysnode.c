/* libsysnode's C API (host/libsysnode/sysnode.h): options refused by name,
 * DRAM written and read back, an artifact executed from its JSON text with
 * the compiler's expected bytes (artifacts/compiler/vadd128), table rules and
 * FILL sources refused before anything runs, run_case's verdict and counts. */
#include "cmocka_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp16_ref.h"
#include "sysnode.h"

#define VADD SN_ARTIFACTS_DIR "/compiler/vadd128/"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    unsigned char *buf = malloc(*n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *n, f), *n);
    fclose(f);
    return buf;
}

static sysnode_device *open_on(const char *device)
{
    sysnode_device *d = NULL;
    char err[256];
    sysnode_options o = {NULL, 0, SN_RUNNER_IMAGE, 0, 0, device};
    if (sysnode_open(&o, &d, err, sizeof err) != 0)
        fail_msg("%s", err);
    return d;
}

static sysnode_device *open_default(void)
{
    return open_on(NULL);
}

static void options(void **state)
{
    (void)state;
    sysnode_device *d = (sysnode_device *)1;
    char err[256];
    assert_int_equal(sysnode_api_version(), SYSNODE_API_VERSION);
    sysnode_options o = {"rv64_mesh_4x4", 0, SN_RUNNER_IMAGE, 0, 0, NULL};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x10);
    assert_null(d);
    assert_non_null(strstr(err, "mesh \"rv64_mesh_4x4\""));
    o = (sysnode_options){NULL, 6, SN_RUNNER_IMAGE, 0, 0, NULL};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x10);
    assert_non_null(strstr(err, "cu_version 6"));
    o = (sysnode_options){NULL, 5, "/nonexistent.elf", 0, 0, NULL};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x10);
    assert_non_null(strstr(err, "/nonexistent.elf"));
    o = (sysnode_options){NULL, 0, SN_RUNNER_IMAGE, 0, 0, "card0"};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x10);
    assert_string_equal(err, "device \"card0\": not a device (want sim or xdma:/dev/xdmaN)");
    o = (sysnode_options){NULL, 5, SN_RUNNER_IMAGE, 0, 0, "xdma:/nonexistent/xdma0"};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x10);
    assert_non_null(strstr(err, "xdma"));
    o = (sysnode_options){NULL, 0, SN_RUNNER_IMAGE, 0, 0, "xdma:/nonexistent/xdma0"};
    assert_int_equal(sysnode_open(&o, &d, err, sizeof err), 0x14);
    assert_non_null(strstr(err, "/nonexistent/xdma0_user: cannot open"));
    assert_null(d);
    assert_string_equal(sysnode_status_name(0x40), "SN_ERR_HANG");
    assert_string_equal(sysnode_status_name(0x99), "SN_ERR_UNKNOWN");
    sysnode_close(NULL);
}

static void dram(void **state)
{
    (void)state;
    sysnode_device *d = open_default();
    unsigned char in[300], out[300];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)(i * 7 + 1);
    assert_int_equal(sysnode_write(d, 0x123, in, sizeof in), 0);
    assert_int_equal(sysnode_read(d, 0x123, out, sizeof out), 0);
    assert_memory_equal(in, out, sizeof in);
    assert_string_equal(sysnode_last_error(d), "");
    uint64_t top = 16ull << 20; /* the default DRAM (DESIGN.md §6) */
    assert_int_equal(sysnode_write(d, top - 1, in, 2), 0x10);
    assert_non_null(strstr(sysnode_last_error(d), "passes the end of DRAM"));
    assert_int_equal(sysnode_read(d, top, out, 1), 0x10);
    sysnode_close(d);
}

/* vadd128 on device (NULL: in-process): uploads a and b, executes its
 * artifact from text, reads c; the cycles of each execute in cycles[]. */
static void vadd_session(const char *device, uint64_t cycles[2])
{
    sysnode_device *d = open_on(device);
    size_t na, nb, nx, nart;
    unsigned char *a = slurp(VADD "upload_00_00001000.bin", &na);
    unsigned char *b = slurp(VADD "upload_01_00002000.bin", &nb);
    unsigned char *x = slurp(VADD "expected_output.bin", &nx);
    char *art = (char *)slurp(VADD "artifact.json", &nart);
    assert_int_equal(sysnode_write(d, 0x1000, a, na), 0);
    assert_int_equal(sysnode_write(d, 0x2000, b, nb), 0);
    const char *texts[] = {art};
    size_t lens[] = {nart};
    assert_int_equal(sysnode_execute(d, texts, lens, 1, "vadd128"), 0);
    unsigned char got[256];
    assert_int_equal(nx, sizeof got);
    assert_int_equal(sysnode_read(d, 0x3000, got, sizeof got), 0);
    assert_memory_equal(got, x, sizeof got);
    sysnode_result r;
    sysnode_last_result(d, &r);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.rounds, 1);
    assert_int_equal(r.flits, 26); /* vadd128's manifest: total_flits */
    assert_int_equal(r.completions, 26);
    assert_true(r.cycles > 0);
    cycles[0] = r.cycles;

    /* A host step: c written back as both operands, the same artifact again
     * leaves 2c (exact in FP16: every |c| <= 384), computed here. */
    assert_int_equal(sysnode_write(d, 0x1000, got, sizeof got), 0);
    assert_int_equal(sysnode_write(d, 0x2000, got, sizeof got), 0);
    assert_int_equal(sysnode_execute(d, texts, lens, 1, "vadd128"), 0);
    unsigned char twice[256];
    assert_int_equal(sysnode_read(d, 0x3000, twice, sizeof twice), 0);
    for (size_t i = 0; i < sizeof twice; i += 2) {
        uint16_t c = (uint16_t)(x[i] | x[i + 1] << 8), t = (uint16_t)(twice[i] | twice[i + 1] << 8);
        assert_int_equal(t, ref_fp16_round(2 * ref_fp16_value(c)));
    }
    sysnode_last_result(d, &r);
    assert_int_equal(r.flits, 26); /* this execute's own */
    cycles[1] = r.cycles;

    /* A table rule, named by round and step, before anything runs. */
    const char *bad[] = {"{\"flits\": [1], \"steps\": [[\"kick\", 1, 0, 0, 2]]}"};
    size_t bad_len[] = {strlen(bad[0])};
    assert_int_equal(sysnode_execute(d, bad, bad_len, 1, "bad.json"), 0x12);
    assert_non_null(strstr(sysnode_last_error(d), "round 0 step 0: kick passes the round's payloads: ends at slot 2, limit 1"));
    assert_int_equal(sysnode_execute(d, texts, lens, 0, NULL), 0x10);
    free(a);
    free(b);
    free(x);
    free(art);
    sysnode_close(d);
}

static void execute_vadd(void **state)
{
    (void)state;
    uint64_t cycles[2];
    vadd_session(NULL, cycles);
}

/* The same session through the card protocol (the simulated card): the
 * second execute starts at the first's hold, read from the runner's DRAM
 * status copy (FORMAT.md §9.2); the same bytes and the same cycles. */
static void execute_vadd_on_card(void **state)
{
    (void)state;
    uint64_t here[2], there[2];
    vadd_session(NULL, here);
    vadd_session("sim", there);
    assert_int_equal(there[0], here[0]);
    assert_int_equal(there[1], here[1]);
}

static void run_case(void **state)
{
    (void)state;
    sysnode_device *d = open_default();
    sysnode_result r;
    assert_int_equal(sysnode_run_case(d, SN_ARTIFACTS_DIR "/compiler/mm_silu_32x128x64", 0), 0);
    sysnode_last_result(d, &r);
    assert_int_equal(r.match, 1);
    assert_int_equal(r.rounds, 3);
    assert_int_equal(r.flits, 156);       /* docs/user-guide.md: mm_silu 156 flits */
    assert_int_equal(r.completions, 172); /* + 16 peer acks */
    assert_int_equal(r.output_bytes, 4096);
    assert_int_equal(sysnode_run_case(d, "/nonexistent/case", 0), 0x14);
    assert_non_null(strstr(sysnode_last_error(d), "/nonexistent/case/manifest.json"));
    sysnode_close(d);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(options), cmocka_unit_test(dram), cmocka_unit_test(execute_vadd),
             cmocka_unit_test(execute_vadd_on_card), cmocka_unit_test(run_case))
