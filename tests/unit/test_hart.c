/* Unit tests of sim/hart: the ELF loader's refusals, the host window and
 * BOOT, the L1 model, and the hart running the small programs of
 * hart_progs/ (pushed through the window) against a bus that records every
 * control access with the cycle the hart gave it and serves DCACHE as
 * sim.cpp does. Expected values come from the programs' straight-line
 * layout (an instruction's index is its address / 4), stated next to each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_main.h"
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "card_csr.h"
#include "card_isa.h"
#include "elf_image.h"
#include "hart.h"
#include "hart_window.h"
#include "l1_cache.h"
#include "sysnode/regs.h"

#define DRAM_SIZE 0x10000u
#define LOG_MAX 32
#define STAT_VALUE 0xA5A55A5A01234567ull /* what the bus answers to every read but DCACHE */
#define SIGNAL SN_MBOX_ARG3                /* a store here calls the test's signal hook */

typedef struct ctrl_access {
    bool write;
    uint32_t offset;
    uint64_t value;
    uint64_t cycle; /* the last cycle given to advance before the access */
} ctrl_access;

typedef struct bus_rec bus_rec;
struct bus_rec {
    sn_hart *h;
    uint8_t *dram;
    ctrl_access log[LOG_MAX];
    size_t n;
    uint64_t last_cycle;
    bool went_back;        /* advance was given a smaller cycle than before */
    bool stop_on_read;     /* ctrl_read asks the hart to stop */
    uint64_t stop_at;      /* advance to this cycle or later asks the hart to stop (0: never) */
    void (*signal)(bus_rec *b, uint64_t value); /* on a store to SIGNAL, if set */
    uint64_t snap[4][2];   /* l1_writeback: DRAM words 0x500 and 0x508 at each checkpoint */
    uint64_t meip_at;      /* the external line is high from this mesh cycle on (0: never) */
};

static void record(bus_rec *b, bool write, uint32_t offset, uint64_t value)
{
    assert_true(b->n < LOG_MAX);
    b->log[b->n++] = (ctrl_access){write, offset, value, b->last_cycle};
}

static uint64_t rec_read(void *ctx, uint32_t offset)
{
    bus_rec *b = ctx;
    uint64_t v = offset == SN_CTRL_DCACHE ? sn_hart_dcache_read(b->h) : STAT_VALUE;
    record(b, false, offset, v);
    if (b->stop_on_read)
        sn_hart_request_stop(b->h, "mesh: read failed");
    return v;
}

static void rec_write(void *ctx, uint32_t offset, uint64_t value)
{
    bus_rec *b = ctx;
    record(b, true, offset, value);
    if (offset == SN_CTRL_EXIT)
        sn_hart_request_exit(b->h, value);
    if (offset == SN_CTRL_DCACHE)
        sn_hart_dcache_write(b->h, value);
    if (offset == SIGNAL && b->signal != NULL)
        b->signal(b, value);
}

static void rec_advance(void *ctx, uint64_t cycle)
{
    bus_rec *b = ctx;
    if (cycle < b->last_cycle)
        b->went_back = true;
    b->last_cycle = cycle;
    if (b->stop_at != 0 && cycle >= b->stop_at)
        sn_hart_request_stop(b->h, "mesh: stopped at a cycle");
}

static uint64_t rec_irq_lines(void *ctx)
{
    bus_rec *b = ctx;
    return b->meip_at != 0 && b->last_cycle >= b->meip_at ? 1ull << SN_IRQ_MEI : 0;
}

typedef struct fixture {
    bus_rec bus;
    uint8_t *dram;
    sn_hart *h;
} fixture;

static void prog_path(char *path, size_t n, const char *name)
{
    snprintf(path, n, "%s/%s.elf", SN_HART_PROGS, name);
}

/* The host's protocol: a fresh card, the image's words through the window,
 * then BOOT. */
static void load(sn_hart *h, const char *name)
{
    char path[512], err[256];
    prog_path(path, sizeof path, name);
    sn_elf_image img;
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    sn_hart_clear_memories(h);
    int rc = sn_elf_image_push(&img, win_imem, win_spad, h, err, sizeof err);
    sn_elf_image_free(&img);
    if (rc != 0 || sn_hart_boot(h, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* A hart with DRAM_SIZE bytes of DRAM, not booted. */
static void create(fixture *f)
{
    char err[256];
    memset(f, 0, sizeof *f);
    f->dram = calloc(1, DRAM_SIZE);
    assert_non_null(f->dram);
    sn_hart_bus bus = {&f->bus, rec_read, rec_write, rec_advance, rec_irq_lines};
    f->h = sn_hart_create(&bus, f->dram, DRAM_SIZE, err, sizeof err);
    if (f->h == NULL)
        fail_msg("%s", err);
    f->bus.h = f->h;
    f->bus.dram = f->dram;
}

/* A hart with DRAM_SIZE bytes of DRAM, booted with program `name`. */
static void start(fixture *f, const char *name)
{
    create(f);
    load(f->h, name);
}

static void finish(fixture *f)
{
    sn_hart_destroy(f->h);
    free(f->dram);
}

static void assert_contains(const char *text, const char *needle)
{
    if (strstr(text, needle) == NULL)
        fail_msg("\"%s\" does not contain \"%s\"", text, needle);
}

static uint64_t spad_word(fixture *f, unsigned index)
{
    uint64_t v;
    assert_int_equal(sn_hart_spad_read(f->h, SN_SPAD_BASE + 8ull * index, &v, sizeof v), 0);
    return v;
}

static sn_hart_result run_to_end(fixture *f, const char *name)
{
    start(f, name);
    sn_hart_result r = sn_hart_run(f->h, UINT64_MAX);
    assert_false(f->bus.went_back);
    return r;
}

/* mmio.S: each 64-bit access is one bus access with the full value, made
 * in the access's second E cycle (core-timing §5.2). By the sheet's rules:
 * instruction 0 is in E at cycle 3 (§0), ALU ops take 1 cycle, control
 * accesses 2 (§1); the ld at index 10 is followed by an sd whose bits
 * [24:20] name its rd, a load-use bubble (§2.4). So the accesses fall at
 * cycles 13 (index 9 in E at 12), 15, 18, 21, 24 and 42 (the exit store at
 * index 32, in E at 41): HR_CYCLES = 42 + 4, HR_RETIRED = 33 + the `j` that
 * completes at 43 (§0). */
static void test_control_accesses(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "mmio");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 42);
    assert_int_equal(r.pc, 0x80);
    assert_int_equal(r.instret, 34);
    assert_int_equal(r.cycles, 46);
    assert_int_equal(sn_hart_cycles(f.h), 46);
    const ctrl_access want[] = {
        {true, SN_MBOX_ARG0, 0x1122334455667788ull, 13},
        {false, SN_MBOX_STAT, STAT_VALUE, 15},
        {true, SN_MBOX_ARG1, STAT_VALUE, 18},
        {true, SN_CTRL_CONSOLE, 'H', 21},
        {true, SN_CTRL_CONSOLE, 'i', 24},
        {true, SN_CTRL_EXIT, 42, 42},
    };
    assert_int_equal(f.bus.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < f.bus.n; i++) {
        assert_int_equal(f.bus.log[i].write, want[i].write);
        assert_int_equal(f.bus.log[i].offset, want[i].offset);
        assert_int_equal(f.bus.log[i].value, want[i].value);
        assert_int_equal(f.bus.log[i].cycle, want[i].cycle);
    }
    /* final: running again changes nothing */
    sn_hart_result again = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(again.stop, SN_HART_EXITED);
    assert_int_equal(again.cycles, 46);
    assert_int_equal(f.bus.n, 6);
    finish(&f);
}

/* BOOT again (IMEM kept) and loading again both start afresh: same result,
 * time from 0 again. */
static void test_reload(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    run_to_end(&f, "mmio");
    for (int reload = 0; reload < 2; reload++) {
        if (reload)
            load(f.h, "mmio");
        else
            assert_int_equal(sn_hart_boot(f.h, err, sizeof err), 0);
        f.bus.last_cycle = 0;
        sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
        assert_int_equal(r.stop, SN_HART_EXITED);
        assert_int_equal(r.exit_code, 42);
        assert_int_equal(r.cycles, 46);
        assert_int_equal(f.bus.n, 12 + 6 * reload);
        assert_int_equal(f.bus.log[f.bus.n - 1].cycle, 42);
    }
    finish(&f);
}

/* The bus stops the run from a control read: nothing after that load runs. */
static void test_bus_stops_on_access(void **state)
{
    (void)state;
    fixture f;
    start(&f, "mmio");
    f.bus.stop_on_read = true;
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_SIM_ERROR);
    assert_string_equal(r.message, "mesh: read failed");
    assert_int_equal(r.pc, 0x28); /* the ld */
    assert_int_equal(f.bus.n, 2);
    finish(&f);
}

