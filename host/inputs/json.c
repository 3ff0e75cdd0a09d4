/* Strict JSON for the host: one pass over the text checks it against the
 * RFC 8259 grammar (exact byte offsets for every error) and records each
 * value as a 4-byte token as it goes; typed lookups then walk the tokens.
 * The check has to see every value's bounds anyway (a tokenizer such as
 * jsmn is lenient, tool-pitfalls 14), so a second, tokenizing pass would
 * only cost time and memory. simdjson's On-Demand parser was measured against
 * this and not taken (tool-pitfalls 23; docs/DESIGN.md §14). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "json.h"
#include "ascii_digits.h"
#include "err_text.h"
#include "file_read.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A value or member name is a token of 4 bytes: the offset of its first
 * byte (a string's opening quote; documents are at most 2^30 bytes) and two
 * flags, FOLLOWED (a ',' and another element or member come after it in its
 * container; never set on a member's value) and MEMBER_NAME. Tokens are in
 * document order, so a member's value follows its name. An object or array
 * takes one slot more, right after its token and before its children: its
 * follower, the token that follows it in its parent (its next element, or
 * the member name after the member it is the value of), which its children
 * cannot give. A followed scalar element's next is the next token, a
 * followed name's the token after its scalar value. Kind, end and element
 * count are read off the checked text.
 *
 * An array of short scalars only (a step, a list of small numbers;
 * leaf_pays) is a leaf: when it closes, its elements' tokens are given back
 * and its follower slot is marked LEAF. Its elements are then addressed by
 * text handles (TEXT_HANDLE | the element's offset) and found by reading
 * the checked text, so a step such as ["kick",1,0,0,26] costs 8 bytes of
 * index instead of 28, and no valid case's index outgrows its text. Token
 * indexes and offsets are both below 2^30: a document has at most one slot
 * per byte (a scalar takes a byte at least, a name or a container two). */
#define TOK_FOLLOWED (1u << 31)
#define TOK_MEMBER_NAME (1u << 30)
#define TOK_OFFSET (TOK_MEMBER_NAME - 1)
#define FOLLOWER_LEAF (1u << 31)
#define FOLLOWER_NONE 0x7FFFFFFFu
#define TEXT_HANDLE (1 << 30)
_Static_assert(SN_FILE_MAX_BYTES <= (unsigned long long)TOK_OFFSET + 1, "every offset of a document fits a token");
_Static_assert(SN_FILE_MAX_BYTES <= (unsigned long long)TEXT_HANDLE, "offsets and token indexes stay below a text handle's flag");

struct sn_json {
    char *name;
    char *text; /* NUL-terminated, owned */
    size_t len;
    uint32_t *tok; /* start offsets and flags, and each container's follower slot */
    int ntok;
    int tok_cap;     /* slots allocated at tok */
    size_t text_cap; /* bytes allocated at text */
    bool reused;     /* buffers kept for the next sn_json_reload_fd: no shrinking */
};

/* Longest piece of offending text quoted in a message. */
#define QUOTE_MAX 40

/* ---- locating and reporting ---- */

static sn_status vfail_at(const char *name, const char *text, size_t off, sn_status code,
                          sn_error *e, const char *fmt, va_list ap)
{
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char msg[sizeof e->msg];
    sn_text_vfit(msg, sizeof msg, fmt, ap);
    return sn_error_set(e, code, "%s:%zu:%zu (byte %zu): %s", name, line, col, off, msg);
}

