/* `sysnode dump`: a readable (or --json) listing of a packed table, a case
 * or artifacts: per round each step, and under each kick its payloads with
 * slot, target, unit type and decode (host/inputs/disasm.h). A packed table is
 * verified first (sn_table_image_open) and every input must pass the table
 * rules (sn_table_check), so the walk never leaves the table. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli_io.h"
#include "commands.h"
#include "disasm.h"
#include "escape.h"
#include "file_read.h"
#include "json_out.h"
#include "messages.h"
#include "pack_inputs.h"
#include "sysnode/table_image.h"
#include "table_check.h"

/* What is being listed: the table view, its mesh and, for artifacts, the
 * file each round came from (NULL for a packed table). */
typedef struct {
    sn_table table;
    sn_mesh mesh;
    char *const *files;
    const char *source;
    bool json;
} listing;

static void dump_payload(const listing *l, sn_disasm_state *s, const sn_table_step *k, uint32_t slot,
                         const sn_table_row *row, bool first)
{
    const sn_mesh_unit *u = sn_mesh_find(&l->mesh, k->x, k->y);
    sn_disasm d;
    sn_disasm_payload(s, k->x, k->y, u != NULL ? u->cu_type : 0, row, &d);
    if (!l->json) {
        printf("    slot %3" PRIu32 " -> (%u,%u) %s %s\n", slot, k->x, k->y, d.unit, d.text);
        return;
    }
    printf("%s\n        {\"slot\": %" PRIu32 ", \"x\": %u, \"y\": %u, \"unit\": \"%s\", \"op\": \"%s\", ",
           first ? "" : ",", slot, k->x, k->y, d.unit, d.op);
    if (d.insn != NULL)
        printf("\"insn\": \"%s\", ", d.insn);
    printf("\"words\": [\"0x%016" PRIx64 "\", \"0x%016" PRIx64 "\", \"0x%016" PRIx64 "\", \"0x%016" PRIx64
           "\"], \"fields\": {",
           row->arg3, row->arg2, row->arg1, row->arg0);
    for (unsigned i = 0; i < d.field_count; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", d.fields[i].name, d.fields[i].value);
    printf("}, \"text\": ");
    sn_json_write_string(stdout, d.text);
    putchar('}');
}

static void dump_step(const listing *l, sn_disasm_state *s, const sn_table_round *r, uint32_t index,
                      const sn_table_step *k)
{
    static const char *const OPS[] = {NULL, "seed", "kick", "await", "barrier", "host_sync"};
    const char *op = OPS[k->op]; /* sn_table_check passed: op is 1..5 */
    if (l->json)
        printf("%s\n      {\"step\": %" PRIu32 ", \"op\": \"%s\"", index ? "," : "", index, op);
    else
        printf("  step %" PRIu32 ": %s", index, op);
    switch (k->op) {
    case SN_STEP_SEED:
        printf(l->json ? ", \"n\": %" PRIu32 "}" : " %" PRIu32 "\n", k->seed.n);
        return;
    case SN_STEP_AWAIT:
        printf(l->json ? ", \"x\": %u, \"y\": %u, \"count\": %" PRIu32 "}" : " (%u,%u) %" PRIu32 "\n", k->x, k->y,
               k->await.completions);
        return;
    case SN_STEP_KICK:
        printf(l->json ? ", \"x\": %u, \"y\": %u, \"base\": %" PRIu32 ", \"n\": %" PRIu32 ", \"payloads\": ["
                       : " (%u,%u) base %" PRIu32 " n %" PRIu32 "\n",
               k->x, k->y, k->kick.first_slot, k->kick.flits);
        for (uint32_t i = 0; i < k->kick.flits; i++) {
            uint32_t slot = k->kick.first_slot + i;
            dump_payload(l, s, k, slot, &l->table.payloads[r->payload_first + slot], i == 0);
        }
        if (l->json)
            printf("]}");
        return;
    default: /* SN_STEP_BARRIER or SN_STEP_HOST_SYNC, the ops left after sn_table_check */
        printf(l->json ? "}" : "\n");
        return;
    }
}

static void dump(const listing *l)
{
    const sn_table *t = &l->table;
    sn_disasm_state s; /* VSETI immediates per node, across rounds: IMEM persists */
    sn_disasm_init(&s);
    if (l->json) {
        printf("{\"source\": ");
        sn_json_write_string(stdout, l->source);
        printf(", \"round_count\": %" PRIu32 ", \"step_count\": %" PRIu32 ", \"payload_count\": %" PRIu32
               ", \"rounds\": [",
               t->round_count, t->step_count, t->payload_count);
    } else {
        fputs("# ", stdout);
        sn_fput_escaped(stdout, l->source, false);
        printf(": %" PRIu32 " round%s, %" PRIu32 " steps, %" PRIu32 " payloads\n", t->round_count,
               t->round_count == 1 ? "" : "s",
               t->step_count, t->payload_count);
    }
    for (uint32_t i = 0; i < t->round_count; i++) {
        const sn_table_round *r = &t->rounds[i];
        if (l->json) {
            printf("%s\n  {\"round\": %" PRIu32 ", \"file\": ", i ? "," : "", i);
            if (l->files != NULL)
                sn_json_write_string(stdout, l->files[i]);
            else
                printf("null");
            printf(", \"step_first\": %" PRIu32 ", \"step_count\": %" PRIu32 ", \"payload_first\": %" PRIu32
                   ", \"payload_count\": %" PRIu32 ", \"steps\": [",
                   r->step_first, r->step_count, r->payload_first, r->payload_count);
        } else {
            printf("round %" PRIu32, i);
            if (l->files) {
                fputs(" (", stdout);
                sn_fput_escaped(stdout, l->files[i], false);
                putchar(')');
            }
            printf(": %" PRIu32 " steps, %" PRIu32 " payloads\n", r->step_count, r->payload_count);
        }
        for (uint32_t k = 0; k < r->step_count; k++)
            dump_step(l, &s, r, k, &t->steps[r->step_first + k]);
        if (l->json)
            printf("]}");
    }
    if (l->json)
        printf("\n]}\n");
}

static bool is_json_name(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

/* Checks l against the table rules, then lists it. */
static sn_status check_and_dump(listing *l, sn_error *e)
{
    uint32_t kicked[SN_NODE_COUNT] = {0}, awaited[SN_NODE_COUNT] = {0};
    sn_table_fault fault;
    sn_mesh_map map = {0};
    sn_mesh_map_init(&map, &l->mesh);
    sn_status st = sn_table_check(&l->table, &map, kicked, awaited, &fault);
    if (st != SN_OK) {
        char words[256];
        sn_table_fault_describe(&fault, words, sizeof words);
        return sn_error_set(e, st, "%s: %s", l->files ? l->files[fault.round] : l->source, words);
    }
    dump(l);
    return SN_OK;
}

static sn_status dump_image(const char *path, bool json, sn_error *e)
{
    static const sn_mesh default_mesh = SN_MESH_2P2_INIT;
    unsigned char *data = NULL;
    size_t len = 0;
    sn_status st = sn_file_read(path, &data, &len, e); /* malloc'ed: aligned for the records */
    if (st == SN_OK) {
        listing l = {.mesh = default_mesh, .source = path, .json = json};
        sn_table_image_fault fault;
        st = sn_table_image_open(data, len, &l.table, &fault);
        if (st == SN_OK)
            st = sn_table_image_check_payloads(&l.table, &fault);
        if (st != SN_OK) {
            char words[256];
            sn_error_set(e, st, "%s: %s", path, sn_table_image_describe(&fault, words, sizeof words));
        } else {
            st = check_and_dump(&l, e);
        }
    }
    free(data);
    return st;
}

static sn_status dump_program(const char *const *inputs, size_t n, bool json, sn_error *e)
{
    sn_program p;
    listing l = {.source = n == 1 ? inputs[0] : "artifacts", .json = json};
    sn_status st = sn_pack_load_inputs(inputs, n, &p, &l.mesh, e);
    if (st == SN_OK) {
        l.table = sn_program_table(&p);
        l.files = p.files;
        st = check_and_dump(&l, e);
    }
    sn_program_free(&p);
    return st;
}

int sn_cmd_dump(int argc, char **argv)
{
    sn_cli_args a = {.tool = SN_TOOL_DUMP, .cmd = "dump"};
    int rc = sn_cli_args_parse(&a, argc, argv);
    if (rc < 0) {
        sn_error err = {0};
        sn_status st;
        if (a.ninputs == 1 && !is_json_name(a.inputs[0]) && !sn_path_is_dir(a.inputs[0]))
            st = dump_image(a.inputs[0], a.json, &err);
        else
            st = dump_program(a.inputs, a.ninputs, a.json, &err);
        if (st != SN_OK)
            sn_cli_error("dump", err.msg);
        rc = st == SN_OK ? 0 : 1;
    }
    sn_cli_args_free(&a);
    return rc;
}
