/* The hart does what the card's core does where 0d0260f's Unicorn hart did
 * not (issue 18 "ISA conformance" and item 7): AMO*.W, misaligned accesses,
 * Sv39 fetches, DRAM code; it keeps the jump-target rule that hart already
 * kept, and names the DCACHE busy-poll erratum (core-timing §5.6;
 * KohakuTPU src/kohakuaccel/pe/rv64-sys/core/rv64_l1.v@ab5d30a8). The
 * card_*.S programs of hart_progs/ are pushed through the host window and
 * run against a bus that serves EXIT and DCACHE. Every expected value is
 * computed here from the RISC-V specifications and the fact sheets, from
 * the inputs the programs share with this file (card_values.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"
#include "elf_image.h"
#include "hart.h"
#include "hart_window.h"
#include "sysnode/regs.h"
#include "unit/hart_progs/card_values.h"

#define DRAM_SIZE (4u << 20) /* the programs reach 0x8010_2000 */
#define CYCLE_LIMIT 1000000u

/* Causes (RISC-V privileged spec, mcause; sysnode-facts §1.2) */
#define CAUSE_FETCH_MISALIGNED 0
#define CAUSE_LOAD_MISALIGNED 4
#define CAUSE_STORE_MISALIGNED 6
#define CAUSE_ECALL_S 9
#define CAUSE_FETCH_PAGE_FAULT 12

typedef struct fixture {
    sn_hart *h;
    uint8_t *dram;
} fixture;

static uint64_t bus_read(void *ctx, uint32_t offset)
{
    fixture *f = ctx;
    if (offset == SN_CTRL_DCACHE)
        return sn_hart_dcache_read(f->h);
    sn_hart_request_stop(f->h, "a control read the test bus does not serve");
    return 0;
}

static void bus_write(void *ctx, uint32_t offset, uint64_t value)
{
    fixture *f = ctx;
    if (offset == SN_CTRL_EXIT)
        sn_hart_request_exit(f->h, value);
    else if (offset == SN_CTRL_DCACHE)
        sn_hart_dcache_write(f->h, value);
    else
        sn_hart_request_stop(f->h, "a control write the test bus does not serve");
}

static void bus_advance(void *ctx, uint64_t cycle)
{
    (void)ctx;
    (void)cycle;
}

/* Program `name` through the window, BOOT, run to its exit; the exit code. */
static uint64_t run(fixture *f, const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s.elf", SN_HART_PROGS, name);
    memset(f, 0, sizeof *f);
    f->dram = calloc(1, DRAM_SIZE);
    assert_non_null(f->dram);
    sn_hart_bus bus = {f, bus_read, bus_write, bus_advance, NULL};
    f->h = sn_hart_create(&bus, f->dram, DRAM_SIZE, err, sizeof err);
    if (f->h == NULL)
        fail_msg("%s", err);
    sn_elf_image img;
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    int rc = sn_elf_image_push(&img, win_imem, win_spad, f->h, err, sizeof err);
    sn_elf_image_free(&img);
    if (rc != 0 || sn_hart_boot(f->h, err, sizeof err) != 0)
        fail_msg("%s", err);
    sn_hart_result r = sn_hart_run(f->h, CYCLE_LIMIT);
    if (r.stop != SN_HART_EXITED)
        fail_msg("%s: stop %d at pc 0x%llx (mcause %llu) after %llu cycles: %s", name, (int)r.stop,
                 (unsigned long long)r.pc, (unsigned long long)r.mcause, (unsigned long long)r.cycles, r.message);
    return r.exit_code;
}

static void finish(fixture *f)
{
    sn_hart_destroy(f->h);
    free(f->dram);
}

static uint64_t spad(fixture *f, uint32_t offset)
{
    uint64_t v;
    assert_int_equal(sn_hart_spad_read(f->h, SN_SPAD_BASE + offset, &v, sizeof v), 0);
    return v;
}