static sn_status fail_at(const char *name, const char *text, size_t off, sn_error *e,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static sn_status fail_at(const char *name, const char *text, size_t off, sn_error *e,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sn_status s = vfail_at(name, text, off, SN_ERR_INPUT, e, fmt, ap);
    va_end(ap);
    return s;
}

/* Names byte c for a message: 'x' when printable, else its hex value. */
static const char *describe(unsigned char c, char buf[16])
{
    if (c >= 0x20 && c < 0x7f)
        sn_text_fit(buf, 16, "'%c'", c);
    else
        sn_text_fit(buf, 16, "byte 0x%02x", c);
    return buf;
}

/* ---- grammar check (RFC 8259) ---- */

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A byte that belongs to an unquoted word (number or literal) when it is not
 * whitespace, structure, a quote or a control byte: such a run is quoted
 * whole in a message, e.g. invalid number "12a4". */
static bool is_word(unsigned char c)
{
    switch (c) {
    case '"': case '[': case ']': case '{': case '}': case ',': case ':':
        return false;
    default:
        return c > 0x20 && c != 0x7f;
    }
}

static size_t word_end(const char *s, size_t n, size_t i)
{
    while (i < n && is_word((unsigned char)s[i]))
        i++;
    return i;
}

/* Validates the number starting at s[i]; *end receives the offset past it. */
static sn_status scan_number(const char *name, const char *s, size_t n, size_t i, size_t *end,
                             sn_error *e)
{
    size_t start = i;
    bool ok = true;
    if (s[i] == '-')
        i++;
    if (i < n && s[i] == '0') {
        i++;
    } else if (i < n && is_digit(s[i])) {
        i = sn_ascii_digits_end(s, n, i);
    } else {
        ok = false;
    }
    if (ok && i < n && s[i] == '.') {
        i++;
        ok = i < n && is_digit(s[i]);
        while (i < n && is_digit(s[i]))
            i++;
    }
    if (ok && i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        ok = i < n && is_digit(s[i]);
        while (i < n && is_digit(s[i]))
            i++;
    }
    /* "01", "12a4", "1.5.3": the grammar stopped inside a word. */
    if (!ok || (i < n && is_word((unsigned char)s[i]))) {
        size_t w = word_end(s, n, start);
        return fail_at(name, s, start, e, "invalid number \"%.*s%s\"",
                       (int)(w - start > QUOTE_MAX ? QUOTE_MAX : w - start), s + start,
                       w - start > QUOTE_MAX ? "..." : "");
    }
    *end = i;
    return SN_OK;
}

static sn_status scan_literal(const char *name, const char *s, size_t n, size_t i, size_t *end,
                              sn_error *e)
{
    size_t w = word_end(s, n, i);
    static const char *const literals[] = {"true", "false", "null"};
    for (size_t k = 0; k < 3; k++) {
        if (w - i == strlen(literals[k]) && memcmp(s + i, literals[k], w - i) == 0) {
            *end = w;
            return SN_OK;
        }
    }
    return fail_at(name, s, i, e, "invalid value \"%.*s%s\" (not a number, string, true, false or null)",
                   (int)(w - i > QUOTE_MAX ? QUOTE_MAX : w - i), s + i,
                   w - i > QUOTE_MAX ? "..." : "");
}

/* Reads the 4 hex digits of a \u escape at s[i] (i at the 'u'); -1 if bad. */
static long read_u_escape(const char *s, size_t n, size_t i)
{
    if (i + 4 >= n)
        return -1;
    long v = 0;
    for (size_t k = 1; k <= 4; k++) {
        int h = sn_ascii_hex_value(s[i + k]);
        if (h < 0)
            return -1;
        v = v << 4 | h;
    }
    return v;
}

/* Length of the well-formed UTF-8 sequence at s[i] (RFC 3629 §4), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n, size_t i)
{
    unsigned char c = s[i];
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF; /* bounds of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) { /* no overlongs (E0) or surrogates (ED) */
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) { /* no overlongs (F0) or > U+10FFFF (F4) */
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (i + need >= n || s[i + 1] < lo || s[i + 1] > hi)
        return 0;
    for (size_t k = 2; k <= need; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xBF)
            return 0;
    return need + 1;
}

