/* The one option table of every program (issue 23 item 3): sysnode and its
 * commands, sysnode-sim and sysnode-bench. Each option is one row (its
 * names, the kind of value, range, default, help and the tools that take
 * it); one parser reads argv against it (getopt_long scans, the table
 * judges every value, numbers by common/number.h), and one generator
 * prints each tool's --help from the same rows, which cmake/man_page.cmake
 * turns into the man pages. */
#ifndef SN_COMMON_OPTIONS_H
#define SN_COMMON_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The programs and commands, one bit each (a row's `tools`). */
typedef enum {
    SN_TOOL_SYSNODE = 1u << 0, /* `sysnode` before its command */
    SN_TOOL_RUN = 1u << 1,
    SN_TOOL_FLASH = 1u << 2,
    SN_TOOL_PACK = 1u << 3,
    SN_TOOL_HEADER = 1u << 4,
    SN_TOOL_DUMP = 1u << 5,
    SN_TOOL_SIM = 1u << 6,
    SN_TOOL_BENCH = 1u << 7,
} sn_tool;

typedef enum {
    SN_OPT_FLAG,   /* no value */
    SN_OPT_NUMBER, /* a number in min..max (number.h) */
    SN_OPT_TEXT,   /* a path or a spec the tool checks itself */
    SN_OPT_PLACE,  /* ADDR=FILE: a 64-bit number, '=', a file name */
    SN_OPT_SPAN,   /* A:B: two 64-bit numbers, B at least min */
} sn_opt_kind;

/* Every option of every tool; one name may have a row per meaning (--table
 * is a file for run, ADDR=FILE for flash and sysnode-sim). */
typedef enum {
    SN_OPT_HELP,
    SN_OPT_VERSION,
    SN_OPT_JOBS,
    SN_OPT_IMAGE,
    SN_OPT_FLOOR_IMAGE,
    SN_OPT_SENDWAIT_IMAGE,
    SN_OPT_MAX_CYCLES,
    SN_OPT_CU_VERSION,
    SN_OPT_STRICT,
    SN_OPT_DRAM_LATENCY,
    SN_OPT_DIGEST,       /* run: the runner's read-back of the first expected output */
    SN_OPT_DIGEST_RANGE, /* flash: --digest ADDR:BYTES */
    SN_OPT_EXPECT,
    SN_OPT_DIFF,
    SN_OPT_SAVE_OUTPUT,
    SN_OPT_TRACE,
    SN_OPT_TABLE,    /* run: --table TABLE.bin */
    SN_OPT_TABLE_AT, /* flash, sysnode-sim: --table ADDR=TABLE.bin */
    SN_OPT_LOAD,
    SN_OPT_DEVICE,
    SN_OPT_TIMELINE,
    SN_OPT_REPORT,
    SN_OPT_FST,
    SN_OPT_FST_WINDOW,
    SN_OPT_GDB,
    SN_OPT_LOCKSTEP,
    SN_OPT_INJECT,
    SN_OPT_OUTPUT_TABLE,  /* pack -o */
    SN_OPT_OUTPUT_HEADER, /* header -o */
    SN_OPT_JSON,          /* dump: print JSON */
    SN_OPT_JSON_FILE,     /* sysnode-bench --json FILE */
    SN_OPT_HOST_LOAD,
    SN_OPT_COUNT
} sn_opt_id;

/* Row flags. */
enum {
    SN_OPTF_REPEAT = 1u << 0,   /* may be given more than once (each value kept, in order) */
    SN_OPTF_ONE_CASE = 1u << 1, /* run: names one file, device or port, so it takes one case */
    SN_OPTF_NO_DEVICE = 1u << 2, /* for the in-process simulator: not with any --device */
    SN_OPTF_NO_CARD = 1u << 3,   /* needs a simulated SysNode: not with --device xdma: (a card) */
};

typedef struct {
    const char *name;     /* the long name, without "--" */
    char short_name;      /* -X, or 0 */
    sn_opt_kind kind;
    const char *value;    /* the value as usage shows it ("N", "FILE"), NULL for a flag */
    uint64_t min, max;    /* NUMBER: the range; SPAN: min is B's least (0 or 1) */
    uint64_t def;         /* NUMBER: the value when not given */
    const char *def_text; /* the default in words (shown in --help), NULL when def says it or none */
    unsigned flags;       /* SN_OPTF_* */
    unsigned tools;       /* the sn_tool bits that take it */
    unsigned required;    /* the sn_tool bits that need it */
    const char *help;     /* one sentence, no default or range (the generator adds them) */
} sn_option;

extern const sn_option sn_options[SN_OPT_COUNT];

/* What the parser found. Unset options read as not given with num = def. */
typedef struct {
    sn_tool tool;
    unsigned given[SN_OPT_COUNT];    /* times given */
    const char *text[SN_OPT_COUNT];  /* the value as given (the last, for a repeated one) */
    uint64_t num[SN_OPT_COUNT];      /* NUMBER: the value or def; PLACE: ADDR; SPAN: A */
    uint64_t num2[SN_OPT_COUNT];     /* SPAN: B */
    sn_opt_id *order;                /* every option given, in argv order (heap) ... */
    const char **values;             /* ... with its value (NULL for a flag) */
    size_t norder;
    const char **operands;           /* the operands, in order (heap) */
    size_t noperands;
} sn_opts;

/* Reads argv[1..argc) for tool against sn_options: "--name VALUE",
 * "--name=VALUE", "-X VALUE", operands anywhere, "--" ends the options.
 * A path or spec given as the next word may not start with '-' (bar "-"
 * itself): "--report --strict" lost its value, so it is bad usage; such a
 * name is given attached, "--report=-x". Every value is checked by its row (a NUMBER in min..max, decimal or 0x
 * hex: number.h), an option the tool does not take, a missing value, a
 * second one of a non-repeated option, a required one missing and an
 * operand count outside the tool's are bad usage. Returns -1 to go on; 0
 * after printing --help or --version on stdout; 2 after "PROG: WHY" naming
 * the option and its value, then the usage, on stderr; 1 when memory runs
 * out. Free with sn_opts_free whatever it returns. */
int sn_opts_parse(sn_tool tool, int argc, char **argv, sn_opts *o);

void sn_opts_free(sn_opts *o);

/* Splits a PLACE value the parser accepted into its address and file. */
void sn_opts_place(const char *value, uint64_t *addr, const char **file);

/* "PROG: " fmt, then the tool's usage line, on stderr. Returns 2, the exit
 * status of bad usage (docs/user-guide.md "Exit statuses"). */
int sn_opts_usage_error(sn_tool tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The tool's --help: usage, what it does, and every option it takes with
 * its value, range and default. */
void sn_opts_help(FILE *out, sn_tool tool);

#ifdef __cplusplus
}
#endif

#endif