/* Trap record n (trap_record.h): {cause, epc, tval}. */
static void assert_trap(fixture *f, unsigned n, uint64_t cause, uint64_t epc, uint64_t tval)
{
    uint64_t got[3] = {spad(f, 32 * n), spad(f, 32 * n + 8), spad(f, 32 * n + 16)};
    if (got[0] != cause || got[1] != epc || got[2] != tval)
        fail_msg("trap %u: cause %llu epc 0x%llx tval 0x%llx, expected cause %llu epc 0x%llx tval 0x%llx", n,
                 (unsigned long long)got[0], (unsigned long long)got[1], (unsigned long long)got[2],
                 (unsigned long long)cause, (unsigned long long)epc, (unsigned long long)tval);
}

/* ---- AMO*.W (RISC-V unprivileged spec, "A": the word operands are the
 * low 32 bits of rs2 and the memory word, compared as 32-bit signed or
 * unsigned values; rd gets the old word sign-extended) ---- */

enum { AMO_MIN, AMO_MAX, AMO_MINU, AMO_MAXU };

static uint32_t amo_w(int op, uint32_t mem, uint64_t rs2)
{
    uint32_t b = (uint32_t)rs2;
    switch (op) {
    case AMO_MIN:
        return (int32_t)mem < (int32_t)b ? mem : b;
    case AMO_MAX:
        return (int32_t)mem > (int32_t)b ? mem : b;
    case AMO_MINU:
        return mem < b ? mem : b;
    default:
        return mem > b ? mem : b;
    }
}

static void test_amo_w_compares_words(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t mem;
        uint64_t rs2;
    } ops[] = {
        [AMO_MIN] = {"amomin.w", AMOMIN_MEM, AMOMIN_RS2},
        [AMO_MAX] = {"amomax.w", AMOMAX_MEM, AMOMAX_RS2},
        [AMO_MINU] = {"amominu.w", AMOMINU_MEM, AMOMINU_RS2},
        [AMO_MAXU] = {"amomaxu.w", AMOMAXU_MEM, AMOMAXU_RS2},
    };
    static const char *const regions[] = {"SPAD", "cached DRAM", "uncached DRAM"};
    fixture f;
    assert_int_equal(run(&f, "card_amo_w"), 0);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) {
            uint32_t at = 0x800 + 16 * (4 * r + k);
            uint64_t rd = spad(&f, at), word = spad(&f, at + 8);
            uint64_t want_rd = (uint64_t)(int64_t)(int32_t)ops[k].mem;
            uint64_t want_word = (uint64_t)AMO_GUARD << 32 | amo_w(k, ops[k].mem, ops[k].rs2);
            if (rd != want_rd || word != want_word)
                fail_msg("%s in %s: rd 0x%llx, doubleword 0x%llx; expected rd 0x%llx, doubleword 0x%llx",
                         ops[k].name, regions[r], (unsigned long long)rd, (unsigned long long)word,
                         (unsigned long long)want_rd, (unsigned long long)want_word);
        }
    finish(&f);
}

/* ---- misaligned loads, stores, AMOs, LR and SC trap in every region (sysnode-facts
 * §1.2; core-timing §9; KohakuTPU
 * src/kohakuaccel/pe/rv64-sys/core/rv64_core.v@e9de8c08); the trap leaves
 * rd and memory alone (privileged spec: a trapped instruction has no
 * effect) ---- */
static void test_misaligned_traps_everywhere(void **state)
{
    (void)state;
    static const uint64_t targets[] = {CARD_SPAD_TARGET, CARD_DRAM_TARGET, CARD_UNC_TARGET};
    static const struct {
        unsigned offset;
        uint64_t cause;
    } block[] = {{4, CAUSE_LOAD_MISALIGNED},  {2, CAUSE_LOAD_MISALIGNED},  {1, CAUSE_LOAD_MISALIGNED},
                 {4, CAUSE_STORE_MISALIGNED}, {2, CAUSE_STORE_MISALIGNED}, {1, CAUSE_STORE_MISALIGNED},
                 {2, CAUSE_STORE_MISALIGNED}, {4, CAUSE_LOAD_MISALIGNED},  {4, CAUSE_STORE_MISALIGNED}};
    const unsigned n = sizeof block / sizeof block[0];
    fixture f;
    uint64_t traps = run(&f, "card_misaligned");
    assert_int_equal(traps, 3 * n);
    for (unsigned r = 0; r < 3; r++) {
        for (unsigned i = 0; i < n; i++)
            assert_trap(&f, n * r + i, block[i].cause, MIS_BLOCK + 4 * i, targets[r] + block[i].offset);
        assert_int_equal(spad(&f, 0x800 + 16 * r), MIS_SENTINEL);
        assert_int_equal(spad(&f, 0x808 + 16 * r), MIS_PATTERN);
    }
    finish(&f);
}

