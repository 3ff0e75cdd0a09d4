/* synth_case OUTDIR [--flood N]: writes a synthetic multi-round vector program as a case
 * directory (manifest.json, artifact_NNN.json, operands, expected bytes) for
 * `sysnode run`. 24 rounds on both vector cores, (1,0) and (1,2); in every
 * round each core is kicked twice, interleaved with the other, and awaited
 * once for its total. Round 0 loads a 13-word elementwise kernel and its
 * descriptors; later rounds rewrite only the ALU word and the three DRAM
 * bases (unit state persists across rounds, artifacts-facts §6) and cycle
 * through VADD, VSUB, VMUL, VMAX and VMIN.
 * With --flood N, round 0 first kicks core 0's whole window N more times (the
 * kernel is idempotent), all awaited once: thousands of flits in one round,
 * more completions than the mailbox, the unit and the router can hold, so a
 * runner that does not drain while it offers flits deadlocks the hub.
 * The expected bytes are computed here, independently of the simulator: the
 * exact result in double, rounded to E8M15, then stored as FP16 with
 * saturation (artifacts-facts §3.1, §6), with tests/unit/fp16_ref.h. Payloads
 * and kernel words are built through sysnode/words.h (sysnode-facts §3.2). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fp16_ref.h"
#include "sysnode/words.h"

#define ROUNDS 24
#define CORES 2
#define VL 64
#define WORDS (VL / 16) /* L1 words per operand */
#define IN_BASE 0x10000u
#define OUT_BASE 0x20000u

static const unsigned core_x[CORES] = {1, 1}, core_y[CORES] = {0, 2};

/* The ALU opcodes cycled through (what they compute: artifacts-facts §6). */
static const unsigned ops[] = {SN_K_VADD, SN_K_VSUB, SN_K_VMUL, SN_K_VMAX, SN_K_VMIN};

typedef sn_payload payload;

/* vd = 7, va = v0, vb = vc = v1: every op reads the operands it uses. */
static uint32_t alu_word(unsigned op)
{
    uint64_t w = sn_kword_alu_with_op(0, op);
    w = sn_kword_alu_with_vd(w, 7);
    w = sn_kword_alu_with_va(w, 0);
    w = sn_kword_alu_with_vb(w, 1);
    return (uint32_t)sn_kword_alu_with_vc(w, 1);
}

static uint64_t dim(uint32_t stride, uint32_t bound)
{
    return sn_vc_dim_with_bound(sn_vc_dim_with_stride(0, stride), bound);
}

static double apply(unsigned op, double a, double b)
{
    switch (op) {
    case SN_K_VADD: return a + b;
    case SN_K_VSUB: return a - b;
    case SN_K_VMUL: return a * b;
    case SN_K_VMAX: return b > a ? b : a; /* ties return va */
    default: return b < a ? b : a;
    }
}