/* Validates the string whose opening quote is s[i]. */
static sn_status scan_string(const char *name, const char *s, size_t n, size_t i, size_t *end,
                             sn_error *e)
{
    size_t start = i++;
    char d[16];
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') {
            *end = i + 1;
            return SN_OK;
        }
        if (c == '\\') {
            char x = i + 1 < n ? s[i + 1] : '\0';
            if (x != 'u') {
                if (x == '\0' || strchr("\"\\/bfnrt", x) == NULL)
                    return fail_at(name, s, i, e, "invalid escape \"\\%c\" in a string",
                                   x >= 0x20 && x < 0x7f ? x : '?');
                i += 2;
                continue;
            }
            long u = read_u_escape(s, n, i + 1);
            if (u < 0)
                return fail_at(name, s, i, e, "invalid \\u escape (4 hex digits expected)");
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail_at(name, s, i, e, "\\u%04lX is a lone low surrogate", u);
            if (u >= 0xD800 && u <= 0xDBFF) {
                long lowhalf = i + 7 < n && s[i + 6] == '\\' && s[i + 7] == 'u'
                                   ? read_u_escape(s, n, i + 7)
                                   : -1;
                if (lowhalf < 0xDC00 || lowhalf > 0xDFFF)
                    return fail_at(name, s, i, e, "\\u%04lX is a high surrogate without its low half",
                                   u);
                i += 6;
            }
            i += 6;
            continue;
        }
        if (c < 0x20)
            return fail_at(name, s, i, e, "unescaped control character %s in a string",
                           describe(c, d));
        if (c >= 0x80) {
            size_t k = utf8_length((const unsigned char *)s, n, i);
            if (k == 0)
                return fail_at(name, s, i, e, "invalid UTF-8 in a string");
            i += k;
            continue;
        }
        i++;
    }
    return fail_at(name, s, start, e, "unterminated string (the input ends inside it)");
}

enum {
    EXPECT_VALUE,
    EXPECT_VALUE_OR_CLOSE, /* just after '[' */
    EXPECT_KEY,
    EXPECT_KEY_OR_CLOSE, /* just after '{' */
    EXPECT_COLON,
    EXPECT_COMMA_OR_CLOSE,
    EXPECT_END,
};

/* An open container while checking: its own token, its last element or
 * member name (-1: none yet; a ',' after it sets its TOK_FOLLOWED), the
 * follower slot of its last child that is a container (an element, or a
 * member's value) and still waits for its follower (-1: none), whether any
 * child is a container (an array without one closes as a leaf), and its
 * bracket. */
typedef struct {
    int self;
    int last;
    int pending;
    bool nested;
    char open;
} open_container;

/* Whether array `a` of d, of scalars only, closing at offset `close` and
 * with its elements' tokens last in d, is better read as a leaf: when its elements
 * average under LEAF_SPAN bytes each (a step, a list of small numbers).
 * Longer ones, such as a flit list of 78-digit integers, keep their tokens
 * (at most a quarter of their text) for lookups that need no rescan. */
#define LEAF_SPAN 16
static bool leaf_pays(const sn_json *d, const open_container *a, size_t close)
{
    size_t elements = (size_t)(d->ntok - (a->self + 2));
    return close - (d->tok[a->self] & TOK_OFFSET) < LEAF_SPAN * elements;
}

/* Doubles d's token array of *cap slots (at least 64); false when memory
 * or int indexes run out. */
static bool grow(sn_json *d, int *cap)
{
    int grown_cap = *cap < 64 ? 64 : *cap > INT_MAX / 2 ? INT_MAX : *cap * 2;
    uint32_t *grown = grown_cap > *cap ? realloc(d->tok, (size_t)grown_cap * sizeof *grown) : NULL;
    if (grown == NULL)
        return false;
    d->tok = grown;
    *cap = grown_cap;
    return true;
}

/* Appends a token for the value or name starting at `start` (`flags`:
 * TOK_MEMBER_NAME or 0); returns its index, or -1 when memory runs out.
 * `follows` is true for an array's element and a member name: it becomes
 * the parent's last, and the parent's pending follower slot (its previous
 * element's, or the previous member's value's) is pointed at it. A
 * container (`container`) gets its follower slot (-1 until then), pending
 * in its parent. */
static int add_token(sn_json *d, int *cap, open_container *top, bool follows, bool container, size_t start,
                     uint32_t flags)
{
    int slots = container ? 2 : 1;
    while (d->ntok > *cap - slots)
        if (!grow(d, cap))
            return -1;
    int i = d->ntok;
    d->ntok += slots;
    d->tok[i] = (uint32_t)start | flags;
    if (top != NULL && follows) {
        top->last = i;
        if (top->pending >= 0)
            d->tok[top->pending] = (d->tok[top->pending] & FOLLOWER_LEAF) | (uint32_t)i;
        top->pending = -1;
    }
    if (container) {
        d->tok[i + 1] = FOLLOWER_NONE; /* nothing follows yet */
        if (top != NULL) {
            top->pending = i + 1;
            top->nested = true;
        }
    }
    return i;
}

