/* The runner core (see runner.h). Steps and rules: DESIGN.md §2; mailbox
 * behaviour: sysnode-facts §2. */
#include "runner.h"
#include "sysnode/host_sync.h"
#include "table_check.h"
#include "sysnode/static_assert.h"
#include "sysnode/table_image.h"
#include "word_hash.h"
#include "sn_fields.h" /* generated: payload fields' word and shift */

#define NO_NODE SN_STATUS_NO_NODE
/* Kept out of line: one copy each, for the code budget (linker/sysnode.ld). */
#define NOINLINE __attribute__((noinline))

SN_STATIC_ASSERT(SN_RUNNER_SETTLE_CYCLES > SN_V4_WRITE_LANDING_CYCLES,
                 "the settle must outlast the modelled version-4 write landing");
SN_STATIC_ASSERT(SN_RUNNER_DRAIN_AT == 8 && SN_CQ_DEPTH < 256,
                 "kicks() sees SN_RUNNER_DRAIN_AT queued records as STAT bits 3-7");
SN_STATIC_ASSERT(SN_LO_head_src_y == SN_LO_head_src_x + 4 && SN_NODE_ID(1, 2) == 0x21 &&
                     SN_SIG_INST_COMPLETE == 0 && SN_SIG_BATCH_COMPLETE == 1,
                 "drain() reads HEAD[55:48] as the node id and codes 0-1 as a flit's completion");
SN_STATIC_ASSERT(SN_LO_rx_hdr_header == 0 && SN_LO_flit_hdr_src_y == SN_LO_flit_hdr_type + 4 &&
                     SN_LO_flit_hdr_src_x == SN_LO_flit_hdr_type + 8 && SN_CTRL_REPLY_VALUE_SHIFT != 0 &&
                     SN_HI_ctrl_reply_value - SN_LO_ctrl_reply_value == 63 &&
                     SN_CTRL_REPLY_INDEX_WORD == SN_CTRL_REPLY_VALUE_WORD + 1 &&
                     SN_CTRL_REQ_INDEX_WORD == 3 &&
                     SN_CTRL_REQ_INDEX_SHIFT + SN_HI_ctrl_req_index - SN_LO_ctrl_req_index < 64,
                 "read_caps() reads {src_x, src_y, type} as RX_HDR[23:12], the CU_CTRL index from the RX_P word "
                 "after the value's first and the value across those two words, and sends the index in ARG3");

/* The negative-test images compile this file in with one safeguard off
 * (firmware/CMakeLists.txt): runner-nodrain.elf does not drain while it
 * kicks (it deadlocks the hub), runner-nosettle.elf skips the version-4
 * settle (it reads stale bytes). Constants, so runner.elf carries neither
 * switch. */
#ifdef SN_RUNNER_NO_DRAIN
#define DRAIN_WHILE_KICKING 0
#else
#define DRAIN_WHILE_KICKING 1
#endif
#ifdef SN_RUNNER_NO_SETTLE
#define SETTLE_CYCLES 0ull
#else
#define SETTLE_CYCLES SN_RUNNER_SETTLE_CYCLES
#endif

/* An sn_status as the runner's own functions return it: GCC sign-extends an
 * unsigned enum after every call that returns one on RV64, an int it takes
 * as the ABI passes it (72 bytes of .text). */
typedef int runner_status;

/* The table check's per-node tallies (table_check.h): zero between checks,
 * so every runner may share them. Outside sn_runner, which then stays small
 * enough for gp-relative addressing (linker/sysnode.ld). */
static struct {
    uint32_t kicked[SN_NODE_COUNT], awaited[SN_NODE_COUNT];
} tally;

static inline uint64_t rd(sn_runner *r, unsigned offset)
{
    return sn_port_read(r->port, offset);
}

static inline void wr(sn_runner *r, unsigned offset, uint64_t value)
{
    sn_port_write(r->port, offset, value);
}

/* Completions credited to the unit at node (in slot) this round: flits that
 * completed plus the records that retired no flit (peer acks, or one too
 * many). */
static inline uint32_t received(const sn_runner *r, uint32_t node, uint32_t slot)
{
    return r->unit[slot].kicked - r->outstanding[node] + r->unit[slot].other;
}

