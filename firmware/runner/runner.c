/* The runner core (see runner.h). Steps and rules: DESIGN.md §2; mailbox
 * behaviour: sysnode-facts §2. */
#include "runner.h"
#include "fmt.h"
#include "table_check.h"
#include "sysnode/field.h"
#include "sysnode/static_assert.h"

#define NO_NODE 0xFFFFFFFFu

SN_STATIC_ASSERT(SN_RUNNER_SETTLE_CYCLES > SN_V4_WRITE_LANDING_CYCLES,
                 "the settle must outlast the modelled version-4 write landing");
#define REG_DST 0 /* shadow index; ARGi is 1 + i */

static const uint16_t reg_offset[5] = {SN_MBOX_DST, SN_MBOX_ARG0, SN_MBOX_ARG1, SN_MBOX_ARG2,
                                       SN_MBOX_ARG3};

static uint64_t rd(sn_runner *r, unsigned offset)
{
    r->mmio.reads++;
    return sn_port_read(r->port, offset);
}

static void wr(sn_runner *r, unsigned offset, uint64_t value)
{
    r->mmio.writes++;
    sn_port_write(r->port, offset, value);
}

/* Keeps the first error only, with where it happened. */
static sn_status fail(sn_runner *r, sn_status status, uint32_t node, uint32_t value)
{
    sn_status_block *s = r->status;
    if (s->error == SN_OK) {
        s->error = status;
        s->error_round = s->round;
        s->error_step = s->step;
        s->error_node = node;
        s->error_value = value;
    }
    return status;
}

/* A completion source the runner credits: a unit of the mesh. */
static int is_unit(const sn_runner *r, unsigned x, unsigned y)
{
    return !(x == SN_SYSNODE_X && y == SN_SYSNODE_Y) && sn_mesh_find(r->mesh, x, y) != 0;
}

/* Clears n bytes (a multiple of 4) a word at a time: the image has no libc,
 * and byte loops cost the boot about 18 k cycles on the runner state. */
static void zero_words(void *p, uint32_t n)
{
    uint32_t *w = (uint32_t *)p;
    for (uint32_t i = 0; i < n / 4; i++)
        w[i] = 0;
}

void sn_runner_init(sn_runner *r, sn_port *port, const sn_mesh *mesh, sn_status_block *status)
{
    zero_words(r, sizeof *r);
    zero_words(status, sizeof *status);
    r->port = port;
    r->mesh = mesh;
    r->status = status;
    r->hang_cycles = SN_RUNNER_DEFAULT_HANG_CYCLES;
    r->inst_depth = SN_INST_DEPTH_DEFAULT;
    r->settle_cycles = SN_RUNNER_SETTLE_CYCLES;
    r->drain_while_kicking = 1;
    status->magic = SN_STATUS_MAGIC;
    status->phase = SN_PHASE_BOOT;
    status->wait_node = NO_NODE;
    status->error_node = NO_NODE;
}

/* ---- completions ---------------------------------------------------------- */

/* Attributes one HEAD record to its source node (DESIGN §2: peer acks are
 * credited to the node that sent them, including nodes never kicked). */
static sn_status take(sn_runner *r, uint64_t head)
{
    unsigned x = sn_head_src_x(head), y = sn_head_src_y(head);
    uint32_t node = SN_NODE_ID(x, y);
    unsigned code = sn_head_code(head);

    r->total_completions++;
    r->status->completions = r->total_completions;
    if (!is_unit(r, x, y)) {
        r->unknown_completions++;
        return fail(r, SN_ERR_UNKNOWN_SOURCE, node, code);
    }
    switch (code) {
    case SN_SIG_INST_COMPLETE:
    case SN_SIG_BATCH_COMPLETE:
        r->received[node]++;
        if (r->outstanding[node] != 0) {
            r->outstanding[node]--;
            r->in_flight--;
        }
        return SN_OK;
    case SN_SIG_DATA_RECEIVED:
        r->received[node]++;
        return SN_OK;
    case SN_SIG_FAULT:
        return fail(r, SN_ERR_UNIT_FAULT, node, sn_head_arg(head));
    default:
        return fail(r, SN_ERR_PROTOCOL, node, code);
    }
}

