/* See vc_timing.h. Every constant is a row of unit-timing §2.2-§2.4. */
#include "vc_timing.h"

#include "sysnode/words.h"

#define ISSUE_OFFSET 3     /* first state to issue */
#define PIPE_DRAIN 79      /* last lane beat to pipe empty (§2.3) */
#define HAZARD_FLAT 18     /* producer's last beat to a dependent first beat (§2.3, FLAT) */
#define RED_TAIL_RESULT 63 /* VRED tail to the next word (§2.2) */
#define FILL_REQ_FIRST 5   /* issue to the first VFILL request's issue (§2.4: E + 6, E = I - 1) */
#define FILL_REQ_STEP 3
#define PORT_TO_NODE 6     /* request issue to its tap at the node: 3 to the port, 3 through the router */
#define NODE_TO_LANDED 6   /* response tap at the node to the word landed: 3 to the port, 3 into L1 */

enum { DT_FP16 = 1, DT_FP32 = 2 };
enum { RED_SUMSQ = 3, RED_DOT = 4, RED_EXPSUM = 5, RED_ANY = 6, RED_ALL = 7 };

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

void sn_vc_timing_start(sn_vc_timing *t, uint64_t accept, sn_mem_node *mem)
{
    t->accept = accept;
    t->next = accept + 1;
    t->pipe_empty = t->fills_landed = 0;
    for (unsigned r = 0; r < SN_VC_TIMING_REGS; r++)
        t->reg_ready[r] = 0;
    t->mem = mem;
}

/* An ALU word in FLAT: its first beat waits for every register its va, vb,
 * vc and vd fields name (as encoded); compares write no register. */
static uint64_t alu(sn_vc_timing *t, uint32_t w, unsigned op, unsigned nch, uint64_t issue)
{
    unsigned regs[4] = {(unsigned)sn_kword_alu_va(w), (unsigned)sn_kword_alu_vb(w), (unsigned)sn_kword_alu_vc(w),
                        (unsigned)sn_kword_alu_vd(w)};
    uint64_t first = issue + 1;
    for (unsigned i = 0; i < 4; i++)
        first = max64(first, t->reg_ready[regs[i]]);
    uint64_t last = first + nch - 1;
    if (op < SN_K_VCMPLT || op > SN_K_VCMPEQ)
        t->reg_ready[regs[3]] = last + HAZARD_FLAT;
    t->pipe_empty = max64(t->pipe_empty, last + PIPE_DRAIN);
    return first - 1; /* the issue cycle the wait made */
}

static uint64_t vfill(sn_vc_timing *t, uint64_t issue, uint32_t n)
{
    /* a VFILL issues the cycle after the previous one's last word landed,
     * one later than VBAR and VHALT may (vadd128's K = 477, §2.2) */
    issue = max64(issue, t->fills_landed + 1);
    for (uint32_t j = 0; j < n; j++) {
        uint64_t tap = issue + FILL_REQ_FIRST + (uint64_t)FILL_REQ_STEP * j + PORT_TO_NODE;
        t->fills_landed = max64(t->fills_landed, sn_mem_node_read(t->mem, tap) + NODE_TO_LANDED);
    }
    return issue;
}

void sn_vc_timing_word(sn_vc_timing *t, uint32_t w, unsigned op, unsigned nch, uint32_t n)
{
    uint64_t issue = t->next + ISSUE_OFFSET;
    uint64_t cost;
    unsigned dtype = (unsigned)sn_kword_mem_dtype(w);
    switch (op) {
    case SN_K_VSETVL: case SN_K_VLOOP:
        cost = 4;
        break;
    case SN_K_VSETI:
        cost = 6;
        break;
    case SN_K_VSETMODE:
        issue = max64(issue, t->pipe_empty);
        cost = 4;
        break;
    case SN_K_VLD:
        issue = max64(issue, t->pipe_empty);
        cost = 5 + (dtype == DT_FP32 ? 8 : 4) * nch;
        break;
    case SN_K_VST:
        issue = max64(issue, t->pipe_empty);
        cost = 5 + (dtype == DT_FP32 ? 4 : 3) * nch;
        break;
    case SN_K_VCVT: case SN_K_VSHUF:
        issue = max64(issue, t->pipe_empty);
        cost = 5 + 3 * nch;
        break;
    case SN_K_VBCAST: /* sa = S: scalar to vector */
        issue = max64(issue, t->pipe_empty);
        cost = sn_kword_alu_sa(w) == 1 ? 5 + 3 * nch : 8;
        break;
    case SN_K_VRED: {
        unsigned kind = (unsigned)sn_bits64(w, 7, 5);
        if (kind == RED_ANY || kind == RED_ALL) {
            cost = 4;
            break;
        }
        unsigned nb = kind == RED_SUMSQ || kind == RED_DOT || kind == RED_EXPSUM ? 2 * nch : nch;
        uint64_t tail = max64(issue + nb + PIPE_DRAIN, t->pipe_empty);
        t->pipe_empty = tail + PIPE_DRAIN;
        t->next = tail + RED_TAIL_RESULT;
        return;
    }
    case SN_K_VFILL:
        issue = vfill(t, issue, n);
        cost = 8 + 3 * (uint64_t)n;
        break;
    case SN_K_VDRAIN:
        cost = 10 + 3 * (uint64_t)n + (sn_kword_peer_peer(w) && n > 1);
        break;
    case SN_K_VBAR:
        issue = max64(issue, t->fills_landed);
        cost = 5;
        break;
    case SN_K_VHALT:
        issue = max64(issue, max64(t->pipe_empty, t->fills_landed));
        cost = 6;
        break;
    default: /* ALU ops VMOV..VRSQRT */
        issue = alu(t, w, op, nch, issue);
        cost = 5 + nch;
        break;
    }
    t->next = issue - ISSUE_OFFSET + cost;
}

uint64_t sn_vc_timing_halt(const sn_vc_timing *t)
{
    return t->next - 1;
}
