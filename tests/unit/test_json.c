/* The strict JSON layer: what jsmn alone would accept but JSON forbids
 * (tool-pitfalls 14) is rejected with the file name and the byte offset of
 * the offending text; lookups, iteration and decoding on valid documents.
 * Offsets in the expectations are counted by hand from the inputs. */
#include "cmocka_main.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

/* Parses `text` labelled "t.json", expecting failure with `msg` in the
 * message (which must start with "t.json:" and contain `where`). */
static void expect_bad(const char *text, size_t len, const char *where, const char *msg)
{
    sn_error e = {0};
    sn_json *d;
    assert_int_equal(sn_json_parse("t.json", text, len, &d, &e), SN_ERR_INPUT);
    assert_null(d);
    assert_int_equal(e.code, SN_ERR_INPUT);
    if (strncmp(e.msg, "t.json:", 7) != 0 || strstr(e.msg, where) == NULL ||
        strstr(e.msg, msg) == NULL)
        fail_msg("for %s: got \"%s\", wanted \"%s\" and \"%s\"", text, e.msg, where, msg);
}

#define BAD(text, where, msg) expect_bad(text, sizeof text - 1, where, msg)

static void rejects_bad_numbers(void **state)
{
    (void)state;
    BAD("[01]", "1:2 (byte 1)", "invalid number \"01\"");
    BAD("[1, 12a4]", "(byte 4)", "invalid number \"12a4\"");
    BAD("[1.]", "(byte 1)", "invalid number \"1.\"");
    BAD("[1e]", "(byte 1)", "invalid number \"1e\"");
    BAD("[-]", "(byte 1)", "invalid number \"-\"");
    BAD("[+1]", "(byte 1)", "invalid value \"+1\"");
    BAD("[1.5.3]", "(byte 1)", "invalid number \"1.5.3\"");
    BAD("[tru]", "(byte 1)", "invalid value \"tru\"");
    BAD("[nulll]", "(byte 1)", "invalid value \"nulll\"");
    /* The same after a number element (the run of ", number" taken at once),
     * a flit-long integer included. */
    BAD("[1, 01]", "1:5 (byte 4)", "invalid number \"01\"");
    BAD("[1,\n 1234567890123456789012345678901234567890x]", "2:2 (byte 5)", "invalid number \"1234567890");
    BAD("[1, 2.]", "(byte 4)", "invalid number \"2.\"");
    BAD("[1, 2e+]", "(byte 4)", "invalid number \"2e+\"");
    BAD("[1, 2, -]", "(byte 7)", "invalid number \"-\"");
    BAD("[1, 2, 3", "(byte 8)", "unexpected end of input");
    BAD("[1, 22}", "(byte 6)", "expected ',' or ']'");
    BAD("[1, 22 3]", "(byte 7)", "expected ',' or ']'");
    BAD("[1, 22\x01]", "(byte 6)", "expected ',' or ']'");
}

static void rejects_bad_structure(void **state)
{
    (void)state;
    BAD("[1,,2]", "(byte 3)", "expected a value, found ','");
    BAD("[1,2,]", "(byte 5)", "expected a value, found ']'");
    BAD("[,1]", "(byte 1)", "expected a value, found ','");
    BAD("{\"a\":1,}", "(byte 7)", "expected a member name (a string), found '}'");
    BAD("{,}", "(byte 1)", "expected a member name (a string) or '}', found ','");
    BAD("{\"a\" 1}", "(byte 5)", "expected ':' after a member name, found '1'");
    BAD("{\"a\":1 \"b\":2}", "(byte 7)", "expected ',' or '}', found '\"'");
    BAD("[1:2]", "(byte 2)", "expected ',' or ']', found ':'");
    BAD("{\"a\":1]", "(byte 6)", "expected ',' or '}', found ']'");
    BAD("{1:2}", "(byte 1)", "expected a member name");
    BAD("{}{}", "(byte 2)", "unexpected '{' after the end of the document");
    BAD("[] ,", "(byte 3)", "unexpected ',' after the end");
    BAD("42", "(byte 0)", "must be a JSON object or array");
    BAD("\"s\"", "(byte 0)", "must be a JSON object or array");
}

static void rejects_truncation(void **state)
{
    (void)state;
    BAD("{\"a\": [1, 2", "(byte 11)", "unexpected end of input (truncated document)");
    BAD("{\"a", "(byte 1)", "unterminated string");
    BAD("[1,", "(byte 3)", "truncated");
    BAD("", "(byte 0)", "the file is empty");
    BAD("  \n ", "2:2 (byte 4)", "unexpected end of input");
}