/* Reads STAT once and pops every queued record if at least `threshold` wait.
 * *stat_out gets the STAT word; *took says whether any record was popped. */
static sn_status service(sn_runner *r, uint32_t threshold, uint64_t *stat_out, int *took)
{
    uint64_t stat = rd(r, SN_MBOX_STAT);
    uint32_t queued = (uint32_t)sn_stat_queued(stat);
    *stat_out = stat;
    *took = 0;
    if (sn_stat_overflow(stat))
        return fail(r, SN_ERR_LOST_COMPLETION, NO_NODE, queued);
    if (queued == 0 || queued < threshold)
        return SN_OK;
    *took = 1;
    for (uint32_t i = 0; i < queued; i++) {
        uint64_t head = rd(r, SN_MBOX_HEAD);
        wr(r, SN_MBOX_HEAD, 0); /* a store pops; a read does not */
        sn_status st = take(r, head);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

static uint32_t depth_of(const sn_runner *r, uint32_t node)
{
    return r->unit_depth[node] ? r->unit_depth[node] : r->inst_depth;
}

/* ---- bounded waits ---------------------------------------------------------- */

enum wait_kind { WAIT_OFFER_CLEAR, WAIT_RECEIVED, WAIT_DEPTH, WAIT_IDLE };

static int wait_done(const sn_runner *r, enum wait_kind kind, uint32_t node, uint64_t stat)
{
    switch (kind) {
    case WAIT_OFFER_CLEAR:
        return !sn_stat_offered(stat);
    case WAIT_RECEIVED: /* wrap-safe: received - expected >= 0 */
        return (int32_t)(r->received[node] - r->expected[node]) >= 0;
    case WAIT_DEPTH:
        return r->outstanding[node] < depth_of(r, node);
    case WAIT_IDLE:
        return r->in_flight == 0;
    default:
        return 0;
    }
}

/* The one wait: polls STAT, draining completions, until the condition holds.
 * A wait that sees no completion for hang_cycles is a hang (STYLE 6). The
 * offer wait drains only from SN_RUNNER_DRAIN_AT records so that a flit can
 * go out between batches; every other wait drains whatever is queued. A
 * runner with drain_while_kicking cleared (a test image) drains in neither
 * kick-time wait, and so deadlocks once completions fill the mailbox. */
static sn_status wait_for(sn_runner *r, enum wait_kind kind, uint32_t node)
{
    int kicking = kind == WAIT_OFFER_CLEAR || kind == WAIT_DEPTH;
    uint32_t threshold = !kicking                 ? 1
                         : !r->drain_while_kicking ? UINT32_MAX
                         : kind == WAIT_OFFER_CLEAR ? SN_RUNNER_DRAIN_AT
                                                    : 1;
    uint64_t last_progress = sn_port_cycles(r->port);
    r->status->wait_node = node;
    for (;;) {
        uint64_t stat;
        int took;
        sn_status st = service(r, threshold, &stat, &took);
        if (st != SN_OK)
            return st;
        if (wait_done(r, kind, node, stat))
            break;
        uint64_t now = sn_port_cycles(r->port);
        if (took) {
            last_progress = now;
        } else if (kind == WAIT_OFFER_CLEAR && r->drain_while_kicking && sn_stat_queued(stat) != 0) {
            threshold = 1; /* the offer is stuck: free the hub by draining all */
        } else if (now - last_progress > r->hang_cycles) {
            return fail(r, SN_ERR_HANG, node, (uint32_t)(now - last_progress));
#ifdef SN_RUNNER_WFI_AWAIT
        } else if (kind != WAIT_OFFER_CLEAR) { /* runner-wfi.elf; an offer raises no line */
            sn_port_sleep_until(r->port, last_progress + r->hang_cycles + 1);
#endif
        }
    }
    r->status->wait_node = NO_NODE;
    return SN_OK;
}

/* ---- validation: refuse a table before any GO ------------------------------- */

static sn_status check_table(sn_runner *r, const sn_table *t)
{
    sn_table_fault f;
    /* expected[] and outstanding[] are zero before the first round: scratch. */
    sn_status st = sn_table_check(t, r->mesh, r->outstanding, r->expected, &f);
    if (st == SN_OK)
        return SN_OK;
    r->status->round = f.round;
    r->status->step = f.step;
    r->status->error_rule = f.rule;
    r->status->error_limit = f.limit;
    return fail(r, st, f.node, f.value);
}

/* ---- steps ------------------------------------------------------------------ */

static void set_reg(sn_runner *r, unsigned idx, uint64_t value)
{
    if ((r->shadow_valid & (1u << idx)) && r->shadow[idx] == value)
        return; /* the mailbox holds DST/ARG across GOs (sysnode-facts §2.1) */
    wr(r, reg_offset[idx], value);
    r->shadow[idx] = value;
    r->shadow_valid |= (uint8_t)(1u << idx);
}

/* ---- unit capabilities ------------------------------------------------------ */

#define RX_P2 (SN_CTRL_RX_P0 + 16)
#define RX_P3 (SN_CTRL_RX_P0 + 24)

/* Sends one CU_CTRL read of register `index` to node (x, y) and waits for the
 * reply in the RX queue; *value gets its 64-bit value. */
static sn_status ctrl_read(sn_runner *r, unsigned x, unsigned y, unsigned index, uint64_t *value)
{
    uint32_t node = SN_NODE_ID(x, y);
    sn_status st = wait_for(r, WAIT_OFFER_CLEAR, node);
    if (st != SN_OK)
        return st;
    sn_payload request = {{0, 0, 0, 0}};
    sn_ctrl_req_set_index(&request, index);
    set_reg(r, REG_DST, sn_dst_with_typed(sn_dst_with_type(SN_DST_VALUE(x, y), SN_T_CU_CTRL), 1));
    for (unsigned w = 0; w < SN_PAYLOAD_WORDS; w++)
        set_reg(r, 1 + w, request.w[w]); /* ARG0 = payload bits 63:0 */
    wr(r, SN_MBOX_GO, 1);

    uint64_t start = sn_port_cycles(r->port);
    r->status->wait_node = node;
    while ((rd(r, SN_CTRL_RX_USED) & 0xF) == 0) {
        if (sn_port_cycles(r->port) - start > r->hang_cycles)
            return fail(r, SN_ERR_HANG, node, (uint32_t)r->hang_cycles);
    }
    uint64_t hdr = rd(r, SN_CTRL_RX_HDR);
    uint64_t p2 = rd(r, RX_P2), p3 = rd(r, RX_P3);
    wr(r, SN_CTRL_RX_HDR, 0); /* a store pops */
    r->status->wait_node = NO_NODE;
    uint64_t flit_hdr = sn_rx_hdr_header(hdr);
    sn_payload reply = {{0, 0, p2, p3}}; /* the reply's fields lie in ARG2 and ARG3 */
    if (sn_flit_hdr_type(flit_hdr) != SN_T_CU_CTRL || sn_flit_hdr_src_x(flit_hdr) != x ||
        sn_flit_hdr_src_y(flit_hdr) != y || sn_ctrl_reply_index(&reply) != index)
        return fail(r, SN_ERR_PROTOCOL, node, (uint32_t)hdr);
    *value = sn_ctrl_reply_value(&reply);
    return SN_OK;
}

static sn_status probe_units(sn_runner *r)
{
    for (unsigned i = 0; i < r->mesh->unit_count; i++) {
        const sn_mesh_unit *u = &r->mesh->units[i];
        uint32_t node = SN_NODE_ID(u->x, u->y);
        uint64_t caps;
        sn_status st = ctrl_read(r, u->x, u->y, SN_CU_REG_CAPS, &caps);
        if (st != SN_OK)
            return st;
        if (sn_cu_caps_cu_type(caps) != u->cu_type || sn_cu_caps_inst_depth(caps) == 0)
            return fail(r, SN_ERR_UNIT_CAPS, node, (uint32_t)(caps >> 32));
        r->unit_depth[node] = (uint16_t)sn_cu_caps_inst_depth(caps);
        r->unit_version[node] = (uint8_t)sn_cu_caps_cu_version(caps);
    }
    return SN_OK;
}

/* ---- steps (kick) ------------------------------------------------------------ */

static sn_status kick(sn_runner *r, const sn_table *t, const sn_table_round *round,
                      const sn_table_step *s)
{
    uint32_t node = SN_NODE_ID(s->x, s->y);
    for (uint32_t i = 0; i < s->b; i++) {
        const sn_table_payload *p = &t->payloads[round->payload_first + s->a + i];
        sn_status st;
        if (r->outstanding[node] >= depth_of(r, node) && (st = wait_for(r, WAIT_DEPTH, node)) != SN_OK)
            return st;
        if ((st = wait_for(r, WAIT_OFFER_CLEAR, node)) != SN_OK)
            return st;
        set_reg(r, REG_DST, SN_DST_VALUE(s->x, s->y));
        for (unsigned w = 0; w < 4; w++)
            set_reg(r, 1 + w, p->arg[3 - w]); /* row is {ARG3, ARG2, ARG1, ARG0} */
        wr(r, SN_MBOX_GO, 1);
        r->outstanding[node]++;
        r->in_flight++;
        r->total_flits++;
        r->status->flits_sent = r->total_flits;
    }
    return SN_OK;
}

/* Waits settle_cycles for unfenced units' writes to land, draining all the
 * while so a late completion is still counted (DESIGN §2). */
static sn_status settle(sn_runner *r)
{
    uint64_t start = sn_port_cycles(r->port);
    r->settles++;
    while (sn_port_cycles(r->port) - start < r->settle_cycles) {
        uint64_t stat;
        int took;
        sn_status st = service(r, 1, &stat, &took);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

/* unfenced: the round kicked or awaited a unit that may retire before its
 * writes land (older than CU_VERSION 5, or never probed). */
static sn_status end_round(sn_runner *r, int unfenced)
{
    r->status->phase = SN_PHASE_ROUND_END;
    sn_status st = wait_for(r, WAIT_IDLE, NO_NODE);
    if (st == SN_OK && r->settle_cycles != 0 && unfenced)
        st = settle(r);
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
    for (unsigned i = 0; i < r->mesh->unit_count; i++) {
        uint32_t n = sn_mesh_node(r->mesh, i);
        if (r->received[n] != r->expected[n])
            return fail(r, SN_ERR_EXTRA_COMPLETION, n, r->received[n]);
    }
    return SN_OK;
}

/* Records a rule broken by the table as it stands in DRAM now. */
static sn_status table_changed(sn_runner *r, const sn_table_fault *f)
{
    r->status->error_rule = f->rule;
    r->status->error_limit = f->limit;
    return fail(r, SN_ERR_TABLE_CHANGED, f->node, f->value);
}

/* Runs round `index` from copies: the table lives in DRAM, where a unit's
 * write could change it after the first check, so the round record is copied
 * and re-checked as a whole before the round starts, and each step is copied
 * and checked again just before the runner acts on it. */
static sn_status run_round(sn_runner *r, const sn_table *t, uint32_t index)
{
    const sn_table_round round = t->rounds[index];
    sn_table view = *t;
    sn_table_fault f;
    view.rounds = &round;
    view.round_count = 1;
    /* expected[] and outstanding[] hold no counts between rounds: scratch. */
    if (sn_table_check_round(&view, 0, r->mesh, r->outstanding, r->expected, &f) != SN_OK) {
        r->status->step = f.step;
        return table_changed(r, &f);
    }
    for (unsigned i = 0; i < r->mesh->unit_count; i++) {
        uint32_t n = sn_mesh_node(r->mesh, i);
        r->expected[n] = r->received[n] = 0;
    }

    int unfenced = 0;
    for (uint32_t i = 0; i < round.step_count; i++) {
        const sn_table_step s = t->steps[round.step_first + i];
        uint32_t node = SN_NODE_ID(s.x, s.y);
        sn_status st = SN_OK;
        r->status->step = i;
        if (sn_table_check_step(&s, &round, r->mesh, 0, 0, &f) != SN_OK)
            return table_changed(r, &f);
        if ((s.op == SN_STEP_KICK || s.op == SN_STEP_AWAIT) && r->unit_version[node] < SN_CU_VERSION_FENCED)
            unfenced = 1;
        switch (s.op) {
        case SN_STEP_SEED: /* no credit register on the mailbox (DESIGN §2) */
            break;
        case SN_STEP_KICK:
            r->status->phase = SN_PHASE_KICK;
            st = kick(r, t, &round, &s);
            break;
        case SN_STEP_AWAIT:
            r->status->phase = SN_PHASE_AWAIT;
            r->expected[node] += s.a;
            st = wait_for(r, WAIT_RECEIVED, node);
            break;
        case SN_STEP_BARRIER:
            r->status->phase = SN_PHASE_BARRIER;
            st = wait_for(r, WAIT_IDLE, NO_NODE);
            break;
        default:
            st = fail(r, SN_ERR_TABLE_STEP, NO_NODE, s.op);
        }
        if (st != SN_OK)
            return st;
    }
    r->status->step = round.step_count;
    return end_round(r, unfenced);
}

sn_status sn_runner_run(sn_runner *r, const sn_table *table)
{
    sn_status st = check_table(r, table);
    if (st == SN_OK && r->probe_units)
        st = probe_units(r);
    for (uint32_t i = 0; st == SN_OK && i < table->round_count; i++) {
        r->status->round = i;
        st = run_round(r, table, i);
    }
    if (st == SN_OK)
        r->status->phase = SN_PHASE_DONE;
    return st;
}

/* ---- reporting ------------------------------------------------------------- */

static void describe_owed(const sn_runner *r, sn_fmt *f)
{
    for (unsigned i = 0; i < r->mesh->unit_count; i++) {
        uint32_t n = sn_mesh_node(r->mesh, i);
        if (r->expected[n] == r->received[n] && r->outstanding[n] == 0)
            continue;
        sn_fmt_str(f, "\n  node ");
        sn_fmt_node(f, n);
        sn_fmt_str(f, ": awaited ");
        sn_fmt_dec(f, r->expected[n]);
        sn_fmt_str(f, ", received ");
        sn_fmt_dec(f, r->received[n]);
        sn_fmt_str(f, ", owed ");
        sn_fmt_dec(f, r->expected[n] > r->received[n] ? r->expected[n] - r->received[n] : 0);
        sn_fmt_str(f, ", flits outstanding ");
        sn_fmt_dec(f, r->outstanding[n]);
    }
}

char *sn_runner_describe(const sn_runner *r, char *buf, uint32_t size)
{
    const sn_status_block *s = r->status;
    sn_fmt f;
    sn_fmt_init(&f, buf, size);
    if (s->error == SN_OK) {
        sn_fmt_str(&f, "ok");
        return buf;
    }
    if (s->error_rule != SN_RULE_NONE) {
        sn_table_fault tf = {(sn_status)s->error, (sn_table_rule)s->error_rule, s->error_round, s->error_step,
                             s->error_node, s->error_value, s->error_limit};
        if (s->error == SN_ERR_TABLE_CHANGED)
            sn_fmt_str(&f, "the table in DRAM changed after it was checked (a unit wrote over it?): ");
        sn_table_fault_describe(&tf, buf + f.len, size - f.len);
        return buf;
    }
    sn_fmt_str(&f, "round ");
    sn_fmt_dec(&f, s->error_round);
    sn_fmt_str(&f, " step ");
    sn_fmt_dec(&f, s->error_step);
    sn_fmt_str(&f, ": ");
    switch (s->error) {
    case SN_ERR_UNIT_FAULT: {
        /* Vector-core fault codes (sysnode-facts §3.2, compiler/kohakutpu/hw/vector.py@7703ee8). */
        static const char *const vc_faults[] = {"",          "dtype",           "vector source", "chain",
                                                "opcode",    "walk past 256 entries", "loop nesting",
                                                "VL",        "reduction VL",    "bad CU_DATA"};
        const sn_mesh_unit *u = sn_mesh_find(r->mesh, s->error_node & 0xF, (s->error_node >> 4) & 0xF);
        sn_fmt_str(&f, "SIG_FAULT, argument ");
        sn_fmt_dec(&f, s->error_value);
        if (u && u->cu_type == SN_CU_TYPE_VC && s->error_value >= 1 && s->error_value <= 9) {
            sn_fmt_str(&f, " (vector core fault: ");
            sn_fmt_str(&f, vc_faults[s->error_value]);
            sn_fmt_str(&f, ")");
        }
        break;
    }
    case SN_ERR_EXTRA_COMPLETION:
        sn_fmt_str(&f, "received ");
        sn_fmt_dec(&f, s->error_value);
        sn_fmt_str(&f, " completions, awaited ");
        sn_fmt_dec(&f, r->expected[s->error_node & 0xFF]);
        break;
    case SN_ERR_UNKNOWN_SOURCE:
        sn_fmt_str(&f, "completion (code ");
        sn_fmt_dec(&f, s->error_value);
        sn_fmt_str(&f, ") from a coordinate with no unit");
        break;
    case SN_ERR_LOST_COMPLETION:
        sn_fmt_str(&f, "STAT[31] set: the mailbox dropped completions");
        break;
    case SN_ERR_RX_FLIT:
        sn_fmt_str(&f, "a flit of type ");
        sn_fmt_dec(&f, s->error_value);
        sn_fmt_str(&f, " (not a CU_SIGNAL) reached the SysNode and waits in its RX queue");
        break;
    case SN_ERR_UNIT_CAPS:
        sn_fmt_str(&f, "CU_CAPS[63:32] ");
        sn_fmt_hex(&f, s->error_value);
        sn_fmt_str(&f, " disagrees with the mesh description (type, or inst_depth 0)");
        break;
    case SN_ERR_PROTOCOL:
        sn_fmt_str(&f, "unexpected signal code or reply ");
        sn_fmt_dec(&f, s->error_value);
        break;
    case SN_ERR_HANG:
        if (s->phase == SN_PHASE_BOOT) {
            sn_fmt_str(&f, "hang: no CU_CTRL reply from ");
            sn_fmt_node(&f, s->error_node);
            sn_fmt_str(&f, " within ");
            sn_fmt_dec(&f, s->error_value);
            sn_fmt_str(&f, " cycles");
            return buf;
        }
        sn_fmt_str(&f, "hang: no completion for ");
        sn_fmt_dec(&f, s->error_value);
        sn_fmt_str(&f, " cycles while ");
        sn_fmt_str(&f, s->phase == SN_PHASE_KICK ? "sending to " : "waiting on ");
        if (s->error_node == NO_NODE)
            sn_fmt_str(&f, "every node");
        else
            sn_fmt_node(&f, s->error_node);
        sn_fmt_str(&f, "; owed:");
        describe_owed(r, &f);
        return buf;
    default:
        sn_fmt_str(&f, "error ");
        sn_fmt_dec(&f, s->error);
    }
    if (s->error_node != NO_NODE) {
        sn_fmt_str(&f, "; node ");
        sn_fmt_node(&f, s->error_node);
    }
    return buf;
}