/* Copies the counts into the status block, the runner's report. */
static NOINLINE void publish(sn_runner *r)
{
    sn_status_block *s = r->status;
    s->flits_sent = r->total_flits;
    s->completions = r->total_completions;
    for (size_t i = 0; i < s->unit_count; i++) { /* unit i is slot i + 1 */
        uint32_t n = s->units[i].node;
        s->units[i].expected = r->unit[i + 1].expected;
        s->units[i].received = received(r, n, i + 1);
        s->units[i].outstanding = r->outstanding[n];
    }
}

/* Keeps the first error only, with where it happened and what it was
 * checked against (the facts its message names, FORMAT.md §7). */
static NOINLINE runner_status fail_limit(sn_runner *r, sn_status status, uint32_t node, uint32_t value, uint32_t limit)
{
    sn_status_block *s = r->status;
    if (s->error == SN_OK) {
        s->error = status;
        s->error_round = s->round;
        s->error_step = s->step;
        s->error_node = node;
        s->error_value = value;
        s->error_limit = limit;
        publish(r);
    }
    return status;
}

/* fail_limit with no limit; out of line, each call is one argument shorter. */
static NOINLINE runner_status fail(sn_runner *r, sn_status status, uint32_t node, uint32_t value)
{
    return fail_limit(r, status, node, value, 0);
}

/* Clears n bytes (a multiple of 8) a word at a time: the image has no libc. */
static void zero_words(void *p, uint32_t n)
{
    for (uint64_t *w = p; n != 0; n -= 8)
        *w++ = 0;
}

void sn_runner_init(sn_runner *r, sn_port *port, const sn_mesh *mesh, sn_status_block *status)
{
    zero_words(status, sizeof *status);
    r->port = port;
    sn_mesh_map_init(&r->map, mesh);
    r->status = status;
    r->hang_cycles = SN_RUNNER_DEFAULT_HANG_CYCLES;
    r->inst_depth = SN_INST_DEPTH_DEFAULT;
    for (size_t i = 0; i < mesh->unit_count && i < SN_STATUS_UNITS; i++) {
        status->units[i].node = (uint8_t)sn_mesh_node(mesh, i);
        status->units[i].cu_type = mesh->units[i].cu_type;
        status->unit_count = i + 1;
    }
    status->magic = SN_STATUS_MAGIC;
    status->phase = SN_PHASE_BOOT;
    status->wait_node = NO_NODE;
    status->error_node = NO_NODE;
}

void sn_runner_image_fault(sn_status_block *s, const sn_table_image_fault *f)
{
    s->error_rule = f->check;
    s->detail_field = f->field;
    s->detail[0] = f->value;
    s->detail[1] = f->expected;
    s->detail[2] = f->count;
}

/* ---- completions ---------------------------------------------------------- */

/* Attributes a HEAD record that retires no outstanding flit (DESIGN §2: peer
 * acks are credited to the node that sent them, including nodes never
 * kicked; a completion beyond the flits sent is counted, and the round-end
 * check reports it). Out of line: drain()'s loop, on the per-payload path,
 * then keeps its registers (inlined, 24 bytes less and 1.4 cycles per
 * payload more on matmul_512x256x512). */
static NOINLINE runner_status take(sn_runner *r, uint64_t head)
{
    uint32_t node = SN_NODE_ID(sn_head_src_x(head), sn_head_src_y(head)), slot = r->map.slot[node];
    unsigned code = sn_head_code(head);

    r->total_completions++;
    if (slot != 0 && (code <= SN_SIG_BATCH_COMPLETE || code == SN_SIG_DATA_RECEIVED)) {
        r->unit[slot].other++;
        return SN_OK;
    }
    runner_status st = slot == 0 ? SN_ERR_UNKNOWN_SOURCE : code == SN_SIG_FAULT ? SN_ERR_UNIT_FAULT : SN_ERR_PROTOCOL;
    return fail(r, st, node, st == SN_ERR_UNIT_FAULT ? (uint32_t)sn_head_arg(head) : code);
}

/* Pops `count` (at least 1) records STAT showed queued. The common record, a
 * flit's completion from a node with flits outstanding (only units are ever
 * kicked: the table rules), is counted inline; every other record goes to
 * take(). A do-while: one taken branch per record on the core (core-timing
 * §3.5), where a test at the top costs a second. */
