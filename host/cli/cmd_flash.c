/* sysnode flash IMAGE.elf --device sim|xdma:PREFIX [OPTION]... (the options: common/options.c)
 * Loads an image onto a card (or the simulated card) through the host
 * window, places files in DRAM, boots it and streams its console as it
 * arrives (docs/user-guide.md "On a card"). With --expect, the CRC-32 the
 * runner computed over the --digest range as it read it back on the card is
 * checked against FILE's: a result checked on the card itself. Everything is
 * read and checked before anything reaches the card. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device_check.h"
#include "device_open.h"
#include "crc32.h"
#include "file_read.h"
#include "messages.h"
#include "options.h"
#include "replay.h"
#include "transport.h"
#include "window_load.h"

/* The console is printed every this many CPU cycles while the image runs. */
#define STREAM_CYCLES 1000000ull
#define MAX_LOADS 64

/* EXIT_DIFFERS: the --expect check failed (the runner's own codes start at 0x10, status.h). */
enum { EXIT_DIFFERS = 1, EXIT_HANG = 124, EXIT_HALT = 125, EXIT_FAILED = 126 };

typedef struct {
    const char *spec;
    uint64_t addr;
    unsigned char *bytes;
    size_t n;
} dram_file;

/* ADDR=FILE (checked by the option table): the address and the file's bytes. */
static sn_status read_dram_file(dram_file *f, sn_error *e)
{
    const char *file;
    sn_opts_place(f->spec, &f->addr, &file);
    return sn_file_read(file, &f->bytes, &f->n, e);
}

/* Every file fits the card's DRAM and no two overlap (a later one would
 * overwrite part of an earlier one): checked before anything reaches the
 * card. */
static sn_status check_ranges(const dram_file *files, int nfiles, uint64_t dram_size, sn_error *e)
{
    for (int i = 0; i < nfiles; i++) {
        const dram_file *f = &files[i];
        if (f->addr > dram_size || f->n > dram_size - f->addr)
            return sn_error_set(e, SN_ERR_INPUT, "'%s': %llu bytes at 0x%llx pass the end of DRAM (%llu bytes)",
                                f->spec, (unsigned long long)f->n, (unsigned long long)f->addr,
                                (unsigned long long)dram_size); /* no end address: it can pass 2^64 */
        for (int j = 0; j < i; j++) {
            const dram_file *g = &files[j];
            if (f->n && g->n && f->addr < g->addr + g->n && g->addr < f->addr + f->n)
                return sn_error_set(e, SN_ERR_INPUT, "'%s' and '%s': their DRAM ranges overlap", g->spec, f->spec);
        }
    }
    return SN_OK;
}

