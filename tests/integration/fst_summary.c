/* fst_summary FILE.fst SIGNAL
 * Reads an FST file with GTKWave's own reader (the fstapi.c Verilator ships,
 * not the writer path sysnode uses) and prints
 *   start S end E vars N SIGNAL LAST changes C
 * where LAST is the last value of the top-level SIGNAL (decimal) and C its
 * number of value changes. Exits 1 naming the file when it cannot be read or
 * has no such signal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstapi.h"

typedef struct {
    uint64_t last, changes;
} watch;

static void on_change(void *user, uint64_t time, fstHandle facidx, const unsigned char *value)
{
    (void)time;
    (void)facidx;
    watch *w = user;
    w->last = strtoull((const char *)value, NULL, 2);
    w->changes++;
}

/* Verilator names a vector "name [hi:lo]". */
static int is_named(const char *var, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(var, name, n) && (var[n] == '\0' || var[n] == ' ');
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fst_summary FILE.fst SIGNAL\n");
        return 2;
    }
    void *ctx = fstReaderOpen(argv[1]);
    if (!ctx) {
        fprintf(stderr, "fst_summary: %s: not a readable FST file\n", argv[1]);
        return 1;
    }
    fstHandle handle = 0;
    struct fstHier *h;
    int depth = 0;
    while ((h = fstReaderIterateHier(ctx)) != NULL) {
        if (h->htyp == FST_HT_SCOPE)
            depth++;
        else if (h->htyp == FST_HT_UPSCOPE)
            depth--;
        else if (h->htyp == FST_HT_VAR && depth == 1 && !handle && is_named(h->u.var.name, argv[2]))
            handle = h->u.var.handle;
    }
    if (!handle) {
        fprintf(stderr, "fst_summary: %s: no top-level signal %s\n", argv[1], argv[2]);
        fstReaderClose(ctx);
        return 1;
    }
    watch w = {0, 0};
    fstReaderClrFacProcessMaskAll(ctx);
    fstReaderSetFacProcessMask(ctx, handle);
    if (!fstReaderIterBlocks(ctx, on_change, &w, NULL)) {
        fprintf(stderr, "fst_summary: %s: its value-change blocks cannot be read\n", argv[1]);
        fstReaderClose(ctx);
        return 1;
    }
    printf("start %llu end %llu vars %llu %s %llu changes %llu\n", (unsigned long long)fstReaderGetStartTime(ctx),
           (unsigned long long)fstReaderGetEndTime(ctx), (unsigned long long)fstReaderGetVarCount(ctx), argv[2],
           (unsigned long long)w.last, (unsigned long long)w.changes);
    fstReaderClose(ctx);
    return 0;
}
