/* The payload decoder (host/inputs/disasm.c): vadd128's 26 payloads decode to
 * the kernel of sysnode-facts §3.2's table, mm4x32's 4 to the cluster
 * decode of §3.3, and every payload of every case agrees, field for field,
 * with the compiler's own decode in that case's disasm.txt. */
#include "cmocka_main.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "kicked_flits.h"
#include "pack_inputs.h"
#include "sysnode/words.h"

#define CASES SN_ARTIFACTS_DIR "/compiler/"

typedef struct {
    const sn_program *p;
    const sn_mesh *mesh;
    sn_disasm_state *s;
    sn_disasm *out;
} decoder;

static void decode_one(void *ctx, const sn_table_step *kick, size_t at)
{
    decoder *d = ctx;
    const sn_mesh_unit *u = sn_mesh_find(d->mesh, kick->x, kick->y);
    sn_disasm_payload(d->s, kick->x, kick->y, u ? u->cu_type : 0, &d->p->payloads[at], &d->out[at]);
}

/* Decodes every payload of p in kick order; out[i] is payload i's decode. */
static sn_disasm *decode_all(const sn_program *p, const sn_mesh *mesh)
{
    decoder d = {p, mesh, malloc(sizeof *d.s), calloc(p->payload_count, sizeof *d.out)};
    assert_non_null(d.out);
    assert_non_null(d.s);
    sn_disasm_init(d.s);
    each_kicked_flit(p, decode_one, &d);
    free(d.s);
    return d.out;
}

static void load(const char *dir, sn_program *p, sn_mesh *mesh)
{
    const char *inputs[] = {dir};
    sn_error e = {0};
    if (sn_pack_load_inputs(inputs, 1, p, mesh, &e) != SN_OK)
        fail_msg("%s", e.msg);
}

static void vadd_kernel(void **state)
{
    (void)state;
    /* sysnode-facts §3.2, "The 26 vadd payloads (H-VADD) decoded". */
    static const char *const want[26] = {
        "VSETI", ".imm", "VSETVL", "VSETMODE", "VFILL", "VFILL", "VBAR", "VLD", "VLD", "VADD", "VST", "VDRAIN",
        "VHALT", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC", "DESC",
        "RUN",
    };
    static const struct {
        unsigned slot;
        const char *text;
    } texts[] = {
        {0, "IMEM[0] = 0xd0000000  VSETI S0"},
        {1, "IMEM[1] = 0x00000080  .imm 0x80"},
        {2, "IMEM[2] = 0xc0000000  VSETVL S0"},
        {3, "IMEM[3] = 0xc8000000  VSETMODE 0 (FLAT)"},
        {4, "IMEM[4] = 0xe8000000  VFILL A0 -> L1[0]"},
        {5, "IMEM[5] = 0xe8200008  VFILL A1 -> L1[8]"},
        {6, "IMEM[6] = 0xe0000000  VBAR"},
        {7, "IMEM[7] = 0xa1400000  VLD.f16 v0, A2+0"},
        {8, "IMEM[8] = 0xa1620000  VLD.f16 v1, A3+0"},
        {9, "IMEM[9] = 0x180e0020  VADD v7, v0, v1"},
        {10, "IMEM[10] = 0xa98e0000  VST.f16 v7, A4+0"},
        {11, "IMEM[11] = 0xf0a00010  VDRAIN L1[16] -> A5"},
        {12, "IMEM[12] = 0xf8000000  VHALT"},
        {13, "DESC A2.base = 0x0"},
        {14, "DESC A2.dim1 = {stride 1, bound 8}"},
        {15, "DESC A3.base = 0x8"},
        {17, "DESC A4.base = 0x10"},
        {19, "DESC A0.dim1 = {stride 32, bound 8}"},
        {22, "DESC A0.base = 0x1000"},
        {23, "DESC A1.base = 0x2000"},
        {24, "DESC A5.base = 0x3000"},
        {25, "RUN pc=0"},
    };
    sn_program p;
    sn_mesh mesh;
    load(CASES "vadd128", &p, &mesh);
    assert_int_equal(p.payload_count, 26);
    sn_disasm *d = decode_all(&p, &mesh);
    for (unsigned i = 0; i < 26; i++) {
        const char *got = d[i].insn ? d[i].insn : d[i].op;
        assert_string_equal(d[i].unit, "VC");
        if (strcmp(got, want[i]) != 0)
            fail_msg("slot %u: %s, want %s (%s)", i, got, want[i], d[i].text);
    }
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        assert_string_equal(d[texts[i].slot].text, texts[i].text);
    free(d);
    sn_program_free(&p);
}

static void expect_field(const sn_disasm *d, const char *name, uint64_t want)
{
    int found;
    uint64_t got = sn_disasm_get(d, name, &found);
    if (!found || got != want)
        fail_msg("%s: %s = 0x%llx (found %d), want 0x%llx", d->text, name, (unsigned long long)got, found,
                 (unsigned long long)want);
}