/* ---- a jump or taken branch to a target that is not 4-aligned: cause 0
 * at the jump, mtval the target (privileged spec, IALIGN = 32) ---- */
static void test_jump_target_alignment(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(run(&f, "card_jump_target"), 3);
    assert_trap(&f, 0, CAUSE_FETCH_MISALIGNED, 0x100, 0x106); /* jal +6 */
    assert_trap(&f, 1, CAUSE_FETCH_MISALIGNED, 0x108, 0x1f2); /* jalr */
    assert_trap(&f, 2, CAUSE_FETCH_MISALIGNED, 0x10c, 0x112); /* beq taken +6 */
    assert_int_equal(spad(&f, 0x800), 0x5A5A);                /* the trapped jalr left rd */
    finish(&f);
}

/* ---- Sv39 fetches: the bytes at the PA run, the CSR access and the
 * ecall included; an unmapped page is fault 12 (privileged spec §4.3) ---- */
static void test_sv39_fetch_translated(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(run(&f, "card_sv39_fetch"), 2);
    assert_trap(&f, 0, CAUSE_ECALL_S, SV39_VA + 8, 0); /* the third instruction of the page, by VA */
    assert_int_equal(spad(&f, 0x800), SV39_A0);
    assert_int_equal(spad(&f, 0x808), SV39_SCRATCH);
    assert_trap(&f, 1, CAUSE_FETCH_PAGE_FAULT, SV39_UNMAPPED, SV39_UNMAPPED);
    finish(&f);
}

/* ---- code in DRAM through the I-cache: stale without fence.i, fresh
 * after it (sysnode-facts §1.5, T-FI) ---- */
static void test_dram_code_and_fence_i(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(run(&f, "card_dram_code"), 0);
    assert_int_equal(spad(&f, 0x800), DCODE_V1);   /* fenced, first version */
    assert_int_equal(spad(&f, 0x808), DCODE_V1);   /* rewritten, no fence.i: the stale line */
    assert_int_equal(spad(&f, 0x810), DCODE_V2);   /* after fence.i */
    assert_int_equal(spad(&f, 0x818), DCODE_LONG); /* three lines, more than the I-cache holds */
    finish(&f);
}

/* ---- the DCACHE busy bit: 0 read directly after the flush store (the
 * erratum), 1 with one instruction between (core-timing §5.6,
 * KohakuTPU src/kohakuaccel/pe/rv64-sys/rv64_syscore.v@1a77e97e) ---- */
static void test_l1_busy_poll_erratum(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(run(&f, "card_l1_busy_poll"), 0);
    assert_int_equal(spad(&f, 0x800), 0);
    assert_int_equal(spad(&f, 0x808), 1);
    unsigned errata = sn_hart_errata(f.h);
    if (!(errata >> SN_ERRATUM_L1_BUSY_POLL & 1))
        fail_msg("sn_hart_errata 0x%x does not name L1_BUSY_POLL", errata);
    assert_non_null(sn_hart_erratum_text(SN_ERRATUM_L1_BUSY_POLL));
    finish(&f);
}

/* Each erratum has its text, and there are no others. */
static void test_erratum_texts(void **state)
{
    (void)state;
    for (unsigned k = 0; k < SN_ERRATUM_COUNT; k++) {
        const char *t = sn_hart_erratum_text(k);
        assert_non_null(t);
        assert_true(strlen(t) > 0);
    }
    assert_null(sn_hart_erratum_text(SN_ERRATUM_COUNT));
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_amo_w_compares_words), cmocka_unit_test(test_misaligned_traps_everywhere),
             cmocka_unit_test(test_jump_target_alignment), cmocka_unit_test(test_sv39_fetch_translated),
             cmocka_unit_test(test_dram_code_and_fence_i), cmocka_unit_test(test_l1_busy_poll_erratum),
             cmocka_unit_test(test_erratum_texts))