/* After a number element of array `top` ending at *i: takes the numbers
 * that follow it as ", number" straight away (a flit list is thousands of
 * them), as the checker's states would: the same checks, tokens and flags.
 * Returns at anything else, *i past the last number taken, for the states
 * to go on from. */
static sn_status number_run(sn_json *d, int *cap, open_container *top, size_t *i, sn_error *e)
{
    const char *s = d->text;
    size_t n = d->len;
    for (;;) {
        size_t comma = *i, next;
        while (comma < n && is_ws(s[comma]))
            comma++;
        if (comma == n || s[comma] != ',')
            return SN_OK;
        for (next = comma + 1; next < n && is_ws(s[next]);)
            next++;
        if (next == n || (s[next] != '-' && !is_digit(s[next])))
            return SN_OK;
        d->tok[top->last] |= TOK_FOLLOWED;
        /* A digit run from 1-9 up to a ',', ']' or whitespace is a whole
         * integer (a flit); anything else takes the full grammar. */
        bool plain = s[next] >= '1' && s[next] <= '9';
        size_t end = plain ? sn_ascii_digits_end(s, n, next + 1) : next;
        if (!plain || end == n || (s[end] != ',' && s[end] != ']' && !is_ws(s[end]))) {
            sn_status st = scan_number(d->name, s, n, next, &end, e);
            if (st != SN_OK)
                return st;
        }
        /* the previous element took the parent's pending follower slot */
        if (d->ntok == *cap && !grow(d, cap))
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory for JSON tokens", d->name);
        top->last = d->ntok;
        d->tok[d->ntok++] = (uint32_t)next;
        *i = end;
    }
}

/* Checks the whole text against the JSON grammar and records its tokens in
 * d; the root must be an object or array, nested at most
 * SN_JSON_MAX_DEPTH deep. */