static void rejects_bad_strings(void **state)
{
    (void)state;
    BAD("[\"a\\x\"]", "(byte 3)", "invalid escape \"\\x\"");
    BAD("[\"\\u12G4\"]", "(byte 2)", "invalid \\u escape");
    BAD("[\"\\udc00\"]", "(byte 2)", "lone low surrogate");
    BAD("[\"\\ud800x\"]", "(byte 2)", "high surrogate without its low half");
    BAD("[\"a\tb\"]", "(byte 3)", "unescaped control character byte 0x09");
    BAD("[\"\xff\"]", "(byte 2)", "invalid UTF-8");
    BAD("[\"\xc3\"]", "(byte 2)", "invalid UTF-8");
    BAD("[\"\xed\xa0\x80\"]", "(byte 2)", "invalid UTF-8"); /* encoded surrogate */
    /* A NUL byte would end jsmn's scan early: it must not truncate silently. */
    BAD("[1]\0[2]", "(byte 3)", "unexpected byte 0x00 after the end");
    BAD("[1,\0 2]", "(byte 3)", "expected a value, found byte 0x00");
}

static void line_and_column(void **state)
{
    (void)state;
    /* '[' 0, '\n' 1, ' ' 2-3, '1' 4, ',' 5, '\n' 6, ' ' 7-8, ',' 9 */
    BAD("[\n  1,\n  ,2]", "t.json:3:3 (byte 9)", "expected a value, found ','");
}

static sn_json *parse(const char *text)
{
    sn_error e = {0};
    sn_json *d;
    if (sn_json_parse("ok.json", text, strlen(text), &d, &e) != SN_OK)
        fail_msg("%s", e.msg);
    return d;
}

static void lookups(void **state)
{
    (void)state;
    sn_json *d = parse(" {\"n\": 42, \"list\": [1, [2, 3], {\"x\": null}, true, false, \"s\"],"
                       " \"obj\": {}, \"big\": 18446744073709551615}\n");
    int root = sn_json_root(d);
    assert_int_equal(sn_json_kind_of(d, root), SN_JSON_OBJECT);
    assert_int_equal(sn_json_count(d, root), 4);
    sn_error e = {0};
    int n, list, obj, big, none;
    assert_int_equal(sn_json_member(d, root, "n", true, &n, &e), SN_OK);
    assert_int_equal(sn_json_member(d, root, "list", true, &list, &e), SN_OK);
    assert_int_equal(sn_json_member(d, root, "obj", true, &obj, &e), SN_OK);
    assert_int_equal(sn_json_member(d, root, "big", true, &big, &e), SN_OK);
    assert_int_equal(sn_json_member(d, root, "absent", false, &none, &e), SN_OK);
    assert_int_equal(none, -1);

    uint64_t v;
    assert_int_equal(sn_json_u64(d, n, 0, 100, "n", &v, &e), SN_OK);
    assert_int_equal(v, 42);
    assert_int_equal(sn_json_u64(d, big, 0, UINT64_MAX, "big", &v, &e), SN_OK);
    assert_int_equal(v, UINT64_MAX);

    /* Iteration steps over nested values. */
    assert_int_equal(sn_json_count(d, list), 6);
    sn_json_kind kinds[6];
    size_t i = 0;
    for (int x = sn_json_first(d, list); x >= 0; x = sn_json_next(d, x))
        kinds[i++] = sn_json_kind_of(d, x);
    assert_int_equal(i, 6);
    assert_int_equal(kinds[0], SN_JSON_NUMBER);
    assert_int_equal(kinds[1], SN_JSON_ARRAY);
    assert_int_equal(kinds[2], SN_JSON_OBJECT);
    assert_int_equal(kinds[3], SN_JSON_BOOL);
    assert_int_equal(kinds[4], SN_JSON_BOOL);
    assert_int_equal(kinds[5], SN_JSON_STRING);
    assert_int_equal(sn_json_count(d, obj), 0);
    assert_int_equal(sn_json_first(d, obj), -1);

    /* Members in order, by name token. */
    int k = sn_json_first(d, root);
    assert_true(sn_json_string_is(d, k, "n"));
    k = sn_json_next(d, k);
    assert_true(sn_json_string_is(d, k, "list"));
    assert_int_equal(sn_json_value(d, k), list);
    k = sn_json_next(d, sn_json_next(d, k));
    assert_true(sn_json_string_is(d, k, "big"));
    assert_int_equal(sn_json_next(d, k), -1);
    sn_json_free(d);
}

