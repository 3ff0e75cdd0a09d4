/* The option table, its parser and its --help (see options.h). getopt_long
 * scans argv (libc's: "--name=VALUE", "--", a value that starts with '-');
 * the table alone says what a value may be and what each tool takes. */
#include "options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "err_text.h"
#include "escape.h"
#include "number.h"

#define ALL_TOOLS 0xFFu
#define COMMANDS (SN_TOOL_RUN | SN_TOOL_FLASH | SN_TOOL_PACK | SN_TOOL_HEADER | SN_TOOL_DUMP)
#define SIMULATES (SN_TOOL_RUN | SN_TOOL_SIM | SN_TOOL_BENCH)
#define U64_MAX UINT64_MAX

/* Cycle cap well above the runner's own hang detection (8 M cycles without
 * a completion), so the runner reports a hang itself with each node's debt. */
#define MAX_CYCLES_DEFAULT 400000000ull

const sn_option sn_options[SN_OPT_COUNT] = {
    [SN_OPT_HELP] = {"help", 'h', SN_OPT_FLAG, NULL, 0, 0, 0, NULL, 0, ALL_TOOLS, 0,
                     "print this help and exit"},
    [SN_OPT_VERSION] = {"version", 0, SN_OPT_FLAG, NULL, 0, 0, 0, NULL, 0, ALL_TOOLS, 0,
                        "print the version and exit"},
    [SN_OPT_JOBS] = {"jobs", 0, SN_OPT_NUMBER, "N", 1, 256, 1, NULL, 0, SN_TOOL_RUN, 0,
                     "run N cases at a time, one thread and one simulator each (use at most the cores you have)"},
    [SN_OPT_IMAGE] = {"image", 0, SN_OPT_TEXT, "ELF", 0, 0, 0,
                      "runner.elf in ../firmware/ from the tool's folder, or ../lib/sysnode/ when installed", 0,
                      SN_TOOL_RUN | SN_TOOL_BENCH, 0,
                      "the runner image to run; one whose summary shows other round or flit counts than the case's "
                      "is refused"},
    [SN_OPT_FLOOR_IMAGE] = {"floor-image", 0, SN_OPT_TEXT, "ELF", 0, 0, 0, "runner-floor.elf, found as --image's", 0,
                            SN_TOOL_BENCH, 0, "the floor reference image"},
    [SN_OPT_SENDWAIT_IMAGE] = {"sendwait-image", 0, SN_OPT_TEXT, "ELF", 0, 0, 0,
                               "runner-sendwait.elf, found as --image's", 0, SN_TOOL_BENCH, 0,
                               "the send-and-wait reference image"},
    [SN_OPT_MAX_CYCLES] = {"max-cycles", 0, SN_OPT_NUMBER, "N", 1, U64_MAX / 2, MAX_CYCLES_DEFAULT, NULL, 0,
                           SIMULATES | SN_TOOL_FLASH, 0,
                           "stop at N CPU cycles, reported as \"stopped at the --max-cycles cap\""},
    [SN_OPT_CU_VERSION] = {"cu-version", 0, SN_OPT_NUMBER, "4|5", 4, 5, 4, "4; a card's units report their own",
                           SN_OPTF_NO_CARD, SN_TOOL_RUN | SN_TOOL_FLASH | SN_TOOL_BENCH, 0,
                           "every unit's generation: 4 completes when the last write beat is sent, 5 after the "
                           "writes land"},
    [SN_OPT_STRICT] = {"strict", 0, SN_OPT_FLAG, NULL, 0, 0, 0, NULL, 0, SN_TOOL_RUN, 0,
                       "a unit read of DRAM bytes nothing wrote fails the case instead of a warning"},
    [SN_OPT_DRAM_LATENCY] = {"dram-latency", 0, SN_OPT_NUMBER, "N", 0, 1000, 0, NULL, SN_OPTF_NO_DEVICE, SIMULATES, 0,
                             "cycles per DRAM access, the CPU's past its L1 and each unit's memory-node "
                             "transaction; 0 is the bench RAM the timing facts were measured on"},
    [SN_OPT_DIGEST] = {"digest", 0, SN_OPT_FLAG, NULL, 0, 0, 0, NULL, 0, SN_TOOL_RUN, 0,
                       "the runner reads the first expected output back after its last round and records its "
                       "CRC-32, which the host compares with the expected bytes'"},
    [SN_OPT_DIGEST_RANGE] = {"digest", 0, SN_OPT_SPAN, "ADDR:BYTES", 1, 0, 0, NULL, 0, SN_TOOL_FLASH, 0,
                             "the runner reads that DRAM range back after its last round and its CRC-32 is "
                             "printed (needs --table)"},
    [SN_OPT_EXPECT] = {"expect", 0, SN_OPT_TEXT, "FILE", 0, 0, 0, NULL, 0, SN_TOOL_FLASH, 0,
                       "with --digest: FILE holds the bytes expected there; the run fails (exit 1) when the "
                       "runner's CRC-32 differs from FILE's"},
    [SN_OPT_DIFF] = {"diff", 0, SN_OPT_NUMBER, "N", 0, 64, 8, NULL, 0, SN_TOOL_RUN, 0,
                     "on a mismatch, list the first N differing elements of each region"},
    [SN_OPT_SAVE_OUTPUT] = {"save-output", 0, SN_OPT_TEXT, "DIR", 0, 0, 0, NULL, SN_OPTF_ONE_CASE, SN_TOOL_RUN, 0,
                            "write what the program left in each expected region to DIR/<file>, however the run "
                            "ends"},
    [SN_OPT_TRACE] = {"trace", 0, SN_OPT_TEXT, "FILE", 0, 0, 0, NULL, SN_OPTF_ONE_CASE, SN_TOOL_RUN, 0,
                      "one text line per host-window access, kept only when the run reached its wait"},
    [SN_OPT_TABLE] = {"table", 0, SN_OPT_TEXT, "TABLE.bin", 0, 0, 0, NULL, SN_OPTF_ONE_CASE, SN_TOOL_RUN, 0,
                      "run a table from sysnode pack instead of packing the artifacts"},
    [SN_OPT_TABLE_AT] = {"table", 0, SN_OPT_PLACE, "ADDR=TABLE.bin", 0, 0, 0, NULL, 0, SN_TOOL_FLASH | SN_TOOL_SIM,
                         0, "write a packed table at DRAM address ADDR and the boot arguments that point the "
                         "runner at it"},
    [SN_OPT_LOAD] = {"load", 0, SN_OPT_PLACE, "ADDR=FILE", 0, 0, 0, NULL, SN_OPTF_REPEAT,
                     SN_TOOL_FLASH | SN_TOOL_SIM, 0, "write FILE into DRAM at unit address ADDR (repeatable)"},
    [SN_OPT_DEVICE] = {"device", 0, SN_OPT_TEXT, "sim|xdma:PREFIX", 0, 0, 0, NULL, SN_OPTF_ONE_CASE,
                       SN_TOOL_RUN | SN_TOOL_FLASH, SN_TOOL_FLASH,
                       "the host window over the card protocol: the simulated card, or a card through the XDMA "
                       "device files PREFIX_user, PREFIX_h2c_0 and PREFIX_c2h_0"},
    [SN_OPT_TIMELINE] = {"timeline", 0, SN_OPT_TEXT, "FILE.json|FILE.svg", 0, 0, 0, NULL,
                         SN_OPTF_ONE_CASE | SN_OPTF_NO_CARD, SN_TOOL_RUN, 0, "the run's timeline, written however the run ends"},
    [SN_OPT_REPORT] = {"report", 0, SN_OPT_TEXT, "FILE.json", 0, 0, 0, NULL, SN_OPTF_ONE_CASE, SN_TOOL_RUN, 0,
                       "one JSON object describing the run, written however it ends"},
    [SN_OPT_FST] = {"fst", 0, SN_OPT_TEXT, "FILE.fst", 0, 0, 0, NULL, SN_OPTF_ONE_CASE | SN_OPTF_NO_CARD,
                    SN_TOOL_RUN, 0,
                    "every signal of the Verilated mesh"},
    [SN_OPT_FST_WINDOW] = {"fst-window", 0, SN_OPT_SPAN, "FROM:TO", 0, 0, 0, "the whole run", 0, SN_TOOL_RUN, 0,
                           "with --fst: only mesh cycles FROM to TO-1 (FROM < TO)"},
    [SN_OPT_GDB] = {"gdb", 0, SN_OPT_NUMBER, "PORT", 0, 65535, 0, "no GDB", SN_OPTF_ONE_CASE | SN_OPTF_NO_DEVICE,
                    SN_TOOL_RUN | SN_TOOL_SIM, 0,
                    "serve GDB's remote protocol on 127.0.0.1:PORT before the image runs (0 picks a free port, "
                    "printed on stderr)"},
    [SN_OPT_LOCKSTEP] = {"lockstep", 0, SN_OPT_FLAG, NULL, 0, 0, 0, NULL, SN_OPTF_NO_DEVICE, SN_TOOL_RUN | SN_TOOL_SIM,
                         0, "clock the mesh every cycle instead of skipping cycles in which nothing can change: the "
                         "same cycles and bytes, slower"},
    [SN_OPT_INJECT] = {"inject", 0, SN_OPT_TEXT, "KIND[@ROUND:STEP|@CYCLE]", 0, 0, 0, NULL,
                       SN_OPTF_ONE_CASE | SN_OPTF_NO_DEVICE,
                       SN_TOOL_RUN | SN_TOOL_SIM, 0,
                       "one fault on demand (docs/user-guide.md \"Faults on demand\" lists the kinds)"},
    [SN_OPT_OUTPUT_TABLE] = {"output", 'o', SN_OPT_TEXT, "TABLE.bin", 0, 0, 0, NULL, 0, SN_TOOL_PACK, SN_TOOL_PACK,
                             "the packed table to write"},
    [SN_OPT_OUTPUT_HEADER] = {"output", 'o', SN_OPT_TEXT, "FILE.h", 0, 0, 0, NULL, 0, SN_TOOL_HEADER,
                              SN_TOOL_HEADER, "the C header to write"},
    [SN_OPT_JSON] = {"json", 0, SN_OPT_FLAG, NULL, 0, 0, 0, NULL, 0, SN_TOOL_DUMP, 0, "print the same as JSON"},
    [SN_OPT_JSON_FILE] = {"json", 0, SN_OPT_TEXT, "FILE", 0, 0, 0, NULL, 0, SN_TOOL_BENCH, 0,
                          "the same figures as JSON, written whole or not at all"},
    [SN_OPT_HOST_LOAD] = {"host-load", 0, SN_OPT_NUMBER, "N", 1, 1000, 0, "not timed", 0, SN_TOOL_BENCH, 0,
                          "time the host's parse, check and pack N times per case instead, and print the median"},
};