static sn_status validate(sn_json *d, sn_error *e)
{
    const char *name = d->name, *s = d->text;
    size_t n = d->len;
    open_container stack[SN_JSON_MAX_DEPTH];
    size_t depth = 0;
    int state = EXPECT_VALUE, cap = d->tok_cap;
    size_t i = 0;
    char c_desc[16];
    sn_status st = SN_OK;
    while (st == SN_OK) {
        while (i < n && is_ws(s[i]))
            i++;
        if (i == n)
            break;
        char c = s[i];
        open_container *top = depth > 0 ? &stack[depth - 1] : NULL;
        char open = top ? top->open : '\0';
        bool closed = false, value_done = false;
        size_t start = i;
        switch (state) {
        case EXPECT_END:
            st = fail_at(name, s, i, e, "unexpected %s after the end of the document",
                         describe((unsigned char)c, c_desc));
            break;
        case EXPECT_COLON:
            if (c == ':') {
                i++;
                state = EXPECT_VALUE;
            } else {
                st = fail_at(name, s, i, e, "expected ':' after a member name, found %s",
                             describe((unsigned char)c, c_desc));
            }
            break;
        case EXPECT_COMMA_OR_CLOSE:
            if (c == ',') {
                d->tok[top->last] |= TOK_FOLLOWED;
                i++;
                state = open == '{' ? EXPECT_KEY : EXPECT_VALUE;
            } else if (c == (open == '{' ? '}' : ']')) {
                closed = true;
            } else {
                st = fail_at(name, s, i, e, "expected ',' or '%c', found %s",
                             open == '{' ? '}' : ']', describe((unsigned char)c, c_desc));
            }
            break;
        case EXPECT_KEY_OR_CLOSE:
        case EXPECT_KEY:
            if (c == '}' && state == EXPECT_KEY_OR_CLOSE) {
                closed = true;
            } else if (c == '"') {
                st = scan_string(name, s, n, i, &i, e);
                if (st == SN_OK && add_token(d, &cap, top, true, false, start, TOK_MEMBER_NAME) < 0)
                    st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory for JSON tokens", name);
                state = EXPECT_COLON;
            } else {
                st = fail_at(name, s, i, e, "expected a member name (a string)%s, found %s",
                             state == EXPECT_KEY_OR_CLOSE ? " or '}'" : "",
                             describe((unsigned char)c, c_desc));
            }
            break;
        case EXPECT_VALUE_OR_CLOSE:
        case EXPECT_VALUE:
            if (c == ']' && state == EXPECT_VALUE_OR_CLOSE) {
                closed = true;
            } else if ((c == '{' || c == '[') && depth == SN_JSON_MAX_DEPTH) {
                st = fail_at(name, s, i, e, "nested deeper than %d levels", SN_JSON_MAX_DEPTH);
            } else if (c == '{' || c == '[') {
                int self = add_token(d, &cap, top, open == '[', true, i, 0);
                if (self < 0) {
                    st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory for JSON tokens", name);
                    break;
                }
                stack[depth++] = (open_container){self, -1, -1, false, c};
                i++;
                state = c == '{' ? EXPECT_KEY_OR_CLOSE : EXPECT_VALUE_OR_CLOSE;
            } else if (depth == 0) {
                st = fail_at(name, s, i, e, "the document must be a JSON object or array, found %s",
                             describe((unsigned char)c, c_desc));
            } else if (c == '"') {
                st = scan_string(name, s, n, i, &i, e);
                value_done = true;
            } else if (c == '-' || is_digit(c)) {
                st = scan_number(name, s, n, i, &i, e);
                value_done = true;
            } else if (is_word((unsigned char)c)) {
                st = scan_literal(name, s, n, i, &i, e);
                value_done = true;
            } else {
                st = fail_at(name, s, i, e, "expected a value, found %s",
                             describe((unsigned char)c, c_desc));
            }
            if (st == SN_OK && value_done && add_token(d, &cap, top, open == '[', false, start, 0) < 0)
                st = sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory for JSON tokens", name);
            if (st == SN_OK && value_done && open == '[' && (c == '-' || is_digit(c)))
                st = number_run(d, &cap, top, &i, e);
            break;
        default:
            st = sn_error_set(e, SN_ERR_INTERNAL, "%s: JSON check in unknown state %d", name, state);
            break;
        }
        if (closed) {
            if (open == '[' && !top->nested && leaf_pays(d, top, i)) {
                d->ntok = top->self + 2;
                d->tok[top->self + 1] |= FOLLOWER_LEAF;
            }
            depth--;
            i++;
            value_done = true;
        }
        if (value_done)
            state = depth == 0 ? EXPECT_END : EXPECT_COMMA_OR_CLOSE;
    }
    if (st == SN_OK && state != EXPECT_END)
        st = fail_at(name, s, n, e, "unexpected end of input%s",
                     n == 0 ? " (the file is empty)" : " (truncated document)");
    if (st == SN_OK && d->ntok < cap && !d->reused) { /* give back the growth slack */
        uint32_t *fit = realloc(d->tok, (size_t)d->ntok * sizeof *fit);
        if (fit != NULL) {
            d->tok = fit;
            cap = d->ntok;
        }
    }
    d->tok_cap = cap;
    return st;
}

/* Takes `text` (len bytes plus a NUL, heap-allocated) into a new document:
 * on success *out owns it, on failure it is freed. */
static sn_status parse_owned(const char *name, char *text, size_t len, sn_json **out, sn_error *e)
{
    *out = NULL;
    if (len > SN_FILE_MAX_BYTES) {
        free(text);
        return sn_error_set(e, SN_ERR_INPUT, "%s: %zu bytes is too large for a JSON document (limit %llu)", name,
                            len, (unsigned long long)SN_FILE_MAX_BYTES);
    }
    sn_json *d = calloc(1, sizeof *d);
    if (d == NULL) {
        free(text);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", name);
    }
    d->text = text;
    d->len = len;
    d->name = strdup(name);
    if (d->name == NULL) {
        sn_json_free(d);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", name);
    }
    sn_status st = validate(d, e);
    if (st != SN_OK) {
        sn_json_free(d);
        return st;
    }
    *out = d;
    return SN_OK;
}

sn_status sn_json_parse(const char *name, const char *text, size_t len, sn_json **out,
                        sn_error *e)
{
    *out = NULL;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", name);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return parse_owned(name, copy, len, out, e);
}

sn_status sn_json_load(const char *path, sn_json **out, sn_error *e)
{
    unsigned char *data;
    size_t len;
    *out = NULL;
    sn_status st = sn_file_read(path, &data, &len, e);
    if (st != SN_OK)
        return st;
    return parse_owned(path, (char *)data, len, out, e);
}

