// Parsing an injection request (see inject.h). The events themselves are
// taken in sim.cpp, at the accesses they change.
#include "inject.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
            snprintf(err, errlen, "--inject %s: %s", text,
                     k.value == 0 ? "this kind takes no value"
                     : k.kind == SN_INJECT_UNIT_FAULT ? "the fault code must be a number in 1..255"
                                                      : "the offset must be a number");
            return -1;
        }
        if (!colon && k.value == 2) {
            snprintf(err, errlen, "--inject %s: %s needs :CODE (1..255)", text, k.name);
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
                snprintf(err, errlen, "--inject %s: the trigger must be @ROUND:STEP or @CYCLE (numbers)", text);
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
    snprintf(err, errlen, "--inject %s: unknown kind '%.*s' (kinds: %s)", text, int(name_end - text), text,
             SN_INJECT_KINDS);
    return -1;
}
