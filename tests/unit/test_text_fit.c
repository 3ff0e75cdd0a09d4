/* Messages and names into fixed buffers are whole or end in "..." at a
 * UTF-8 boundary, never cut silently (common/err_text.h), through every
 * formatter that fills one: sn_text_fit itself, sn_err_text (the ELF loader,
 * the hart, the card window), sn_error_set (every host error), the table and
 * runner messages (messages.c); and a usage error prints what the user typed
 * whole, however long (options.c). Expected texts are built here from their
 * parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cmocka_main.h"

#include "err_text.h"
#include "error.h"
#include "messages.h"
#include "options.h"

/* s is valid UTF-8 (no sequence cut short). */
static int utf8_whole(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0)
            return 0;
        for (int i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80)
                return 0;
        p += n;
    }
    return 1;
}

static int ends_cut(const char *s)
{
    size_t n = strlen(s);
    return n >= 3 && !strcmp(s + n - 3, "...");
}

static void fit_whole_or_marked(void **state)
{
    (void)state;
    char buf[16];
    sn_text_fit(buf, sizeof buf, "%s-%d", "abcdefghijklm", 7); /* 15 bytes: fits */
    assert_string_equal(buf, "abcdefghijklm-7");
    sn_text_fit(buf, sizeof buf, "%s-%d", "abcdefghijklm", 77); /* 16 bytes: one too many */
    assert_string_equal(buf, "abcdefghijkl...");
    /* x and 8 e-acute: byte 12, where the mark would go, continues a character */
    sn_text_fit(buf, sizeof buf, "x%s", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    assert_string_equal(buf, "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...");
    char tiny[3];
    sn_text_fit(tiny, sizeof tiny, "%s", "abcdef");
    assert_string_equal(tiny, "ab"); /* no room for a mark: what fits */
}

static void loader_and_host_errors_marked(void **state)
{
    (void)state;
    char long_path[2000];
    memset(long_path, 'p', sizeof long_path - 2);
    memcpy(long_path + 10, "\xe2\x82\xac", 3); /* a 3-byte character early, more later at the cut */
    for (size_t i = 400; i + 3 < sizeof long_path - 2; i += 3)
        memcpy(long_path + i, "\xe2\x82\xac", 3);
    long_path[sizeof long_path - 1] = '\0';
    char err[256];
    assert_int_equal(sn_err_text(err, sizeof err, "%s: cannot open", long_path), -1);
    assert_true(ends_cut(err) && utf8_whole(err) && strlen(err) < sizeof err);
    for (size_t shift = 0; shift < 3; shift++) { /* the cut lands on each byte of a sequence in turn */
        sn_error e = {0};
        sn_error_set(&e, SN_ERR_IO, "%.*s%s: cannot open", (int)shift, "xyz", long_path);
        assert_int_equal(e.code, SN_ERR_IO);
        assert_true(ends_cut(e.msg));
        assert_true(utf8_whole(e.msg));
    }
}

static void runner_message_marked(void **state)
{
    (void)state;
    sn_status_block s;
    memset(&s, 0, sizeof s);
    s.magic = SN_STATUS_MAGIC;
    s.error = SN_ERR_TRAP;
    s.detail[0] = 5;
    s.detail[1] = 0x1a4;
    s.detail[2] = 0x20000;
    char whole[256], small[24];
    sn_runner_describe(&s, whole, sizeof whole);
    assert_true(strlen(whole) >= sizeof small && !ends_cut(whole));
    sn_runner_describe(&s, small, sizeof small);
    char want[sizeof small];
    memcpy(want, whole, sizeof small - 4);
    memcpy(want + sizeof small - 4, "...", 4);
    assert_string_equal(small, want);
}

static void usage_error_whole(void **state)
{
    (void)state;
    size_t n = 5000;
    char *value = malloc(n + 1);
    assert_non_null(value);
    memset(value, 'v', n);
    memcpy(value + n - 3, "END", 3);
    value[n] = '\0';
    FILE *f = tmpfile();
    assert_non_null(f);
    int saved = dup(STDERR_FILENO);
    fflush(stderr);
    dup2(fileno(f), STDERR_FILENO);
    int rc = sn_opts_usage_error(SN_TOOL_RUN, "--jobs wants a number, got '%s'", value);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    assert_int_equal(rc, 2);
    char *got = calloc(n + 200, 1);
    assert_non_null(got);
    rewind(f);
    assert_true(fgets(got, (int)(n + 200), f) != NULL);
    char *want = malloc(n + 200);
    assert_non_null(want);
    snprintf(want, n + 200, "sysnode run: --jobs wants a number, got '%s'\n", value);
    assert_string_equal(got, want);
    fclose(f);
    free(value);
    free(got);
    free(want);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(fit_whole_or_marked), cmocka_unit_test(loader_and_host_errors_marked),
             cmocka_unit_test(runner_message_marked), cmocka_unit_test(usage_error_whole))