/* The bus stops the run from advance, and between runs. */
static void test_bus_stops_on_advance(void **state)
{
    (void)state;
    fixture f;
    start(&f, "stop_loop");
    f.bus.stop_at = 500;
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_SIM_ERROR);
    assert_string_equal(r.message, "mesh: stopped at a cycle");
    assert_true(r.cycles >= 500 && r.cycles <= 500 + 64 + 1);
    finish(&f);

    start(&f, "stop_loop");
    sn_hart_request_stop(f.h, "mesh: reset failed");
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_SIM_ERROR);
    assert_string_equal(r.message, "mesh: reset failed");
    assert_int_equal(r.cycles, 0);
    finish(&f);
}

/* counters.S: cycles in its comments (core-timing §11). */
static void test_counter_csrs(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "counters");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(spad_word(&f, 0), 6);     /* rdcycle at index 2, in E at 5 */
    assert_int_equal(spad_word(&f, 1), 8);     /* back to back: +2 */
    assert_int_equal(spad_word(&f, 2), 6);     /* rdinstret at index 6 */
    assert_int_equal(spad_word(&f, 3), 17);    /* after 10 nops */
    assert_int_equal(spad_word(&f, 4), 32);    /* rdcycle at index 20, in E at 31 */
    assert_int_equal(spad_word(&f, 5), 37);    /* a control load (2) and a nop (1) later */
    assert_int_equal(spad_word(&f, 6), 43);    /* rdtime at index 26 */
    assert_int_equal(spad_word(&f, 7), 45);    /* mcycle */
    assert_int_equal(spad_word(&f, 8), 28);    /* minstret at index 28 */
    assert_int_equal(spad_word(&f, 9), 29);    /* instret */
    assert_int_equal(spad_word(&f, 10), 1001); /* csrw mcycle, 1000, read next */
    assert_int_equal(spad_word(&f, 11), 6);    /* csrwi minstret, 5, read next */
    /* the writes do not move HR_CYCLES or HR_RETIRED: the exit store (index
     * 42) leaves E at 73; 43 instructions and the `j` after it */
    assert_int_equal(r.instret, 44);
    assert_int_equal(r.cycles, 77);
    finish(&f);
}

/* A trap in the first E cycle of index 1 (in E at cycle 4, core-timing §9):
 * the halt latches its cycle + 4, as HR_CYCLES does an exit store's. */
static void expect_halt(const char *name, unsigned cause)
{
    fixture f;
    sn_hart_result r = run_to_end(&f, name);
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, cause);
    assert_int_equal(r.pc, 4);
    assert_int_equal(r.instret, 1); /* the lui; the faulting instruction does not retire */
    assert_int_equal(r.cycles, 8);
    finish(&f);
}

static void test_ecall_halts(void **state)
{
    (void)state;
    expect_halt("stop_ecall", 1);
}

static void test_ebreak_halts(void **state)
{
    (void)state;
    expect_halt("stop_ebreak", 2);
}

static void test_illegal_halts(void **state)
{
    (void)state;
    expect_halt("stop_illegal", 3);
}

/* traps.S: records {mcause, mepc, mtval, mstatus} per trap. */
static void test_trap_handler(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "traps");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 4);
    const uint64_t want[4][3] = {
        {11, 0x40, 0},
        {3, 0x44, 0},
        {2, 0x48, 0xFFFFFFFFu},
        {2, 0x4C, 0xC0001073u},
    };
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(spad_word(&f, 4 * i), want[i][0]);
        assert_int_equal(spad_word(&f, 4 * i + 1), want[i][1]);
        assert_int_equal(spad_word(&f, 4 * i + 2), want[i][2]);
        assert_int_equal(spad_word(&f, 4 * i + 3) & 0x1888, 0x1800); /* MPP = M, MPIE = MIE = 0 */
    }
    finish(&f);
}

static sn_hart_result expect_sim_error(fixture *f, const char *name, uint64_t pc)
{
    sn_hart_result r = run_to_end(f, name);
    assert_int_equal(r.stop, SN_HART_SIM_ERROR);
    assert_int_equal(r.pc, pc);
    return r;
}

static void test_imem_read_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_imem_read", 4);
    assert_contains(r.message, "read at 0x10 ");
    assert_contains(r.message, "pc 0x4");
    assert_contains(r.message, "IMEM is fetch-only");
    finish(&f);
}

static void test_imem_write_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_imem_write", 4);
    assert_contains(r.message, "write at 0x20 ");
    assert_contains(r.message, "IMEM is fetch-only");
    finish(&f);
}

static void test_unmapped_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_unmapped", 4);
    assert_contains(r.message, "read at 0x1fff0 (pc 0x4)");
    assert_contains(r.message, "outside the memory map");
    finish(&f);
}

/* wfi is a 1-cycle no-op on the card (core-timing §2.3), with no interrupt
 * enabled too: the lui (cycle 3), wfi (4), li (5), and the exit store
 * leaving E at 7; the erratum is named. */
static void test_wfi_does_not_wait(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "stop_wfi");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0x77);
    assert_int_equal(r.cycles, 11);
    assert_int_equal(sn_hart_errata(f.h), 1u << SN_ERRATUM_WFI_NO_WAIT);
    assert_non_null(strstr(sn_hart_erratum_text(SN_ERRATUM_WFI_NO_WAIT), "wfi"));
    assert_null(sn_hart_erratum_text(SN_ERRATUM_COUNT));
    finish(&f);
}

/* A 32-bit store reaches the bus never: it stops at the next access (the exit store). */
static void test_ctrl_word_store_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_ctrl_sw", 4);
    assert_contains(r.message, "4-byte write at control offset 0x48");
    assert_int_equal(f.bus.n, 0);
    finish(&f);
}

/* A 32-bit load stops the run before the bus sees it. */
static void test_ctrl_word_load_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_ctrl_lw", 4);
    assert_contains(r.message, "4-byte read at control offset 0x70");
    assert_int_equal(f.bus.n, 0);
    finish(&f);
}

