/* The words of every table and runner message (see messages.h). */
#include "messages.h"

#include <stdarg.h>
#include <stdio.h>

#include "err_text.h"
#include "sysnode/boot_args.h"
#include "sysnode/mesh.h"

typedef struct {
    char *buf;
    size_t size, len;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
    va_end(ap);
    if (n > 0 && t->len + (size_t)n < t->size) {
        t->len += (size_t)n;
    } else if (n > 0) { /* full: said with a mark, and nothing after it */
        sn_text_mark_cut(t->buf, t->size);
        t->len = t->size - 1;
    }
}

static text start(char *buf, size_t size)
{
    buf[0] = '\0';
    return (text){buf, size, 0};
}

static void node(text *t, uint32_t id)
{
    put(t, "(%u,%u)", id & 0xF, (id >> 4) & 0xF);
}

/* ---- table rules ---------------------------------------------------------- */

static const char *rule_text(sn_table_rule rule)
{
    switch (rule) {
    case SN_RULE_STEP_WINDOW: return "the round's steps end at ";
    case SN_RULE_PAYLOAD_WINDOW: return "the round's payloads end at ";
    case SN_RULE_ROUND_SLOTS: return "the round stages more payloads than the staging window: ";
    case SN_RULE_OPCODE: return "unknown step opcode ";
    case SN_RULE_RESERVED: return "reserved step field is not 0: ";
    case SN_RULE_ROUND_RESERVED: return "reserved round field is not 0: ";
    case SN_RULE_KICK_NODE: return "kick to a coordinate with no unit";
    case SN_RULE_KICK_EMPTY: return "kick of 0 flits";
    case SN_RULE_KICK_WINDOW: return "kick passes the staging window: ends at slot ";
    case SN_RULE_KICK_PAYLOADS: return "kick passes the round's payloads: ends at slot ";
    case SN_RULE_AWAIT_NODE: return "await on a coordinate with no unit";
    case SN_RULE_AWAIT_ZERO: return "await count of 0";
    case SN_RULE_AWAITS_SHORT: return "node awaited for fewer completions than flits kicked to it: awaited ";
    case SN_RULE_AWAIT_TOTAL: return "awaits for the node pass 2^31-1 in the round: this await ";
    case SN_RULE_KICK_TOTAL: return "flits kicked to the node pass 2^31-1 in the round: this kick ";
    case SN_RULE_ROUND_FLAGS: return "round flags with an undefined bit: ";
    case SN_RULE_SYNC_PLACE: return "a host sync step must be its round's last step, with x, y, a and b 0";
    default: return "no fault";
    }
}

static void table_fault(text *t, const sn_table_fault *f)
{
    put(t, "round %u", f->round);
    if (f->rule == SN_RULE_AWAITS_SHORT)
        put(t, " (end of round)");
    else
        put(t, " step %u", f->step);
    put(t, ": %s", rule_text(f->rule));
    switch (f->rule) {
    case SN_RULE_STEP_WINDOW:
    case SN_RULE_PAYLOAD_WINDOW:
    case SN_RULE_ROUND_SLOTS:
    case SN_RULE_KICK_WINDOW:
    case SN_RULE_KICK_PAYLOADS:
    case SN_RULE_AWAITS_SHORT:
    case SN_RULE_AWAIT_TOTAL:
    case SN_RULE_KICK_TOTAL:
        put(t, "%u%s%u", f->value,
            f->rule == SN_RULE_AWAITS_SHORT                                  ? ", kicked "
            : f->rule == SN_RULE_AWAIT_TOTAL || f->rule == SN_RULE_KICK_TOTAL ? ", room "
                                                                              : ", limit ",
            f->limit);
        break;
    case SN_RULE_OPCODE:
    case SN_RULE_RESERVED:
    case SN_RULE_ROUND_RESERVED:
        put(t, "%u", f->value);
        break;
    case SN_RULE_ROUND_FLAGS:
        put(t, "0x%x, defined 0x%x", f->value, f->limit);
        break;
    default:
        break;
    }
    if (f->rule == SN_RULE_KICK_NODE || f->rule == SN_RULE_AWAIT_NODE) {
        /* the step's coordinate as written: (17,0) is not the unit at (1,0) */
        put(t, " (node (%u,%u))", f->value & 0xFF, (f->value >> 8) & 0xFF);
    } else if (f->node != SN_STATUS_NO_NODE) {
        put(t, " (node ");
        node(t, f->node);
        put(t, ")");
    }
}