sn_status sn_json_reload_fd(int fd, const char *path, sn_json **doc, sn_error *e)
{
    sn_json *d = *doc;
    if (d == NULL) {
        d = calloc(1, sizeof *d);
        if (d == NULL) {
            close(fd);
            return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
        }
        d->reused = true;
        *doc = d;
    }
    free(d->name);
    d->name = strdup(path);
    d->ntok = 0;
    if (d->name == NULL) {
        close(fd);
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", path);
    }
    unsigned char *text = (unsigned char *)d->text;
    sn_status st = sn_file_read_fd_into(fd, path, &text, &d->text_cap, &d->len, e);
    d->text = (char *)text;
    if (st != SN_OK) {
        d->len = 0;
        return st;
    }
    return validate(d, e);
}

sn_status sn_json_load_fd(int fd, const char *path, sn_json **out, sn_error *e)
{
    unsigned char *data;
    size_t len;
    *out = NULL;
    sn_status st = sn_file_read_fd(fd, path, &data, &len, e);
    if (st != SN_OK)
        return st;
    return parse_owned(path, (char *)data, len, out, e);
}

void sn_json_free(sn_json *doc)
{
    if (doc == NULL)
        return;
    free(doc->name);
    free(doc->text);
    free(doc->tok);
    free(doc);
}

/* ---- lookups ---- */

/* The offset of v's first byte, for a token or a text handle. */
static size_t start_of(const sn_json *doc, int v)
{
    return v & TEXT_HANDLE ? (size_t)(v & ~TEXT_HANDLE) : doc->tok[v] & TOK_OFFSET;
}

/* The offset just past the checked string, number or literal at `start`. */
static inline size_t scalar_end(const sn_json *doc, size_t start)
{
    const char *s = doc->text;
    if (s[start] == '"') { /* it ends at its first unescaped quote */
        size_t end = start + 1;
        while (s[end] != '"')
            end += s[end] == '\\' ? 2 : 1;
        return end + 1;
    }
    /* a number's digits first, quickly; then its fraction, exponent or a literal's letters */
    return word_end(s, doc->len, sn_ascii_digits_end(s, doc->len, start));
}

/* The text handle of the leaf element at or after offset i (whitespace
 * skipped), or -1 at the leaf's closing bracket. */
static int leaf_element(const sn_json *doc, size_t i)
{
    while (is_ws(doc->text[i]))
        i++;
    return doc->text[i] == ']' ? -1 : TEXT_HANDLE | (int)i;
}

const char *sn_json_name(const sn_json *doc)
{
    return doc->name;
}

int sn_json_root(const sn_json *doc)
{
    (void)doc;
    return 0;
}

sn_json_kind sn_json_kind_of(const sn_json *doc, int v)
{
    switch (doc->text[start_of(doc, v)]) { /* the checked text's first byte says */
    case '{':
        return SN_JSON_OBJECT;
    case '[':
        return SN_JSON_ARRAY;
    case '"':
        return SN_JSON_STRING;
    case 't':
    case 'f':
        return SN_JSON_BOOL;
    case 'n':
        return SN_JSON_NULL;
    default:
        return SN_JSON_NUMBER;
    }
}

static const char *kind_name(sn_json_kind k)
{
    switch (k) {
    case SN_JSON_OBJECT:
        return "an object";
    case SN_JSON_ARRAY:
        return "an array";
    case SN_JSON_STRING:
        return "a string";
    case SN_JSON_NUMBER:
        return "a number";
    case SN_JSON_BOOL:
        return "true/false";
    case SN_JSON_NULL:
        return "null";
    default:
        return "an unknown value";
    }
}

/* True when container v has a first child: the next byte that is not
 * whitespace does not close it. */
static bool has_children(const sn_json *doc, int v)
{
    size_t i = start_of(doc, v) + 1;
    while (is_ws(doc->text[i]))
        i++;
    return doc->text[i] != '}' && doc->text[i] != ']';
}

int sn_json_first(const sn_json *doc, int v)
{
    sn_json_kind k = sn_json_kind_of(doc, v);
    if (k != SN_JSON_OBJECT && k != SN_JSON_ARRAY)
        return -1;
    if (doc->tok[v + 1] & FOLLOWER_LEAF)
        return leaf_element(doc, start_of(doc, v) + 1);
    return has_children(doc, v) ? v + 2 : -1; /* past the follower slot */
}