/* An sd at control offset 0x4c is misaligned: a store-misaligned trap (6)
 * in the cycle its one access completes (in E at 4, a 2-cycle control
 * access: 5, core-timing §9), which halts with mtvec = 0; no control access
 * reaches the bus. */
static void test_ctrl_misaligned_halts(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "stop_ctrl_misaligned");
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, 3);
    assert_int_equal(r.mcause, 6);
    assert_int_equal(r.pc, 4);
    assert_int_equal(r.instret, 1);
    assert_int_equal(r.cycles, 9);
    assert_int_equal(f.bus.n, 0);
    assert_string_equal(r.message, "mcause 6 (store/AMO address misaligned), mtval 0x2004c");
    finish(&f);
}

/* Cached DRAM past the buffer is named as such, with the buffer's size. */
static void test_dram_past_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_dram_past", 0x10);
    assert_string_equal(r.message,
                        "8-byte data read at 0x80010000 (pc 0x10): not in the simulated DRAM (0x10000 bytes at 0x80000000)");
    finish(&f);
}

/* ... and so is the DRAM region below the buffer (pa[39:28] != 0 under
 * SN_DRAM_CPU_BASE), and a fetch there under Sv39, naming VA and PA. */
static void test_dram_below_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_dram_below", 0x8);
    assert_string_equal(r.message,
                        "8-byte data read at 0x10000000 (pc 0x8): not in the simulated DRAM (0x10000 bytes at 0x80000000)");
    finish(&f);
}

static void test_sv39_fetch_outside_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "sv39_fetch_outside", 0x5000);
    assert_string_equal(r.message, "instruction fetch at 0x5000 (Sv39: physical 0x80010000): not in the simulated DRAM "
                                   "(0x10000 bytes at 0x80000000)");
    finish(&f);
}

/* The Sv39 erratum's reused address is not aligned for the store that
 * reuses it: the run stops naming it instead of writing 7 bytes past SPAD. */
static void test_sv39_stale_misaligned_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "sv39_stale_misaligned", 0x84);
    assert_contains(r.message, "8-byte data write at 0x17fff (pc 0x84): not 8-aligned");
    assert_contains(r.message, "Sv39 erratum");
    assert_int_equal(spad_word(&f, 0x7ff8 / 8), 0xFF00000000000000ull);
    finish(&f);
}

static void test_ctrl_outside_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_ctrl_outside", 4);
    assert_contains(r.message, "read at 0x20400 (pc 0x4)");
    assert_contains(r.message, "outside the memory map");
    finish(&f);
}

/* A jump to cached DRAM fetches there through the I-cache (core-timing
 * §4.2): zeroed DRAM is an illegal instruction at 0x8000_0000. */
static void test_dram_fetch_executes(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "stop_dram_fetch");
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, 3);
    assert_int_equal(r.mcause, 2);
    assert_int_equal(r.pc, SN_DRAM_CPU_BASE);
    finish(&f);
}

static void test_misaligned_jump_halts(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "stop_misaligned_jump");
    /* no C: a jump to 0xe is an instruction-address-misaligned exception at the jr (8), not a fetch */
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, 3);
    assert_int_equal(r.mcause, 0);
    assert_int_equal(r.pc, 8);
    finish(&f);
}

/* stop_loop: `j .` at 4: the limit is met exactly, and a second run
 * resumes there. The j mispredicts (5 cycles, in E at 4, 9, ... 1024) until
 * its training at 1024 lands past the predictor's start-up clear, then is
 * predicted (3 cycles from 1029, core-timing §3.3, §3.5): by cycle 2500,
 * 205 + 491 js and the lui have retired. */
static void test_cycle_limit(void **state)
{
    (void)state;
    fixture f;
    start(&f, "stop_loop");
    sn_hart_result r = sn_hart_run(f.h, 1000);
    assert_int_equal(r.stop, SN_HART_CYCLE_LIMIT);
    assert_int_equal(r.cycles, 1000);
    assert_int_equal(r.pc, 4);
    assert_true(f.bus.last_cycle + 64 >= 1000); /* the mesh was kept within a quantum */
    r = sn_hart_run(f.h, 2500);
    assert_int_equal(r.stop, SN_HART_CYCLE_LIMIT);
    assert_int_equal(r.cycles, 2500);
    assert_int_equal(r.instret, 697);
    assert_false(f.bus.went_back);
    finish(&f);
}

/* dram.S: the word preset at offset 0x100 is read through the alias, +1
 * stored through the base at 0x208 (in DRAM after its flush), a byte
 * through the alias at 0x300. */
static void test_dram_and_alias(void **state)
{
    (void)state;
    fixture f;
    start(&f, "dram");
    const uint64_t preset = 0x0123456789ABCDEFull;
    memcpy(f.dram + 0x100, &preset, 8);
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, preset);
    uint64_t v;
    memcpy(&v, f.dram + 0x208, 8);
    assert_int_equal(v, preset + 1);
    assert_int_equal(f.dram[0x300], 0x5A);
    finish(&f);
}

/* dram.S's image: text at 0, one SPAD segment of 8 file bytes and 64 in
 * memory, zero past the file bytes. */
static void test_image_contents(void **state)
{
    (void)state;
    char path[512], err[256];
    sn_elf_image img;
    prog_path(path, sizeof path, "dram");
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(img.entry, 0);
    assert_int_equal(img.segment_count, 2);
    assert_int_equal(img.segments[0].addr, 0);
    assert_int_equal(img.segments[1].addr, SN_SPAD_BASE);
    assert_int_equal(img.segments[1].memsz, 64);
    uint64_t first;
    memcpy(&first, img.segments[1].bytes, 8);
    assert_int_equal(first, 0x1122334455667788ull);
    for (unsigned i = 8; i < 64; i++)
        assert_int_equal(img.segments[1].bytes[i], 0);
    sn_elf_image_free(&img);
}

static void expect_refused(const char *name, const char *needle1, const char *needle2)
{
    char path[512], err[256];
    sn_elf_image img;
    prog_path(path, sizeof path, name);
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    assert_contains(err, needle1);
    assert_contains(err, needle2);
    assert_int_equal(img.segment_count, 0);
}

/* Trap records of trap_record.h: {mcause, mepc, mtval} of trap i. */
static void expect_traps(fixture *f, const uint64_t (*want)[3], unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(spad_word(f, 4 * i), want[i][0]);
        assert_int_equal(spad_word(f, 4 * i + 1), want[i][1]);
        assert_int_equal(spad_word(f, 4 * i + 2), want[i][2]);
    }
}

/* The raw bytes of hart_progs/<name>.bin into buf (at most size); returns
 * the byte count, a non-zero multiple of 4. */
static size_t read_bin(const char *name, uint8_t *buf, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.bin", SN_HART_PROGS, name);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    size_t n = fread(buf, 1, size, in);
    fclose(in);
    assert_true(n > 0 && n % 4 == 0);
    return n;
}

static uint32_t word_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The decoder against GAS: every word of isa_legal.S (each instruction form
 * of the card) is accepted, every word of isa_illegal.S is refused. */
static void test_isa_decode(void **state)
{
    (void)state;
    static uint8_t buf[SN_IMEM_SIZE];
    size_t n = read_bin("isa_legal", buf, sizeof buf);
    for (size_t a = 0; a < n; a += 4)
        if (sn_card_insn_class(word_at(buf + a)) == SN_INSN_ILLEGAL)
            fail_msg("isa_legal word 0x%08x at 0x%zx refused", word_at(buf + a), a);
    n = read_bin("isa_illegal", buf, sizeof buf);
    for (size_t a = 0; a < n; a += 4)
        if (sn_card_insn_class(word_at(buf + a)) != SN_INSN_ILLEGAL)
            fail_msg("isa_illegal word 0x%08x at 0x%zx accepted", word_at(buf + a), a);
}

