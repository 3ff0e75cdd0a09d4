/* See timeline_svg.h. Layout: a label column, then PLOT_W pixels for the
 * cycles [0, end]; the runner's row holds rounds (alternating shades), steps
 * below them, then a GO tick row and a completion tick row; one row per unit
 * below; the axis at the bottom. */
#include "timeline_svg.h"

#include <stdlib.h>
#include <string.h>

#include "err_text.h"
#include "sysnode/regs.h"
#include "sysnode/table.h"

enum { LABEL_W = 150, PLOT_W = 1200, RUNNER_H = 64, UNIT_H = 22, AXIS_H = 60, TOP = 28, AXIS_TICKS = 10 };

/* Text for SVG: &, <, > and quotes escaped; control bytes dropped from a
 * message (they are escaped for the terminal already, escape.h). */
static void text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c >= 0x20 || c == '\t')
            fputc(c, f);
        else
            fputc(' ', f);
    }
}

static double x_of(uint64_t cycle, uint64_t end)
{
    return LABEL_W + (end ? (double)cycle * PLOT_W / (double)end : 0.0);
}

static void rect(FILE *f, const char *cls, uint64_t start, uint64_t stop, uint64_t end, int y, int h,
                 const char *fill, const char *data, const char *title)
{
    double x0 = x_of(start, end), x1 = x_of(stop > start ? stop : start, end);
    fprintf(f, "<rect class=\"%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
               "data-start=\"%llu\" data-end=\"%llu\"%s><title>",
            cls, x0, y, x1 - x0 > 0.5 ? x1 - x0 : 0.5, h, fill, (unsigned long long)start, (unsigned long long)stop,
            data);
    text(f, title);
    fputs("</title></rect>\n", f);
}

static void tick(FILE *f, const char *cls, uint64_t cycle, uint64_t end, int y, int h, const char *color,
                 const char *data)
{
    double x = x_of(cycle, end);
    fprintf(f, "<line class=\"%s\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" data-cycle=\"%llu\"%s/>\n",
            cls, x, x, y, y + h, color, (unsigned long long)cycle, data);
}

static void label(FILE *f, int y, const char *s)
{
    fprintf(f, "<text x=\"6\" y=\"%d\" font-size=\"12\">", y);
    text(f, s);
    fputs("</text>\n", f);
}