size_t sn_json_count(const sn_json *doc, int v)
{
    size_t n = 0;
    for (int c = sn_json_first(doc, v); c >= 0; c = sn_json_next(doc, c))
        n++;
    return n;
}

static bool is_container(const sn_json *doc, int v)
{
    char c = doc->text[start_of(doc, v)];
    return c == '{' || c == '[';
}

int sn_json_next(const sn_json *doc, int v)
{
    if (v & TEXT_HANDLE) { /* a leaf's element: a ',' after it, or its bracket */
        size_t i = scalar_end(doc, start_of(doc, v));
        while (is_ws(doc->text[i]))
            i++;
        return doc->text[i] == ',' ? leaf_element(doc, i + 1) : -1;
    }
    uint32_t t = doc->tok[v];
    if (!(t & TOK_FOLLOWED))
        return -1;
    int last = t & TOK_MEMBER_NAME ? v + 1 : v; /* a member ends with its value */
    return is_container(doc, last) ? (int)(doc->tok[last + 1] & ~FOLLOWER_LEAF) : last + 1;
}

int sn_json_value(const sn_json *doc, int key)
{
    (void)doc;
    return key + 1; /* a member's value follows its name */
}

/* The offset just past scalar v, which starts at `start`. A followed
 * element's token (not a text handle, not a member name) is followed by its
 * next element's: the scalar ends where the ',' and whitespace before that
 * one begin, found without reading the scalar (a flit is 78 digits). */
static size_t value_end(const sn_json *doc, int v, size_t start)
{
    if (!(v & TEXT_HANDLE) && (doc->tok[v] & (TOK_FOLLOWED | TOK_MEMBER_NAME)) == TOK_FOLLOWED) {
        const char *s = doc->text;
        size_t i = doc->tok[v + 1] & TOK_OFFSET;
        while (is_ws(s[i - 1]))
            i--;
        i--; /* the ',' */
        while (is_ws(s[i - 1]))
            i--;
        return i;
    }
    return scalar_end(doc, start);
}

const char *sn_json_raw(const sn_json *doc, int v, size_t *len)
{
    size_t start = start_of(doc, v);
    switch (sn_json_kind_of(doc, v)) {
    case SN_JSON_STRING: /* between the quotes */
        *len = value_end(doc, v, start) - start - 2;
        return doc->text + start + 1;
    case SN_JSON_OBJECT:
    case SN_JSON_ARRAY:
        *len = 1;
        return doc->text + start;
    default:
        *len = value_end(doc, v, start) - start;
        return doc->text + start;
    }
}

sn_status sn_json_fail(const sn_json *doc, int v, sn_status code, sn_error *e, const char *fmt,
                       ...)
{
    size_t off = start_of(doc, v);
    va_list ap;
    va_start(ap, fmt);
    sn_status s = vfail_at(doc->name, doc->text, off, code, e, fmt, ap);
    va_end(ap);
    return s;
}

sn_status sn_json_expect(const sn_json *doc, int v, sn_json_kind kind, const char *what,
                         sn_error *e)
{
    sn_json_kind k = sn_json_kind_of(doc, v);
    if (k == kind)
        return SN_OK;
    return sn_json_fail(doc, v, SN_ERR_INPUT, e, "%s must be %s, found %s", what,
                        kind_name(kind), kind_name(k));
}

/* Decodes string token v into out (room for its raw length + 1 bytes);
 * returns the decoded length. The grammar check guarantees well-formed
 * escapes and surrogate pairs. */