/* isa_rule.S, pushed raw through the window (the loader refuses its
 * words): every word the card lacks traps with cause 2 at its address,
 * inside a block (0x44) or starting one. Addresses in its comments. */
static void test_isa_rule(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    create(&f);
    static uint8_t buf[SN_IMEM_SIZE];
    size_t n = read_bin("isa_rule", buf, sizeof buf);
    assert_true(n > 0x6c);
    for (size_t a = 0; a < n; a += 4)
        assert_int_equal(sn_hart_imem_write(f.h, (uint32_t)a, word_at(buf + a)), 0);
    assert_int_equal(sn_hart_boot(f.h, err, sizeof err), 0);
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    const uint64_t want[][3] = {
        {2, 0x44, 0x00010001}, {2, 0x48, 0x00007053}, {2, 0x50, 0x02000057}, {2, 0x54, 0x3a0025f3},
        {2, 0x58, 0x306025f3}, {2, 0x5c, 0xc03025f3}, {2, 0x60, 0xb03025f3}, {2, 0x64, 0x00200073},
        {2, 0x68, 0x0000000b},
    };
    assert_int_equal(r.exit_code, sizeof want / sizeof want[0]);
    expect_traps(&f, want, sizeof want / sizeof want[0]);
    finish(&f);
}

/* A host IMEM write between runs is seen at once: the loop word at 4 is
 * replaced by ecall while the hart is stopped at the cycle limit. */
static void test_imem_write_between_runs(void **state)
{
    (void)state;
    fixture f;
    start(&f, "stop_loop");
    sn_hart_result r = sn_hart_run(f.h, 100);
    assert_int_equal(r.stop, SN_HART_CYCLE_LIMIT);
    assert_int_equal(sn_hart_imem_write(f.h, 4, 0x00000073), 0);
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, 1);
    assert_int_equal(r.mcause, 11);
    assert_int_equal(r.pc, 4);
    finish(&f);
}

/* csr_file.S: the values in its comments, from sysnode-facts §1.2 (misa
 * A I M S U; mtvec direct; no FS/XS/SD; interrupt bits 1,3,5,7,9,11;
 * medeleg codes 0-15; mtimecmp at 0x7C0; id registers 0; satp Sv39 with a
 * 28-bit PPN and no ASID). */
static void test_csr_file(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "csr_file");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0);
    const uint64_t want[] = {
        0x8000000000141101ull, 0x8000000000141101ull, 0x10000, 0x1E19AA, 0xAAA, 0xFFFF, 0xAAA, 0x222, 0x222,
        0x123456789ull,        0,                     0,       0x800000000FFFFFFFull, 0xC0122, 0xC0122,
    };
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_int_equal(spad_word(&f, i), want[i]);
    finish(&f);
}

/* priv.S: U's ecall to S (delegated, SPP = U), then ebreak, an illegal
 * word and an M CSR to M with MPP = U. */
static void test_privilege_traps(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "priv");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 4);
    const uint64_t want[][3] = {{8, 0x80, 0}, {3, 0x84, 0}, {2, 0x88, 0xffffffff}, {2, 0x8c, 0x30002573}};
    expect_traps(&f, want, 4);
    assert_int_equal(spad_word(&f, 3) & SN_MSTATUS_SPP, 0);         /* from U */
    for (unsigned i = 1; i < 3; i++)
        assert_int_equal(spad_word(&f, 4 * i + 3) & SN_MSTATUS_MPP, 0); /* MPP = U */
    /* the trap on the CSR instruction is entered twice (core-timing §9): the
     * second entry records MPP = M, and the handler's mret returns to M */
    assert_int_equal(spad_word(&f, 15) & SN_MSTATUS_MPP, SN_MSTATUS_MPP);
    assert_int_equal(sn_hart_errata(f.h), 1u << SN_ERRATUM_CSR_TRAP_TWICE);
    finish(&f);
}

/* mpp_warl.S: csrs and csrw of the reserved MPP value 2 keep the previous
 * level (S), and mret lands in S: its ecall is cause 9, never 10. */
static void test_mpp_warl(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "mpp_warl");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, (1u << 8) | 9);
    finish(&f);
}

/* timer_not_delegated.S: mideleg reads 0xAAA after writing all ones, yet
 * the timer interrupt taken in U enters M (mcause 2^63 + 7), never S; the
 * hart took it into S and again at every block, forever, with no cycle
 * passing (the cycle cap was never reached). */
static void test_timer_not_delegated(void **state)
{
    (void)state;
    fixture f;
    start(&f, "timer_not_delegated");
    sn_hart_result r = sn_hart_run(f.h, 100000);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0x8000000000000007ull | 0xAAAull << 32);
    finish(&f);
}

/* amo.S: refused on the control region (no control access is made but
 * the exit store), trapped when misaligned; an amoadd on SPAD works. */
static void test_amo_rules(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "amo");
    assert_int_equal(r.stop, SN_HART_EXITED);
    const uint64_t c = SN_CTRL_BASE, sp = SN_SPAD_BASE;
    const uint64_t want[][3] = {
        {7, 0x40, c + SN_CTRL_EXIT}, {7, 0x44, c + SN_CTRL_CONSOLE}, {7, 0x48, c + SN_MBOX_HEAD},
        {5, 0x4c, c + SN_MBOX_STAT}, {7, 0x50, c + SN_MBOX_ARG0},    {6, 0x54, sp + 2},
        {4, 0x58, sp + 2},           {6, 0x5c, sp + 4},
    };
    assert_int_equal(r.exit_code, 8);
    expect_traps(&f, want, 8);
    assert_int_equal(f.bus.n, 1);
    assert_int_equal(f.bus.log[0].offset, SN_CTRL_EXIT);
    assert_int_equal(spad_word(&f, 0x400 / 8), 42);
    assert_int_equal(spad_word(&f, 0x408 / 8), 40);
    finish(&f);
}

/* timer.S: wfi wakes at mtimecmp (200; the next instruction reads 201),
 * the interrupt is taken at the first block boundary at cycle 1000 with
 * mcause 2^63 + 7 and mepc the interrupted loop. */
/* timer.S (cycles by core-timing §1, §9, §3.3): the wfi at index 8 (in E
 * at 14) does not wait, the rdcycle after it reads 16; the `j spin` (index
 * 14, in E at 24, a 5-cycle mispredict each time before cycle 1024) is the
 * first instruction in E at or after 1001, when time 1000 >= mtimecmp
 * reaches E (the compare is registered): taken at 1004, the handler's
 * rdcycle in E at 1011 reads 1012. */
static void test_timer_interrupt(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "timer");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(spad_word(&f, 0), 16);
    assert_int_equal(spad_word(&f, 1), (1ull << 63) | 7);
    assert_int_equal(spad_word(&f, 2), 0x38);
    assert_int_equal(spad_word(&f, 3), 1012);
    finish(&f);
}

/* sv39.S: U's store to VA 0x10400 lands at PA 0x11400, not 0x10400; the
 * unmapped load is a load page fault at its instruction (0x114), mtval
 * the VA. */
