/* The option parser (common/options.c) on the argv shapes the integration
 * tests do not reach: "--name=VALUE", "--" before an operand that starts
 * with '-', operands between options, a repeated option kept in order, the
 * values of each kind, and a second parse in one process. Expected values
 * are the literals of each argv. Also: a range the table states agrees with
 * the bound of the layer behind it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cmocka_main.h"
#include "mismatch.h"
#include "options.h"

/* Parses the NULL-ended words for tool, its messages on stderr sent to
 * /dev/null (cmocka's own stay). */
static int parse(sn_tool tool, sn_opts *o, const char **words)
{
    char *argv[32];
    int argc = 0;
    while (words[argc]) {
        argv[argc] = (char *)words[argc];
        argc++;
    }
    argv[argc] = NULL;
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && null >= 0);
    fflush(stderr);
    dup2(null, STDERR_FILENO);
    int rc = sn_opts_parse(tool, argc, argv, o);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(null);
    return rc;
}

static void test_values_of_each_kind(void **state)
{
    (void)state;
    sn_opts o;
    const char *w[] = {"run", "a", "--max-cycles=0x100", "--fst-window", "10:020", "--strict", "b",
                       "--diff", "010", "--image=x.elf", NULL};
    assert_int_equal(parse(SN_TOOL_RUN, &o, w), -1);
    assert_int_equal(o.noperands, 2);
    assert_string_equal(o.operands[0], "a");
    assert_string_equal(o.operands[1], "b");
    assert_int_equal(o.num[SN_OPT_MAX_CYCLES], 256);
    assert_int_equal(o.num[SN_OPT_FST_WINDOW], 10);
    assert_int_equal(o.num2[SN_OPT_FST_WINDOW], 20);
    assert_int_equal(o.num[SN_OPT_DIFF], 10);
    assert_int_equal(o.given[SN_OPT_STRICT], 1);
    assert_int_equal(o.given[SN_OPT_DIGEST], 0);
    assert_string_equal(o.text[SN_OPT_IMAGE], "x.elf");
    assert_int_equal(o.num[SN_OPT_JOBS], 1); /* not given: the row's default */
    assert_int_equal(o.given[SN_OPT_GDB], 0);
    sn_opts_free(&o);
}

static void test_double_dash_and_repeats(void **state)
{
    (void)state;
    sn_opts o;
    const char *w[] = {"sysnode-sim", "--load", "0x10=a.bin", "--load=16=b.bin", "--", "-image.elf", NULL};
    assert_int_equal(parse(SN_TOOL_SIM, &o, w), -1);
    assert_int_equal(o.noperands, 1);
    assert_string_equal(o.operands[0], "-image.elf");
    assert_int_equal(o.given[SN_OPT_LOAD], 2);
    assert_int_equal(o.norder, 2);
    uint64_t addr;
    const char *file;
    sn_opts_place(o.values[0], &addr, &file);
    assert_int_equal(addr, 16);
    assert_string_equal(file, "a.bin");
    sn_opts_place(o.values[1], &addr, &file);
    assert_int_equal(addr, 16);
    assert_string_equal(file, "b.bin");
    assert_int_equal(o.num[SN_OPT_MAX_CYCLES], 400000000); /* the cap docs/user-guide.md states */
    sn_opts_free(&o);
}

/* A path starting with '-' is taken attached, and "-" alone as the next word. */
static void test_dash_paths(void **state)
{
    (void)state;
    sn_opts o;
    const char *w[] = {"run", "a", "--report=--strict", "--trace", "-", NULL};
    assert_int_equal(parse(SN_TOOL_RUN, &o, w), -1);
    assert_string_equal(o.text[SN_OPT_REPORT], "--strict");
    assert_string_equal(o.text[SN_OPT_TRACE], "-");
    assert_int_equal(o.given[SN_OPT_STRICT], 0);
    sn_opts_free(&o);
    const char *p[] = {"pack", "a", "-o-x", NULL};
    assert_int_equal(parse(SN_TOOL_PACK, &o, p), -1);
    assert_string_equal(o.text[SN_OPT_OUTPUT_TABLE], "-x");
    sn_opts_free(&o);
}

static void test_short_names(void **state)
{
    (void)state;
    sn_opts o;
    const char *w[] = {"pack", "case", "-oout.bin", NULL};
    assert_int_equal(parse(SN_TOOL_PACK, &o, w), -1);
    assert_string_equal(o.text[SN_OPT_OUTPUT_TABLE], "out.bin");
    sn_opts_free(&o);
    const char *twice[] = {"pack", "case", "-o", "a", "--output", "b", NULL};
    assert_int_equal(parse(SN_TOOL_PACK, &o, twice), 2);
    sn_opts_free(&o);
}

static void test_bad_usage(void **state)
{
    (void)state;
    const char *cases[][6] = {
        {"run", "a", "--max-cycles", "0", NULL},       /* below the range */
        {"run", "a", "--max-cycles", NULL},            /* no value */
        {"run", "a", "--max", "5", NULL},              /* a prefix */
        {"run", "a", "--load", "0=x", NULL},           /* another tool's */
        {"run", "a", "--strict=1", NULL},              /* a flag with a value */
        {"run", NULL},                                 /* no case */
        {"run", "a", "--image", "", NULL},             /* an empty path */
        {"flash", "x.elf", NULL},                      /* no --device */
        {"flash", "x.elf", "y.elf", "--device", "sim"}, /* two images */
        {"sysnode-sim", "x.elf", "--table", "=t.bin", NULL},
        {"sysnode-sim", "x.elf", "--table", "0x10=", NULL},
        {"run", "a", "--report", "--strict", NULL},    /* the value forgotten: no file "--strict" */
        {"pack", "a", "-o", "--json", NULL},
        {"run", "a", "--trace", "-x", NULL},
    };
    const sn_tool tools[] = {SN_TOOL_RUN, SN_TOOL_RUN, SN_TOOL_RUN, SN_TOOL_RUN, SN_TOOL_RUN, SN_TOOL_RUN,
                             SN_TOOL_RUN, SN_TOOL_FLASH, SN_TOOL_FLASH, SN_TOOL_SIM, SN_TOOL_SIM,
                             SN_TOOL_RUN, SN_TOOL_PACK, SN_TOOL_RUN};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        sn_opts o;
        const char *w[7] = {0};
        memcpy(w, cases[i], sizeof cases[i]);
        assert_int_equal(parse(tools[i], &o, w), 2);
        sn_opts_free(&o);
    }
}

/* --diff's range is what a mismatch can hold: the table takes the session's bound. */
static void test_limits_agree(void **state)
{
    (void)state;
    assert_int_equal(sn_options[SN_OPT_DIFF].max, SN_DIFF_MAX);
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_limits_agree), cmocka_unit_test(test_values_of_each_kind), cmocka_unit_test(test_double_dash_and_repeats),
             cmocka_unit_test(test_short_names), cmocka_unit_test(test_dash_paths), cmocka_unit_test(test_bad_usage))