/* A 256-bit value as decimal, by long division by 10^19 on 64-bit limbs. */
static void decimal(const payload *p, char *out)
{
    uint64_t limb[4] = {p->w[0], p->w[1], p->w[2], p->w[3]};
    char digits[96];
    int n = 0;
    for (;;) {
        unsigned __int128 rem = 0;
        int zero = 1;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (rem << 64) | limb[i];
            limb[i] = (uint64_t)(cur / 10000000000000000000ull);
            rem = cur % 10000000000000000000ull;
            zero &= limb[i] == 0;
        }
        uint64_t chunk = (uint64_t)rem;
        for (int k = 0; k < 19 && (!zero || chunk); k++) {
            digits[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
        if (zero)
            break;
    }
    if (n == 0)
        digits[n++] = '0';
    for (int i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    out[n] = '\0';
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "synth_case: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

/* Deterministic operands: FP16 of k/4 for k in [-1200, 1200] (so products
 * overflow FP16 and saturate), with some exact zeros and ties. */
static uint16_t operand(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    int k = (int)(*state >> 8) % 2401 - 1200;
    return ref_fp16_round(k / 4.0);
}

int main(int argc, char **argv)
{
    unsigned flood = 0;
    if (argc == 4 && !strcmp(argv[2], "--flood"))
        flood = (unsigned)strtoul(argv[3], NULL, 10);
    else if (argc != 2) {
        fprintf(stderr, "usage: synth_case OUTDIR [--flood N]\n");
        return 2;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "synth_case: %s: %s\n", dir, strerror(errno));
        return 1;
    }

    static uint16_t in[ROUNDS][CORES][2][VL], out[ROUNDS][CORES][VL];
    uint32_t seed = 12345;
    for (int r = 0; r < ROUNDS; r++)
        for (int c = 0; c < CORES; c++)
            for (int i = 0; i < VL; i++) {
                in[r][c][0][i] = operand(&seed);
                in[r][c][1][i] = (i % 9 == 0) ? in[r][c][0][i] : operand(&seed);
                double a = ref_fp16_value(in[r][c][0][i]), b = ref_fp16_value(in[r][c][1][i]);
                out[r][c][i] = ref_fp16_store(ref_e8m15(apply(ops[r % 5], a, b)));
            }
    FILE *f = open_out(dir, "inputs.bin");
    fwrite(in, sizeof in, 1, f);
    fclose(f);
    f = open_out(dir, "expected_output.bin");
    fwrite(out, sizeof out, 1, f);
    fclose(f);

    unsigned payloads = 0, flits = 0;
    for (int r = 0; r < ROUNDS; r++) {
        payload p[CORES][32];
        unsigned n[CORES] = {0, 0};
        for (int c = 0; c < CORES; c++) {
            uint32_t a = IN_BASE + (uint32_t)((r * CORES + c) * 2 * VL * 2), b = a + VL * 2;
            uint32_t o = OUT_BASE + (uint32_t)((r * CORES + c) * VL * 2);
            payload *q = p[c];
            if (r == 0) {
                static const uint32_t kernel[13] = {
                    0xd0000000, VL,         0xc0000000, 0xc8000000, /* VSETI S0, VL; VSETVL; VSETMODE 0 */
                    0xe8000000, 0xe8200000 | WORDS, 0xe0000000,     /* VFILL A0->0, A1->WORDS; VBAR */
                    0xa1400000, 0xa1620000, 0,                      /* VLD v0<-A2, v1<-A3; ALU */
                    0xa98e0000, 0xf0a00000 | 2 * WORDS, 0xf8000000, /* VST v7->A4; VDRAIN A5; VHALT */
                };
                for (unsigned w = 0; w < 13; w++)
                    q[n[c]++] = sn_vc_imem_payload(w, w == 9 ? alu_word(ops[0]) : kernel[w]);
                q[n[c]++] = sn_vc_desc_payload(2, 0, 0);
                q[n[c]++] = sn_vc_desc_payload(2, 1, dim(1, WORDS));
                q[n[c]++] = sn_vc_desc_payload(3, 0, WORDS);
                q[n[c]++] = sn_vc_desc_payload(3, 1, dim(1, WORDS));
                q[n[c]++] = sn_vc_desc_payload(4, 0, 2 * WORDS);
                q[n[c]++] = sn_vc_desc_payload(4, 1, dim(1, WORDS));
                for (unsigned ad = 0; ad <= 5; ad += (ad == 1 ? 4 : 1))
                    q[n[c]++] = sn_vc_desc_payload(ad, 1, dim(32, WORDS)); /* A0, A1, A5: 32-byte DRAM words */
            } else {
                q[n[c]++] = sn_vc_imem_payload(9, alu_word(ops[r % 5]));
            }
            q[n[c]++] = sn_vc_desc_payload(0, 0, a);
            q[n[c]++] = sn_vc_desc_payload(1, 0, b);
            q[n[c]++] = sn_vc_desc_payload(5, 0, o);
            q[n[c]++] = sn_vc_run_payload(0);
        }

        char name[64], num[96];
        snprintf(name, sizeof name, "artifact_%03d.json", r);
        f = open_out(dir, name);
        fprintf(f, "{\"machine\": \"synthetic\", \"meta\": {\"round\": %d, \"of\": %d}, \"flits\": [", r, ROUNDS);
        for (int c = 0; c < CORES; c++)
            for (unsigned i = 0; i < n[c]; i++) {
                decimal(&p[c][i], num);
                fprintf(f, "%s%s", c == 0 && i == 0 ? "" : ", ", num);
            }
        /* kicks: [flood x core 0 whole], core 0 first half, core 1 first half, core 0 rest, core 1 rest */
        unsigned h0 = n[0] / 2, h1 = n[1] / 2, extra = r == 0 ? flood : 0;
        fprintf(f, "], \"steps\": [[\"seed\", 512], ");
        for (unsigned k = 0; k < extra; k++)
            fprintf(f, "[\"kick\", %u, %u, 0, %u], ", core_x[0], core_y[0], n[0]);
        fprintf(f, "[\"kick\", %u, %u, 0, %u], [\"kick\", %u, %u, %u, %u], "
                   "[\"kick\", %u, %u, %u, %u], [\"kick\", %u, %u, %u, %u], [\"await\", %u, %u, %u], "
                   "[\"await\", %u, %u, %u]]}\n",
                core_x[0], core_y[0], h0, core_x[1], core_y[1], n[0], h1, core_x[0], core_y[0], h0, n[0] - h0,
                core_x[1], core_y[1], n[0] + h1, n[1] - h1, core_x[0], core_y[0], n[0] * (extra + 1), core_x[1],
                core_y[1], n[1]);
        fclose(f);
        payloads += n[0] + n[1];
        flits += n[0] * (extra + 1) + n[1];
    }

    f = open_out(dir, "manifest.json");
    fprintf(f, "{\"name\": \"synthetic_vector_%d%s\", \"rounds\": %d, \"total_flits\": %u,\n \"artifacts_in_order\": [",
            ROUNDS, flood ? "_flood" : "", ROUNDS, payloads);
    for (int r = 0; r < ROUNDS; r++)
        fprintf(f, "%s\"artifact_%03d.json\"", r ? ", " : "", r);
    fprintf(f, "],\n \"uploads_before_round0\": [{\"file\": \"inputs.bin\", \"addr\": %u, \"nbytes\": %zu}],\n"
               " \"expected_outputs_after_last_round\": [{\"file\": \"expected_output.bin\", \"addr\": %u, "
               "\"nbytes\": %zu}]}\n",
            IN_BASE, sizeof in, OUT_BASE, sizeof out);
    fclose(f);
    printf("synth_case: %s: %d rounds, %u payloads, %u flits kicked\n", dir, ROUNDS, payloads, flits);
    return 0;
}