static void lookup_errors(void **state)
{
    (void)state;
    sn_json *d = parse("{\"a\": -1, \"b\": 1.5, \"c\": 1e3, \"d\": \"7\", \"e\": 300,"
                       " \"f\": 18446744073709551616, \"a\": 2}");
    int root = sn_json_root(d), v;
    uint64_t x;
    sn_error e = {0};
    struct {
        const char *key, *where, *found;
    } cases[] = {
        {"b", "(byte 15)", "found 1.5"},
        {"c", "(byte 25)", "found 1e3"},
        {"d", "(byte 35)", "found \"7\""},
        {"e", "(byte 45)", "must be an integer in 0..255, found 300"},
        {"f", "(byte 55)", "found 18446744073709551616"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(sn_json_member(d, root, cases[i].key, true, &v, &e), SN_OK);
        assert_int_equal(sn_json_u64(d, v, 0, 255, cases[i].key, &x, &e), SN_ERR_INPUT);
        if (strstr(e.msg, cases[i].where) == NULL || strstr(e.msg, cases[i].found) == NULL)
            fail_msg("%s: %s", cases[i].key, e.msg);
    }
    /* "a" appears twice: refused at the second. */
    assert_int_equal(sn_json_member(d, root, "a", true, &v, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "ok.json:1:78 (byte 77): member \"a\" is given twice"));
    assert_int_equal(sn_json_member(d, root, "zz", true, &v, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "(byte 0): missing member \"zz\""));
    assert_int_equal(sn_json_expect(d, root, SN_JSON_ARRAY, "the root", &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "the root must be an array, found an object"));
    sn_json_free(d);

    /* -1 as an integer field (the document itself is valid JSON). */
    d = parse("[-1]");
    assert_int_equal(sn_json_u64(d, sn_json_first(d, 0), 0, 9, "x", &x, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "(byte 1): x must be an integer in 0..9, found -1"));
    sn_json_free(d);
}

/* sn_json_string_is: equal only to the whole decoded string, escaped or
 * not, as a token or an element of a leaf array; never to a non-string. */
static void string_is(void **state)
{
    (void)state;
    sn_json *d = parse("[\"ab\", \"\", \"a\\u0062c\", \"x\\n\", \"q\\\"\", 12, [\"kick\", \"\\u006bick\", 1]]");
    int v[7], i = 0;
    for (int c = sn_json_first(d, 0); c >= 0; c = sn_json_next(d, c))
        v[i++] = c;
    assert_int_equal(i, 7);
    assert_true(sn_json_string_is(d, v[0], "ab"));
    assert_false(sn_json_string_is(d, v[0], "a"));
    assert_false(sn_json_string_is(d, v[0], "abc"));
    assert_false(sn_json_string_is(d, v[0], "b"));
    assert_false(sn_json_string_is(d, v[0], ""));
    assert_true(sn_json_string_is(d, v[1], ""));
    assert_false(sn_json_string_is(d, v[1], "a"));
    assert_true(sn_json_string_is(d, v[2], "abc"));
    assert_false(sn_json_string_is(d, v[2], "ab"));
    assert_false(sn_json_string_is(d, v[2], "abcd"));
    assert_false(sn_json_string_is(d, v[2], "a\\u0062c"));
    assert_true(sn_json_string_is(d, v[3], "x\n"));
    assert_false(sn_json_string_is(d, v[3], "y\n"));
    assert_false(sn_json_string_is(d, v[3], "x\\n"));
    assert_true(sn_json_string_is(d, v[4], "q\""));
    assert_false(sn_json_string_is(d, v[4], "q"));
    assert_false(sn_json_string_is(d, v[5], "12"));
    int tag = sn_json_first(d, v[6]); /* a leaf's elements are text handles */
    assert_true(sn_json_string_is(d, tag, "kick"));
    assert_false(sn_json_string_is(d, tag, "kic"));
    assert_true(sn_json_string_is(d, sn_json_next(d, tag), "kick"));
    assert_false(sn_json_string_is(d, sn_json_next(d, sn_json_next(d, tag)), "1"));
    sn_json_free(d);
}

static void strings(void **state)
{
    (void)state;
    sn_json *d = parse("[\"plain\", \"a\\u00e9\\n\\\"\\/\", \"\\ud83d\\ude00\", \"nul\\u0000x\"]");
    sn_error e = {0};
    char *s;
    int v = sn_json_first(d, 0);
    assert_int_equal(sn_json_string(d, v, "s", &s, &e), SN_OK);
    assert_string_equal(s, "plain");
    free(s);
    v = sn_json_next(d, v);
    assert_int_equal(sn_json_string(d, v, "s", &s, &e), SN_OK);
    assert_string_equal(s, "a\xc3\xa9\n\"/"); /* U+00E9 is C3 A9 in UTF-8 */
    assert_true(sn_json_string_is(d, v, "a\xc3\xa9\n\"/"));
    free(s);
    v = sn_json_next(d, v);
    assert_int_equal(sn_json_string(d, v, "s", &s, &e), SN_OK);
    assert_string_equal(s, "\xf0\x9f\x98\x80"); /* U+1F600 */
    free(s);
    v = sn_json_next(d, v);
    assert_int_equal(sn_json_string(d, v, "name", &s, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "name contains \\u0000"));
    assert_int_equal(sn_json_string(d, 0, "name", &s, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "name must be a string, found an array"));
    sn_json_free(d);
}

/* Raw text is read off the checked document: a string ends at its first
 * unescaped quote (an escaped backslash before it does not escape it), a
 * number runs through its fraction and exponent, an empty container with
 * whitespace inside has no children. */
static void raw_text(void **state)
{
    (void)state;
    sn_json *d = parse("[\"x\\\\\", \"q\\\"\\\\\\\"\", -1.5e+3, 1234567890123456789012345, [ \n ], { }, {\"k\\\"\": 0}]");
    const char *want[] = {"x\\\\", "q\\\"\\\\\\\"", "-1.5e+3", "1234567890123456789012345", "[", "{", "{"};
    int element[7];
    size_t i = 0, len;
    for (int v = sn_json_first(d, 0); v >= 0; v = sn_json_next(d, v), i++) {
        assert_true(i < 7);
        element[i] = v;
        const char *raw = sn_json_raw(d, v, &len);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(raw, want[i], len);
    }
    assert_int_equal(i, 7);
    int empty_array = element[4], empty_object = element[5], obj = element[6];
    assert_int_equal(sn_json_count(d, empty_array), 0);
    assert_int_equal(sn_json_first(d, empty_array), -1);
    assert_int_equal(sn_json_count(d, empty_object), 0);
    assert_int_equal(sn_json_count(d, obj), 1);
    assert_true(sn_json_string_is(d, sn_json_first(d, obj), "k\""));
    sn_json_free(d);
    /* A followed element's end is found from its follower, across any
     * whitespace around the ','; members and the last element read on. */
    d = parse("[ 123456789012345678901234567890 \t\r\n , \" a b \" ,\n-0.5e-7\n,true , null,0,[1] , 7 ,"
              "{\"k\" : 12 , \"l\":\"v\"}, 99 ]");
    const char *all[] = {"123456789012345678901234567890", " a b ", "-0.5e-7", "true", "null", "0", "[", "7", "{",
                         "99"};
    i = 0;
    for (int v = sn_json_first(d, 0); v >= 0; v = sn_json_next(d, v), i++) {
        assert_true(i < 10);
        const char *raw = sn_json_raw(d, v, &len);
        assert_int_equal(len, strlen(all[i]));
        assert_memory_equal(raw, all[i], len);
        if (i == 8) {
            int k = sn_json_first(d, v);
            assert_memory_equal(sn_json_raw(d, k, &len), "k", 1);
            assert_int_equal(len, 1);
            assert_memory_equal(sn_json_raw(d, sn_json_value(d, k), &len), "12", 2);
            assert_int_equal(len, 2);
        }
    }
    assert_int_equal(i, 10);
    sn_json_free(d);
}

/* Walking siblings across nesting, by the values' own text: every element
 * and member is reached once, in order, and a member's value has no next. */
static void siblings_across_nesting(void **state)
{
    (void)state;
    sn_json *d = parse("[[1, [2]], 3, [[4]], 5, {\"a\": {\"b\": 6}, \"c\" : [ ], \"d\":7, \"e\":8}]");
    const char *root_children = "[3[5{", *first_of[] = {"1", NULL, "[", NULL, "a"}; /* a string's raw text is inside its quotes */
    int child[5];
    size_t i = 0, len;
    for (int v = sn_json_first(d, 0); v >= 0; v = sn_json_next(d, v), i++) {
        assert_true(i < 5);
        child[i] = v;
        assert_int_equal(*sn_json_raw(d, v, &len), root_children[i]);
        int f = sn_json_first(d, v);
        if (first_of[i] == NULL)
            assert_int_equal(f, -1);
        else
            assert_int_equal(*sn_json_raw(d, f, &len), first_of[i][0]);
    }
    assert_int_equal(i, 5);
    /* [1, [2]]: 1 -> [2] -> end; [2]'s 2 ends it, though a ',' follows two brackets later */
    int one = sn_json_first(d, child[0]), two_array = sn_json_next(d, one);
    assert_int_equal(*sn_json_raw(d, two_array, &len), '[');
    assert_int_equal(sn_json_next(d, two_array), -1);
    assert_int_equal(sn_json_next(d, sn_json_first(d, two_array)), -1);
    /* [[4]]: [4] ends it, and 4 ends [4] */
    int four_array = sn_json_first(d, child[2]);
    assert_int_equal(sn_json_next(d, four_array), -1);
    assert_int_equal(sn_json_next(d, sn_json_first(d, four_array)), -1);
    /* the object: a, c, d, e in order, each value without a next */
    const char *names[] = {"a", "c", "d", "e"};
    const char values[] = "{[78";
    i = 0;
    for (int k = sn_json_first(d, child[4]); k >= 0; k = sn_json_next(d, k), i++) {
        assert_true(i < 4);
        assert_true(sn_json_string_is(d, k, names[i]));
        int v = sn_json_value(d, k);
        assert_int_equal(*sn_json_raw(d, v, &len), values[i]);
        assert_int_equal(sn_json_next(d, v), -1);
    }
    assert_int_equal(i, 4);
    int a_value = sn_json_value(d, sn_json_first(d, child[4]));
    int b = sn_json_first(d, a_value);
    assert_true(sn_json_string_is(d, b, "b"));
    assert_int_equal(sn_json_next(d, b), -1); /* "b" is its object's only member */
    assert_int_equal(sn_json_count(d, 0), 5);
    assert_int_equal(sn_json_count(d, child[4]), 4);
    assert_int_equal(sn_json_count(d, a_value), 1);
    sn_json_free(d);
}

/* An array of scalars only is read off the text (json.c: leaves): strings
 * holding ',' ']' and escaped quotes, whitespace and newlines between
 * elements, literals; errors still name each element's line and column. */
static void leaf_arrays(void **state)
{
    (void)state;
    sn_json *d = parse("{\"s\": [ \"a,]\\\"\" ,\n 12 ,true, null,-0.5e1 ], \"e\": [ ],\n"
                       "\"m\": [1, [2], \"x\"], \"l\": [12345678901234567890, \"a long string, kept\"]}");
    int s, empty, mixed;
    sn_error e = {0};
    assert_int_equal(sn_json_member(d, 0, "s", true, &s, &e), SN_OK);
    assert_int_equal(sn_json_member(d, 0, "e", true, &empty, &e), SN_OK);
    assert_int_equal(sn_json_member(d, 0, "m", true, &mixed, &e), SN_OK);
    const char *want[] = {"a,]\\\"", "12", "true", "null", "-0.5e1"};
    const sn_json_kind kinds[] = {SN_JSON_STRING, SN_JSON_NUMBER, SN_JSON_BOOL, SN_JSON_NULL, SN_JSON_NUMBER};
    int element[5];
    size_t i = 0, len;
    for (int v = sn_json_first(d, s); v >= 0; v = sn_json_next(d, v), i++) {
        assert_true(i < 5);
        element[i] = v;
        const char *raw = sn_json_raw(d, v, &len);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(raw, want[i], len);
        assert_int_equal(sn_json_kind_of(d, v), kinds[i]);
        assert_int_equal(sn_json_first(d, v), -1);
    }
    assert_int_equal(i, 5);
    assert_int_equal(sn_json_count(d, s), 5);
    assert_true(sn_json_string_is(d, element[0], "a,]\""));
    uint64_t x;
    assert_int_equal(sn_json_u64(d, element[1], 0, 99, "n", &x, &e), SN_OK);
    assert_int_equal(x, 12);
    /* "true" is on line 2, column 6, byte 23 */
    assert_int_equal(sn_json_u64(d, element[2], 0, 99, "n", &x, &e), SN_ERR_INPUT);
    assert_non_null(strstr(e.msg, "ok.json:2:6 (byte 23): n must be an integer in 0..99, found true"));
    assert_int_equal(sn_json_count(d, empty), 0);
    /* the members after a leaf value: "s" -> "e" -> "m" */
    int ks = sn_json_first(d, 0), ke = sn_json_next(d, ks), km = sn_json_next(d, ke);
    assert_true(sn_json_string_is(d, ke, "e"));
    assert_true(sn_json_string_is(d, km, "m"));
    int kl = sn_json_next(d, km);
    assert_true(sn_json_string_is(d, kl, "l"));
    assert_int_equal(sn_json_next(d, kl), -1);
    /* long scalars keep their tokens (json.c: leaf_pays); they read the same */
    int l = sn_json_value(d, kl), big = sn_json_first(d, l), str = sn_json_next(d, big);
    assert_int_equal(sn_json_u64(d, big, 0, UINT64_MAX, "n", &x, &e), SN_OK);
    assert_int_equal(x, 12345678901234567890ull);
    assert_true(sn_json_string_is(d, str, "a long string, kept"));
    assert_int_equal(sn_json_next(d, str), -1);
    assert_int_equal(sn_json_count(d, l), 2);
    /* an array holding an array keeps its tokens: 1 -> [2] -> "x" */
    int one = sn_json_first(d, mixed), two = sn_json_next(d, one), ex = sn_json_next(d, two);
    assert_int_equal(*sn_json_raw(d, one, &len), '1');
    assert_int_equal(sn_json_kind_of(d, two), SN_JSON_ARRAY);
    assert_int_equal(*sn_json_raw(d, sn_json_first(d, two), &len), '2');
    assert_true(sn_json_string_is(d, ex, "x"));
    assert_int_equal(sn_json_next(d, ex), -1);
    sn_json_free(d);
}

/* Random documents, generated with what walking them must give: every
 * element and member in order, each scalar's raw text, with random
 * whitespace, short and long scalars (leaves and arrays that keep their
 * tokens), strings holding brackets, commas and escapes, and nesting. The
 * expected walk is written by the generator, not read back by the code
 * under test. */
typedef struct {
    char *text, *want;
    size_t tn, wn;
    uint64_t rng;
} random_doc;

static unsigned pick(random_doc *r, unsigned n)
{
    r->rng ^= r->rng << 13; /* xorshift64 */
    r->rng ^= r->rng >> 7;
    r->rng ^= r->rng << 17;
    return (unsigned)(r->rng % n);
}

static void put_text(random_doc *r, const char *s)
{
    size_t n = strlen(s);
    memcpy(r->text + r->tn, s, n);
    r->tn += n;
}

static void put_want(random_doc *r, const char *s)
{
    size_t n = strlen(s);
    memcpy(r->want + r->wn, s, n);
    r->wn += n;
}

static void put_space(random_doc *r)
{
    static const char *const spaces[] = {"", "", " ", "\n", " \t", "\r\n  "};
    put_text(r, spaces[pick(r, 6)]);
}

static void random_value(random_doc *r, int depth)
{
    static const char *const scalars[] = {"0", "12", "-3", "1.5e2", "true", "false", "null",
                                          "123456789012345678901234567890", "\"\"", "\"a\"",
                                          "\"x, ]\"", "\"[{\\\"}]\"", "\"\\\\\"", "\"\\u00e9,\"",
                                          "\"a longer string of words\""};
    unsigned kind = depth >= 4 ? 2 : pick(r, 3);
    if (kind == 2) {
        const char *v = scalars[pick(r, sizeof scalars / sizeof *scalars)];
        put_text(r, v);
        put_want(r, "<");
        if (v[0] == '"') { /* raw text is between the quotes */
            size_t n = strlen(v) - 2;
            memcpy(r->want + r->wn, v + 1, n);
            r->wn += n;
        } else {
            put_want(r, v);
        }
        put_want(r, ">");
        return;
    }
    bool object = kind == 1;
    put_text(r, object ? "{" : "[");
    put_want(r, object ? "{" : "[");
    unsigned n = pick(r, 7);
    for (unsigned i = 0; i < n; i++) {
        put_space(r);
        if (i > 0) {
            put_text(r, ",");
            put_want(r, ",");
            put_space(r);
        }
        if (object) {
            char name[16];
            snprintf(name, sizeof name, "\"k%u\"", i);
            put_text(r, name);
            put_want(r, name + 1);
            r->wn--; /* the name without its closing quote, then ':' */
            put_space(r);
            put_text(r, ":");
            put_want(r, ":");
            put_space(r);
        }
        random_value(r, depth + 1);
    }
    put_space(r);
    put_text(r, object ? "}" : "]");
    put_want(r, object ? "}" : "]");
}

/* The walk of v through the API, in the generator's notation. */
static void walk(const sn_json *d, int v, random_doc *r)
{
    size_t len;
    sn_json_kind k = sn_json_kind_of(d, v);
    if (k != SN_JSON_OBJECT && k != SN_JSON_ARRAY) {
        const char *raw = sn_json_raw(d, v, &len);
        put_want(r, "<");
        memcpy(r->want + r->wn, raw, len);
        r->wn += len;
        put_want(r, ">");
        assert_int_equal(sn_json_first(d, v), -1);
        return;
    }
    put_want(r, k == SN_JSON_OBJECT ? "{" : "[");
    size_t count = 0;
    for (int c = sn_json_first(d, v); c >= 0; c = sn_json_next(d, c), count++) {
        if (count > 0)
            put_want(r, ",");
        if (k == SN_JSON_OBJECT) {
            const char *name = sn_json_raw(d, c, &len);
            memcpy(r->want + r->wn, name, len);
            r->wn += len;
            put_want(r, ":");
            int value = sn_json_value(d, c);
            assert_int_equal(sn_json_next(d, value), -1); /* a member's value has no next */
            walk(d, value, r);
        } else {
            walk(d, c, r);
        }
    }
    assert_int_equal(sn_json_count(d, v), count);
    put_want(r, k == SN_JSON_OBJECT ? "}" : "]");
}

static void random_documents(void **state)
{
    (void)state;
    enum { ROOM = 1 << 20 };
    random_doc gen = {malloc(ROOM), malloc(ROOM), 0, 0, 0x9E3779B97F4A7C15ull};
    random_doc got = {NULL, malloc(ROOM), 0, 0, 0};
    for (int doc = 0; doc < 500; doc++) {
        got.wn = 0;
        do { /* the root must be a container */
            gen.tn = gen.wn = 0;
            random_value(&gen, 0);
        } while (gen.text[gen.tn - 1] != ']' && gen.text[gen.tn - 1] != '}');
        put_space(&gen);
        sn_error e = {0};
        sn_json *d;
        if (sn_json_parse("r.json", gen.text, gen.tn, &d, &e) != SN_OK)
            fail_msg("document %d: %s", doc, e.msg);
        walk(d, sn_json_root(d), &got);
        if (got.wn != gen.wn || memcmp(got.want, gen.want, gen.wn) != 0)
            fail_msg("document %d: %.*s\nwalked as %.*s\nwanted    %.*s", doc, (int)gen.tn, gen.text,
                     (int)got.wn, got.want, (int)gen.wn, gen.want);
        sn_json_free(d);
    }
    free(gen.text);
    free(gen.want);
    free(got.want);
}

static void big_documents(void **state)
{
    (void)state;
    /* Nesting up to the limit parses; one level more is refused where it
     * starts. */
    size_t depth = SN_JSON_MAX_DEPTH + 1;
    char *text = malloc(2 * depth + 1);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = '\0';
    sn_error e = {0};
    sn_json *d;
    assert_int_equal(sn_json_parse("deep.json", text, 2 * depth, &d, &e), SN_ERR_INPUT);
    assert_null(d);
    char want[64];
    snprintf(want, sizeof want, "(byte %d): nested deeper than %d levels", SN_JSON_MAX_DEPTH,
             SN_JSON_MAX_DEPTH);
    assert_non_null(strstr(e.msg, want));
    /* Exactly SN_JSON_MAX_DEPTH levels: drop one '[' and one ']'. */
    assert_int_equal(sn_json_parse("deep.json", text + 1, 2 * depth - 2, &d, &e), SN_OK);
    assert_int_equal(sn_json_count(d, 0), 1);
    assert_int_equal(sn_json_next(d, 0), -1);
    sn_json_free(d);
    free(text);

    /* Many tokens: the token array grows. */
    size_t n = 20000;
    text = malloc(n * 8 + 4);
    size_t len = 0;
    text[len++] = '[';
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "%s%zu", i ? "," : "", i);
    text[len++] = ']';
    text[len] = '\0';
    d = parse(text);
    assert_int_equal(sn_json_count(d, 0), n);
    size_t i = 0;
    for (int v = sn_json_first(d, 0); v >= 0; v = sn_json_next(d, v), i++) {
        uint64_t x;
        assert_int_equal(sn_json_u64(d, v, 0, UINT64_MAX, "x", &x, &e), SN_OK);
        assert_int_equal(x, i);
    }
    assert_int_equal(i, n);
    sn_json_free(d);
    free(text);
}

