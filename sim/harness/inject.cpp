// Injected faults (see inject.h): parsing a request and taking it at the
// control accesses the simulator passes in.
#include "inject.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "err_text.h"

const char SN_INJECT_KINDS[] =
    "go-drop, completion-drop, completion-dup, completion-forge, unit-stuck, unit-fault:CODE, "
    "table-flip[:OFFSET], missing-node, mailbox-gen-a";

static const struct {
    const char *name;
    sn_inject_kind kind;
    int value; // 0 none, 1 optional, 2 required
} KINDS[] = {
    {"go-drop", SN_INJECT_GO_DROP, 0},
    {"completion-drop", SN_INJECT_COMPLETION_DROP, 0},
    {"completion-dup", SN_INJECT_COMPLETION_DUP, 0},
    {"completion-forge", SN_INJECT_COMPLETION_FORGE, 0},
    {"unit-stuck", SN_INJECT_UNIT_STUCK, 0},
    {"unit-fault", SN_INJECT_UNIT_FAULT, 2},
    {"table-flip", SN_INJECT_TABLE_FLIP, 1},
    {"missing-node", SN_INJECT_MISSING_NODE, 0},
    {"mailbox-gen-a", SN_INJECT_MAILBOX_GEN_A, 0},
};

// A decimal number, or hex after 0x, filling [text, end) exactly.
static bool number(const char *text, const char *end, uint64_t max, uint64_t *out)
{
    bool hex = end - text > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *d = hex ? text + 2 : text;
    if (d >= end)
        return false;
    uint64_t v = 0;
    for (const char *c = d; c < end; c++) {
        unsigned digit = isdigit((unsigned char)*c) ? unsigned(*c - '0')
                         : hex && isxdigit((unsigned char)*c) ? unsigned(tolower(*c) - 'a' + 10)
                                                             : 99u;
        unsigned base = hex ? 16 : 10;
        if (digit >= base || v > (max - digit) / base)
            return false;
        v = v * base + digit;
    }
    *out = v;
    return true;
}

extern "C" int sn_inject_parse(const char *text, sn_inject_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *at = strchr(text, '@');
    const char *kind_end = at ? at : text + strlen(text);
    const char *colon = static_cast<const char *>(memchr(text, ':', size_t(kind_end - text)));
    const char *name_end = colon ? colon : kind_end;
    for (const auto &k : KINDS) {
        if (strlen(k.name) != size_t(name_end - text) || strncmp(text, k.name, size_t(name_end - text)) != 0)
            continue;
        out->kind = k.kind;
        uint64_t v = 0;
        if (colon && (k.value == 0 || !number(colon + 1, kind_end, k.kind == SN_INJECT_UNIT_FAULT ? 255 : UINT32_MAX, &v) ||
                      (k.kind == SN_INJECT_UNIT_FAULT && v == 0))) {
            sn_text_fit(err, errlen, "--inject %s: %s", text,
                     k.value == 0 ? "this kind takes no value"
                     : k.kind == SN_INJECT_UNIT_FAULT ? "the fault code must be a number in 1..255"
                                                      : "the offset must be a number");
            return -1;
        }
        if (!colon && k.value == 2) {
            sn_text_fit(err, errlen, "--inject %s: %s needs :CODE (1..255)", text, k.name);
            return -1;
        }
        out->value = uint32_t(v);
        out->has_value = colon != nullptr;
        if (at) {
            const char *sep = strchr(at + 1, ':');
            const char *end = at + strlen(at);
            uint64_t a = 0, b = 0;
            bool ok = sep ? number(at + 1, sep, UINT32_MAX, &a) && number(sep + 1, end, UINT32_MAX, &b)
                          : number(at + 1, end, UINT64_MAX, &a);
            if (!ok) {
                sn_text_fit(err, errlen, "--inject %s: the trigger must be @ROUND:STEP or @CYCLE (numbers)", text);
                return -1;
            }
            out->at_step = sep != nullptr;
            out->at_cycle = sep == nullptr;
            out->round = uint32_t(a);
            out->step = uint32_t(b);
            out->cycle = a;
        }
        return 0;
    }
    sn_text_fit(err, errlen, "--inject %s: unknown kind '%.*s' (kinds: %s)", text, int(name_end - text), text,
             SN_INJECT_KINDS);
    return -1;
}