static NOINLINE runner_status drain(sn_runner *r, uint32_t count)
{
    uint32_t left = count, taken = 0; /* taken: records take() credited */
    runner_status st = SN_OK;
    do {
        uint64_t head = rd(r, SN_MBOX_HEAD);
        wr(r, SN_MBOX_HEAD, 0); /* a store pops; a read does not */
        uint32_t node = (uint32_t)(head >> SN_LO_head_src_x) & 0xFF; /* {src_y, src_x} = SN_NODE_ID */
        if (sn_head_code(head) <= SN_SIG_BATCH_COMPLETE && r->outstanding[node] != 0) {
            r->outstanding[node]--;
            continue;
        }
        taken++;
        if ((st = take(r, head)) != SN_OK)
            break;
    } while (--left != 0);
    r->total_completions += count - left - taken; /* the records counted inline */
    return st;
}

/* Reads STAT once and pops every queued record if at least `threshold` wait.
 * *stat_out gets the STAT word; *took says whether any record was popped. */
static runner_status service(sn_runner *r, uint32_t threshold, uint64_t *stat_out, int *took)
{
    uint64_t stat = rd(r, SN_MBOX_STAT);
    uint32_t queued = (uint32_t)(sn_stat_queued(stat));
    *stat_out = stat;
    *took = 0;
    if (sn_stat_overflow(stat))
        return fail(r, SN_ERR_LOST_COMPLETION, NO_NODE, queued);
    if (queued == 0 || queued < threshold)
        return SN_OK;
    *took = 1;
    return drain(r, queued);
}


/* ---- bounded waits ---------------------------------------------------------- */

enum wait_kind { WAIT_OFFER_CLEAR, WAIT_RECEIVED, WAIT_DEPTH, WAIT_IDLE, WAIT_SETTLE, WAIT_RX };

/* 1 when the wait of `kind` on node is over: STAT as just read, `waited`
 * cycles since it began. */
static int wait_done(sn_runner *r, enum wait_kind kind, uint32_t node, uint64_t stat, uint64_t waited)
{
    uint32_t slot = r->map.slot[node & 0xFF]; /* node is a unit's for the two waits that read it */
    switch (kind) {
    case WAIT_OFFER_CLEAR:
        return !(sn_stat_offered(stat));
    case WAIT_RECEIVED: /* wrap-safe: received - expected >= 0 */
        return (int32_t)(received(r, node, slot) - r->unit[slot].expected) >= 0;
    case WAIT_DEPTH:
        return r->outstanding[node] < r->unit[slot].depth;
    case WAIT_IDLE: /* only units are kicked (the table rules) */
        for (size_t i = 1; i <= r->map.mesh->unit_count; i++)
            if (r->outstanding[r->unit[i].node] != 0)
                return 0;
        return 1;
    case WAIT_SETTLE: /* unfenced units' writes land meanwhile (DESIGN §2) */
        return waited >= SN_RUNNER_SETTLE_CYCLES; /* end_round() settles only with SETTLE_CYCLES */
    default: /* WAIT_RX: a CU_CTRL reply waits in the RX queue */
        return (rd(r, SN_CTRL_RX_USED) & 0xF) != 0;
    }
}

/* The one wait: polls STAT, draining completions, until the condition holds.
 * A wait that sees no completion for hang_cycles is a hang (STYLE 6); a
 * settle is a wait of SETTLE_CYCLES that still drains. The
 * offer wait drains only from SN_RUNNER_DRAIN_AT records so that a flit can
 * go out between batches; every other wait drains whatever is queued. A
 * runner built with SN_RUNNER_NO_DRAIN (a test image) drains in neither
 * kick-time wait, and so deadlocks once completions fill the mailbox. */