/* One document read into again and again (a case's artifacts): larger,
 * smaller, malformed, a FIFO, then valid again; each time the lookups see
 * only the last file and a message names it. */
static void reload(void **state)
{
    (void)state;
    char dir[] = "/tmp/sn_test_json_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static const char *const texts[] = {"[1]", "{\"a\": [10, 20, 30], \"b\": \"long string here\"}", "[7, 8]",
                                        "[1,\n 2,, 3]", "{\"z\": 5}"};
    char path[64];
    sn_json *d = NULL;
    sn_error e = {0};
    size_t len;
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/doc%zu.json", dir, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(texts[i], f);
        fclose(f);
        int fd = open(path, O_RDONLY);
        assert_true(fd >= 0);
        sn_status st = sn_json_reload_fd(fd, path, &d, &e);
        assert_non_null(d);
        assert_string_equal(sn_json_name(d), path);
        if (i == 3) {
            char want[128];
            snprintf(want, sizeof want, "%s:2:4 (byte 7): expected a value, found ','", path);
            assert_int_equal(st, SN_ERR_INPUT);
            assert_string_equal(e.msg, want);
            continue;
        }
        assert_int_equal(st, SN_OK);
        int root = sn_json_root(d), v;
        if (i == 0 || i == 2) {
            assert_int_equal(sn_json_count(d, root), i == 0 ? 1 : 2);
            assert_memory_equal(sn_json_raw(d, sn_json_first(d, root), &len), i == 0 ? "1" : "7", 1);
        } else if (i == 1) {
            assert_int_equal(sn_json_member(d, root, "a", true, &v, &e), SN_OK);
            assert_int_equal(sn_json_count(d, v), 3);
            assert_int_equal(sn_json_member(d, root, "b", true, &v, &e), SN_OK);
            assert_true(sn_json_string_is(d, v, "long string here"));
        } else {
            assert_int_equal(sn_json_count(d, root), 1);
            assert_int_equal(sn_json_member(d, root, "z", true, &v, &e), SN_OK);
            assert_memory_equal(sn_json_raw(d, v, &len), "5", 1);
            assert_int_equal(len, 1);
        }
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/doc3.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    assert_true(fd >= 0);
    assert_int_equal(sn_json_reload_fd(fd, path, &d, &e), SN_ERR_IO);
    assert_non_null(strstr(e.msg, "not a regular file"));
    unlink(path);
    sn_json_free(d);
    rmdir(dir);
}