static void mm4x32_cluster(void **state)
{
    (void)state;
    sn_program p;
    sn_mesh mesh;
    load(CASES "mm4x32", &p, &mesh);
    assert_int_equal(p.payload_count, 4);
    sn_disasm *d = decode_all(&p, &mesh);
    static const char *const ops[4] = {"FILL", "FILL", "GEMM", "DRAIN"};
    for (unsigned i = 0; i < 4; i++) {
        assert_string_equal(d[i].unit, "MG");
        assert_string_equal(d[i].op, ops[i]);
        assert_null(d[i].insn);
        expect_field(&d[i], "nk", 1);
        expect_field(&d[i], "anchor", 40);
    }
    expect_field(&d[0], "addr", 0x1000);
    expect_field(&d[0], "n", 1);
    expect_field(&d[0], "sel", 0);
    expect_field(&d[1], "addr", 0x2000);
    expect_field(&d[1], "n", 1);
    expect_field(&d[1], "sel", 1);
    expect_field(&d[2], "gm", 1);
    expect_field(&d[2], "gn", 1);
    expect_field(&d[2], "acc", 0);
    expect_field(&d[3], "addr", 0x3000);
    expect_field(&d[3], "n", 1);
    assert_string_equal(d[0].text, "FILL A addr=0x1000 n=1 sel=0 nk=1 anchor=40");
    assert_string_equal(d[1].text, "FILL B addr=0x2000 n=1 sel=1 nk=1 anchor=40");
    assert_string_equal(d[2].text, "GEMM acc=0 gm=1 gn=1 nk=1 anchor=40");
    assert_string_equal(d[3].text, "DRAIN addr=0x3000 n=1 nk=1 anchor=40");
    free(d);
    sn_program_free(&p);
}

/* One "{'op': 1, 'addr': '0x1000', ...}" of disasm.txt against d: every key
 * names a field of d with that value, and d has no other nonzero field. */
static void compare_dict(const sn_disasm *d, const char *dict, const char *where)
{
    unsigned keys = 0, nonzero = 0;
    for (const char *q = strchr(dict, '\''); q != NULL; q = strchr(q, '\'')) {
        char name[32];
        const char *end = strchr(q + 1, '\'');
        assert_non_null(end);
        snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
        const char *v = end + 3; /* past "': " */
        if (*v == '\'')
            v++;
        uint64_t want = strtoull(v, NULL, 0);
        int found;
        uint64_t got = sn_disasm_get(d, name, &found);
        if (!found || got != want)
            fail_msg("%s: %s = 0x%llx (found %d), disasm.txt says 0x%llx (%s)", where, name,
                     (unsigned long long)got, found, (unsigned long long)want, d->text);
        keys++;
        q = strpbrk(v, ",}");
        if (q == NULL || *q == '}')
            break;
        q = strchr(q, '\'');
    }
    for (unsigned i = 0; i < d->field_count; i++)
        nonzero += d->fields[i].value != 0;
    if (nonzero != keys)
        fail_msg("%s: %u nonzero fields, disasm.txt lists %u (%s)", where, nonzero, keys, d->text);
}

static void agrees_with_compiler_disasm(void **state)
{
    (void)state;
    static const char *const cases[] = {"vadd128", "vadd128_api", "mm4x32", "matmul_8x64x8",
                                        "matmul_64x128x64", "mm_silu_32x128x64", "matmul_512x256x512"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char dir[256], path[300], line[1024];
        snprintf(dir, sizeof dir, CASES "%s", cases[c]);
        snprintf(path, sizeof path, "%s/disasm.txt", dir);
        sn_program p;
        sn_mesh mesh;
        load(dir, &p, &mesh);
        sn_disasm *d = decode_all(&p, &mesh);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        long round = -1;
        size_t lines = 0;
        while (fgets(line, sizeof line, f) != NULL) {
            unsigned slot, x, y;
            char unit[8], op[8], where[400];
            int used = 0;
            if (strncmp(line, "# round ", 8) == 0) {
                round++;
                continue;
            }
            if (sscanf(line, "slot %u -> (%u,%u) %7s %7s %n", &slot, &x, &y, unit, op, &used) != 5)
                fail_msg("%s: unreadable line %s", path, line);
            snprintf(where, sizeof where, "%s round %ld slot %u", path, round, slot);
            assert_true(round >= 0 && (size_t)round < p.round_count);
            assert_true(slot < p.rounds[round].payload_count);
            const sn_disasm *dd = &d[p.rounds[round].payload_first + slot];
            if (strcmp(dd->unit, unit) != 0 || strcmp(dd->op, op) != 0)
                fail_msg("%s: %s %s, disasm.txt says %s %s", where, dd->unit, dd->op, unit, op);
            compare_dict(dd, line + used, where);
            lines++;
        }
        fclose(f);
        assert_int_equal(lines, p.payload_count);
        free(d);
        sn_program_free(&p);
    }
}