static NOINLINE runner_status wait_for(sn_runner *r, enum wait_kind kind, uint32_t node)
{
    int kicking = kind == WAIT_OFFER_CLEAR || kind == WAIT_DEPTH;
    uint32_t threshold = !kicking                 ? 1
                         : !DRAIN_WHILE_KICKING ? UINT32_MAX
                         : kind == WAIT_OFFER_CLEAR ? SN_RUNNER_DRAIN_AT
                                                    : 1;
    uint64_t start = sn_port_cycles(r->port), last_progress = start;
    r->status->wait_node = node;
    for (;;) {
        uint64_t stat;
        int took;
        runner_status st = service(r, threshold, &stat, &took);
        if (st != SN_OK)
            return st;
        uint64_t now = sn_port_cycles(r->port);
        if (wait_done(r, kind, node, stat, now - start))
            break;
        if (took) {
            last_progress = now;
        } else if (kind == WAIT_OFFER_CLEAR && DRAIN_WHILE_KICKING && (sn_stat_queued(stat)) != 0) {
            threshold = 1; /* the offer is stuck: free the hub by draining all */
        } else if (kind != WAIT_SETTLE && now - last_progress > r->hang_cycles) {
            return fail(r, SN_ERR_HANG, node, (uint32_t)(now - last_progress));
#ifdef SN_RUNNER_WFI_AWAIT
        } else if (kind != WAIT_OFFER_CLEAR && kind != WAIT_SETTLE) { /* runner-wfi.elf; an offer or a settle
                                                                           raises no line */
            sn_port_sleep_until(r->port, last_progress + r->hang_cycles + 1);
#endif
        }
#ifndef SN_RUNNER_WFI_AWAIT
        /* A piece of the next round's hash per poll, drained or not: the
         * queue holds 16 records, and a flit waiting to be taken is the one
         * wait that should end at once. (runner-wfi.elf sleeps instead and
         * hashes each round's rows at the round's start: it has no room in
         * the code budget for both.) */
        if (kind != WAIT_OFFER_CLEAR && r->ahead_next != r->ahead_end) {
            uint64_t rows = (uint64_t)(r->ahead_end - r->ahead_next);
            rows = rows < SN_RUNNER_AHEAD_ROWS ? rows : SN_RUNNER_AHEAD_ROWS;
            r->ahead_hash = sn_word_hash_lines(r->ahead_hash, &r->ahead_next->arg3, rows);
            r->ahead_next += rows;
        }
#endif
    }
    r->status->wait_node = NO_NODE;
    return SN_OK;
}

/* ---- validation: refuse a table before any GO ------------------------------- */

/* Records a broken table rule (table_check.h) with its rule and limit. */
static runner_status table_fault(sn_runner *r, sn_status status, const sn_table_fault *f)
{
    r->status->error_rule = r->status->error == SN_OK ? f->rule : r->status->error_rule;
    return fail_limit(r, status, f->node, f->value, f->limit);
}

static runner_status check_table(sn_runner *r, const sn_table *t)
{
    sn_table_fault f;
    runner_status st = sn_table_check(t, &r->map, tally.kicked, tally.awaited, &f);
    if (st == SN_OK)
        return SN_OK;
    r->status->round = f.round;
    r->status->step = f.step;
    return table_fault(r, st, &f);
}

/* ---- unit capabilities ------------------------------------------------------ */

/* The RX head's payload word w[word] (sysnode-facts §2.5). */
#define RX_P(word) (SN_CTRL_RX_P0 + 8 * (word))

/* Sends one CU_CTRL read of CU_CAPS to unit u and waits for the reply in the
 * RX queue; *value gets its 64-bit value. */
static runner_status read_caps(sn_runner *r, const sn_mesh_unit *u, uint64_t *value)
{
    uint32_t node = SN_NODE_ID(u->x, u->y);
    runner_status st = wait_for(r, WAIT_OFFER_CLEAR, node);
    if (st != SN_OK)
        return st;
    /* every register written, once per unit at boot; the request's index
     * lies in ARG3 (asserted above) */
    wr(r, SN_MBOX_DST,
       r->dst = SN_MASK(dst, typed) | (uint64_t)SN_T_CU_CTRL << SN_LO_dst_type | SN_DST_VALUE(u->x, u->y));
    wr(r, SN_MBOX_ARG0, 0);
    wr(r, SN_MBOX_ARG1, 0);
    wr(r, SN_MBOX_ARG2, 0);
    wr(r, SN_MBOX_ARG3, (uint64_t)SN_CU_REG_CAPS << SN_CTRL_REQ_INDEX_SHIFT);
    wr(r, SN_MBOX_GO, 1);

    if ((st = wait_for(r, WAIT_RX, node)) != SN_OK)
        return st;
    uint64_t hdr = rd(r, SN_CTRL_RX_HDR);
    uint64_t lo = rd(r, RX_P(SN_CTRL_REPLY_VALUE_WORD)), hi = rd(r, RX_P(SN_CTRL_REPLY_INDEX_WORD));
    wr(r, SN_CTRL_RX_HDR, 0); /* a store pops */
    /* RX_HDR[31:0] is the flit header; the reply's index lies in word hi,
     * its value across lo and hi */
    if (((hdr >> SN_LO_flit_hdr_type) & 0xFFF) != ((uint64_t)u->x << 8 | (uint64_t)u->y << 4 | SN_T_CU_CTRL) ||
        sn_bits64(hi, SN_CTRL_REPLY_INDEX_SHIFT + SN_HI_ctrl_reply_index - SN_LO_ctrl_reply_index,
                  SN_CTRL_REPLY_INDEX_SHIFT) != SN_CU_REG_CAPS)
        return fail(r, SN_ERR_PROTOCOL, node, (uint32_t)hdr);
    *value = hi << (64 - SN_CTRL_REPLY_VALUE_SHIFT) | lo >> SN_CTRL_REPLY_VALUE_SHIFT;
    return SN_OK;
}

