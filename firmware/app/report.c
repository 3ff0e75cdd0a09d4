/* How a runner image ends (see report.h). */
#include "report.h"
#include "console.h"
#include "fmt.h"

static char line[1536];

sn_status sn_app_fail(sn_status st, const char *text)
{
    sn_fmt f;
    sn_fmt_init(&f, line, sizeof line);
    sn_fmt_str(&f, "runner: error ");
    sn_fmt_hex(&f, st);
    sn_fmt_str(&f, ": ");
    sn_console_puts(line);
    sn_console_puts(text);
    sn_console_puts("\n");
    return st;
}

sn_status sn_app_report(const sn_runner *r, sn_status st, uint32_t rounds)
{
    static char text[1536];
    sn_fmt f;
    if (st != SN_OK)
        return sn_app_fail(st, sn_runner_describe(r, text, sizeof text));
    sn_fmt_init(&f, line, sizeof line);
    sn_fmt_str(&f, "runner: ok rounds=");
    sn_fmt_dec(&f, rounds);
    sn_fmt_str(&f, " flits=");
    sn_fmt_dec(&f, r->total_flits);
    sn_fmt_str(&f, " completions=");
    sn_fmt_dec(&f, r->total_completions);
    sn_fmt_str(&f, "\n");
    sn_console_puts(line);
    return SN_OK;
}