char *sn_table_fault_describe(const sn_table_fault *f, char *buf, size_t size)
{
    text t = start(buf, size);
    table_fault(&t, f);
    return buf;
}

/* ---- table image ---------------------------------------------------------- */

static void field_at(text *t, const char *name, uint64_t value, uint32_t field, int hex)
{
    put(t, hex ? "%s 0x%llx at offset 0x%x" : "%s %llu at offset 0x%x", name, (unsigned long long)value, field);
}

/* " (after N <records> of B bytes[, aligned to A])" after an offset check. */
static void section_note(text *t, uint64_t count, const char *records, unsigned bytes, unsigned align)
{
    put(t, " (after %llu%s%u bytes", (unsigned long long)count, records, bytes);
    if (align != 0)
        put(t, ", aligned to %u", align);
    put(t, ")");
}

/* The words of each header-field check: the field, whether its values are
 * hex, the text after it (with the expected value when it has a %), and for
 * the offset checks the section before the field (FORMAT.md §2). */
typedef struct {
    const char *name;
    int hex;
    const char *after;
    const char *records; /* " rounds of " etc., or NULL: no section note */
    unsigned record_bytes, align;
} field_check_words;

static const field_check_words field_checks[] = {
    [SN_TI_MAGIC] = {"magic", 1, ", expected 0x%llx (\"SNTB\")", NULL, 0, 0},
    [SN_TI_VERSION] = {"format version", 0, ", this build reads version %llu", NULL, 0, 0},
    [SN_TI_HEADER_BYTES] = {"header size", 0, ", expected %llu", NULL, 0, 0},
    [SN_TI_SCHEMA] = {"schema hash", 1, ", this build's schema hashes to 0x%llx", NULL, 0, 0},
    [SN_TI_HEADER_CRC] = {"header CRC", 1, ", computed 0x%llx", NULL, 0, 0},
    [SN_TI_RESERVED] = {"reserved field", 1, ", expected 0", NULL, 0, 0},
    [SN_TI_ROUNDS_OFFSET] = {"rounds offset", 1, ", expected 0x%llx (the header's end)", NULL, 0, 0},
    [SN_TI_STEPS_OFFSET] = {"steps offset", 1, ", expected 0x%llx", " rounds of ", sizeof(sn_table_round),
                            SN_TABLE_IMAGE_STEPS_ALIGN},
    [SN_TI_PAYLOADS_OFFSET] = {"payloads offset", 1, ", expected 0x%llx", " steps of ", sizeof(sn_table_step),
                               SN_TABLE_IMAGE_PAYLOADS_ALIGN},
    [SN_TI_TOTAL_BYTES] = {"total bytes", 1, ", expected 0x%llx", " payloads of ", sizeof(sn_table_row), 0},
    [SN_TI_TRUNCATED] = {"total bytes", 0, ", but the image holds %llu (truncated)", NULL, 0, 0},
    [SN_TI_STRUCTURE_HASH] = {"structure hash", 1, ", computed 0x%llx", NULL, 0, 0},
    [SN_TI_PAYLOAD_HASH] = {"payload hash", 1, ", computed 0x%llx", NULL, 0, 0},
};

