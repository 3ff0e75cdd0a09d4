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
    return (sn_status)s->error;
}