void sn_timeline_svg(FILE *f, const char *name, const sn_run_stats *s, const sn_run_events *ev, uint64_t end_cycle,
                     const char *stop)
{
    static const char *const OPS[] = {[SN_STEP_SEED] = "seed", [SN_STEP_KICK] = "kick", [SN_STEP_AWAIT] = "await",
                                      [SN_STEP_BARRIER] = "barrier", [SN_STEP_HOST_SYNC] = "host sync"};
    uint64_t end = end_cycle ? end_cycle : 1;
    int units_y = TOP + RUNNER_H + 8;
    int height = units_y + (int)s->unit_count * UNIT_H + AXIS_H;
    char data[160], title[200];
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" data-cycles=\"%llu\" data-rounds=\"%u\" data-units=\"%u\">\n",
            LABEL_W + PLOT_W + 20, height, LABEL_W + PLOT_W + 20, height, (unsigned long long)end_cycle,
            ev->round_count, s->unit_count);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"6\" y=\"18\" font-size=\"14\">SysNode ", f);
    text(f, name);
    fprintf(f, ": %llu cycles from BOOT</text>\n", (unsigned long long)end_cycle);

    /* the runner: boot, probe, rounds, steps, GOs, completions */
    label(f, TOP + 14, "runner");
    label(f, TOP + 44, "GO");
    label(f, TOP + 58, "completion");
    rect(f, "boot", 0, ev->probe_start, end, TOP, 18, "#bbbbbb", "", "boot and table check");
    if (ev->first_payload_go > ev->probe_start)
        rect(f, "boot", ev->probe_start, ev->first_payload_go, end, TOP, 18, "#dddddd", "", "unit probe");
    for (uint32_t r = 0; r < ev->round_count; r++) {
        const sn_ev_round *rd = &ev->rounds[r];
        sn_text_fit(data, sizeof data, " data-round=\"%u\" data-payloads=\"%u\" data-completions=\"%u\"", r,
                 rd->payloads, rd->completions);
        sn_text_fit(title, sizeof title, "round %u: cycles %llu to %llu, %u payloads, %u completions", r,
                 (unsigned long long)rd->start, (unsigned long long)rd->end, rd->payloads, rd->completions);
        rect(f, "round", rd->start, rd->end, end, TOP, 18, r % 2 ? "#7fb3d5" : "#a9cce3", data, title);
        if (rd->end > rd->steps_end) {
            sn_text_fit(title, sizeof title, "round %u end: drain, settle (%llu cycles)", r,
                     (unsigned long long)(rd->end - rd->steps_end));
            rect(f, "settle", rd->steps_end, rd->end, end, TOP + 20, 12, "#f5b041", data, title);
        }
    }
    for (uint64_t i = 0; i < ev->step_count; i++) {
        const sn_ev_step *st = &ev->steps[i];
        if (st->op == SN_STEP_SEED || st->op >= sizeof OPS / sizeof OPS[0] || !OPS[st->op])
            continue;
        sn_text_fit(data, sizeof data, " data-round=\"%u\" data-step=\"%u\" data-op=\"%s\"", st->round, st->step,
                 OPS[st->op]);
        if (st->op == SN_STEP_KICK || st->op == SN_STEP_AWAIT)
            sn_text_fit(title, sizeof title, "round %u step %u: %s (%u,%u) %u", st->round, st->step, OPS[st->op], st->x,
                     st->y, st->count);
        else
            sn_text_fit(title, sizeof title, "round %u step %u: %s", st->round, st->step, OPS[st->op]);
        rect(f, "step", st->start, st->end, end, TOP + 20, 12,
             st->op == SN_STEP_KICK ? "#58d68d" : "#af7ac5", data, title);
    }
    for (uint64_t i = 0; i < ev->go_count; i++) {
        const sn_ev_go *g = &ev->gos[i];
        sn_text_fit(data, sizeof data, " data-round=\"%u\" data-step=\"%u\" data-slot=\"%u\" data-node=\"(%u,%u)\"",
                 g->round, g->step, g->slot, g->x, g->y);
        tick(f, "go", g->cycle, end, TOP + 34, 12, "#1e8449", data);
    }
    for (uint64_t i = 0; i < s->completion_count; i++) {
        const sn_completion_record *c = &s->completions[i];
        sn_text_fit(data, sizeof data, " data-node=\"(%u,%u)\" data-code=\"%u\"", c->x, c->y, c->code);
        tick(f, "completion", c->cycle, end, TOP + 48, 12, c->code == SN_SIG_BATCH_COMPLETE ? "#2471a3" : "#c0392b",
             data);
    }

    /* one row per unit: its payloads' busy spans */
    for (uint32_t u = 0; u < s->unit_count; u++) {
        int y = units_y + (int)u * UNIT_H;
        sn_text_fit(title, sizeof title, "%s (%u,%u)", s->units[u].cu_type == SN_CU_TYPE_MG ? "MG" : "VC", s->units[u].x,
                 s->units[u].y);
        label(f, y + 15, title);
        for (uint64_t k = 0; k < s->units[u].span_count; k++) {
            const sn_busy_span *b = &s->units[u].spans[k];
            const sn_ev_go *g = &ev->gos[ev->unit_go[u][k]];
            sn_text_fit(data, sizeof data, " data-unit=\"(%u,%u)\" data-round=\"%u\" data-slot=\"%u\"", s->units[u].x,
                     s->units[u].y, g->round, g->slot);
            sn_text_fit(title, sizeof title, "(%u,%u) round %u slot %u: cycles %llu to %llu, cost model %u", s->units[u].x,
                     s->units[u].y, g->round, g->slot, (unsigned long long)b->start, (unsigned long long)b->end,
                     b->estimate);
            rect(f, "busy", b->start, b->end, end, y + 3, UNIT_H - 6, "#5d6d7e", data, title);
        }
    }

    /* the axis, in cycles */
    int axis_y = units_y + (int)s->unit_count * UNIT_H + 6;
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", LABEL_W, LABEL_W + PLOT_W,
            axis_y, axis_y);
    /* Ticks at round numbers: the step is 1, 2 or 5 times a power of ten, at most AXIS_TICKS of them. */
    uint64_t step = 1;
    for (uint64_t decade = 1; end_cycle / step > AXIS_TICKS; decade *= 10)
        for (int k = 0; k < 3 && end_cycle / step > AXIS_TICKS; k++)
            step = decade * (uint64_t)(k == 0 ? 2 : k == 1 ? 5 : 10);
    for (uint64_t c = 0; c <= end_cycle; c += step) {
        double x = x_of(c, end);
        fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>"
                   "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%llu</text>\n",
                x, x, axis_y, axis_y + 5, x, axis_y + 17, (unsigned long long)c);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">CPU cycles from BOOT</text>\n", LABEL_W, axis_y + 32);
    static const struct {
        const char *color, *what;
    } legend[] = {{"#bbbbbb", "boot, table check"}, {"#dddddd", "unit probe"}, {"#a9cce3", "round"},
                  {"#58d68d", "kick"}, {"#af7ac5", "await, barrier"}, {"#f5b041", "round end: drain, settle"},
                  {"#1e8449", "GO"}, {"#2471a3", "completion"}, {"#c0392b", "peer ack, fault"},
                  {"#5d6d7e", "unit busy"}};
    for (size_t i = 0, x = LABEL_W; i < sizeof legend / sizeof legend[0]; i++) {
        if (i)
            x += 30 + 6 * strlen(legend[i - 1].what); /* about 6 pixels a character at size 10 */
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>\n",
                (int)x, axis_y + 40, legend[i].color, (int)x + 14, axis_y + 49, legend[i].what);
    }

    if (stop) {
        double x = x_of(end_cycle, end);
        fprintf(f, "<line class=\"stop\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%d\" stroke=\"red\" stroke-width=\"2\" "
                   "data-cycle=\"%llu\"><title>",
                x, x, TOP - 4, axis_y, (unsigned long long)end_cycle);
        text(f, stop);
        fputs("</title></line>\n", f);
        fprintf(f, "<text class=\"stop\" x=\"%.2f\" y=\"%d\" font-size=\"11\" fill=\"red\" text-anchor=\"end\">",
                x - 4, TOP - 8 > 12 ? TOP - 8 : 12);
        /* the first line, a leading image path as its file name, cut to fit above the plot */
        const char *space = strchr(stop, ' '), *from = stop;
        for (const char *c = stop; space && c < space; c++)
            if (*c == '/')
                from = c + 1;
        char brief[140];
        sn_text_fit(brief, sizeof brief, "%s", from);
        char *nl = strchr(brief, '\n');
        if (nl)
            *nl = '\0';
        text(f, brief);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}
