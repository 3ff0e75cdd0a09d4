/* The payload decoder behind `sysnode dump` (see disasm.h). Payload and
 * kernel-word field tables are expanded from the interface schema,
 * sysnode/words.h (sysnode-facts §3.2, artifacts-facts §3.4); test_disasm
 * compares every case's decode with its disasm.txt. */
#include "disasm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sysnode/field.h"
#include "sysnode/mesh.h"
#include "sysnode/words.h"

typedef struct {
    const char *name;
    unsigned hi, lo;
} layout_field;

/* ---- the vector core (sysnode-facts §3.2) ---- */

#define LAYOUT_FIELD(word, field, hi, lo) {#field, hi, lo},
#define FIELD_COUNT(table) (sizeof table / sizeof table[0])
static const layout_field VC_IMEM_FIELDS[] = {SN_FIELDS_vc_imem(LAYOUT_FIELD)};
static const layout_field VC_DESC_FIELDS[] = {SN_FIELDS_vc_desc(LAYOUT_FIELD)};
static const layout_field VC_RUN_FIELDS[] = {SN_FIELDS_vc_run(LAYOUT_FIELD)};
static const layout_field *const OP_FIELD = &VC_RUN_FIELDS[0]; /* op, every unit's [255:252] */

/* Kernel opcode names, by code (sysnode/words.h SN_KERNEL_OPS). */
#define KERNEL_OP_NAME(name, code) [code] = #name,
static const char *const KERNEL_OPS[32] = {SN_KERNEL_OPS(KERNEL_OP_NAME)};
enum { SRC_V, SRC_S, SRC_C, SRC_K };

static unsigned kf(uint32_t w, unsigned hi, unsigned lo)
{
    return (unsigned)sn_bits64(w, hi, lo);
}
/* Field of kernel word w in layout kword_<layout> of sysnode/words.h. */
#define KW(layout, field) ((unsigned)sn_kword_##layout##_##field(w))

