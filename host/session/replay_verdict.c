/* The verdict of a replay: the runner's exit, summary and digest, and the
 * byte compare of the outputs (see replay_verdict.h). */
#include "replay_verdict.h"

#include <stdio.h>
#include <string.h>

#include "artifact.h"
#include "manifest.h"
#include "crc32.h"
#include "messages.h"
#include "err_text.h"
#include "sysnode/status_block.h"
#include "sysnode/table_image.h"

uint64_t sn_replay_kicked_flits(const sn_table *t)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < t->step_count; i++)
        if (t->steps[i].op == SN_STEP_KICK)
            n += t->steps[i].kick.flits;
    return n;
}

static uint64_t kicked_flits(const sn_program *p)
{
    sn_table t = sn_program_table(p);
    return sn_replay_kicked_flits(&t);
}

sn_status sn_replay_check_table_file(const char *path, const uint8_t *bytes, uint64_t n, const sn_program *p,
                                     sn_error *e)
{
    sn_table t;
    sn_table_image_fault fault;
    if (sn_table_image_open(bytes, n, &t, &fault) != SN_OK)
        return SN_OK;
    uint64_t flits = sn_replay_kicked_flits(&t), want = kicked_flits(p);
    if (t.round_count != p->round_count || flits != want)
        return sn_error_set(e, SN_ERR_INPUT,
                            "%s holds %u round%s and %llu flits, but the case's program has %zu round%s and %llu "
                            "flits: it carries another program (refused before the run)",
                            path, t.round_count, t.round_count == 1 ? "" : "s", (unsigned long long)flits,
                            p->round_count, p->round_count == 1 ? "" : "s", (unsigned long long)want);
    return SN_OK;
}

uint64_t sn_replay_status_addr(uint64_t table_addr, uint64_t table_bytes)
{
    return (table_addr + table_bytes + 63) / 64 * 64; /* the table's own address need not be on a beat */
}

sn_status sn_replay_check_summary(const sn_status_block *sb, int valid, const sn_program *p, const char *image,
                               sn_replay_result *res, sn_error *e)
{
    if (!valid)
        return sn_error_set(e, SN_ERR_PROTOCOL, "%s exited 0 without leaving the runner's status block "
                            "(FORMAT.md §7) in DRAM after the table", image);
    res->flits = sb->flits_sent;
    res->completions = sb->completions;
    if (sb->rounds_run != p->round_count || sb->flits_sent != kicked_flits(p))
        return sn_error_set(e, SN_ERR_PROTOCOL,
                            "%s ran %u round%s and %u flits, but the case's program has %zu round%s and %llu flits: "
                            "the image (or the --table file) carries another program",
                            image, sb->rounds_run, sb->rounds_run == 1 ? "" : "s", sb->flits_sent, p->round_count,
                            p->round_count == 1 ? "" : "s", (unsigned long long)kicked_flits(p));
    return SN_OK;
}

sn_status sn_replay_run_status(const sn_run_status *r, const sn_status_block *sb, int valid, const char *console,
                            const char *image, sn_error *e)
{
    char words[1536];
    switch (r->stop) {
    case SN_RUN_EXITED:
        if (r->exit_code == SN_OK)
            return SN_OK;
    {
        const char *why = valid && sb->error == r->exit_code ? sn_runner_describe(sb, words, sizeof words) : console;
        return sn_error_set(e, r->exit_code < 0x100 ? (sn_status)r->exit_code : SN_ERR_INTERNAL,
                            "%s exited with 0x%llx after %llu cycles%s%s", image, (unsigned long long)r->exit_code,
                            (unsigned long long)r->cycles, why[0] ? ": " : "", why);
    }
    case SN_RUN_HALTED:
        return sn_error_set(e, SN_ERR_TRAP, "%s: core halted, cause %u%s%s%s%s", image, r->halt_cause,
                            r->message[0] ? ", " : "", r->message, console[0] ? "; console: " : "", console);
    case SN_RUN_CYCLE_LIMIT: /* the user's cap, not the runner's own hang report */
        return sn_error_set(e, SN_ERR_HANG, "stopped at the --max-cycles cap after %llu cycles%s%s%s%s",
                            (unsigned long long)r->cycles, r->message[0] ? ": " : "", r->message,
                            console[0] ? "; console: " : "", console);
    default:
        if (r->cycles == 0 && r->message[0]) /* it never ran (a GDB port in use): the reason alone */
            return sn_error_set(e, SN_ERR_INTERNAL, "%s", r->message);
        return sn_error_set(e, SN_ERR_INTERNAL, "simulation stopped after %llu cycles: %s%s%s",
                            (unsigned long long)r->cycles, r->message, console[0] ? "; console: " : "", console);
    }
}