/* Sets every unit's inst_depth and CU_VERSION from its CU_CAPS with
 * probe_units; without, a unit gets inst_depth and keeps its version. */
static runner_status probe_units(sn_runner *r)
{
    for (size_t i = 0; i < r->map.mesh->unit_count; i++) {
        const sn_mesh_unit *u = &r->map.mesh->units[i];
        uint32_t node = SN_NODE_ID(u->x, u->y);
        uint64_t caps = 0;
        r->unit[i + 1].node = (uint8_t)node;
        if (!r->probe_units) {
            r->unit[i + 1].depth = (uint16_t)r->inst_depth;
            continue;
        }
        runner_status st = read_caps(r, u, &caps);
        if (st != SN_OK)
            return st;
        if (sn_cu_caps_cu_type(caps) != u->cu_type || sn_cu_caps_inst_depth(caps) == 0)
            return fail(r, SN_ERR_UNIT_CAPS, node, (uint32_t)(caps >> 32));
        r->unit[i + 1].depth = (uint16_t)sn_cu_caps_inst_depth(caps);
        r->unit[i + 1].version = (uint8_t)sn_cu_caps_cu_version(caps);
    }
    return SN_OK;
}

/* Where run_round is in a round: kept in memory, so the kick loop's
 * registers hold what it uses per GO. */
typedef struct {
    const sn_table *t;
    const sn_table_round *round; /* the runner's copy of the round record */
    int sync;                    /* the round ends at a host sync point */
    union {                      /* the runner's copy of step i, as read: {head, a, b} as stored (table_check.h) */
        sn_table_step step;
        uint32_t word[3];
    } copy;
} round_walk;

/* Runs a step that failed kicks()' quick kick and seed tests, from w->copy:
 * the full step rules on that copy first (test_runner_faults: they agree,
 * so neither a kick nor a seed passes here), then an await (no wait when
 * its count is already met: a call of wait_for costs about 180 cycles), a
 * barrier, or a host sync point (held after the round ends, run_round()).
 * Errors: those of table_fault() and wait_for(). */
static NOINLINE runner_status other_step(sn_runner *r, round_walk *w)
{
    const sn_table_step *s = &w->copy.step;
    sn_table_fault f;
    if (sn_table_check_step(s, w->round, &r->map, 0, 0, &f) != SN_OK)
        return table_fault(r, SN_ERR_TABLE_CHANGED, &f);
    uint32_t node = SN_NODE_ID(s->x, s->y);
    sn_runner_unit *u = &r->unit[r->map.slot[node]];
    switch (s->op) {
    case SN_STEP_AWAIT: /* the round's awaits so far are the unit's expected: the total rule on them */
        if (sn_table_check_await_total(s, u->expected, &f) != SN_OK)
            return table_fault(r, SN_ERR_TABLE_CHANGED, &f);
        r->status->phase = SN_PHASE_AWAIT;
        u->expected += s->await.completions;
        if ((int32_t)(u->kicked - r->outstanding[node] + u->other - u->expected) >= 0) /* received(), wrap-safe */
            return SN_OK;
        return wait_for(r, WAIT_RECEIVED, node);
    case SN_STEP_BARRIER:
        r->status->phase = SN_PHASE_BARRIER;
        return wait_for(r, WAIT_IDLE, NO_NODE);
    default: /* SN_STEP_HOST_SYNC, the round's last step: held after the round ends */
        w->sync = 1;
        return SN_OK;
    }
}

/* Runs the round's steps in order (DESIGN §2), a kick inline and any
 * other step through other_step(): the per-payload path, the floor's loop
 * plus the safeguards, with one call per round. Per GO, one STAT read
 * confirms the previous flit was taken (STAT[15]) and shows the queue;
 * SN_RUNNER_DRAIN_AT queued records are popped in a batch, and a set
 * STAT[15] or STAT[31], or the node at its inst_depth, leaves the loop for
 * the bounded waits. ARG0..ARG3 are stored on every GO, DST once per step
 * when it changes (r->dst); the node's outstanding and the unit's kicked
 * counts are brought up to date before every wait, drain and step change
 * (the throttle, the drain and the waits read them). Returns SN_OK or the
 * first error (r->status names its step). Built at -Os like the rest, for
 * the code budget (linker/sysnode.ld). */