static void test_sv39(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "sv39");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 1);
    assert_int_equal(spad_word(&f, 0x1400 / 8), 42);
    assert_int_equal(spad_word(&f, 0x400 / 8), 0);
    assert_int_equal(spad_word(&f, 0x800 / 8), 13);
    assert_int_equal(spad_word(&f, 0x808 / 8), 0x114);
    assert_int_equal(spad_word(&f, 0x810 / 8), SN_CTRL_BASE);
    finish(&f);
}

/* wfi_line.S: wfi with only MEIE enabled does not wait (the rdcycle after
 * it, index 8 in E at 13, reads 14); with MIE set, the line is taken as
 * interrupt 11 once it is high. A run to a cycle limit while the line is
 * low resumes, and the line then rising is taken. */
static void test_wfi_woken_by_line(void **state)
{
    (void)state;
    fixture f;
    create(&f);
    f.bus.meip_at = 5000;
    load(f.h, "wfi_line");
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(spad_word(&f, 0), 14);
    assert_int_equal(spad_word(&f, 1), (1ull << 63) | 11);
    assert_int_equal(spad_word(&f, 2), 0x20);
    assert_true(r.cycles > 5000);
    finish(&f);

    create(&f);
    load(f.h, "wfi_line");
    r = sn_hart_run(f.h, 3000);
    assert_int_equal(r.stop, SN_HART_CYCLE_LIMIT);
    assert_int_equal(r.cycles, 3000);
    f.bus.meip_at = 4000;
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(spad_word(&f, 1), (1ull << 63) | 11);
    assert_true(r.cycles > 4000);
    finish(&f);
}

/* A debugger on traps.S: a breakpoint on the ebreak at 0x44 stops before
 * it (the ecall at 0x40 has trapped once: one record); a single step
 * executes the ebreak and stops at the handler's first instruction; a run
 * then ends as without the debugger, with the same cycles. */
static void test_breakpoint_and_step(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result plain = run_to_end(&f, "traps");
    finish(&f);
    start(&f, "traps");
    assert_int_equal(sn_hart_breakpoint(f.h, 0x44, 1), 0);
    assert_int_equal(sn_hart_breakpoint(f.h, 0x46, 1), -1);
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_BREAK);
    assert_int_equal(r.pc, 0x44);
    assert_int_equal(sn_hart_register(f.h, 32), 0x44);
    assert_int_equal(sn_hart_register(f.h, 9), 1); /* s1: one trap so far */
    uint64_t mcause;
    assert_int_equal(sn_hart_debug_read(f.h, SN_SPAD_BASE, &mcause, sizeof mcause), 0);
    assert_int_equal(mcause, 11);
    assert_int_equal(sn_hart_debug_read(f.h, SN_CTRL_BASE, &mcause, sizeof mcause), -1);
    sn_hart_single_step(f.h);
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_BREAK);
    assert_int_equal(r.pc, 0x5c); /* `m_trap_record` in traps.elf's symbol table, not 0x48 */
    assert_int_equal(sn_hart_register(f.h, 32), 0x5c);
    assert_int_equal(sn_hart_breakpoint(f.h, 0x44, 0), 0);
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 4);
    assert_int_equal(r.cycles, plain.cycles);
    assert_int_equal(r.instret, plain.instret);
    finish(&f);
}

/* ctrl_misaligned.S: a misaligned ld and sd on the control region trap to
 * the handler with 4 and 6; the bus sees only the exit store. */
static void test_ctrl_misaligned_traps(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "ctrl_misaligned");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 2);
    const uint64_t want[][3] = {{4, 0x40, SN_CTRL_BASE + SN_MBOX_STAT + 4}, {6, 0x44, SN_CTRL_BASE + SN_MBOX_ARG1 + 2}};
    expect_traps(&f, want, 2);
    assert_int_equal(f.bus.n, 1);
    assert_int_equal(f.bus.log[0].offset, SN_CTRL_EXIT);
    finish(&f);
}

static void test_refuses_rvc(void **state)
{
    (void)state;
    expect_refused("refuse_rvc", "EF_RISCV_RVC", "no C extension");
}

static void test_refuses_float_abi(void **state)
{
    (void)state;
    expect_refused("refuse_fp_abi", "floating-point ABI", "no F/D");
}

static void test_refuses_fp_instruction(void **state)
{
    (void)state;
    expect_refused("refuse_fp_insn", "floating-point instruction 0x0020f053 at 0x4", "section .text");
}

static void test_refuses_compressed_word(void **state)
{
    (void)state;
    expect_refused("refuse_c_word", "compressed (16-bit) instruction 0x4501 at 0x4", "section .text");
}

static void test_refuses_rodata_in_imem(void **state)
{
    (void)state;
    expect_refused("refuse_rodata", "section .rodata", "loadable data placed in IMEM");
}

static void test_refuses_dram_code(void **state)
{
    (void)state;
    expect_refused("refuse_dram", "section .text [0x80000000,", "the host window loads only those");
}

/* A copy of program `name` with its program header `index` changed by
 * patch, written to a temporary file whose path goes to path. */
static void patched_copy(const char *name, unsigned index, void (*patch)(Elf64_Phdr *), char *path, size_t n)
{
    char src[512];
    prog_path(src, sizeof src, name);
    FILE *in = fopen(src, "rb");
    assert_non_null(in);
    static unsigned char bytes[1 << 16];
    size_t len = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    assert_true(len > sizeof(Elf64_Ehdr) && len < sizeof bytes);
    Elf64_Ehdr eh;
    memcpy(&eh, bytes, sizeof eh);
    assert_true(index < eh.e_phnum);
    Elf64_Phdr ph;
    memcpy(&ph, bytes + eh.e_phoff + index * sizeof ph, sizeof ph);
    patch(&ph);
    memcpy(bytes + eh.e_phoff + index * sizeof ph, &ph, sizeof ph);
    snprintf(path, n, "/tmp/test_hart_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    close(fd);
}

/* dram.elf's program headers: 0 RISCV_ATTRIBUTES, 1 code at 0, 2 data at
 * SPAD (8 file bytes, 64 in memory). The code segment moved onto the data: */
static void move_to_spad(Elf64_Phdr *ph)
{
    ph->p_vaddr = ph->p_paddr = SN_SPAD_BASE + 0x10;
}

static void grow_filesz(Elf64_Phdr *ph)
{
    ph->p_filesz = ph->p_memsz + 1;
}

static void empty_memsz(Elf64_Phdr *ph)
{
    ph->p_memsz = 0;
}

static void test_refuses_bad_segments(void **state)
{
    (void)state;
    char path[64], err[256];
    sn_elf_image img;
    patched_copy("dram", 1, move_to_spad, path, sizeof path);
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    assert_contains(err, "segments [0x10000, 0x10040) and [0x10010,");
    assert_contains(err, "overlap");
    patched_copy("dram", 2, grow_filesz, path, sizeof path);
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    assert_contains(err, "PT_LOAD segment 2 at 0x10000: filesz 0x41 > memsz 0x40");
    patched_copy("dram", 1, empty_memsz, path, sizeof path); /* the code's bytes, with no memory for them */
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    assert_contains(err, "PT_LOAD segment 1 at 0x0: filesz 0x");
    assert_contains(err, " > memsz 0x0");
    /* an empty name is said as such, not as "cannot open : ..." */
    assert_int_equal(sn_elf_image_load("", &img, err, sizeof err), -1);
    assert_string_equal(err, "the image file's name is empty");
}

/* An ELF header whose table entry sizes are not ELF64's is refused: the
 * tables would be read with other sizes than they are checked with. */
static void test_refuses_entry_sizes(void **state)
{
    (void)state;
    char src[512], path[64], err[256];
    sn_elf_image img;
    prog_path(src, sizeof src, "mmio");
    FILE *in = fopen(src, "rb");
    assert_non_null(in);
    static unsigned char bytes[1 << 16];
    size_t len = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    const struct {
        size_t at;
        const char *want;
    } cases[] = {{offsetof(Elf64_Ehdr, e_phentsize), "e_phentsize 8 is not 56"},
                 {offsetof(Elf64_Ehdr, e_shentsize), "e_shentsize 8 is not 64"}};
    for (unsigned k = 0; k < 2; k++) {
        static unsigned char copy[1 << 16];
        memcpy(copy, bytes, len);
        copy[cases[k].at] = 8;
        copy[cases[k].at + 1] = 0;
        snprintf(path, sizeof path, "/tmp/test_hart_XXXXXX");
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, copy, len), (ssize_t)len);
        close(fd);
        assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
        unlink(path);
        assert_contains(err, cases[k].want);
    }
}