/* The kick step and slot of the payload behind the unit fault in sb (1; 0
 * when not knowable). A unit answers its flits in order, each once (DESIGN
 * §2), and a SIG_FAULT retires none, so the fault answers the node's oldest
 * outstanding flit of the round: its (kicked - outstanding)-th, kicked
 * counted from p's steps before error_step and, for a kick running when the
 * fault came, from the flits the runner had sent (its status block). A vector
 * core's fault 9 answers a CU_DATA burst, not a payload (sysnode-facts §3.2). */
static int fault_payload(const sn_status_block *sb, const sn_program *p, uint32_t *step, uint32_t *slot)
{
    sn_table t = sn_program_table(p);
    const sn_status_unit *u = NULL;
    for (uint32_t i = 0; i < sb->unit_count && i < SN_STATUS_UNITS; i++)
        if (sb->units[i].node == sb->error_node)
            u = &sb->units[i];
    if (!u || sb->error_round >= t.round_count || (u->cu_type == SN_CU_TYPE_VC && sb->error_value == 9))
        return 0;
    const sn_table_round *r = &t.rounds[sb->error_round];
    if (sb->error_step >= r->step_count)
        return 0;
    uint64_t before = 0; /* flits the runner sent before the error step */
    for (uint32_t i = 0; i < r->step_first + sb->error_step; i++)
        if (t.steps[i].op == SN_STEP_KICK)
            before += t.steps[i].kick.flits;
    uint64_t kicked = 0; /* flits sent to the node in the round */
    for (uint32_t i = 0; i <= sb->error_step; i++) {
        const sn_table_step *k = &t.steps[r->step_first + i];
        if (k->op == SN_STEP_KICK && SN_NODE_ID(k->x, k->y) == sb->error_node)
            kicked += i < sb->error_step ? k->kick.flits : sb->flits_sent - before;
    }
    if (kicked < u->outstanding)
        return 0;
    uint64_t n = kicked - u->outstanding; /* the faulting flit's index among them */
    for (uint32_t i = 0; i <= sb->error_step; i++) {
        const sn_table_step *k = &t.steps[r->step_first + i];
        if (k->op != SN_STEP_KICK || SN_NODE_ID(k->x, k->y) != sb->error_node)
            continue;
        if (n < k->kick.flits) {
            *step = i;
            *slot = k->kick.first_slot + (uint32_t)n;
            return 1;
        }
        n -= k->kick.flits;
    }
    return 0;
}

void sn_replay_name_fault(const sn_status_block *sb, const sn_program *p, sn_error *e)
{
    uint32_t step, slot;
    size_t len = strlen(e->msg);
    if (sb->error == SN_ERR_UNIT_FAULT && fault_payload(sb, p, &step, &slot) && len < sizeof e->msg)
        sn_text_fit(e->msg + len, sizeof e->msg - len, "; the payload that faulted: round %u step %u slot %u",
                 sb->error_round, step, slot);
}

/* ---- outputs --------------------------------------------------------------- */

sn_status sn_replay_check_digest(const sn_status_block *sb, const sn_region *x, sn_replay_result *res, sn_error *e)
{
    if (!sb->digest_done)
        return sn_error_set(e, SN_ERR_PROTOCOL, "the runner recorded no result digest (an image without it?)");
    res->digest_checked = 1;
    res->digest_got = sb->digest_crc32;
    res->digest_want = sn_crc32(x->data, x->nbytes);
    if (res->digest_got == res->digest_want)
        return SN_OK;
    res->match = 0;
    return sn_error_set(e, SN_ERR_MISMATCH,
                        "%s: the runner read back CRC-32 0x%08x over %llu bytes at 0x%llx after its last round, "
                        "expected 0x%08x: it read bytes that had not landed (a version-4 unit's writes land after "
                        "its completion; the runner must settle)",
                        x->file, res->digest_got, (unsigned long long)x->nbytes, (unsigned long long)x->addr,
                        res->digest_want);
}

/* Copies the part of regions u[0..n) inside [a, a+len) to out, in list
 * order: a later region wins where two overlap. */
