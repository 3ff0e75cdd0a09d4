/* The mailbox model behind the runner's unit tests (see mbox_model.h). One
 * call to tick() is one cycle: units retire, the hub moves one completion
 * into the queue and takes the offered flit when it may. Every port access
 * runs access_cycles ticks after it takes effect. */
#include "mbox_model.h"
#include <string.h>

mbox_model_config mbox_model_default_config(void)
{
    static const uint8_t xy[4][2] = {{1, 1}, {2, 1}, {1, 0}, {1, 2}};
    mbox_model_config c;
    memset(&c, 0, sizeof c);
    c.access_cycles = 2;
    c.hub_take_cycles = 3;
    c.cycle_limit = 20000000;
    c.unit_count = 4;
    for (unsigned i = 0; i < 4; i++) {
        mbox_unit_config *u = &c.units[i];
        u->x = xy[i][0];
        u->y = xy[i][1];
        u->fifo_depth = SN_INST_DEPTH_DEFAULT;
        u->latency = 20;
        u->fault_flit = MBOX_NONE;
        u->drop_flit = MBOX_NONE;
    }
    return c;
}

void mbox_model_init(sn_port *m, const mbox_model_config *cfg)
{
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
}

mbox_unit_config *mbox_config_unit(mbox_model_config *cfg, unsigned x, unsigned y)
{
    for (uint32_t i = 0; i < cfg->unit_count; i++)
        if (cfg->units[i].x == x && cfg->units[i].y == y)
            return &cfg->units[i];
    return 0;
}

mbox_unit *mbox_model_unit(sn_port *m, unsigned x, unsigned y)
{
    mbox_unit_config *c = mbox_config_unit(&m->cfg, x, y);
    return c ? &m->units[c - m->cfg.units] : 0;
}

uint64_t mbox_head_word(unsigned x, unsigned y, unsigned code, uint32_t arg)
{
    return sn_head_with_src_y(sn_head_with_src_x(sn_head_with_code(sn_head_with_arg(0, arg), code), x), y);
}

/* ---- hub and units ------------------------------------------------------- */

static void hub_push(sn_port *m, uint64_t word)
{
    if (m->hub_count == MBOX_HUB_MAX) {
        m->hub_overflow++;
        return;
    }
    m->hub[(m->hub_head + m->hub_count++) % MBOX_HUB_MAX] = word;
}

/* One record from the hub into the completion queue per cycle (one link).
 * Gen B/C: it waits while the queue is full; gen A: it is dropped and
 * STAT[31] is set (facts §2.4). */
static void hub_to_queue(sn_port *m)
{
    if (m->hub_count == 0)
        return;
    if (m->cq_count == SN_CQ_DEPTH && !m->cfg.gen_a)
        return;
    uint64_t word = m->hub[m->hub_head];
    m->hub_head = (m->hub_head + 1) % MBOX_HUB_MAX;
    m->hub_count--;
    if (m->cq_count == SN_CQ_DEPTH) {
        m->lost_records++;
        m->overflow = 1;
        return;
    }
    m->cq[(m->cq_head + m->cq_count++) % SN_CQ_DEPTH] = word;
    if (m->cq_count > m->max_queued)
        m->max_queued = m->cq_count;
}

static void deliver(sn_port *m, mbox_flit *f)
{
    mbox_unit_config *c = mbox_config_unit(&m->cfg, f->x, f->y);
    if (!c) {
        m->stray_flits++;
        return;
    }
    mbox_unit *u = &m->units[c - m->cfg.units];
    f->seq = u->received++;
    if (m->log_count < MBOX_LOG_MAX)
        m->log[m->log_count++] = *f;
    if (u->fifo_count >= c->fifo_depth || u->fifo_count == MBOX_UNIT_FIFO_MAX) {
        u->fifo_overflow++; /* the runner broke inst_depth (facts §2.4) */
        if (u->fifo_count == MBOX_UNIT_FIFO_MAX)
            return;
    }
    if (u->fifo_count == 0)
        u->done_at = m->now + c->latency;
    u->fifo[(u->fifo_head + u->fifo_count++) % MBOX_UNIT_FIFO_MAX] = *f;
    if (u->fifo_count > u->max_pending)
        u->max_pending = u->fifo_count;
}

/* Every mailbox flit has last=1, so a good retirement is BATCH_COMPLETE with
 * the txn as its argument (facts §2.4 model note, §4). */
static void retire(sn_port *m, const mbox_unit_config *c, const mbox_flit *f)
{
    if (f->seq == c->fault_flit)
        hub_push(m, mbox_head_word(c->x, c->y, SN_SIG_FAULT, c->fault_arg));
    else if (f->seq != c->drop_flit)
        hub_push(m, mbox_head_word(c->x, c->y, SN_SIG_BATCH_COMPLETE, f->txn));
    const mbox_inject *in = &c->inject;
    if (in->count != 0 && f->seq == in->after_flit)
        for (uint32_t i = 0; i < in->count; i++)
            hub_push(m, mbox_head_word(in->src_x, in->src_y, in->code, in->arg));
}

