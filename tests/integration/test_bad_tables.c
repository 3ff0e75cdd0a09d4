/* System tests of the firmware's table checks: a packed vadd128 table is
 * changed (a rule broken, with the CRCs recomputed so only the rule is at
 * fault; or one byte flipped) and handed straight to runner.elf on the
 * simulated SysNode, bypassing the host's own checks. Each must end with the
 * documented exit status and words (its status block as the host words it),
 * and no GO may reach the
 * mailbox. Offsets are artifacts/FORMAT.md's, written out here; statuses and
 * words are common/table_check.h's and sysnode/status.h's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"

#include "artifact.h"
#include "crc32.h"
#include "messages.h"
#include "word_hash.h"
#include "pack.h"
#include "sim.h"
#include "sysnode/boot_args.h"

#define TABLE_ADDR 0x10000u
#define CYCLE_LIMIT 20000000ull

/* FORMAT.md §2: header fields used here. */
#define H_STEPS_OFFSET 0x24
#define H_PAYLOADS_OFFSET 0x28
#define H_STRUCTURE_HASH 0x30
#define H_HEADER_CRC 0x38
#define HEADER_BYTES 64
#define ROUND0 64 /* rounds_offset: round 0's record */

typedef struct {
    uint8_t *image;
    uint64_t bytes;
    sn_sim *sim;
} fixture;

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void reseal(uint8_t *img)
{
    uint32_t payloads = get32(img + H_PAYLOADS_OFFSET);
    uint64_t hash = sn_word_hash((const uint64_t *)(const void *)(img + HEADER_BYTES), (payloads - HEADER_BYTES) / 8);
    put32(img + H_STRUCTURE_HASH, (uint32_t)hash);
    put32(img + H_STRUCTURE_HASH + 4, (uint32_t)(hash >> 32));
    put32(img + H_HEADER_CRC, sn_crc32(img, H_HEADER_CRC));
}