static void overlay(const sn_region *u, size_t n, uint64_t a, uint64_t len, unsigned char *out)
{
    for (size_t i = 0; i < n; i++, u++) {
        uint64_t lo = a > u->addr ? a : u->addr, hi = a + len < u->addr + u->nbytes ? a + len : u->addr + u->nbytes;
        if (lo < hi)
            memcpy(out + (lo - a), u->data + (lo - u->addr), hi - lo);
    }
}

/* The bytes the host itself placed at unit addresses [a, a+n) before the
 * compare after round after_round (-1: the last), in the order it wrote
 * them: the poison, m's uploads before round 0 (the last wins), the MXFP7
 * the FILL conversion wrote over them before the boot (fills), then the
 * uploads of every host step before that compare. */
static void placed_bytes(const sn_manifest *m, const sn_region *fills, size_t nfills, int32_t after_round,
                         uint64_t a, uint64_t n, unsigned char *out)
{
    memset(out, SN_REPLAY_POISON, n);
    overlay(m->uploads, m->upload_count, a, n, out);
    overlay(fills, nfills, a, n, out);
    for (size_t k = 0; k < m->host_step_count && (after_round < 0 || m->host_steps[k].after_round < (uint32_t)after_round); k++)
        overlay(m->host_steps[k].uploads, m->host_steps[k].upload_count, a, n, out);
}

sn_status sn_replay_compare(sn_transport *t, const sn_manifest *m, const sn_region *fills, size_t nfills,
                            const sn_region *x, size_t n, int32_t after_round, sn_replay_result *res, sn_error *e)
{
    unsigned char buf[4096], placed[sizeof buf]; /* even: whole FP16 elements per piece */
    res->match = 1;
    for (size_t i = 0; i < n; i++) {
        res->output_bytes += x[i].nbytes;
        sn_mismatch_count_region(&res->mismatch, &x[i]);
    }
    for (size_t i = 0; i < n; i++) { /* every region whole: the report counts every difference */
        for (uint64_t off = 0; off < x[i].nbytes; off += sizeof buf) {
            uint64_t len = x[i].nbytes - off < sizeof buf ? x[i].nbytes - off : sizeof buf;
            sn_status st = t->ops->dram_read(t->ctx, x[i].addr + off, buf, len, e);
            if (st != SN_OK)
                return st;
            placed_bytes(m, fills, nfills, after_round, x[i].addr + off, len, placed);
            for (uint64_t k = 0; k < len; k++)
                res->unchanged_bytes += x[i].data[off + k] == placed[k];
            if (memcmp(buf, x[i].data + off, len) == 0)
                continue;
            sn_mismatch_add(&res->mismatch, &x[i], after_round, off, buf, x[i].data + off, len, res->diff_limit);
            for (uint64_t k = 0; k < len && res->match; k++) {
                if (buf[k] != x[i].data[off + k]) {
                    res->match = 0;
                    res->diff_round = after_round;
                    res->diff_offset = off + k;
                    res->diff_addr = x[i].addr + off + k;
                    sn_text_fit(res->diff_file, sizeof res->diff_file, "%s", x[i].file);
                    res->got = buf[k];
                    res->want = x[i].data[off + k];
                    break;
                }
            }
        }
    }
    if (res->match && after_round < 0 && res->unchanged_bytes == res->output_bytes) {
        /* Nothing shows the program ran: doing nothing would give these bytes. */
        res->match = 0;
        res->all_unchanged = 1;
        return sn_error_set(e, SN_ERR_MISMATCH,
                            "every one of the %llu expected bytes equals what the host placed there itself "
                            "(an upload before the run or at a host step, its FILL conversion to MXFP7 or 0x%02x poison): a program that did nothing would pass; no verdict",
                            (unsigned long long)res->output_bytes, SN_REPLAY_POISON);
    }
    if (res->match)
        return SN_OK;
    char when[48] = "";
    if (after_round >= 0)
        sn_text_fit(when, sizeof when, "after round %d: ", after_round);
    const sn_mismatch *mm = &res->mismatch; /* the counts so far: the library's and the report's message too */
    return sn_error_set(e, SN_ERR_MISMATCH,
                        "%s%s: offset %llu (DRAM 0x%llx): got 0x%02x, expected 0x%02x; %llu of %llu bytes, %llu of %llu "
                        "elements differ", when, res->diff_file, (unsigned long long)res->diff_offset,
                        (unsigned long long)res->diff_addr, res->got, res->want, (unsigned long long)mm->diff_bytes,
                        (unsigned long long)res->output_bytes, (unsigned long long)mm->diff_elems,
                        (unsigned long long)mm->elems);
}