static void unit_tick(sn_port *m, uint32_t i)
{
    const mbox_unit_config *c = &m->cfg.units[i];
    mbox_unit *u = &m->units[i];
    if (u->fifo_count == 0 || m->now < u->done_at)
        return;
    retire(m, c, &u->fifo[u->fifo_head]);
    u->fifo_head = (u->fifo_head + 1) % MBOX_UNIT_FIFO_MAX;
    u->fifo_count--;
    u->retired++;
    u->done_at = m->now + c->latency;
}

/* Gen B/C: a full queue makes the hub hold the SysNode port, the offered
 * flit included (facts §2.4), so the offer stays until software pops. */
static void hub_take(sn_port *m)
{
    if (!m->offered || m->now < m->offer_at + m->cfg.hub_take_cycles)
        return;
    if (!m->cfg.gen_a && m->cq_count == SN_CQ_DEPTH) {
        m->stall_cycles++;
        return;
    }
    m->offered = 0;
    m->offer.cycle = m->now;
    deliver(m, &m->offer);
}

static void tick(sn_port *m)
{
    for (uint32_t i = 0; i < m->cfg.unit_count; i++)
        unit_tick(m, i);
    hub_to_queue(m);
    hub_take(m);
    if (++m->now == m->cfg.cycle_limit && m->cfg.on_limit)
        m->cfg.on_limit(m);
}

void mbox_model_step(sn_port *m, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        tick(m);
}

/* ---- the mailbox registers (facts §2.1) ------------------------------------ */

static int is_mbox(unsigned offset)
{
    return offset >= SN_MBOX_DST && offset <= SN_MBOX_HEAD && (offset & 7) == 0;
}

static void record(sn_port *m, int write, unsigned offset, uint64_t value)
{
    if (m->cfg.record && m->trace_count < MBOX_TRACE_MAX)
        m->trace[m->trace_count++] = (mbox_access){(uint8_t)write, (uint16_t)offset, value};
}

static uint64_t load(sn_port *m, unsigned offset)
{
    switch (offset) {
    case SN_MBOX_DST: /* type bits do not read back */
        return m->reg[0] & 0xF0Full;
    case SN_MBOX_ARG0:
    case SN_MBOX_ARG1:
    case SN_MBOX_ARG2:
    case SN_MBOX_ARG3:
        return m->reg[MBOX_REG(offset)];
    case SN_MBOX_STAT:
        return sn_stat_with_overflow(sn_stat_with_offered(sn_stat_with_queued(0, m->cq_count), m->offered),
                                     m->overflow);
    case SN_MBOX_HEAD: {
        uint64_t word = m->cq_count ? m->cq[m->cq_head] : 0;
        if (m->cq_count && sn_head_code(word) == SN_SIG_FAULT)
            m->fault_seen = 1;
        return word;
    }
    default: /* GO reads 0 */
        return 0;
    }
}

static void go(sn_port *m)
{
    if (m->fault_seen)
        m->gos_after_fault++;
    if (m->offered) {
        m->dropped_go++; /* ignored while a flit is offered (facts §2.4) */
        return;
    }
    m->gos_accepted++;
    m->offered = 1;
    m->offer_at = m->now;
    m->offer.x = (uint8_t)sn_dst_x(m->reg[0]);
    m->offer.y = (uint8_t)sn_dst_y(m->reg[0]);
    m->offer.txn = m->txn++;
    for (unsigned i = 0; i < SN_PAYLOAD_WORDS; i++)
        m->offer.payload.w[i] = m->reg[1 + i]; /* ARGi */
}

static void store(sn_port *m, unsigned offset, uint64_t value)
{
    switch (offset) {
    case SN_MBOX_GO:
        go(m);
        break;
    case SN_MBOX_STAT: /* read-only */
        break;
    case SN_MBOX_HEAD: /* any store pops; no-op when empty */
        if (m->cq_count) {
            m->cq_head = (m->cq_head + 1) % SN_CQ_DEPTH;
            m->cq_count--;
        }
        break;
    default:
        m->reg[MBOX_REG(offset)] = value;
    }
}

/* ---- the port (firmware/port/mbox_port.h) ---------------------------------- */

uint64_t sn_port_read(sn_port *m, unsigned offset)
{
    uint64_t value = 0;
    if (is_mbox(offset)) {
        m->reads[MBOX_REG(offset)]++;
        value = load(m, offset);
    } else if (offset == SN_CTRL_RX_USED) {
        m->rx_used_reads++; /* no unit here sends anything but signals: the RX queue stays empty */
    } else {
        m->bad_access++;
    }
    record(m, 0, offset, value);
    mbox_model_step(m, m->cfg.access_cycles);
    return value;
}

void sn_port_write(sn_port *m, unsigned offset, uint64_t value)
{
    if (is_mbox(offset)) {
        m->writes[MBOX_REG(offset)]++;
        store(m, offset, value);
    } else {
        m->bad_access++;
    }
    record(m, 1, offset, value);
    mbox_model_step(m, m->cfg.access_cycles);
}

uint64_t sn_port_cycles(sn_port *m)
{
    return m->now;
}
