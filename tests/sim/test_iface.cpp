/* Conformance of the two expansions of the interface schema
 * (iface/sysnode/words.h): every field of every word goes through
 * the C accessors and through the RTL's generated functions (Verilated
 * sn_iface_conform), and both must read the same field out of a word and
 * pack a value into the same bits. Independent of both: each field's bit
 * positions are recomputed here from the schema's (hi, lo) as a mask, so a
 * generator that shifted or narrowed a field fails against it too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <memory>

extern "C" {
#include <cmocka.h>
}

#include "Vsn_iface_conform.h"
#include "sysnode/words.h"
#include "verilated.h"

/* One field through C: get from a word, pack a value into zero. */
struct c_field {
    const char *word, *name;
    unsigned bits, hi, lo;
    uint64_t (*get)(const sn_payload *);
    void (*pack)(sn_payload *, uint64_t);
};

/* Register words hold bits 63:0 of the payload's word 0. */
#define REG_FIELD(word, field, hi, lo)                                          \
    {#word, #field, SN_BITS_##word, hi, lo,                                     \
     [](const sn_payload *p) { return sn_##word##_##field(p->w[0] & sn_word_mask(SN_BITS_##word)); }, \
     [](sn_payload *p, uint64_t v) { p->w[0] = sn_##word##_with_##field(0, v); }},
#define PAYLOAD_FIELD(word, field, hi, lo)                                      \
    {#word, #field, SN_BITS_##word, hi, lo,                                     \
     [](const sn_payload *p) { return sn_##word##_##field(p); },               \
     [](sn_payload *p, uint64_t v) { sn_##word##_set_##field(p, v); }},
#define REG_WORD(word, bits) SN_FIELDS_##word(REG_FIELD)
#define PAYLOAD_WORD(word, bits) SN_FIELDS_##word(PAYLOAD_FIELD)

static uint64_t sn_word_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Schema order, the order the generator numbers field_id in. */
static const c_field FIELDS[] = {SN_REG_WORDS(REG_WORD) SN_PAYLOAD_LAYOUTS(PAYLOAD_WORD)};
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void to_rtl(VlWide<8> &dst, const sn_payload *p)
{
    for (unsigned i = 0; i < 4; i++) {
        dst[2 * i] = (uint32_t)p->w[i];
        dst[2 * i + 1] = (uint32_t)(p->w[i] >> 32);
    }
}

static sn_payload from_rtl(const VlWide<8> &src)
{
    sn_payload p;
    for (unsigned i = 0; i < 4; i++)
        p.w[i] = (uint64_t)src[2 * i] | (uint64_t)src[2 * i + 1] << 32;
    return p;
}

/* The field's bits as a 256-bit mask, from (hi, lo) alone. */
static sn_payload field_mask(const c_field &f)
{
    sn_payload m = {};
    for (unsigned b = f.lo; b <= f.hi; b++)
        m.w[b / 64] |= 1ull << (b % 64);
    return m;
}

static void test_every_field_c_equals_rtl(void **state)
{
    (void)state;
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vsn_iface_conform>(ctx.get());
    for (unsigned id = 0; id < NFIELDS; id++) {
        const c_field &f = FIELDS[id];
        sn_payload mask = field_mask(f);
        for (unsigned trial = 0; trial < 16; trial++) {
            sn_payload word;
            for (unsigned i = 0; i < 4; i++)
                word.w[i] = next_random();
            if (f.bits <= 64) /* a register word: only its own bits */
                word = (sn_payload){{word.w[0] & sn_word_mask(f.bits), 0, 0, 0}};
            uint64_t value = next_random() & sn_word_mask(f.hi - f.lo + 1);

            top->field_id = id;
            to_rtl(top->word_in, &word);
            top->value_in = value;
            top->eval();

            /* get: C, RTL and the mask agree */
            uint64_t expected = 0;
            for (unsigned b = f.hi + 1; b-- > f.lo;)
                expected = expected << 1 | (word.w[b / 64] >> (b % 64) & 1);
            if (f.get(&word) != expected || top->get_out != expected)
                fail_msg("%s.%s [%u:%u]: C reads 0x%llx, RTL 0x%llx, expected 0x%llx", f.word, f.name, f.hi, f.lo,
                         (unsigned long long)f.get(&word), (unsigned long long)top->get_out,
                         (unsigned long long)expected);

            /* pack: C and RTL set the same bits, and only the field's */
            sn_payload c_packed = {};
            f.pack(&c_packed, value);
            sn_payload rtl_packed = from_rtl(top->pack_out);
            for (unsigned i = 0; i < 4; i++) {
                if (c_packed.w[i] != rtl_packed.w[i] || (c_packed.w[i] & ~mask.w[i]) != 0)
                    fail_msg("%s.%s [%u:%u] = 0x%llx: word %u is 0x%016llx in C, 0x%016llx in the RTL", f.word,
                             f.name, f.hi, f.lo, (unsigned long long)value, i,
                             (unsigned long long)c_packed.w[i], (unsigned long long)rtl_packed.w[i]);
            }
            if (f.get(&c_packed) != value)
                fail_msg("%s.%s: packed 0x%llx reads back 0x%llx", f.word, f.name, (unsigned long long)value,
                         (unsigned long long)f.get(&c_packed));
        }
    }
    top->final();
}

/* A few fields pinned to the fact sheets, so a schema edit that moves them
 * is caught even though C and RTL would still agree. */
static void test_schema_matches_fact_sheets(void **state)
{
    (void)state;
    /* HEAD: src_y [55:52], src_x [51:48], code [47:40], arg [39:8] (sysnode-facts §2.3) */
    uint64_t head = 0x0021040000000500ull;
    assert_int_equal(sn_head_src_y(head), 2);
    assert_int_equal(sn_head_src_x(head), 1);
    assert_int_equal(sn_head_code(head), 4);
    assert_int_equal(sn_head_arg(head), 5);
    /* CU_CAPS of a vector core, CU_VERSION 5, 2 buffers, inst_depth 512 (§7.1) */
    uint64_t caps = 0x5643052020000000ull;
    assert_int_equal(sn_cu_caps_cu_type(caps), 0x5643);
    assert_int_equal(sn_cu_caps_cu_version(caps), 5);
    assert_int_equal(sn_cu_caps_n_buffers(caps), 2);
    assert_int_equal(sn_cu_caps_inst_depth(caps), 0x200);
    /* IMEM in mailbox terms: ARG3 = 1<<60 | addr<<51 (§3.2) */
    sn_payload p = {{0, 0, 0, 1ull << 60 | 7ull << 51}};
    assert_int_equal(sn_vc_imem_op(&p), 1);
    assert_int_equal(sn_vc_imem_addr(&p), 7);
    /* flit header of a CU_SIGNAL from (1,2) to (0,0), last=1 (§3.1) */
    uint32_t hdr = 0x00126008u;
    assert_int_equal(sn_flit_hdr_src_x(hdr), 1);
    assert_int_equal(sn_flit_hdr_src_y(hdr), 2);
    assert_int_equal(sn_flit_hdr_type(hdr), 6);
    assert_int_equal(sn_flit_hdr_last(hdr), 1);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_c_equals_rtl),
        cmocka_unit_test(test_schema_matches_fact_sheets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