static int setup(void **state)
{
    static fixture f;
    sn_program prog;
    sn_error e = {0};
    sn_mesh mesh = SN_MESH_2P2_INIT;
    char err[256];
    memset(&prog, 0, sizeof prog);
    if (sn_program_load_case(&prog, SN_ARTIFACTS_DIR "/compiler/vadd128", &e) != SN_OK ||
        sn_pack_program(&prog, &mesh, &f.image, &f.bytes, &e) != SN_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    sn_program_free(&prog);
    f.sim = sn_sim_create(NULL, err, sizeof err);
    *state = &f;
    return f.sim ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sn_sim_destroy(f->sim);
    free(f->image);
    return 0;
}

/* Boots runner.elf with table img; returns the exit code, console in *console. */
static uint64_t run_table(fixture *f, const uint8_t *img, uint64_t bytes, const char **console)
{
    char err[256];
    sn_boot_args args = {SN_BOOT_ARGS_MAGIC, SN_BOOT_ARGS_VERSION, TABLE_ADDR, bytes, 0, 0, sn_sim_dram_size(f->sim), 0};
    assert_int_equal(sn_sim_load_image(f->sim, SN_RUNNER_IMAGE, err, sizeof err), 0);
    assert_int_equal(sn_sim_dram_write(f->sim, TABLE_ADDR, img, bytes), 0);
    assert_int_equal(sn_sim_write_boot_args(f->sim, &args), 0);
    assert_int_equal(sn_sim_boot(f->sim, err, sizeof err), 0);
    sn_run_status r = sn_sim_run(f->sim, CYCLE_LIMIT);
    assert_int_equal(r.stop, SN_RUN_EXITED);
    *console = sn_sim_console(f->sim);
    return r.exit_code;
}

/* The run ends with `status`, the status block worded by the host names
 * `words`, and `gos` GOs reached the mailbox: 0, or the 4 CU_CAPS reads of
 * the unit probe for a round refused just before its first payload. */
static void expect_refused(fixture *f, const uint8_t *img, sn_status status, const char *words, uint64_t gos)
{
    const char *console;
    sn_status_block sb;
    char text[1536];
    uint64_t code = run_table(f, img, f->bytes, &console);
    assert_int_equal(sn_sim_status_block(f->sim, &sb), 0);
    sn_runner_describe(&sb, text, sizeof text);
    if (code != (uint64_t)status || sb.error != status || !strstr(text, words))
        fail_msg("exit 0x%llx (want 0x%x), message \"%s\" (want \"%s\"), console \"%s\"", (unsigned long long)code,
                 status, text, words, console);
    assert_int_equal(sn_sim_accepted_gos(f->sim), gos);
}

/* The unchanged table runs: it is the baseline every refusal differs from
 * (its GOs reach the mailbox: 4 CU_CAPS reads and 26 payloads). */
static void intact_table_runs(void **state)
{
    fixture *f = *state;
    const char *console;
    assert_int_equal(run_table(f, f->image, f->bytes, &console), SN_OK);
    assert_int_equal(sn_sim_accepted_gos(f->sim), 4 + 26);
    assert_int_equal(sn_sim_dropped_gos(f->sim), 0); /* the runner waits out STAT[15] before every GO */
}

typedef struct {
    const char *name;
    int round_field; /* byte offset in round 0's record, or -1 */
    int step;        /* step index, or -1 */
    int step_field;  /* byte offset in that step record */
    uint32_t value;
    unsigned width;  /* 1 or 4 bytes */
    sn_status status;
    const char *words;
} mutation;

/* vadd128: step 0 seed 512, step 1 kick (1,0) base 0 n 26, step 2 await (1,0) 26. */
static const mutation rules[] = {
    {"kick past the payloads", -1, 1, 8, 27, 4, SN_ERR_TABLE_SLOT, "round 0 step 1: kick passes the round's payloads: ends at slot 27, limit 26"},
    {"kick past the window", -1, 1, 4, 120, 4, SN_ERR_TABLE_SLOT, "kick passes the staging window: ends at slot 146, limit 128"},
    {"kick to (0,0)", -1, 1, 1, 0, 1, SN_ERR_TABLE_NODE, "round 0 step 1: kick to a coordinate with no unit (node (0,0))"},
    {"kick to (5,0)", -1, 1, 1, 5, 1, SN_ERR_TABLE_NODE, "kick to a coordinate with no unit (node (5,0))"},
    /* x and y as written, not the 4 bits of each a node ID keeps: (17,0) is not the unit at (1,0) */
    {"kick to (17,0)", -1, 1, 1, 17, 1, SN_ERR_TABLE_NODE, "round 0 step 1: kick to a coordinate with no unit (node (17,0))"},
    {"await on (1,16)", -1, 2, 2, 16, 1, SN_ERR_TABLE_NODE, "round 0 step 2: await on a coordinate with no unit (node (1,16))"},
    {"await 0", -1, 2, 4, 0, 4, SN_ERR_TABLE_STEP, "round 0 step 2: await count of 0"},
    {"await past 2^31-1", -1, 2, 4, 0x80000000u, 4, SN_ERR_TABLE_STEP,
     "round 0 step 2: awaits for the node pass 2^31-1 in the round: this await 2147483648, room 2147483647"},
    {"kick of 0 flits", -1, 1, 8, 0, 4, SN_ERR_TABLE_SLOT, "round 0 step 1: kick of 0 flits (node (1,0))"},
    {"await on (2,0)", -1, 2, 1, 2, 1, SN_ERR_TABLE_NODE, "round 0 step 2: await on a coordinate with no unit (node (2,0))"},
    {"opcode 9", -1, 0, 0, 9, 1, SN_ERR_TABLE_STEP, "round 0 step 0: unknown step opcode 9"},
    {"reserved field", -1, 0, 3, 1, 1, SN_ERR_TABLE_STEP, "reserved step field is not 0: 1"},
    {"awaits short", -1, 2, 4, 25, 4, SN_ERR_TABLE_STEP, "fewer completions than flits kicked to it: awaited 25, kicked 26"},
    {"step window", 4, -1, 0, 4, 4, SN_ERR_TABLE_STEP, "the round's steps end at 4, limit 3"},
    {"payload window", 12, -1, 0, 27, 4, SN_ERR_TABLE_SLOT, "the round's payloads end at 27, limit 26"},
};

static void every_rule_refused_before_any_go(void **state)
{
    fixture *f = *state;
    uint8_t *img = malloc(f->bytes);
    uint32_t steps = get32(f->image + H_STEPS_OFFSET);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const mutation *m = &rules[i];
        memcpy(img, f->image, f->bytes);
        uint8_t *at = m->round_field >= 0 ? img + ROUND0 + m->round_field : img + steps + 12 * m->step + m->step_field;
        if (m->width == 1)
            *at = (uint8_t)m->value;
        else
            put32(at, m->value);
        reseal(img);
        print_message("rule: %s\n", m->name);
        expect_refused(f, img, m->status, m->words, 0);
    }
    free(img);
}

/* Any single flipped byte fails a format check (header CRC, reserved bytes,
 * structure hash) before the rules, the probes or any payload; one in a
 * payload row fails the round's payload hash before the round's first GO
 * (FORMAT.md §4 check 15), after the probes. */
static void every_flipped_byte_refused_before_any_go(void **state)
{
    fixture *f = *state;
    uint8_t *img = malloc(f->bytes);
    uint32_t payloads = get32(f->image + H_PAYLOADS_OFFSET);
    for (uint64_t off = 0; off < f->bytes; off++) {
        memcpy(img, f->image, f->bytes);
        img[off] ^= 0xFF;
        if (off < payloads)
            expect_refused(f, img, SN_ERR_TABLE_IMAGE, "table: ", 0);
        else
            expect_refused(f, img, SN_ERR_TABLE_IMAGE, "table: round 0's payload hash ", 4);
    }
    free(img);
}

SN_TEST_MAIN(setup, teardown, cmocka_unit_test(intact_table_runs),
             cmocka_unit_test(every_rule_refused_before_any_go),
             cmocka_unit_test(every_flipped_byte_refused_before_any_go))