static void table_image(text *t, const sn_table_image_fault *f)
{
    unsigned long long value = f->value, expected = f->expected;
    const field_check_words *w =
        (size_t)f->check < sizeof field_checks / sizeof field_checks[0] ? &field_checks[f->check] : NULL;
    put(t, "table: ");
    if (f->check == SN_TI_OK) {
        put(t, "no fault");
    } else if (f->check == SN_TI_ALIGN) {
        put(t, "image address 0x%llx is not a multiple of %llu", value, expected);
    } else if (f->check == SN_TI_SHORT) {
        put(t, "image is %llu bytes, shorter than the %llu-byte header", value, expected);
    } else if (w && w->name) {
        if (f->check == SN_TI_PAYLOAD_HASH)
            put(t, "round %llu's ", (unsigned long long)f->count);
        int flags = f->check == SN_TI_RESERVED && f->field == offsetof(sn_table_image_header, flags);
        field_at(t, flags ? "flags" : w->name, value, f->field, w->hex);
        put(t, w->after, expected);
        if (w->records)
            section_note(t, f->count, w->records, w->record_bytes, w->align);
    } else {
        put(t, "unknown check %u", (unsigned)f->check);
    }
}

char *sn_table_image_describe(const sn_table_image_fault *f, char *buf, size_t size)
{
    text t = start(buf, size);
    table_image(&t, f);
    return buf;
}

/* ---- the runner's status block --------------------------------------------- */

static const sn_status_unit *unit_of(const sn_status_block *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->unit_count && i < SN_STATUS_UNITS; i++)
        if (s->units[i].node == id)
            return &s->units[i];
    return NULL;
}

/* One line per unit still owed completions or with flits outstanding. */
static void owed(text *t, const sn_status_block *s)
{
    for (uint32_t i = 0; i < s->unit_count && i < SN_STATUS_UNITS; i++) {
        const sn_status_unit *u = &s->units[i];
        if (u->expected == u->received && u->outstanding == 0)
            continue;
        put(t, "\n  node ");
        node(t, u->node);
        put(t, ": awaited %u, received %u, owed %u, flits outstanding %u", u->expected, u->received,
            u->expected > u->received ? u->expected - u->received : 0, u->outstanding);
    }
}

/* Vector-core fault codes (sysnode-facts §3.2, compiler/kohakutpu/hw/vector.py@7703ee8). */
static const char *const vc_faults[] = {"",       "dtype",         "vector source", "chain", "opcode",
                                        "walk past 256 entries", "loop nesting", "VL", "reduction VL",
                                        "bad CU_DATA"};

/* Matmul-cluster fault codes (enum sn_mc_fault, sim/models/matmul_cluster.h: the compiler's ModelError cases). */
static const char *const mg_faults[] = {"",           "opcode",    "FILL range",        "FILL hazard",
                                        "GEMM range", "acc chain", "DRAIN before GEMM", "DRAIN range"};