static NOINLINE runner_status kicks(sn_runner *r, round_walk *w)
{
    /* STAT bits that leave the loop: STAT[15], STAT[31], and a queue of
     * SN_RUNNER_DRAIN_AT or more (bits 3-7 of the count) when draining. */
    const uint64_t offer_or_lost = SN_MASK(stat, offered) | SN_MASK(stat, overflow);
    uint64_t leave = offer_or_lost | (DRAIN_WHILE_KICKING ? SN_MASK(stat, queued) & ~7ull : 0);
    /* opaque to GCC, which would otherwise build the constant (3 ALU
     * operations) afresh for every GO: it keeps no loop invariant here */
    __asm__("" : "+r"(leave));
    const sn_table_step *steps = &w->t->steps[w->round->step_first];
    const sn_table_row *slots = &w->t->payloads[w->round->payload_first];
    const uint32_t step_count = w->round->step_count, slot_count = w->round->payload_count;
    runner_status st = SN_OK;
    for (uint32_t i = 0; st == SN_OK && i < step_count; i++) {
        /* The runner's copy of step i, each word read once. The quick kick
         * test is sn_table_kick_ok (the round's copy was checked, so it
         * holds at most SN_STAGE_SLOTS payloads); a seed that passes its
         * rules is passed over (no credit register on the mailbox, DESIGN
         * §2); any other step, or a broken one, goes to other_step() in
         * w->copy. */
        const volatile uint32_t *word = (const volatile uint32_t *)(const void *)&steps[i];
        uint32_t head = word[0], first = word[1], flits = word[2];
        uint32_t node = sn_step_word_node(head);
        r->status->step = i;
        if (sn_table_seed_ok(head))
            continue;
        if (!sn_table_kick_ok(head, first, flits, slot_count, r->map.slot)) {
            w->copy.word[0] = head;
            w->copy.word[1] = first;
            w->copy.word[2] = flits;
            st = other_step(r, w);
            continue;
        }
        sn_runner_unit *u = &r->unit[r->map.slot[node]];
        uint32_t *out = &r->outstanding[node];
        const uint32_t depth = u->depth;
        const uint64_t dst = SN_DST_VALUE(node & 0xF, node >> 4);
        const sn_table_row *p = &slots[first], *end = p + flits, *counted = p;
        r->status->phase = SN_PHASE_KICK;
        /* GO latched the last flit: a register write may precede the STAT check. */
        if (dst != r->dst)
            wr(r, SN_MBOX_DST, r->dst = dst);
/* Adds the GOs since `counted` to the counts a wait, a drain or a report reads. */
#define COUNT_SENT()                                                                                   \
    do {                                                                                               \
        uint32_t n_ = (uint32_t)(p - counted);                                                         \
        *out += n_;                                                                                    \
        u->kicked += n_;                                                                               \
        r->total_flits += n_;                                                                          \
        counted = p;                                                                                   \
    } while (0)
        /* GOs up to `room` need no inst_depth look: completions only free
         * room. The loops are do-whiles (a kick that passed its quick test
         * sends at least one flit; room > p: free >= 1 after the depth
         * wait), so each tests p only at its closing branch; the counts are
         * brought up to date once per chunk, not again at a step's start. */
        do {
            uint32_t in_flight_at_node = *out;
            if (in_flight_at_node >= depth) {
                if ((st = wait_for(r, WAIT_DEPTH, node)) != SN_OK)
                    break;
                in_flight_at_node = *out;
            }
            uint32_t free = depth - in_flight_at_node;
            const sn_table_row *room = free < (uint32_t)(end - p) ? p + free : end;
            do {
                /* each row field names its register (sysnode/table.h); all
                 * four stored, changed or not: a control-region store is 2
                 * cycles, a compare-and-skip 2 to 6 (core-timing §1). GO
                 * latched the last flit, so they may precede the STAT check. */
                uint64_t a0 = p->arg0, a1 = p->arg1, a2 = p->arg2, a3 = p->arg3;
                wr(r, SN_MBOX_ARG3, a3);
                wr(r, SN_MBOX_ARG2, a2);
                wr(r, SN_MBOX_ARG1, a1);
                wr(r, SN_MBOX_ARG0, a0);
                uint64_t stat = rd(r, SN_MBOX_STAT);
                /* any store offers (sysnode-facts §2.1): zero needs no
                 * register. The common GO first: -Os lays blocks out as
                 * written, and a taken branch costs 3 cycles, a fall-through
                 * 1 (core-timing §3.5). */
                if ((stat & leave) == 0) {
                    wr(r, SN_MBOX_GO, 0);
                    continue;
                }
                COUNT_SENT();
                st = (stat & offer_or_lost) ? wait_for(r, WAIT_OFFER_CLEAR, node) : drain(r, sn_stat_queued(stat));
                if (st != SN_OK)
                    break;
                wr(r, SN_MBOX_GO, 0);
            } while (++p != room);
            COUNT_SENT();
        } while (st == SN_OK && p != end);
    }
#undef COUNT_SENT
    return st;
}