/* A copy of program `name` cut to its first `keep` bytes (keep < its size),
 * in a temporary file whose path goes to path; the full size to *size. */
static void truncated_copy(const char *name, size_t keep, char *path, size_t n, size_t *size)
{
    char src[512];
    prog_path(src, sizeof src, name);
    FILE *in = fopen(src, "rb");
    assert_non_null(in);
    static unsigned char bytes[1 << 16];
    *size = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    assert_true(keep < *size);
    snprintf(path, n, "/tmp/test_hart_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, keep), (ssize_t)keep);
    close(fd);
}

/* A truncated file is named as truncated, with the range that is cut:
 * inside the ELF header, the section header table (at the end of the file,
 * as ld writes it), and a loaded segment's bytes. */
static void test_refuses_truncated(void **state)
{
    (void)state;
    char path[64], err[256], want[128];
    size_t size;
    sn_elf_image img;
    truncated_copy("mmio", 40, path, sizeof path, &size);
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    assert_contains(err, "truncated: the ELF header [0x0, 0x40) ends past the end of the file (0x28 bytes)");

    truncated_copy("mmio", 0, path, sizeof path, &size); /* size only */
    unlink(path);
    truncated_copy("mmio", size - 8, path, sizeof path, &size);
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    snprintf(want, sizeof want, "ends past the end of the file (0x%zx bytes)", size - 8);
    assert_contains(err, "truncated: the section header table");
    assert_contains(err, want);

    truncated_copy("mmio", 0x1010, path, sizeof path, &size); /* mmio's code starts at file offset 0x1000 */
    assert_int_equal(sn_elf_image_load(path, &img, err, sizeof err), -1);
    unlink(path);
    assert_contains(err, "truncated: ");
    assert_int_equal(img.segment_count, 0);
}

/* A path that is not a regular file is refused by name before anything
 * reads it: a FIFO without a writer must not block the load. */
static void test_refuses_not_a_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_hart_XXXXXX", fifo[64], err[256];
    sn_elf_image img;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(sn_elf_image_load(dir, &img, err, sizeof err), -1);
    assert_contains(err, "is a directory, not a regular file");
    snprintf(fifo, sizeof fifo, "%s/image.elf", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(sn_elf_image_load(fifo, &img, err, sizeof err), -1);
    assert_contains(err, "image.elf is a device, FIFO or socket, not a regular file");
    assert_int_equal(img.segment_count, 0);
    unlink(fifo);
    rmdir(dir);
}

/* 16-bit code in an executable section of type INIT_ARRAY in IMEM: the
 * loaded bytes are checked, whatever section holds them. */
static void test_refuses_c_outside_text(void **state)
{
    (void)state;
    expect_refused("refuse_c_init_array", "compressed (16-bit) instruction 0x4501 at 0x200", ".init_array");
}

static void test_refuses_entry_not_zero(void **state)
{
    (void)state;
    expect_refused("refuse_entry", "entry point 0x100", "reset PC 0");
}

/* ---- host window, push and BOOT ---- */

static void test_window_writes(void **state)
{
    (void)state;
    fixture f;
    create(&f);
    assert_int_equal(sn_hart_imem_write(f.h, 2, 1), -1);
    assert_int_equal(sn_hart_imem_write(f.h, 0x8000, 1), -1);
    assert_int_equal(sn_hart_imem_write(f.h, 0x7FFC, 1), 0);
    assert_int_equal(sn_hart_spad_write(f.h, 4, 1, 0xFF), -1);
    assert_int_equal(sn_hart_spad_write(f.h, 0x8000, 1, 0xFF), -1);
    assert_int_equal(sn_hart_spad_write(f.h, 0x7FF8, ~0ull, 0xFF), 0);
    assert_int_equal(spad_word(&f, 0xFFF), ~0ull);
    /* strobes: bytes 0 and 7 only */
    assert_int_equal(sn_hart_spad_write(f.h, 0, ~0ull, 0xFF), 0);
    assert_int_equal(sn_hart_spad_write(f.h, 0, 0x1122334455667788ull, 0x81), 0);
    assert_int_equal(spad_word(&f, 0), 0x11FFFFFFFFFFFF88ull);
    sn_hart_clear_memories(f.h);
    assert_int_equal(spad_word(&f, 0), 0);
    assert_int_equal(spad_word(&f, 0xFFF), 0);
    finish(&f);
}

#define PUSH_MAX 64

typedef struct push_rec {
    unsigned n_imem, n_spad;
    uint32_t imem_addr[PUSH_MAX], imem_word[PUSH_MAX];
    uint32_t spad_off[PUSH_MAX];
    uint64_t spad_value[PUSH_MAX];
    uint8_t spad_strobes[PUSH_MAX];
    bool refuse_spad;
} push_rec;

static int rec_imem(void *ctx, uint32_t addr, uint32_t word)
{
    push_rec *p = ctx;
    assert_true(p->n_imem < PUSH_MAX);
    p->imem_addr[p->n_imem] = addr;
    p->imem_word[p->n_imem++] = word;
    return 0;
}

static int rec_spad(void *ctx, uint32_t off, uint64_t value, uint8_t strobes)
{
    push_rec *p = ctx;
    if (p->refuse_spad)
        return -1;
    assert_true(p->n_spad < PUSH_MAX);
    p->spad_off[p->n_spad] = off;
    p->spad_value[p->n_spad] = value;
    p->spad_strobes[p->n_spad++] = strobes;
    return 0;
}

/* Whole words to IMEM (the last one zero-padded), strobed words to SPAD
 * (only the segment's bytes), and the refusals. */
static void test_push(void **state)
{
    (void)state;
    uint8_t code[6] = {0x13, 0, 0, 0, 0xAA, 0xBB};
    uint8_t data[7] = {1, 2, 3, 4, 5, 6, 7};
    sn_elf_segment segs[2] = {{0, sizeof code, code}, {SN_SPAD_BASE + 3, sizeof data, data}};
    sn_elf_image img = {0, segs, 2};
    char err[256];
    push_rec p = {0};
    assert_int_equal(sn_elf_image_push(&img, rec_imem, rec_spad, &p, err, sizeof err), 0);
    assert_int_equal(p.n_imem, 2);
    assert_int_equal(p.imem_addr[0], 0);
    assert_int_equal(p.imem_word[0], 0x13);
    assert_int_equal(p.imem_addr[1], 4);
    assert_int_equal(p.imem_word[1], 0xBBAA);
    assert_int_equal(p.n_spad, 2);
    assert_int_equal(p.spad_off[0], 0);
    assert_int_equal(p.spad_value[0], 0x0504030201000000ull);
    assert_int_equal(p.spad_strobes[0], 0xF8);
    assert_int_equal(p.spad_off[1], 8);
    assert_int_equal(p.spad_value[1], 0x0706);
    assert_int_equal(p.spad_strobes[1], 0x03);

    /* into a hart: the bytes around the segment keep their values */
    fixture f;
    create(&f);
    sn_hart_spad_write(f.h, 0, ~0ull, 0xFF);
    sn_hart_spad_write(f.h, 8, ~0ull, 0xFF);
    assert_int_equal(sn_elf_image_push(&img, win_imem, win_spad, f.h, err, sizeof err), 0);
    assert_int_equal(spad_word(&f, 0), 0x0504030201FFFFFFull);
    assert_int_equal(spad_word(&f, 1), 0xFFFFFFFFFFFF0706ull);
    finish(&f);

    p.refuse_spad = true;
    assert_int_equal(sn_elf_image_push(&img, rec_imem, rec_spad, &p, err, sizeof err), -1);
    assert_contains(err, "SPAD write of 0x0504030201000000 (strobes 0xf8) at offset 0x0 refused");
    segs[0].addr = 2;
    assert_int_equal(sn_elf_image_push(&img, rec_imem, rec_spad, &p, err, sizeof err), -1);
    assert_contains(err, "IMEM segment at 0x2 is not 4-aligned");
    segs[0].addr = SN_DRAM_CPU_BASE;
    assert_int_equal(sn_elf_image_push(&img, rec_imem, rec_spad, &p, err, sizeof err), -1);
    assert_contains(err, "segment [0x80000000, 0x80000006) is outside IMEM and SPAD");

    /* a built image: its text word by word from 0, its 64 SPAD bytes as 8 full words */
    char path[512];
    prog_path(path, sizeof path, "dram");
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    memset(&p, 0, sizeof p);
    assert_int_equal(sn_elf_image_push(&img, rec_imem, rec_spad, &p, err, sizeof err), 0);
    assert_int_equal(p.n_imem, (img.segments[0].memsz + 3) / 4);
    for (unsigned i = 0; i < p.n_imem; i++)
        assert_int_equal(p.imem_addr[i], 4 * i);
    assert_int_equal(p.n_spad, 8);
    assert_int_equal(p.spad_value[0], 0x1122334455667788ull);
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(p.spad_off[i], 8 * i);
        assert_int_equal(p.spad_strobes[i], 0xFF);
    }
    sn_elf_image_free(&img);
}

