/* How a runner image ends (see report.h). The one line is
 *   runner: ok rounds=R flits=F completions=C
 *   runner: error 0xNN round R step S
 * and everything else is in the status block, for the host to word. */
#include "report.h"
#include "console.h"

/* Writes v in decimal. */
static void put_dec(uint32_t v)
{
    char digits[11];
    int n = sizeof digits - 1;
    digits[n] = '\0';
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sn_console_puts(&digits[n]);
}

static volatile uint64_t *dram_copy;

sn_status sn_app_report_copy_from(const volatile sn_boot_args *a)
{
    const uint64_t local_limit = 1ull << 36; /* unit DRAM addresses are 36-bit local offsets (sysnode-facts §6) */
    uint64_t dram = a->dram_bytes && a->dram_bytes < local_limit ? a->dram_bytes : local_limit, at = a->status_addr;
    if (a->magic != SN_BOOT_ARGS_MAGIC || a->version != SN_BOOT_ARGS_VERSION || at == 0)
        return SN_OK;
    if (at % 8 != 0 || at >= dram || sizeof(sn_status_block) > dram - at)
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
    if (s->error == SN_OK) {
        sn_console_puts("runner: ok rounds=");
        put_dec(s->rounds_run);
        sn_console_puts(" flits=");
        put_dec(s->flits_sent);
        sn_console_puts(" completions=");
        put_dec(s->completions);
    } else {
        char code[3]; /* codes are 8 bits (sysnode/status.h) */
        code[0] = "0123456789abcdef"[(s->error >> 4) & 0xF];
        code[1] = "0123456789abcdef"[s->error & 0xF];
        code[2] = '\0';
        sn_console_puts("runner: error 0x");
        sn_console_puts(code);
        sn_console_puts(" round ");
        put_dec(s->error_round);
        sn_console_puts(" step ");
        put_dec(s->error_step);
    }
    sn_console_puts("\n");
    for (uint32_t i = 0; dram_copy && i < sizeof *s / 8; i++) /* the host reads DRAM, not the scratchpad */
        dram_copy[i] = ((const uint64_t *)(const void *)s)[i];
    return (sn_status)s->error;
}