/* Each tool's usage, what it does, and its operands. */
typedef struct {
    sn_tool tool;
    const char *name;
    const char *usage; /* lines after "usage: " */
    const char *about;
    size_t min_operands, max_operands;
    const char *operand; /* one operand in words, for messages */
} tool_info;

static const tool_info TOOLS[] = {
    {SN_TOOL_SYSNODE, "sysnode", "sysnode COMMAND [OPTION]... (sysnode COMMAND --help: that command's options)\n",
     "Commands:\n"
     "  run CASE_DIR...                  replay cases on the simulated SysNode or a card\n"
     "  flash IMAGE.elf --device ...     load an image, boot it, stream its console\n"
     "  pack CASE_DIR | ARTIFACT.json... -o TABLE.bin   pack the DRAM-resident table\n"
     "  header CASE_DIR | ARTIFACT.json... -o FILE.h    the table as C, for an embedded image\n"
     "  dump TABLE.bin | CASE_DIR | ARTIFACT.json...    rounds, steps and decoded payloads\n",
     0, 0, "command"},
    {SN_TOOL_RUN, "sysnode run", "sysnode run CASE_DIR... [OPTION]...\n",
     "Replays each case on a simulated SysNode of its own (or, with --device, one case on a card) and prints one "
     "verdict line per case, in the order given, and a summary line for several. Exit 0 when every case matched "
     "byte for byte, 1 otherwise, 2 on bad usage.\n",
     1, SIZE_MAX, "case directory"},
    {SN_TOOL_FLASH, "sysnode flash", "sysnode flash IMAGE.elf --device sim|xdma:PREFIX [OPTION]...\n",
     "Loads an image onto a card (or the simulated card), places files in DRAM, boots it and streams its console. "
     "Exits with the image's exit status, 124 at the cap, 125 for a halt, 126 for a bad input or device error, "
     "2 on bad usage.\n",
     1, 1, "image"},
    {SN_TOOL_PACK, "sysnode pack",
     "sysnode pack ARTIFACT.json [ARTIFACT.json ...] -o TABLE.bin\n       sysnode pack CASE_DIR -o TABLE.bin\n",
     "Checks the rounds against the table rules and writes them as a packed table (artifacts/FORMAT.md). "
     "Artifacts are rounds in the order given; a case directory's manifest.json gives its order and its mesh.\n",
     1, SIZE_MAX, "input"},
    {SN_TOOL_HEADER, "sysnode header",
     "sysnode header ARTIFACT.json [ARTIFACT.json ...] -o FILE.h\n       sysnode header CASE_DIR -o FILE.h\n",
     "Checks the rounds against the table rules, as pack does, and writes the firmware's embedded artifact table "
     "as a C header. Artifacts are rounds, in the order given; a case directory's manifest.json gives its own "
     "order (artifacts_in_order).\n",
     1, SIZE_MAX, "input"},
    {SN_TOOL_DUMP, "sysnode dump",
     "sysnode dump TABLE.bin [--json]\n       sysnode dump CASE_DIR [--json]\n"
     "       sysnode dump ARTIFACT.json [ARTIFACT.json ...] [--json]\n",
     "Lists every round's steps and, under each kick, its payloads decoded for the unit at the target. A file not "
     "named *.json is read as a packed table (artifacts/FORMAT.md), verified first and decoded for rv64_mesh_2p2; "
     "a case directory uses its manifest's mesh.\n",
     1, SIZE_MAX, "input"},
    {SN_TOOL_SIM, "sysnode-sim", "sysnode-sim IMAGE.elf [OPTION]...\n",
     "Boots an image on the simulated SysNode, prints its console, how it stopped and the runner's error worded "
     "from its status block. Exits with the image's exit status, 124 at the cap, 125 for a halt or a simulation "
     "error, 128+N after signal N, 2 on bad usage or an input that cannot be placed as asked.\n",
     1, 1, "image"},
    {SN_TOOL_BENCH, "sysnode-bench", "sysnode-bench [OPTION]... [CASE_DIR...]\n",
     "Replays each case (default: every case under the source tree's artifacts/compiler/, as built) with the "
     "runner, floor and send-and-wait images and prints what the simulator measured (docs/DESIGN.md §12). "
     "Exit 0 when every replay matched, 1 otherwise, 2 on bad usage.\n",
     0, SIZE_MAX, "case directory"},
};