/* Appends printf text to buf[cap] at *len, never past its end. */
static void add(char *buf, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

/* An ALU source operand: selector sel (0 V, 1 S, 2 C chain, 3 K) and register. */
static void add_src(char *buf, size_t cap, size_t *len, unsigned sel, unsigned reg)
{
    switch (sel) {
    case SRC_V: add(buf, cap, len, ", v%u", reg); break;
    case SRC_S: add(buf, cap, len, ", S%u", reg); break;
    case SRC_C: add(buf, cap, len, ", C"); break;
    default: add(buf, cap, len, ", K%u", reg & 3); break; /* the model reads K[reg & 3] */
    }
}

static const char *dtype_name(unsigned dt)
{
    return dt == 1 ? "f16" : dt == 2 ? "f32" : NULL;
}

/* "VLD.f16", or "VLD.dt5" for a dtype the unit faults on. */
static void add_typed(char *buf, size_t cap, size_t *len, const char *mnem, unsigned dt)
{
    const char *name = dtype_name(dt);
    if (name != NULL)
        add(buf, cap, len, "%s.%s", mnem, name);
    else
        add(buf, cap, len, "%s.dt%u", mnem, dt);
}

/* The ALU form (word op <= VRSQRT): destination, the sources the op reads
 * (vector_core.c lane_value: VADD/VSUB read a and c, VMUL/VMAX/VMIN a and b,
 * VFMA/VFNMA/VSEL all three, the rest a), then a predicate when pm != 0. */
static void add_alu(char *buf, size_t cap, size_t *len, unsigned op, uint32_t w)
{
    unsigned sa = KW(alu, sa), sb = KW(alu, sb), sc = KW(alu, sc);
    unsigned vd = KW(alu, vd), va = KW(alu, va), vb = KW(alu, vb), vc = KW(alu, vc);
    unsigned pr = KW(alu, pr), pm = KW(alu, pm);
    int uses_b = op == SN_K_VMUL || op == SN_K_VFMA || op == SN_K_VFNMA || op == SN_K_VMAX || op == SN_K_VMIN || op == SN_K_VSEL ||
                 (op >= SN_K_VCMPLT && op <= SN_K_VCMPEQ);
    int uses_c = op == SN_K_VADD || op == SN_K_VSUB || op == SN_K_VFMA || op == SN_K_VFNMA || op == SN_K_VSEL;
    add(buf, cap, len, "%s ", KERNEL_OPS[op]);
    if (op >= SN_K_VCMPLT && op <= SN_K_VCMPEQ) { /* writes P[pr], unpredicated */
        add(buf, cap, len, "P%u", pr);
        add_src(buf, cap, len, sa, va);
        add_src(buf, cap, len, sb, vb);
        return;
    }
    add(buf, cap, len, "v%u", vd);
    add_src(buf, cap, len, sa, va);
    if (uses_b)
        add_src(buf, cap, len, sb, vb);
    if (uses_c)
        add_src(buf, cap, len, sc, vc);
    if (pm == 1)
        add(buf, cap, len, " if P%u", pr);
    else if (pm != 0)
        add(buf, cap, len, " if !P%u", pr);
}

static const char *const RED_KINDS[8] = {"sum", "max", "min", "sumsq", "dot", "expsum", "any", "all"};
static const char *const MODES[4] = {"FLAT", "D2", "D4", "TREE"};

/* Writes the kernel word's assembly into buf[cap]; returns its mnemonic. */
static const char *kernel_word(uint32_t w, char *buf, size_t cap)
{
    unsigned op = KW(alu, op);
    unsigned vd = KW(alu, vd), va = KW(alu, va), vb = KW(alu, vb);
    unsigned dt = KW(mem, dtype), ad = KW(mem, ad), off = KW(mem, offset);
    size_t len = 0;
    buf[0] = '\0';
    switch (op) {
    case SN_K_VCVT:
        add_typed(buf, cap, &len, "VCVT", dt);
        add(buf, cap, &len, " v%u, v%u", vd, va);
        break;
    case SN_K_VRED: {
        unsigned kind = kf(w, 7, 5); /* the model reads 3 bits of the vc field */
        add(buf, cap, &len, "VRED.%s S%u, ", RED_KINDS[kind], vd);
        if (kind >= 6)
            add(buf, cap, &len, "P%u", KW(alu, pr));
        else if (kind >= 3)
            add(buf, cap, &len, "v%u, v%u", va, vb);
        else
            add(buf, cap, &len, "v%u", va);
        break;
    }
    case SN_K_VLD:
    case SN_K_VST: {
        int soff = off >= 0x2000 ? (int)off - 0x4000 : (int)off; /* 14-bit signed */
        add_typed(buf, cap, &len, KERNEL_OPS[op], dt);
        add(buf, cap, &len, " v%u, A%u%+d", vd, ad, soff);
        break;
    }
    case SN_K_VBCAST:
        if (KW(alu, sa) == SRC_S)
            add(buf, cap, &len, "VBCAST v%u, S%u", vd, va);
        else
            add(buf, cap, &len, "VBCAST S%u, v%u[0]", vd, va);
        break;
    case SN_K_VSHUF: {
        unsigned pr = KW(alu, pr), pm = KW(alu, pm);
        add(buf, cap, &len, "VSHUF v%u, v%u, S%u", vd, va, vb);
        if (pm != 0)
            add(buf, cap, &len, pm == 1 ? " if P%u" : " if !P%u", pr);
        break;
    }
    case SN_K_VSETVL:
        add(buf, cap, &len, "VSETVL S%u", va);
        break;
    case SN_K_VSETMODE:
        add(buf, cap, &len, "VSETMODE %u (%s)", va & 3, MODES[va & 3]);
        break;
    case SN_K_VSETI:
        if (KW(alu, sa) == SRC_K)
            add(buf, cap, &len, "VSETI K3");
        else
            add(buf, cap, &len, "VSETI S%u", vd);
        break;
    case SN_K_VLOOP:
        add(buf, cap, &len, "VLOOP S%u, %u words", va, vb);
        break;
    case SN_K_VFILL:
        add(buf, cap, &len, "VFILL A%u -> L1[%u]", ad, off);
        break;
    case SN_K_VDRAIN:
        if (KW(peer, peer)) /* peer drain: a CU_DATA burst to another node */
            add(buf, cap, &len, "VDRAIN.peer A%u -> (%u,%u) buf %u%s", ad, KW(peer, dst_x), KW(peer, dst_y),
                KW(peer, buf), KW(peer, signal) ? ", signal" : "");
        else
            add(buf, cap, &len, "VDRAIN L1[%u] -> A%u", off, ad);
        break;
    case SN_K_VBAR:
    case SN_K_VHALT:
        add(buf, cap, &len, "%s", KERNEL_OPS[op]);
        break;
    default: /* the ALU ops, 0x00..0x11 */
        add_alu(buf, cap, &len, op, w);
        break;
    }
    return KERNEL_OPS[op];
}

/* ---- the matmul cluster (artifacts-facts §3.4, sysnode-facts §3.3) ---- */

/* Every field but the last, addr_hi: addr shows {addr_hi, addr} as one
 * 40-bit field. */
static const layout_field MG_FIELDS[] = {SN_FIELDS_mg(LAYOUT_FIELD)};
#define MG_SHOWN_FIELDS (FIELD_COUNT(MG_FIELDS) - 1)

/* Fields each op always shows; any other field shows when nonzero. */
static int mg_always(unsigned op, const char *name, int dnode)
{
    static const char *const FILL[] = {"addr", "n", "sel", NULL};
    static const char *const GEMM[] = {"gm", "gn", "nk", "acc", NULL};
    static const char *const DRAIN[] = {"addr", "n", NULL};
    static const char *const DNODE[] = {"dnode", "dst_x", "dst_y", "dbuf", "dflags", "dack_x", "dack_y", NULL};
    const char *const *list = op == SN_MG_OP_FILL ? FILL : op == SN_MG_OP_GEMM ? GEMM : op == SN_MG_OP_DRAIN ? DRAIN : NULL;
    for (; list != NULL && *list != NULL; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    for (list = DNODE; op == SN_MG_OP_DRAIN && dnode && *list != NULL; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

/* ---- decoding ---- */

static void take_fields(sn_disasm *d, const sn_payload *p, const layout_field *f, unsigned n)
{
    for (unsigned i = 0; i < n && d->field_count < SN_DISASM_MAX_FIELDS; i++)
        d->fields[d->field_count++] = (sn_disasm_field){f[i].name, sn_field_get(p, f[i].hi, f[i].lo)};
}

uint64_t sn_disasm_get(const sn_disasm *d, const char *name, int *found)
{
    for (unsigned i = 0; i < d->field_count; i++) {
        if (strcmp(d->fields[i].name, name) == 0) {
            if (found != NULL)
                *found = 1;
            return d->fields[i].value;
        }
    }
    if (found != NULL)
        *found = 0;
    return UINT64_MAX;
}

static void decode_vc(sn_disasm_state *s, unsigned node, const sn_payload *p, sn_disasm *d)
{
    size_t len = 0, cap = sizeof d->text;
    switch (sn_vc_run_op(p)) {
    case SN_VC_OP_IMEM: {
        take_fields(d, p, VC_IMEM_FIELDS, FIELD_COUNT(VC_IMEM_FIELDS));
        unsigned addr = (unsigned)sn_disasm_get(d, "addr", NULL);
        uint32_t w = (uint32_t)sn_disasm_get(d, "word", NULL);
        char insn[96];
        d->op = "IMEM";
        add(d->text, cap, &len, "IMEM[%u] = 0x%08" PRIx32 "  ", addr, w);
        if (s->imm_addr[node] == (int)addr) { /* the second word of a VSETI */
            d->insn = ".imm";
            s->imm_addr[node] = -1;
            add(d->text, cap, &len, ".imm 0x%" PRIx32, w & 0xFFFFFFu); /* the model keeps 24 bits */
            return;
        }
        d->insn = kernel_word(w, insn, sizeof insn);
        s->imm_addr[node] = (int16_t)(KW(alu, op) == SN_K_VSETI ? (int)addr + 1 : -1);
        add(d->text, cap, &len, "%s", insn);
        return;
    }
    case SN_VC_OP_DESC: {
        take_fields(d, p, VC_DESC_FIELDS, FIELD_COUNT(VC_DESC_FIELDS));
        unsigned ad = (unsigned)sn_disasm_get(d, "ad", NULL), fld = (unsigned)sn_disasm_get(d, "fld", NULL);
        uint64_t value = sn_disasm_get(d, "value", NULL);
        d->op = "DESC";
        if (fld == 0) {
            add(d->text, cap, &len, "DESC A%u.base = 0x%" PRIx64, ad,
                value | sn_disasm_get(d, "value_hi", NULL) << SN_VC_VALUE_BITS);
        } else if (fld <= 4) { /* {stride[17:0] signed, bound[15:0]} */
            int32_t stride = (int32_t)sn_vc_dim_stride(value);
            add(d->text, cap, &len, "DESC A%u.dim%u = {stride %d, bound %u}", ad, fld,
                stride >= (1 << 17) ? stride - (1 << 18) : stride, (unsigned)sn_vc_dim_bound(value));
        } else {
            add(d->text, cap, &len, "DESC A%u.fld%u = 0x%" PRIx64 " (no such field: ignored)", ad, fld, value);
        }
        return;
    }
    case SN_VC_OP_RUN:
        take_fields(d, p, VC_RUN_FIELDS, FIELD_COUNT(VC_RUN_FIELDS));
        d->op = "RUN";
        add(d->text, cap, &len, "RUN pc=%" PRIu64, sn_disasm_get(d, "pc", NULL));
        return;
    default:
        take_fields(d, p, OP_FIELD, 1);
        d->op = "NOP";
        add(d->text, cap, &len, "NOP (op %" PRIu64 " retires as a no-op)", d->fields[0].value);
        return;
    }
}

static void decode_mg(const sn_payload *p, sn_disasm *d)
{
    static const char *const NAMES[4] = {NULL, "FILL", "GEMM", "DRAIN"};
    size_t len = 0, cap = sizeof d->text;
    take_fields(d, p, MG_FIELDS, MG_SHOWN_FIELDS);
    d->fields[1].value = SN_MG_DRAM_ADDR(p);
    unsigned op = (unsigned)d->fields[0].value;
    int dnode = sn_disasm_get(d, "dnode", NULL) != 0;
    if (op >= SN_MG_OP_FILL && op <= SN_MG_OP_DRAIN) {
        d->op = NAMES[op];
        add(d->text, cap, &len, "%s", d->op);
        if (op == SN_MG_OP_FILL)
            add(d->text, cap, &len, " %s", sn_disasm_get(d, "sel", NULL) ? "B" : "A");
    } else {
        d->op = "?";
        add(d->text, cap, &len, "op %u (not FILL, GEMM or DRAIN)", op);
    }
    for (unsigned i = 1; i < d->field_count; i++) {
        const sn_disasm_field *f = &d->fields[i];
        if (f->value == 0 && !mg_always(op, f->name, dnode))
            continue;
        int hex = strcmp(f->name, "addr") == 0 || strcmp(f->name, "peers") == 0;
        add(d->text, cap, &len, hex ? " %s=0x%" PRIx64 : " %s=%" PRIu64, f->name, f->value);
    }
}

void sn_disasm_init(sn_disasm_state *s)
{
    for (unsigned i = 0; i < SN_NODE_COUNT; i++)
        s->imm_addr[i] = -1;
}

void sn_disasm_payload(sn_disasm_state *s, unsigned x, unsigned y, uint16_t cu_type, const sn_table_row *row,
                       sn_disasm *out)
{
    sn_payload p = sn_table_row_payload(row);
    memset(out, 0, sizeof *out);
    if (cu_type == SN_CU_TYPE_VC) {
        out->unit = "VC";
        decode_vc(s, SN_NODE_ID(x, y), &p, out);
    } else if (cu_type == SN_CU_TYPE_MG) {
        out->unit = "MG";
        decode_mg(&p, out);
    } else {
        size_t len = 0;
        out->unit = "none";
        out->op = "?";
        take_fields(out, &p, OP_FIELD, 1);
        add(out->text, sizeof out->text, &len, "no unit at (%u,%u): %016" PRIx64 " %016" PRIx64 " %016" PRIx64
            " %016" PRIx64, x, y, row->arg3, row->arg2, row->arg1, row->arg0);
    }
}