static int table_flip(sn_injector *j, const sn_inject_bus *bus);

extern "C" void sn_injector_boot(sn_injector *j, const sn_inject_bus *bus)
{
    j->taken = j->forged_pending = 0;
    j->go_drops = 0;
    sn_text_fit(j->report, sizeof j->report, "%s",
             j->spec.kind != SN_INJECT_NONE ? "injection never triggered: no matching event after the trigger" : "");
    if (j->spec.kind == SN_INJECT_TABLE_FLIP && !j->spec.at_step && (!j->spec.at_cycle || j->spec.cycle == 0))
        table_flip(j, bus);
}

// Whether the injection is armed now (a one-shot, at an access).
static bool armed(const sn_injector *j, const sn_inject_bus *bus)
{
    const sn_inject_spec &q = j->spec;
    if (q.kind == SN_INJECT_NONE || j->taken)
        return false;
    if (q.at_cycle)
        return bus->cycle(bus->ctx) >= q.cycle;
    sn_status_block sb;
    if (q.at_step)
        return bus->spad_read(bus->ctx, SN_STATUS_BLOCK_ADDR, &sb, sizeof sb) == 0 && sb.magic == SN_STATUS_MAGIC &&
               (sb.round > q.round || (sb.round == q.round && sb.step >= q.step));
    return true;
}

static void take(sn_injector *j, const sn_inject_bus *bus, const char *what)
{
    sn_status_block sb;
    unsigned long long cycle = bus->cycle(bus->ctx);
    j->taken = 1;
    if (bus->spad_read(bus->ctx, SN_STATUS_BLOCK_ADDR, &sb, sizeof sb) == 0 && sb.magic == SN_STATUS_MAGIC)
        sn_text_fit(j->report, sizeof j->report, "injected %s at cycle %llu (runner at round %u step %u)", what, cycle,
                 sb.round, sb.step);
    else
        sn_text_fit(j->report, sizeof j->report, "injected %s at cycle %llu", what, cycle);
}