static const tool_info *info_of(sn_tool tool)
{
    for (size_t i = 0; i < sizeof TOOLS / sizeof TOOLS[0]; i++)
        if (TOOLS[i].tool == tool)
            return &TOOLS[i];
    abort(); /* every sn_tool has a row */
}

int sn_opts_usage_error(sn_tool tool, const char *fmt, ...)
{
    const tool_info *t = info_of(tool);
    va_list ap;
    va_start(ap, fmt);
    char *msg = sn_text_vdup(fmt, ap); /* whole: it quotes what the user typed, however long */
    va_end(ap);
    fprintf(stderr, "%s: ", t->name);
    sn_fput_escaped(stderr, msg ? msg : "out of memory for the message", false);
    free(msg);
    fputc('\n', stderr);
    fprintf(stderr, "usage: %s", t->usage);
    fprintf(stderr, "(%s --help: every option)\n", t->name);
    return 2;
}

/* text from column `col` on, wrapped at 79 columns, later lines at `indent`. */
static void put_wrapped(FILE *out, const char *text, int col, int indent)
{
    const int width = 79;
    while (*text) {
        size_t word = strcspn(text, " \n");
        if (col > indent && col + 1 + (int)word > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += (int)word;
        text += word;
        if (*text == '\n' && text[1] != '\0') {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        while (*text == ' ' || *text == '\n')
            text++;
    }
    fputc('\n', out);
}

void sn_opts_help(FILE *out, sn_tool tool)
{
    const tool_info *t = info_of(tool);
    const int indent = 30;
    fprintf(out, "usage: %s", t->usage);
    if (tool == SN_TOOL_SYSNODE)
        fputs(t->about, out); /* a list of its own layout */
    else
        put_wrapped(out, t->about, 0, 0);
    fputs("\nOptions:\n", out);
    for (int id = 0; id < SN_OPT_COUNT; id++) {
        const sn_option *r = &sn_options[id];
        if (!(r->tools & tool))
            continue;
        char head[80], more[160] = "", number[24];
        sn_text_fit(number, sizeof number, "%llu", (unsigned long long)r->def);
        int n = r->short_name ? snprintf(head, sizeof head, "  -%c, --%s", r->short_name, r->name)
                              : snprintf(head, sizeof head, "      --%s", r->name);
        if (r->value)
            sn_text_fit(head + n, sizeof head - (size_t)n, " %s", r->value);
        if (r->required & tool)
            sn_text_fit(more, sizeof more, " (required)");
        else if (r->kind == SN_OPT_NUMBER)
            sn_text_fit(more, sizeof more, " (%llu..%llu; default %s)", (unsigned long long)r->min,
                     (unsigned long long)r->max, r->def_text ? r->def_text : number);
        else if (r->def_text)
            sn_text_fit(more, sizeof more, " (default %s)", r->def_text);
        if (r->flags & SN_OPTF_ONE_CASE && tool == SN_TOOL_RUN)
            sn_text_fit(more + strlen(more), sizeof more - strlen(more), " (one case)");
        if (r->flags & SN_OPTF_NO_DEVICE && sn_options[SN_OPT_DEVICE].tools & tool)
            sn_text_fit(more + strlen(more), sizeof more - strlen(more), " (not with --device)");
        if (r->flags & SN_OPTF_NO_CARD && sn_options[SN_OPT_DEVICE].tools & tool)
            sn_text_fit(more + strlen(more), sizeof more - strlen(more), " (not with --device xdma:)");
        char help[512];
        sn_text_fit(help, sizeof help, "%s%s", r->help, more);
        fputs(head, out);
        int col = (int)strlen(head);
        if (col + 2 > indent) {
            fprintf(out, "\n%*s", indent, "");
        } else {
            fprintf(out, "%*s", indent - col, "");
        }
        put_wrapped(out, help, indent, indent);
    }
}

/* The row of tool's -short_name (getopt_long returned it, so there is one). */
static int short_row(sn_tool tool, int short_name)
{
    for (int id = 0; id < SN_OPT_COUNT; id++)
        if ((sn_options[id].tools & tool) && sn_options[id].short_name == short_name)
            return id;
    abort();
}

/* Checks value against row id and keeps it in o; 0, or 2 after saying why. */
static int take_value(sn_opts *o, int id, const char *value)
{
    const sn_option *r = &sn_options[id];
    const char *rest = NULL;
    switch (r->kind) {
    case SN_OPT_FLAG:
        break;
    case SN_OPT_NUMBER:
        if (sn_number_parse(value, r->min, r->max, &o->num[id]) != 0)
            return sn_opts_usage_error(o->tool, "--%s wants a number in %llu..%llu (decimal or 0x hex), got '%s'",
                                       r->name, (unsigned long long)r->min, (unsigned long long)r->max, value);
        break;
    case SN_OPT_TEXT:
        if (value[0] == '\0')
            return sn_opts_usage_error(o->tool, "--%s wants %s, got ''", r->name, r->value);
        break;
    case SN_OPT_PLACE:
        if (sn_number_parse_until(value, '=', 0, UINT64_MAX, &o->num[id], &rest) != 0 || rest[0] == '\0')
            return sn_opts_usage_error(o->tool, "--%s wants %s (ADDR a number, decimal or 0x hex), got '%s'", r->name,
                                       r->value, value);
        break;
    case SN_OPT_SPAN:
        if (sn_number_parse_until(value, ':', 0, UINT64_MAX, &o->num[id], &rest) != 0 ||
            sn_number_parse(rest, r->min, UINT64_MAX, &o->num2[id]) != 0)
            return sn_opts_usage_error(o->tool, "--%s wants %s (numbers, decimal or 0x hex%s), got '%s'", r->name,
                                       r->value, r->min ? "; the second not 0" : "", value);
        break;
    }
    if (o->given[id] && !(r->flags & SN_OPTF_REPEAT))
        return sn_opts_usage_error(o->tool, "--%s given twice", r->name);
    o->given[id]++;
    o->text[id] = value;
    o->order[o->norder] = (sn_opt_id)id;
    o->values[o->norder++] = value;
    return 0;
}

void sn_opts_place(const char *value, uint64_t *addr, const char **file)
{
    if (sn_number_parse_until(value, '=', 0, UINT64_MAX, addr, file) != 0)
        abort(); /* the parser accepted it */
}

/* The getopt_long tables for tool: a long option's val is 256 + its row. */
static void scan_tables(sn_tool tool, struct option *longs, char *shorts)
{
    size_t nl = 0, ns = 0;
    shorts[ns++] = '-'; /* operands in place, in order, whatever POSIXLY_CORRECT says */
    shorts[ns++] = ':'; /* a missing value is ':', and getopt prints nothing */
    for (int id = 0; id < SN_OPT_COUNT; id++) {
        const sn_option *r = &sn_options[id];
        if (!(r->tools & tool))
            continue;
        longs[nl++] = (struct option){r->name, r->kind == SN_OPT_FLAG ? no_argument : required_argument, NULL,
                                      256 + id};
        if (r->short_name) {
            shorts[ns++] = r->short_name;
            if (r->kind != SN_OPT_FLAG)
                shorts[ns++] = ':';
        }
    }
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    shorts[ns] = '\0';
}

/* A getopt_long result that is no option of the tool: 2 after saying so. */
static int scan_error(sn_opts *o, int c, char **argv)
{
    const char *word = argv[optind - 1];
    if (optopt >= 256 && c == ':')
        return sn_opts_usage_error(o->tool, "--%s: no value after it (want %s)", sn_options[optopt - 256].name,
                                   sn_options[optopt - 256].value);
    if (optopt >= 256)
        return sn_opts_usage_error(o->tool, "--%s takes no value, got '%s'", sn_options[optopt - 256].name, word);
    if (optopt != 0 && c == ':')
        return sn_opts_usage_error(o->tool, "-%c: no value after it", optopt);
    if (optopt != 0)
        return sn_opts_usage_error(o->tool, "-%c: unknown option", optopt);
    return sn_opts_usage_error(o->tool, "%s: unknown option", word);
}

/* arg spells --name whole (getopt_long also takes a unique prefix, which a
 * later option could make ambiguous: a script must not depend on one). */
static bool whole_name(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, "--", 2) && !strncmp(arg + 2, name, n) && (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

int sn_opts_parse(sn_tool tool, int argc, char **argv, sn_opts *o)
{
    const tool_info *t = info_of(tool);
    struct option longs[SN_OPT_COUNT + 1];
    char shorts[3 + 2 * SN_OPT_COUNT];
    memset(o, 0, sizeof *o);
    o->tool = tool;
    for (int id = 0; id < SN_OPT_COUNT; id++)
        o->num[id] = sn_options[id].def;
    size_t slots = (size_t)(argc > 0 ? argc : 1);
    o->order = malloc(slots * sizeof *o->order);
    o->values = malloc(slots * sizeof *o->values);
    o->operands = malloc(slots * sizeof *o->operands);
    if (!o->order || !o->values || !o->operands) {
        fprintf(stderr, "%s: out of memory\n", t->name);
        return 1;
    }
    scan_tables(tool, longs, shorts);
    optind = 0; /* glibc: start afresh */
    opterr = 0;
    for (int c, at = 1; (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1; at = optind) {
        if (c >= 256 && !whole_name(argv[at], sn_options[c - 256].name))
            return sn_opts_usage_error(tool, "%s: unknown option (the whole name is --%s)", argv[at],
                                       sn_options[c - 256].name);
        if (c == 1) {
            o->operands[o->noperands++] = optarg;
            continue;
        }
        if (c == '?' || c == ':')
            return scan_error(o, c, argv);
        int id = c >= 256 ? c - 256 : short_row(tool, c);
        const sn_option *r = &sn_options[id];
        /* "--report --strict": the value was forgotten, and a file named
         * "--strict" would be written; a name starting with '-' is given
         * attached (--report=-x) or as ./-x. */
        if (r->kind == SN_OPT_TEXT && optind - 1 > at && optarg == argv[optind - 1] && optarg[0] == '-' &&
            optarg[1] != '\0')
            return sn_opts_usage_error(tool, "--%s: no value after it (want %s): '%s' is taken for an option; a %s "
                                       "that starts with '-' is written --%s=%s", r->name, r->value, optarg, r->value,
                                       r->name, optarg);
        int rc = take_value(o, id, r->kind == SN_OPT_FLAG ? NULL : optarg);
        if (rc != 0)
            return rc;
    }
    while (optind < argc) /* after "--" */
        o->operands[o->noperands++] = argv[optind++];
    if (o->given[SN_OPT_HELP]) {
        sn_opts_help(stdout, tool);
        return 0;
    }
    if (o->given[SN_OPT_VERSION]) {
        printf("%s %s\n", tool & (SN_TOOL_SIM | SN_TOOL_BENCH) ? t->name : "sysnode", sn_version());
        return 0;
    }
    for (int id = 0; id < SN_OPT_COUNT; id++) {
        const sn_option *r = &sn_options[id];
        if ((r->required & tool) && !o->given[id] && r->short_name)
            return sn_opts_usage_error(tool, "-%c %s is required", r->short_name, r->value);
        if ((r->required & tool) && !o->given[id])
            return sn_opts_usage_error(tool, "--%s %s is required", r->name, r->value);
    }
    if (o->noperands < t->min_operands)
        return sn_opts_usage_error(tool, "no %s given", t->operand);
    if (o->noperands > t->max_operands && t->max_operands == 0) /* sysnode -- run, sysnode --verbose run */
        return sn_opts_usage_error(tool, "'%s': a %s comes first, before any option or '--'",
                                   o->operands[0], t->operand);
    if (o->noperands > t->max_operands)
        return sn_opts_usage_error(tool, "'%s': a second %s", o->operands[t->max_operands], t->operand);
    return -1;
}

void sn_opts_free(sn_opts *o)
{
    free(o->order);
    free(o->values);
    free(o->operands);
    o->order = NULL;
    o->values = NULL;
    o->operands = NULL;
}