/* may_settle: the packer did not prove the settle useless (FORMAT.md §3
 * flags). The round then settles when it kicked or awaited a unit that may
 * retire before its writes land (older than CU_VERSION 5, or never probed). */
static runner_status end_round(sn_runner *r, int may_settle)
{
    r->status->phase = SN_PHASE_ROUND_END;
    int unfenced = 0;
    uint32_t owed = 0;
    for (size_t i = 1; i <= r->map.mesh->unit_count; i++) {
        unfenced |= (r->unit[i].kicked | r->unit[i].expected) != 0 && r->unit[i].version < SN_CU_VERSION_FENCED;
        owed |= r->outstanding[r->unit[i].node];
    }
    /* no flit outstanding and no record queued or lost: no wait (wait_for
     * costs about 200 cycles) */
    runner_status st = SN_OK;
    uint64_t stat = rd(r, SN_MBOX_STAT);
    if (owed != 0 || sn_stat_queued(stat) != 0 || sn_stat_overflow(stat))
        st = wait_for(r, WAIT_IDLE, NO_NODE);
    if (st == SN_OK && SETTLE_CYCLES != 0 && may_settle && unfenced) {
        r->settles++;
        st = wait_for(r, WAIT_SETTLE, NO_NODE);
    }
    if (st != SN_OK)
        return st;
    /* Only CU_CTRL replies are expected in the RX queue, and only at boot: a
     * CU_DATA or memory flit addressed to the SysNode would be lost there. */
    uint64_t rx = rd(r, SN_CTRL_RX_USED) & 0xF;
    if (rx != 0) {
        uint64_t hdr = rd(r, SN_CTRL_RX_HDR);
        uint64_t flit_hdr = sn_rx_hdr_header(hdr);
        return fail(r, SN_ERR_RX_FLIT, SN_NODE_ID(sn_flit_hdr_src_x(flit_hdr), sn_flit_hdr_src_y(flit_hdr)),
                    (uint32_t)sn_flit_hdr_type(flit_hdr));
    }
    /* Counts only ever grow for units of the mesh: other sources are refused. */
    for (size_t i = 0; i < r->map.mesh->unit_count; i++) {
        uint32_t n = r->unit[i + 1].node, got = received(r, n, i + 1);
        if (got != r->unit[i + 1].expected)
            return fail_limit(r, SN_ERR_EXTRA_COMPLETION, n, got, r->unit[i + 1].expected);
    }
    return SN_OK;
}

/* Holds at a host sync point after a finished round (host_sync.h): the
 * round's completions are all counted and its writes have landed, so the
 * host reads results and writes operands; the wait is bounded. */
static runner_status host_sync(sn_runner *r)
{
    if (!r->host_release) /* an image without a host */
        return fail(r, SN_ERR_TABLE_STEP, NO_NODE, SN_STEP_HOST_SYNC);
    uint32_t seq = ++r->syncs;
    publish(r);
    r->status->phase = SN_PHASE_HOST_SYNC;
    uint64_t start = sn_port_cycles(r->port), held = SN_HOST_HELD(seq, start);
    if (r->hold_copy) /* after start: the copy's cycles are the hold's, not the round's */
        r->hold_copy(r->status, held);
    *r->host_held = held;
    uint64_t word;
    /* STAT is read to pace the poll (and, on the mailbox model, to let time pass). */
    while (SN_HOST_RELEASE_SEQ(word = *r->host_release) != seq) {
        (void)rd(r, SN_MBOX_STAT);
        if (sn_port_cycles(r->port) - start >= r->hang_cycles)
            return fail_limit(r, SN_ERR_HANG, NO_NODE, seq, (uint32_t)r->hang_cycles);
    }
    r->host_command = SN_HOST_RELEASE_CMD(word);
    return SN_OK;
}

