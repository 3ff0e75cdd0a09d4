/* How a runner image ends (see report.h). The one line is
 *   runner: ok rounds=R flits=F completions=C
 *   runner: error 0xE round R step S      (E: the status code in hex)
 * and everything else is in the status block, for the host to word. */
#include "report.h"
#include "console.h"
#include "sysnode/host_sync.h"

/* Writes label, then v in base 10 or 16 (lower-case digits, no padding). */
static void put_field(const char *label, uint32_t v, unsigned base)
{
    char digits[11];
    size_t n = sizeof digits - 1;
    digits[n] = '\0';
    do {
        digits[--n] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    sn_console_puts(label);
    sn_console_puts(&digits[n]);
}

/* The summary line's labels: error, then ok. */
static const char label[2][3][20] = {
    {"runner: error 0x", " round ", " step "},
    {"runner: ok rounds=", " flits=", " completions="},
};
SN_STATIC_ASSERT(offsetof(sn_status_block, error_round) == offsetof(sn_status_block, error) + 4 &&
                     offsetof(sn_status_block, error_step) == offsetof(sn_status_block, error) + 8 &&
                     offsetof(sn_status_block, flits_sent) == offsetof(sn_status_block, rounds_run) + 4 &&
                     offsetof(sn_status_block, completions) == offsetof(sn_status_block, rounds_run) + 8,
                 "sn_app_report reads error, error_round, error_step (rounds_run, flits_sent, completions) in a row");

static volatile uint64_t *dram_copy;

void sn_app_report_copy(const sn_status_block *s, uint64_t held)
{
    for (size_t i = 0; dram_copy && i < sizeof *s / 8; i++) /* the host reads DRAM, not the scratchpad */
        dram_copy[i] = ((const uint64_t *)(const void *)s)[i];
    if (dram_copy) /* after the block: a host that sees the word reads a whole block */
        dram_copy[SN_HOST_HELD_COPY / 8] = held;
}

int sn_app_inside_dram(const volatile sn_boot_args *a, uint64_t addr, uint64_t bytes)
{
    const uint64_t local_limit = 1ull << 36; /* unit DRAM addresses are 36-bit local offsets (sysnode-facts §6) */
    uint64_t dram = a->dram_bytes && a->dram_bytes < local_limit ? a->dram_bytes : local_limit;
    return addr < dram && bytes <= dram - addr;
}

sn_status sn_app_report_copy_from(const volatile sn_boot_args *a)
{
    uint64_t at = a->status_addr;
    if (at == 0)
        return SN_OK;
    if (at % 8 != 0 || !sn_app_inside_dram(a, at, sizeof(sn_status_block)))
        return SN_ERR_BOOT_ARGS;
    dram_copy = (volatile uint64_t *)(uintptr_t)(SN_DRAM_CPU_BASE | (1ull << SN_UNCACHED_BIT) | at);
    return SN_OK;
}

sn_status sn_app_report(sn_status_block *s, sn_status st)
{
    s->magic = SN_STATUS_MAGIC;
    if (st != SN_OK && s->error == SN_OK) {
        s->error = st;
        s->error_round = s->round;
        s->error_step = s->step;
        s->error_node = SN_STATUS_NO_NODE;
    }
    int ok = s->error == SN_OK;
    const uint32_t *v = ok ? &s->rounds_run : &s->error; /* each line's three fields lie in a row */
    for (size_t i = 0; i < 3; i++)
        put_field(label[ok][i], v[i], ok || i ? 10 : 16);
    sn_console_puts("\n");
    sn_app_report_copy(s, 0); /* no hold */
    return (sn_status)s->error;
}