/* Words outside the cases: the ALU forms with selectors and predicates,
 * a K-destination VSETI, VRED, VLOOP, a peer drain, an unknown payload op
 * and a target with no unit. */
static void other_words(void **state)
{
    (void)state;
    static const struct {
        uint32_t word;
        const char *text;
    } W[] = {
        {0x186ee020u, "VADD v7, v7, K1"},                              /* sc = K */
        {0x280e0e00u, "VMUL v7, v0, v7"},
        {0x700ee000u, "VEXP2 v7, v7"},
        {0x30000000u | 2u << 25 | 1u << 17 | 2u << 13 | 3u << 9 | 4u << 5 | 1u << 3 | 1u << 1,
         "VFMA v1, C, v3, v4 if P1"},
        {0x58000000u | 1u << 13 | 2u << 9 | 3u << 3, "VCMPLT P3, v1, v2"},
        {0x98000000u | 5u << 17 | 2u << 13 | 4u << 5, "VRED.dot S5, v2, v0"},
        {0xd0000000u | 3u << 25, "VSETI K3"},
        {0xd8000000u | 2u << 13 | 3u << 9, "VLOOP S2, 3 words"},
        {0xa1000000u | 0x3FFFu, "VLD.f16 v0, A0-1"},
        {0xf0000000u | 1u << 25 | 1u << 24 | 1u << 17 | 2u << 13 | 5u << 9, "VDRAIN.peer A0 -> (1,2) buf 5, signal"},
    };
    sn_disasm_state s;
    sn_disasm d;
    sn_disasm_init(&s);
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
        sn_table_row row = {.arg3 = 1ull << 60 | (uint64_t)(20 + 2 * i) << 51, .arg0 = W[i].word};
        char want[192];
        sn_disasm_payload(&s, 1, 0, SN_CU_TYPE_VC, &row, &d);
        snprintf(want, sizeof want, "IMEM[%zu] = 0x%08x  %s", 20 + 2 * i, W[i].word, W[i].text);
        assert_string_equal(d.text, want);
    }
    /* The VSETI K3 at IMEM 32 makes IMEM 33 at this node its immediate, not
     * at another node. */
    sn_table_row vseti = {.arg3 = 1ull << 60 | 32ull << 51, .arg0 = 0xd6000000u};
    sn_table_row imm = {.arg3 = 1ull << 60 | 33ull << 51, .arg0 = 0xbfb8aau};
    sn_disasm_payload(&s, 1, 2, SN_CU_TYPE_VC, &vseti, &d);
    sn_disasm_payload(&s, 1, 0, SN_CU_TYPE_VC, &imm, &d);
    assert_string_equal(d.insn, "VMOV"); /* 0xbfb8aa read as a word: op 0 */
    assert_string_equal(d.text, "IMEM[33] = 0x00bfb8aa  VMOV v15, v13 if P1");
    sn_disasm_payload(&s, 1, 2, SN_CU_TYPE_VC, &imm, &d);
    assert_string_equal(d.insn, ".imm");
    assert_string_equal(d.text, "IMEM[33] = 0x00bfb8aa  .imm 0xbfb8aa");

    sn_table_row nop = {0};
    sn_disasm_payload(&s, 1, 0, SN_CU_TYPE_VC, &nop, &d);
    assert_string_equal(d.op, "NOP");
    assert_string_equal(d.text, "NOP (op 0 retires as a no-op)");
    sn_disasm_payload(&s, 3, 3, 0, &nop, &d);
    assert_string_equal(d.unit, "none");
    /* A node-addressed DRAIN shows its destination group, addr_hi joins addr. */
    sn_payload p = {{0}};
    sn_mg_set_op(&p, 3);
    sn_mg_set_n(&p, 64);
    sn_mg_set_dnode(&p, 1);
    sn_mg_set_dst_x(&p, 1);
    sn_mg_set_dflags(&p, 1);
    sn_mg_set_addr_hi(&p, 0x21);
    sn_table_row drain = sn_table_payload_row(&p);
    sn_disasm_payload(&s, 1, 1, SN_CU_TYPE_MG, &drain, &d);
    assert_string_equal(d.text,
                        "DRAIN addr=0x8400000000 n=64 dnode=1 dst_x=1 dst_y=0 dbuf=0 dflags=1 dack_y=0 dack_x=0");
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(vadd_kernel), cmocka_unit_test(mm4x32_cluster),
             cmocka_unit_test(agrees_with_compiler_disasm), cmocka_unit_test(other_words))