static void runner_error(text *t, const sn_status_block *s)
{
    switch (s->error) {
    case SN_ERR_TABLE_IMAGE: {
        sn_table_image_fault f = {(sn_table_image_check)s->error_rule, s->detail_field, s->detail[0], s->detail[1],
                                  s->detail[2]};
        table_image(t, &f);
        return;
    }
    case SN_ERR_BOOT_ARGS:
        put(t, s->error_value == SN_BOOT_ARGS_OUTSIDE
                   ? "boot arguments place the table or the result region outside DRAM"
                   : "no boot-argument block at 0x%x (magic or version wrong)",
            (unsigned)SN_BOOT_ARGS_ADDR);
        return;
    case SN_ERR_TRAP:
        put(t, "trap: mcause=0x%llx mepc=0x%llx mtval=0x%llx", (unsigned long long)s->detail[0],
            (unsigned long long)s->detail[1], (unsigned long long)s->detail[2]);
        return;
    case SN_ERR_TABLE_CHANGED:
        put(t, "the table in DRAM changed after it was checked (a unit wrote over it?): ");
        /* fall through */
    case SN_ERR_TABLE_STEP:
    case SN_ERR_TABLE_SLOT:
    case SN_ERR_TABLE_NODE:
        if (s->error_rule != SN_RULE_NONE) {
            sn_table_fault f = {(sn_status)s->error, (sn_table_rule)s->error_rule, s->error_round, s->error_step,
                                s->error_node, s->error_value, s->error_limit};
            table_fault(t, &f);
            return;
        }
        break;
    default:
        break;
    }
    put(t, "round %u step %u: ", s->error_round, s->error_step);
    switch (s->error) {
    case SN_ERR_UNIT_FAULT: {
        const sn_status_unit *u = unit_of(s, s->error_node);
        put(t, "SIG_FAULT, argument %u", s->error_value);
        if (u && u->cu_type == SN_CU_TYPE_VC && s->error_value >= 1 && s->error_value <= 9)
            put(t, " (vector core fault: %s)", vc_faults[s->error_value]);
        else if (u && u->cu_type == SN_CU_TYPE_MG && s->error_value >= 1 && s->error_value <= 7)
            put(t, " (matmul cluster fault: %s)", mg_faults[s->error_value]);
        break;
    }
    case SN_ERR_EXTRA_COMPLETION:
        put(t, "received %u completions, awaited %u", s->error_value, s->error_limit);
        break;
    case SN_ERR_UNKNOWN_SOURCE:
        put(t, "completion (code %u) from a coordinate with no unit", s->error_value);
        break;
    case SN_ERR_LOST_COMPLETION:
        put(t, "STAT[31] set: the mailbox dropped completions");
        break;
    case SN_ERR_RX_FLIT:
        put(t, "a flit of type %u (not a CU_SIGNAL) reached the SysNode and waits in its RX queue", s->error_value);
        break;
    case SN_ERR_UNIT_CAPS:
        put(t, "CU_CAPS[63:32] 0x%x disagrees with the mesh description (type, or inst_depth 0)", s->error_value);
        break;
    case SN_ERR_PROTOCOL:
        put(t, "unexpected signal code or reply %u", s->error_value);
        break;
    case SN_ERR_HANG:
        if (s->phase == SN_PHASE_HOST_SYNC) { /* FORMAT.md §9 */
            put(t, "hang: the host did not release host sync point %u within %u cycles", s->error_value,
                s->error_limit);
            return;
        }
        if (s->phase == SN_PHASE_BOOT) {
            put(t, "hang: no CU_CTRL reply from ");
            node(t, s->error_node);
            put(t, " within %u cycles", s->error_value);
            return;
        }
        put(t, "hang: no completion for %u cycles while %s", s->error_value,
            s->phase == SN_PHASE_KICK ? "sending to " : "waiting on ");
        if (s->error_node == SN_STATUS_NO_NODE)
            put(t, "every node");
        else
            node(t, s->error_node);
        put(t, "; owed:");
        owed(t, s);
        return;
    default:
        put(t, "error 0x%x", s->error);
    }
    if (s->error_node != SN_STATUS_NO_NODE) {
        put(t, "; node ");
        node(t, s->error_node);
    }
}

char *sn_runner_describe(const sn_status_block *s, char *buf, size_t size)
{
    text t = start(buf, size);
    if (s->error == SN_OK)
        put(&t, "ok");
    else
        runner_error(&t, s);
    return buf;
}

char *sn_phase_describe(uint32_t phase, char *buf, size_t size)
{
    static const char *const words[] = {
        [SN_PHASE_BOOT] = "booting (table check, unit probe)",
        [SN_PHASE_KICK] = "sending payloads",
        [SN_PHASE_AWAIT] = "awaiting completions",
        [SN_PHASE_BARRIER] = "at a barrier",
        [SN_PHASE_ROUND_END] = "ending the round (drain, settle)",
        [SN_PHASE_DONE] = "done",
        [SN_PHASE_HOST_SYNC] = "holding at a host sync point",
    };
    text t = start(buf, size);
    if (phase < sizeof words / sizeof words[0] && words[phase])
        put(&t, "%s", words[phase]);
    else
        put(&t, "phase %u", phase);
    return buf;
}

char *sn_runner_where(const sn_status_block *s, char *buf, size_t size)
{
    char phase[48];
    text t = start(buf, size);
    put(&t, "runner at round %u step %u, %s", s->round, s->step, sn_phase_describe(s->phase, phase, sizeof phase));
    return buf;
}