static void files(void **state)
{
    (void)state;
    char dir[] = "/tmp/sn_test_json_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/doc.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"flits\": [1,, 2]}", f);
    fclose(f);
    sn_error e = {0};
    sn_json *d;
    assert_int_equal(sn_json_load(path, &d, &e), SN_ERR_INPUT);
    assert_null(d);
    char want[128];
    snprintf(want, sizeof want, "%s:1:14 (byte 13): expected a value, found ','", path);
    assert_string_equal(e.msg, want);
    unlink(path);

    assert_int_equal(sn_json_load(path, &d, &e), SN_ERR_IO); /* now missing */
    assert_int_equal(e.code, SN_ERR_IO);
    assert_non_null(strstr(e.msg, path));
    assert_non_null(strstr(e.msg, "cannot open"));
    rmdir(dir);
    /* an empty name is said as such, not as ": cannot open" */
    assert_int_equal(sn_json_load("", &d, &e), SN_ERR_IO);
    assert_string_equal(e.msg, "the file's name is empty");
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(rejects_bad_numbers), cmocka_unit_test(rejects_bad_structure),
             cmocka_unit_test(rejects_truncation), cmocka_unit_test(rejects_bad_strings),
             cmocka_unit_test(line_and_column), cmocka_unit_test(lookups), cmocka_unit_test(lookup_errors),
             cmocka_unit_test(raw_text), cmocka_unit_test(strings), cmocka_unit_test(siblings_across_nesting),
             cmocka_unit_test(leaf_arrays), cmocka_unit_test(random_documents),
             cmocka_unit_test(big_documents), cmocka_unit_test(files), cmocka_unit_test(reload),
             cmocka_unit_test(string_is))