/* Checks round `index`'s payload rows (the window of its checked copy) against
 * its payload_hash, finishing the hash wait_for took ahead when it covers the
 * same rows; then starts the next round's, when its window lies inside the
 * table's payloads (otherwise that round's own record check refuses it). */
static runner_status check_payloads(sn_runner *r, const sn_table *t, uint32_t index, const sn_table_round *round)
{
    const sn_table_row *rows = &t->payloads[round->payload_first], *end = rows + round->payload_count;
    if (r->ahead_rows != rows || r->ahead_end != end) { /* not taken ahead: from the first row */
        r->ahead_next = rows;
        r->ahead_hash = SN_WORD_HASH_SEED;
    }
    uint64_t hash = sn_word_hash_lines(r->ahead_hash, &r->ahead_next->arg3, (uint64_t)(end - r->ahead_next));
    r->ahead_next = r->ahead_end = 0; /* nothing ahead unless set below */
    if (index + 1 < t->round_count) {
        uint32_t first = t->rounds[index + 1].payload_first, count = t->rounds[index + 1].payload_count;
        if (first <= t->payload_count && count <= t->payload_count - first) {
            r->ahead_rows = r->ahead_next = &t->payloads[first];
            r->ahead_end = r->ahead_rows + count;
            r->ahead_hash = SN_WORD_HASH_SEED;
        }
    }
    sn_table_image_fault f;
    if (sn_table_image_check_round(index, round->payload_hash, hash, &f) == SN_OK)
        return SN_OK;
    sn_runner_image_fault(r->status, &f); /* the first error: the run stops at any */
    return fail(r, SN_ERR_TABLE_IMAGE, NO_NODE, 0);
}

/* Runs round `index` from copies: the table lives in DRAM, where a unit's
 * write could change it after the boot check, so the round record is copied
 * and its own rules checked again before the round starts (with its payload
 * rows' hash), and each step is copied and checked again just before the
 * runner acts on it; a round whose awaits no longer cover its kicks ends
 * with counts that differ (end_round). */
static runner_status run_round(sn_runner *r, const sn_table *t, uint32_t index)
{
    const sn_table_round *in = &t->rounds[index];
    const sn_table_round round = {in->step_first, in->step_count,  in->payload_first, in->payload_count,
                                  in->flags,      in->reserved,    in->payload_hash};
    sn_table_fault f;
    for (size_t i = 0; i <= r->map.mesh->unit_count; i++) /* slot 0 and the mesh's units: no other is counted */
        r->unit[i].expected = r->unit[i].kicked = r->unit[i].other = 0;
    r->status->step = 0;
    if (sn_table_check_round_record(t, &round, &f) != SN_OK)
        return table_fault(r, SN_ERR_TABLE_CHANGED, &f);
    runner_status st0 = check_payloads(r, t, index, &round);
    if (st0 != SN_OK)
        return st0;

    round_walk w = {t, &round, 0, {.word = {0, 0, 0}}};
    runner_status st = kicks(r, &w); /* every step */
    if (st != SN_OK)
        return st;
    r->status->step = round.step_count;
    /* The host and the digest read after the last round, and the host at a
     * sync point: those always settle. */
    int proven = (round.flags & SN_ROUND_SETTLE_PROVEN) && index + 1 < t->round_count && !w.sync;
    st = end_round(r, !proven);
    if (st == SN_OK && w.sync)
        st = host_sync(r);
    return st;
}

/* Out of line under link-time optimisation too: the runner's entry stays a
 * function a debugger can break on (tests/integration/gdb_session.sh). */
NOINLINE sn_status sn_runner_run(sn_runner *r, const sn_table *table)
{
    r->ahead_rows = 0; /* nothing hashed ahead of a new table */
    runner_status st = check_table(r, table);
    if (st == SN_OK)
        st = probe_units(r);
    if (st == SN_OK) /* from here on r->dst is what DST holds: kicks() compares only */
        wr(r, SN_MBOX_DST, r->dst);
    for (uint32_t i = 0; st == SN_OK && i < table->round_count; i++) {
        r->status->round = i;
        st = run_round(r, table, i);
        r->status->rounds_run = i + (st == SN_OK);
    }
    publish(r);
    if (st == SN_OK)
        r->status->phase = SN_PHASE_DONE;
    return st;
}