/* BOOT keeps IMEM and SPAD and restarts time; a run needs a BOOT; cleared
 * IMEM holds all-zero words, which are illegal. */
static void test_boot(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    create(&f);
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_SIM_ERROR);
    assert_contains(r.message, "not booted");

    load(f.h, "counters");
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(spad_word(&f, 0), 6);
    sn_hart_spad_write(f.h, 0, 0, 0xFF);
    assert_int_equal(sn_hart_boot(f.h, err, sizeof err), 0);
    assert_int_equal(sn_hart_cycles(f.h), 0);
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.cycles, 77);            /* as test_counter_csrs: time from 0 again */
    assert_int_equal(spad_word(&f, 0), 6);
    assert_int_equal(spad_word(&f, 10), 1001);

    sn_hart_clear_memories(f.h);
    assert_int_equal(spad_word(&f, 0), 0);
    assert_int_equal(sn_hart_boot(f.h, err, sizeof err), 0);
    r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, 3);
    assert_int_equal(r.pc, 0);
    finish(&f);
}

/* ---- the L1 model ---- */

static uint64_t dram_word(const uint8_t *dram, uint64_t off)
{
    uint64_t v;
    memcpy(&v, dram + off, 8);
    return v;
}

/* Direct-mapped over 64 lines of 32 bytes, write-allocate, write-back. */
static void test_l1_model(void **state)
{
    (void)state;
    static uint8_t dram[4096];
    for (unsigned i = 0; i < sizeof dram; i++)
        dram[i] = (uint8_t)i;
    sn_l1 c;
    sn_l1_init(&c, dram, sizeof dram);
    uint64_t v;
    assert_int_equal(sn_l1_read(&c, 0x100, 8, &v), 0);
    assert_int_equal(v, 0x0706050403020100ull);
    assert_int_equal(sn_l1_write(&c, 0x104, 4, 0xDDCCBBAA), 0);
    assert_int_equal(dram[0x104], 0x04); /* write-back: not in DRAM yet */
    assert_int_equal(sn_l1_read(&c, 0x102, 4, &v), 0);
    assert_int_equal(v, 0xBBAA0302);
    /* across the line boundary at 0x120: one hit, one miss */
    assert_int_equal(sn_l1_read(&c, 0x11E, 4, &v), 0);
    assert_int_equal(v, 0x21201F1E);
    assert_int_equal(c.stats.hits, 3);
    assert_int_equal(c.stats.misses, 2);
    /* 0x900 is 2 KB past 0x100: same index, so the dirty line is written back */
    assert_int_equal(sn_l1_write(&c, 0x900, 1, 0x5A), 0);
    assert_int_equal(c.stats.write_backs, 1);
    assert_int_equal(dram[0x104], 0xAA);
    assert_int_equal(dram[0x900], 0x00);
    assert_int_equal(sn_l1_flush(&c), 1);
    assert_int_equal(dram[0x900], 0x5A);
    assert_int_equal(sn_l1_flush(&c), 0); /* clean now, still valid: */
    assert_int_equal(sn_l1_read(&c, 0x900, 1, &v), 0);
    assert_int_equal(c.stats.misses, 3);
    /* invalidate drops a dirty line */
    assert_int_equal(sn_l1_write(&c, 0x200, 8, 0), 0);
    sn_l1_invalidate(&c);
    assert_int_equal(sn_l1_flush(&c), 0);
    assert_int_equal(sn_l1_read(&c, 0x200, 1, &v), 0);
    assert_int_equal(v, 0x00);
    assert_int_equal(sn_l1_read(&c, 0x201, 1, &v), 0);
    assert_int_equal(v, 0x01);
    /* refusals */
    assert_int_equal(sn_l1_read(&c, sizeof dram - 2, 4, &v), -1);
    assert_int_equal(sn_l1_write(&c, sizeof dram, 1, 0), -1);
    assert_int_equal(sn_l1_read(&c, 0, 0, &v), -1);
    assert_int_equal(sn_l1_read(&c, 0, 9, &v), -1);
}

/* The values a program stored to ARG0, in order. */
static size_t arg0_values(const fixture *f, uint64_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->bus.n; i++)
        if (f->bus.log[i].write && f->bus.log[i].offset == SN_MBOX_ARG0 && n < max)
            out[n++] = f->bus.log[i].value;
    return n;
}

#define OLD_WORD 0x0123456789ABCDEFull
#define NEW_WORD 0xFEDCBA9876543210ull

static void unit_writes_dram(bus_rec *b, uint64_t value)
{
    (void)value;
    uint64_t w = NEW_WORD;
    memcpy(b->dram + 0x400, &w, 8);
}

/* l1_stale.S: a line cached before a unit's DRAM write stays stale until
 * DCACHE invalidate; the alias sees the new word at once. */