static size_t decode_string(const sn_json *doc, int v, char *out)
{
    size_t n;
    const char *s = sn_json_raw(doc, v, &n);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] != '\\') {
            out[o++] = s[i++];
            continue;
        }
        char x = s[i + 1];
        if (x != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            out[o++] = to[strchr(from, x) - from];
            i += 2;
            continue;
        }
        unsigned long cp = (unsigned long)read_u_escape(s, n, i + 1);
        i += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)read_u_escape(s, n, i + 1) - 0xDC00);
            i += 6;
        }
        if (cp < 0x80) {
            out[o++] = (char)cp;
        } else if (cp < 0x800) {
            out[o++] = (char)(0xC0 | cp >> 6);
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[o++] = (char)(0xE0 | cp >> 12);
            out[o++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[o++] = (char)(0xF0 | cp >> 18);
            out[o++] = (char)(0x80 | (cp >> 12 & 0x3F));
            out[o++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    out[o] = '\0';
    return o;
}

sn_status sn_json_string(const sn_json *doc, int v, const char *what, char **out, sn_error *e)
{
    sn_status st = sn_json_expect(doc, v, SN_JSON_STRING, what, e);
    if (st != SN_OK)
        return st;
    size_t n;
    sn_json_raw(doc, v, &n);
    char *buf = malloc(n + 1);
    if (buf == NULL)
        return sn_error_set(e, SN_ERR_INTERNAL, "%s: out of memory", doc->name);
    if (decode_string(doc, v, buf) != strlen(buf)) {
        free(buf);
        return sn_json_fail(doc, v, SN_ERR_INPUT, e, "%s contains \\u0000", what);
    }
    *out = buf;
    return SN_OK;
}

bool sn_json_string_is(const sn_json *doc, int v, const char *s)
{
    const char *t = doc->text + start_of(doc, v);
    if (*t != '"')
        return false;
    /* The usual case, in place: up to the closing quote, or a mismatch
     * before any escape (the text before one is literal). */
    for (const char *c = s, *u = t + 1;; c++, u++) {
        if (*u == '\\')
            break;
        if (*u == '"')
            return *c == '\0';
        if (*u != *c)
            return false;
    }
    size_t n;
    sn_json_raw(doc, v, &n);
    char *buf = malloc(n + 1);
    if (buf == NULL)
        return false;
    size_t len = decode_string(doc, v, buf);
    bool same = len == strlen(s) && memcmp(buf, s, len) == 0;
    free(buf);
    return same;
}

sn_status sn_json_member(const sn_json *doc, int obj, const char *key, bool required, int *out,
                         sn_error *e)
{
    *out = -1;
    if (sn_json_kind_of(doc, obj) != SN_JSON_OBJECT)
        return sn_json_fail(doc, obj, SN_ERR_INPUT, e, "expected an object with member \"%s\", found %s",
                            key, kind_name(sn_json_kind_of(doc, obj)));
    for (int k = sn_json_first(doc, obj); k >= 0; k = sn_json_next(doc, k)) {
        if (!sn_json_string_is(doc, k, key))
            continue;
        if (*out >= 0)
            return sn_json_fail(doc, k, SN_ERR_INPUT, e, "member \"%s\" is given twice", key);
        *out = sn_json_value(doc, k);
    }
    if (*out < 0 && required)
        return sn_json_fail(doc, obj, SN_ERR_INPUT, e, "missing member \"%s\"", key);
    return SN_OK;
}

sn_status sn_json_u64(const sn_json *doc, int v, uint64_t min, uint64_t max, const char *what,
                      uint64_t *out, sn_error *e)
{
    size_t n;
    const char *s = sn_json_raw(doc, v, &n);
    int shown = n > QUOTE_MAX ? QUOTE_MAX : (int)n;
    const char *more = n > QUOTE_MAX ? "..." : "";
    const char *quote = sn_json_kind_of(doc, v) == SN_JSON_STRING ? "\"" : "";
    /* a checked number of digits alone: no sign, fraction or exponent */
    if (sn_json_kind_of(doc, v) != SN_JSON_NUMBER || sn_ascii_digits_end(s, n, 0) != n)
        return sn_json_fail(doc, v, SN_ERR_INPUT, e,
                            "%s must be an integer in %" PRIu64 "..%" PRIu64 ", found %s%.*s%s%s",
                            what, min, max, quote, shown, s, more, quote);
    uint64_t x = 0;
    bool big = false;
    for (size_t i = 0; i < n; i++) {
        unsigned dgt = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - dgt) / 10)
            big = true;
        else
            x = x * 10 + dgt;
    }
    if (big || x < min || x > max)
        return sn_json_fail(doc, v, SN_ERR_INPUT, e,
                            "%s must be an integer in %" PRIu64 "..%" PRIu64 ", found %.*s%s", what,
                            min, max, shown, s, more);
    *out = x;
    return SN_OK;
}