static sn_status place_files(sn_transport *t, dram_file *files, int nfiles, sn_error *e)
{
    for (int i = 0; i < nfiles; i++) {
        sn_status st = t->ops->dram_write(t->ctx, files[i].addr, files[i].bytes, files[i].n, e);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

/* Boots and waits, printing the console text (window.h) as it arrives; returns the exit code. */
static int boot_and_stream(sn_transport *t, uint64_t max_cycles, sn_error *e)
{
    sn_run_status r;
    size_t printed = 0;
    sn_status st = t->ops->boot(t->ctx, e);
    for (uint64_t limit = STREAM_CYCLES; st == SN_OK; limit += STREAM_CYCLES) {
        st = t->ops->wait(t->ctx, limit < max_cycles ? limit : max_cycles, &r, e);
        const char *console = t->ops->console(t->ctx);
        fputs(console + printed, stdout);
        fflush(stdout);
        printed = strlen(console);
        if (st != SN_OK || r.stop != SN_RUN_CYCLE_LIMIT || r.cycles >= max_cycles)
            break;
    }
    if (st != SN_OK) {
        fprintf(stderr, "sysnode flash: %s\n", e->msg);
        return EXIT_FAILED;
    }
    switch (r.stop) {
    case SN_RUN_EXITED:
        fprintf(stderr, "sysnode flash: exit 0x%llx after %llu cycles, %llu instructions\n",
                (unsigned long long)r.exit_code, (unsigned long long)r.cycles, (unsigned long long)r.instret);
        /* the process status keeps 8 bits: a nonzero word must not read as 0 */
        return r.exit_code == 0 ? 0 : (r.exit_code & 0xFF) != 0 ? (int)(r.exit_code & 0xFF) : 1;
    case SN_RUN_HALTED:
        fprintf(stderr, "sysnode flash: core halted, cause %u, %s after %llu cycles\n", r.halt_cause, r.message,
                (unsigned long long)r.cycles);
        return EXIT_HALT;
    case SN_RUN_CYCLE_LIMIT:
        fprintf(stderr, "sysnode flash: stopped at the --max-cycles cap after %llu cycles%s%s\n",
                (unsigned long long)r.cycles, r.message[0] ? ": " : "", r.message);
        return EXIT_HANG;
    default:
        fprintf(stderr, "sysnode flash: simulation stopped after %llu cycles: %s\n", (unsigned long long)r.cycles,
                r.message);
        return EXIT_HALT;
    }
}

/* The command once its options are read: its exit code. */
static int flash(const sn_opts *o)
{
    const char *image = o->operands[0], *device = o->text[SN_OPT_DEVICE];
    dram_file files[MAX_LOADS + 1];
    int nfiles = 0, table = -1;
    uint64_t max_cycles = o->num[SN_OPT_MAX_CYCLES];
    unsigned cu_version = o->given[SN_OPT_CU_VERSION] ? (unsigned)o->num[SN_OPT_CU_VERSION] : 0; /* 0: the card's own */
    const char *digest = o->text[SN_OPT_DIGEST_RANGE], *expect = o->text[SN_OPT_EXPECT];
    unsigned char *expect_bytes = NULL;
    size_t expect_n = 0;
    uint64_t digest_addr = o->num[SN_OPT_DIGEST_RANGE], digest_bytes = digest ? o->num2[SN_OPT_DIGEST_RANGE] : 0;
    int combined = sn_cli_device_check(SN_TOOL_FLASH, o);
    if (combined >= 0)
        return combined;
    if (o->given[SN_OPT_LOAD] > MAX_LOADS)
        return sn_opts_usage_error(SN_TOOL_FLASH, "--load given %u times; at most %d", o->given[SN_OPT_LOAD],
                                   MAX_LOADS);
    for (size_t i = 0; i < o->norder; i++) {
        if (o->order[i] != SN_OPT_LOAD && o->order[i] != SN_OPT_TABLE_AT)
            continue;
        if (o->order[i] == SN_OPT_TABLE_AT)
            table = nfiles;
        files[nfiles++] = (dram_file){o->values[i], 0, NULL, 0};
    }
    if (digest && table < 0)
        return sn_opts_usage_error(SN_TOOL_FLASH, "--digest goes in the boot arguments, which --table writes");
    if (expect && !digest)
        return sn_opts_usage_error(SN_TOOL_FLASH, "--expect %s checks the runner's --digest read-back; give "
                                   "--digest ADDR:BYTES", expect);

    sn_error err = {0};
    sn_elf_image img;
    char why[256];
    int rc = EXIT_FAILED;
    sn_transport t = {0};
    memset(&img, 0, sizeof img);
    sn_status st = SN_OK;
    for (int i = 0; i < nfiles && st == SN_OK; i++)
        st = read_dram_file(&files[i], &err);
    if (st == SN_OK && expect && (st = sn_file_read(expect, &expect_bytes, &expect_n, &err)) == SN_OK &&
        expect_n != digest_bytes)
        st = sn_error_set(&err, SN_ERR_INPUT, "--expect %s holds %zu bytes; --digest %s reads back %llu", expect,
                          expect_n, digest, (unsigned long long)digest_bytes);
    if (st == SN_OK && sn_elf_image_load(image, &img, why, sizeof why) != 0)
        st = sn_error_set(&err, SN_ERR_INPUT, "%s: %s", image, why);
    if (st == SN_OK)
        st = sn_transport_open_device(&t, device, cu_version, &err);
    if (st == SN_OK)
        st = check_ranges(files, nfiles, t.ops->dram_size(t.ctx), &err);
    /* the runner's own boot check (exit 0x16), made here before anything is written to the card */
    if (st == SN_OK && digest && (digest_addr > t.ops->dram_size(t.ctx) || digest_bytes > t.ops->dram_size(t.ctx) - digest_addr))
        st = sn_error_set(&err, SN_ERR_INPUT, "--digest %s: [0x%llx, 0x%llx) passes the end of DRAM (%llu bytes)", digest,
                          (unsigned long long)digest_addr, (unsigned long long)digest_addr + digest_bytes,
                          (unsigned long long)t.ops->dram_size(t.ctx));
    /* The runner's status block comes back through a DRAM copy right after the table (FORMAT.md §6): without
     * it the host could word no runner error and print no digest, so a table it does not fit after is refused. */
    uint64_t status_addr = 0;
    if (st == SN_OK && table >= 0) {
        status_addr = sn_replay_status_addr(files[table].addr, files[table].n);
        if (status_addr > t.ops->dram_size(t.ctx) - SN_STATUS_COPY_BYTES)
            st = sn_error_set(&err, SN_ERR_INPUT, "'%s': the runner's status copy at DRAM [0x%llx, 0x%llx), right "
                              "after the table, passes the end of DRAM (%llu bytes)", files[table].spec,
                              (unsigned long long)status_addr, (unsigned long long)(status_addr + SN_STATUS_COPY_BYTES),
                              (unsigned long long)t.ops->dram_size(t.ctx));
        for (int i = 0; i < nfiles && st == SN_OK; i++)
            if (files[i].n && files[i].addr < status_addr + SN_STATUS_COPY_BYTES &&
                status_addr < files[i].addr + files[i].n)
                st = sn_error_set(&err, SN_ERR_INPUT, "'%s': overlaps the runner's status copy at DRAM [0x%llx, "
                                  "0x%llx), right after the table", files[i].spec, (unsigned long long)status_addr,
                                  (unsigned long long)(status_addr + SN_STATUS_COPY_BYTES));
    }
    if (st == SN_OK && (st = sn_window_load_image(&t, &img, image, &err)) == SN_OK &&
        (st = place_files(&t, files, nfiles, &err)) == SN_OK && table >= 0)
        st = sn_window_write_boot_args(&t, files[table].addr, files[table].n, digest_addr, digest_bytes, status_addr,
                                       &err);
    if (st == SN_OK)
        rc = boot_and_stream(&t, max_cycles, &err);
    else
        fprintf(stderr, "sysnode flash: %s\n", err.msg);
    sn_status_block sb;
    int valid = 0;
    if (st == SN_OK && status_addr && sn_window_read_status(&t, status_addr, &sb, &valid, &err) == SN_OK && valid) {
        char words[1536];
        if (sb.error != SN_OK)
            fprintf(stderr, "sysnode flash: runner error 0x%x: %s\n", sb.error, sn_runner_describe(&sb, words, sizeof words));
        if (sb.digest_done)
            fprintf(stderr, "sysnode flash: result crc32 0x%08x over %llu bytes\n", sb.digest_crc32,
                    (unsigned long long)digest_bytes);
        uint32_t want = expect ? sn_crc32(expect_bytes, expect_n) : 0;
        if (expect && rc == 0 && sb.digest_done && sb.digest_crc32 == want)
            fprintf(stderr, "sysnode flash: result matches %s (crc32 0x%08x)\n", expect, want);
        else if (expect && rc == 0) {
            fprintf(stderr, "sysnode flash: RESULT DIGEST MISMATCH: %s has crc32 0x%08x, the runner %s\n", expect,
                    want, sb.digest_done ? "read back another" : "recorded no read-back");
            rc = EXIT_DIFFERS;
        }
    } else if (expect && rc == 0) {
        fprintf(stderr, "sysnode flash: --expect: the runner left no status block to check\n");
        rc = EXIT_DIFFERS;
    }
    sn_transport_close(&t);
    sn_elf_image_free(&img);
    for (int i = 0; i < nfiles; i++)
        free(files[i].bytes);
    free(expect_bytes);
    return rc;
}

int sn_cmd_flash(int argc, char **argv)
{
    sn_opts o;
    int rc = sn_opts_parse(SN_TOOL_FLASH, argc, argv, &o);
    if (rc < 0)
        rc = flash(&o);
    sn_opts_free(&o);
    return rc;
}