extern "C" int sn_injector_access(sn_injector *j, const sn_inject_bus *bus, int write, uint32_t off, uint64_t *value)
{
    if (write && off == SN_MBOX_DST)
        j->last_dst = *value;
    if (j->forged_pending && !write && off == SN_MBOX_STAT) {
        *value = bus->mbox_read(bus->ctx, off) + 1; // the forged record counts as queued
        return 1;
    }
    if (j->forged_pending && !write && off == SN_MBOX_HEAD) {
        *value = sn_head_with_code(sn_head_with_src_x(sn_head_with_src_y(0, SN_INJECT_NO_UNIT_Y), SN_INJECT_NO_UNIT_X),
                                   SN_SIG_BATCH_COMPLETE);
        return 1;
    }
    if (j->forged_pending && write && off == SN_MBOX_HEAD) {
        j->forged_pending = 0; // its pop: the real queue is untouched
        return 1;
    }
    if (!armed(j, bus))
        return 0;
    char what[160];
    switch (j->spec.kind) {
    case SN_INJECT_GO_DROP:
        if (!write || off != SN_MBOX_GO)
            return 0;
        j->go_drops++;
        take(j, bus, "go-drop: a GO store was lost");
        return 1;
    case SN_INJECT_MISSING_NODE:
        if (!write || off != SN_MBOX_GO)
            return 0;
        bus->mbox_write(bus->ctx, SN_MBOX_DST, SN_INJECT_NO_UNIT_Y << 8 | SN_INJECT_NO_UNIT_X);
        bus->mbox_write(bus->ctx, SN_MBOX_GO, *value);
        bus->mbox_write(bus->ctx, SN_MBOX_DST, j->last_dst); // the runner's shadow of DST stays true
        take(j, bus, "missing-node: a GO sent to (3,3)");
        return 1;
    case SN_INJECT_COMPLETION_DUP:
        if (!write || off != SN_MBOX_HEAD)
            return 0;
        take(j, bus, "completion-dup: a HEAD pop was lost");
        return 1;
    case SN_INJECT_COMPLETION_DROP:
        if (write || off != SN_MBOX_STAT || sn_stat_queued(bus->mbox_read(bus->ctx, off)) == 0)
            return 0;
        sn_text_fit(what, sizeof what, "completion-drop: the completion 0x%llx was popped unseen",
                 (unsigned long long)bus->mbox_read(bus->ctx, SN_MBOX_HEAD));
        bus->mbox_write(bus->ctx, SN_MBOX_HEAD, 0);
        take(j, bus, what);
        *value = bus->mbox_read(bus->ctx, off);
        return 1;
    case SN_INJECT_COMPLETION_FORGE:
        if (write || off != SN_MBOX_STAT)
            return 0;
        j->forged_pending = 1;
        take(j, bus, "completion-forge: a completion from (3,3)");
        *value = bus->mbox_read(bus->ctx, off) + 1;
        return 1;
    case SN_INJECT_UNIT_STUCK:
    case SN_INJECT_UNIT_FAULT:
        bus->unit_fault(bus->ctx, j->spec.kind == SN_INJECT_UNIT_STUCK ? UINT32_MAX : j->spec.value);
        take(j, bus, j->spec.kind == SN_INJECT_UNIT_STUCK ? "unit-stuck: armed for the next instruction a unit issues"
                                                           : "unit-fault: armed for the next instruction a unit issues");
        return 0;
    case SN_INJECT_MAILBOX_GEN_A:
        bus->mailbox_gen_a(bus->ctx);
        take(j, bus, "mailbox-gen-a: from here the mailbox drops completions on a full queue (STAT[31])");
        return 0;
    case SN_INJECT_TABLE_FLIP:
        table_flip(j, bus);
        return 0;
    default:
        return 0;
    }
}

// Inverts the table byte the spec names (default the last), through the boot
// arguments; 0 when there is no table or the offset passes it (not taken; the
// report then says the offset is past the table, the size being known only here).
static int table_flip(sn_injector *j, const sn_inject_bus *bus)
{
    sn_boot_args args;
    char what[160];
    if (bus->spad_read(bus->ctx, SN_BOOT_ARGS_ADDR, &args, sizeof args) != 0 || args.table_bytes == 0)
        return 0;
    uint64_t at = j->spec.has_value ? j->spec.value : args.table_bytes - 1;
    if (at >= args.table_bytes) {
        sn_text_fit(j->report, sizeof j->report,
                    "injection never triggered: table-flip offset %llu is past the table's %llu bytes",
                    (unsigned long long)at, (unsigned long long)args.table_bytes);
        return 0;
    }
    if (bus->dram_flip(bus->ctx, args.table_addr + at) != 0)
        return 0;
    sn_text_fit(what, sizeof what, "table-flip: the table byte at offset %llu (DRAM 0x%llx) inverted",
             (unsigned long long)at, (unsigned long long)(args.table_addr + at));
    take(j, bus, what);
    return 1;
}

extern "C" void sn_injector_end(sn_injector *j, int still_pending, int hit_unit, uint64_t hit_payload)
{
    size_t n = strlen(j->report);
    if (still_pending)
        sn_text_fit(j->report + n, sizeof j->report - n, "; no unit issued a payload after it: nothing was injected");
    else if (hit_unit >= 0)
        sn_text_fit(j->report + n, sizeof j->report - n, "; it hit unit %d's payload %llu since boot (0-based)",
                 hit_unit, (unsigned long long)hit_payload);
}