static void test_l1_stale_until_invalidate(void **state)
{
    (void)state;
    fixture f;
    start(&f, "l1_stale");
    uint64_t w = OLD_WORD;
    memcpy(f.dram + 0x400, &w, 8);
    f.bus.signal = unit_writes_dram;
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0); /* DCACHE busy reads 0 */
    uint64_t got[4];
    assert_int_equal(arg0_values(&f, got, 4), 4);
    assert_int_equal(got[0], OLD_WORD); /* first read */
    assert_int_equal(got[1], OLD_WORD); /* cached after the unit's write: stale */
    assert_int_equal(got[2], NEW_WORD); /* alias */
    assert_int_equal(got[3], NEW_WORD); /* cached after invalidate */
    sn_l1_stats st = sn_hart_l1_stats(f.h);
    assert_int_equal(st.misses, 2);
    assert_int_equal(st.write_backs, 0);
    finish(&f);
}

static void snapshot(bus_rec *b, uint64_t value)
{
    assert_true(value < 4);
    b->snap[value][0] = dram_word(b->dram, 0x500);
    b->snap[value][1] = dram_word(b->dram, 0x508);
}

/* l1_writeback.S: a cached store reaches DRAM at a flush or at eviction by
 * the line 2 KB away; the flush's scan does not hold the CPU (core-timing
 * §5.6: only cached accesses wait for it). */
static void test_l1_write_back(void **state)
{
    (void)state;
    fixture f;
    start(&f, "l1_writeback");
    const uint64_t old5 = 0x5050505050505050ull, old8 = 0x0808080808080808ull, conflict = 0xC0FFEEull;
    memcpy(f.dram + 0x500, &old5, 8);
    memcpy(f.dram + 0x508, &old8, 8);
    memcpy(f.dram + 0xD08, &conflict, 8);
    f.bus.signal = snapshot;
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, conflict);
    assert_int_equal(f.bus.snap[0][0], old5);                  /* stored, not flushed */
    assert_int_equal(f.bus.snap[1][0], 0x1111111111111111ull); /* flushed */
    assert_int_equal(f.bus.snap[2][1], old8);                  /* stored again after the flush */
    assert_int_equal(f.bus.snap[3][1], 0x2222222222222222ull); /* evicted */
    uint64_t cost[2];
    assert_int_equal(arg0_values(&f, cost, 2), 2);
    assert_int_equal(cost[0], 4); /* the DCACHE store (2) and the rdcycle's first cycle: the scan runs on its own */
    assert_int_equal(cost[1], 4); /* nothing dirty: the same */
    sn_l1_stats st = sn_hart_l1_stats(f.h);
    assert_int_equal(st.write_backs, 2);
    finish(&f);
}

/* l1_alias.S: the alias bypasses the L1 both ways; BOOT then empties the
 * L1, dropping its dirty line. */
static void test_l1_alias_bypasses(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    start(&f, "l1_alias");
    const uint64_t p0 = 0xA0A0A0A0A0A0A0A0ull, p8 = 0xA8A8A8A8A8A8A8A8ull;
    memcpy(f.dram + 0x600, &p0, 8);
    memcpy(f.dram + 0x608, &p8, 8);
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    uint64_t got[4];
    assert_int_equal(arg0_values(&f, got, 4), 4);
    assert_int_equal(got[0], p0);                    /* cached line unchanged by the alias store */
    assert_int_equal(got[1], 0x5555555555555555ull); /* alias store in DRAM */
    assert_int_equal(got[2], p8);                    /* cached store not in DRAM */
    assert_int_equal(got[3], 0x6666666666666666ull);
    assert_int_equal(dram_word(f.dram, 0x600), 0x5555555555555555ull);
    assert_int_equal(dram_word(f.dram, 0x608), p8);
    assert_int_equal(sn_hart_boot(f.h, err, sizeof err), 0);
    sn_l1_stats st = sn_hart_l1_stats(f.h);
    assert_int_equal(st.hits + st.misses + st.write_backs, 0);
    sn_hart_dcache_write(f.h, 1);
    assert_int_equal(dram_word(f.dram, 0x608), p8);
    finish(&f);
}

static void test_create_checks(void **state)
{
    (void)state;
    char err[256];
    bus_rec bus_state = {0};
    sn_hart_bus bus = {&bus_state, rec_read, rec_write, rec_advance, NULL};
    uint8_t dram[4096];
    assert_null(sn_hart_create(&bus, dram, 100, err, sizeof err));
    assert_contains(err, "multiple of 4096");
    bus.advance = NULL;
    assert_null(sn_hart_create(&bus, dram, sizeof dram, err, sizeof err));
    assert_contains(err, "advance");
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_control_accesses), cmocka_unit_test(test_reload),
             cmocka_unit_test(test_bus_stops_on_access), cmocka_unit_test(test_bus_stops_on_advance),
             cmocka_unit_test(test_counter_csrs), cmocka_unit_test(test_ecall_halts),
             cmocka_unit_test(test_ebreak_halts), cmocka_unit_test(test_illegal_halts),
             cmocka_unit_test(test_trap_handler), cmocka_unit_test(test_imem_read_stops),
             cmocka_unit_test(test_imem_write_stops), cmocka_unit_test(test_unmapped_stops),
             cmocka_unit_test(test_wfi_does_not_wait), cmocka_unit_test(test_ctrl_word_store_stops),
             cmocka_unit_test(test_ctrl_word_load_stops), cmocka_unit_test(test_ctrl_misaligned_halts),
             cmocka_unit_test(test_ctrl_outside_stops), cmocka_unit_test(test_dram_past_stops),
             cmocka_unit_test(test_sv39_stale_misaligned_stops), cmocka_unit_test(test_dram_below_stops),
             cmocka_unit_test(test_sv39_fetch_outside_stops), cmocka_unit_test(test_dram_fetch_executes),
             cmocka_unit_test(test_misaligned_jump_halts), cmocka_unit_test(test_isa_decode),
             cmocka_unit_test(test_isa_rule), cmocka_unit_test(test_imem_write_between_runs),
             cmocka_unit_test(test_csr_file), cmocka_unit_test(test_mpp_warl),
             cmocka_unit_test(test_timer_not_delegated), cmocka_unit_test(test_privilege_traps),
             cmocka_unit_test(test_amo_rules), cmocka_unit_test(test_ctrl_misaligned_traps),
             cmocka_unit_test(test_timer_interrupt), cmocka_unit_test(test_sv39),
             cmocka_unit_test(test_wfi_woken_by_line), cmocka_unit_test(test_breakpoint_and_step),
             cmocka_unit_test(test_cycle_limit), cmocka_unit_test(test_dram_and_alias),
             cmocka_unit_test(test_image_contents), cmocka_unit_test(test_refuses_rvc),
             cmocka_unit_test(test_refuses_float_abi), cmocka_unit_test(test_refuses_fp_instruction),
             cmocka_unit_test(test_refuses_compressed_word), cmocka_unit_test(test_refuses_rodata_in_imem),
             cmocka_unit_test(test_refuses_dram_code), cmocka_unit_test(test_refuses_bad_segments),
             cmocka_unit_test(test_refuses_entry_not_zero), cmocka_unit_test(test_refuses_truncated),
             cmocka_unit_test(test_refuses_c_outside_text), cmocka_unit_test(test_refuses_not_a_file),
             cmocka_unit_test(test_refuses_entry_sizes), cmocka_unit_test(test_create_checks),
             cmocka_unit_test(test_window_writes), cmocka_unit_test(test_push), cmocka_unit_test(test_boot),
             cmocka_unit_test(test_l1_model), cmocka_unit_test(test_l1_stale_until_invalidate),
             cmocka_unit_test(test_l1_write_back), cmocka_unit_test(test_l1_alias_bypasses))
