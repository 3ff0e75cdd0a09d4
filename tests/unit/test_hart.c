/* Unit tests of sim/hart: the ELF loader's refusals and the hart running the
 * small programs of hart_progs/ against a bus that records every control
 * access with the cycle the hart gave it. Expected values come from the
 * programs' straight-line layout (an instruction's index is its address / 4),
 * stated next to each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <elf.h>
#include <unistd.h>

#include "elf_image.h"
#include "hart.h"
#include "sysnode/regs.h"

#define DRAM_SIZE 0x10000u
#define LOG_MAX 32
#define STAT_VALUE 0xA5A55A5A01234567ull /* what the bus answers to every read */

typedef struct ctrl_access {
    bool write;
    uint32_t offset;
    uint64_t value;
    uint64_t cycle; /* the last cycle given to advance before the access */
} ctrl_access;

typedef struct bus_rec {
    sn_hart *h;
    ctrl_access log[LOG_MAX];
    size_t n;
    uint64_t last_cycle;
    bool went_back;        /* advance was given a smaller cycle than before */
    bool stop_on_read;     /* ctrl_read asks the hart to stop */
    uint64_t stop_at;      /* advance to this cycle or later asks the hart to stop (0: never) */
} bus_rec;

static void record(bus_rec *b, bool write, uint32_t offset, uint64_t value)
{
    assert_true(b->n < LOG_MAX);
    b->log[b->n++] = (ctrl_access){write, offset, value, b->last_cycle};
}

static uint64_t rec_read(void *ctx, uint32_t offset)
{
    bus_rec *b = ctx;
    record(b, false, offset, STAT_VALUE);
    if (b->stop_on_read)
        sn_hart_request_stop(b->h, "mesh: read failed");
    return STAT_VALUE;
}

static void rec_write(void *ctx, uint32_t offset, uint64_t value)
{
    bus_rec *b = ctx;
    record(b, true, offset, value);
    if (offset == SN_CTRL_EXIT)
        sn_hart_request_exit(b->h, value);
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

typedef struct fixture {
    bus_rec bus;
    uint8_t *dram;
    sn_hart *h;
} fixture;

static void prog_path(char *path, size_t n, const char *name)
{
    snprintf(path, n, "%s/%s.elf", SN_HART_PROGS, name);
}

/* A hart with DRAM_SIZE bytes of DRAM, holding program `name`. */
static void start(fixture *f, const char *name)
{
    char path[512], err[256];
    prog_path(path, sizeof path, name);
    memset(f, 0, sizeof *f);
    f->dram = calloc(1, DRAM_SIZE);
    assert_non_null(f->dram);
    sn_hart_bus bus = {&f->bus, rec_read, rec_write, rec_advance};
    f->h = sn_hart_create(&bus, f->dram, DRAM_SIZE, err, sizeof err);
    if (f->h == NULL)
        fail_msg("%s", err);
    f->bus.h = f->h;
    sn_elf_image img;
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    int rc = sn_hart_load(f->h, &img, err, sizeof err);
    sn_elf_image_free(&img);
    if (rc != 0)
        fail_msg("%s", err);
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

/* mmio.S: each 64-bit access is one bus access with the full value; control
 * accesses at instruction indices 9, 10, 11, 13, 15 and 32 see cycle
 * index + (control accesses before it); 33 instructions + 6 extra cycles. */
static void test_control_accesses(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "mmio");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 42);
    assert_int_equal(r.pc, 0x80);
    assert_int_equal(r.instret, 33);
    assert_int_equal(r.cycles, 39);
    assert_int_equal(sn_hart_cycles(f.h), 39);
    const ctrl_access want[] = {
        {true, SN_MBOX_ARG0, 0x1122334455667788ull, 9},
        {false, SN_MBOX_STAT, STAT_VALUE, 11},
        {true, SN_MBOX_ARG1, STAT_VALUE, 13},
        {true, SN_CTRL_CONSOLE, 'H', 16},
        {true, SN_CTRL_CONSOLE, 'i', 19},
        {true, SN_CTRL_EXIT, 42, 37},
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
    assert_int_equal(again.cycles, 39);
    assert_int_equal(f.bus.n, 6);
    finish(&f);
}

/* Loading again boots afresh: same result, time from 0 again. */
static void test_reload(void **state)
{
    (void)state;
    fixture f;
    run_to_end(&f, "mmio");
    char path[512], err[256];
    sn_elf_image img;
    prog_path(path, sizeof path, "mmio");
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(sn_hart_load(f.h, &img, err, sizeof err), 0);
    sn_elf_image_free(&img);
    f.bus.last_cycle = 0;
    sn_hart_result r = sn_hart_run(f.h, UINT64_MAX);
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 42);
    assert_int_equal(r.cycles, 39);
    assert_int_equal(f.bus.n, 12);
    assert_int_equal(f.bus.log[11].cycle, 37);
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

/* counters.S: indices in its comments. */
static void test_counter_csrs(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = run_to_end(&f, "counters");
    assert_int_equal(r.stop, SN_HART_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(spad_word(&f, 0), 2);   /* rdcycle at index 2 */
    assert_int_equal(spad_word(&f, 1), 3);   /* back to back */
    assert_int_equal(spad_word(&f, 2), 6);   /* rdinstret at index 6 */
    assert_int_equal(spad_word(&f, 3), 17);  /* after 10 nops */
    assert_int_equal(spad_word(&f, 4), 20);  /* rdcycle at index 20 */
    assert_int_equal(spad_word(&f, 5), 24);  /* 3 instructions + 1 control cycle later */
    assert_int_equal(spad_word(&f, 6), 27);  /* rdtime at index 26, after 1 control access */
    assert_int_equal(spad_word(&f, 7), 28);  /* mcycle */
    assert_int_equal(spad_word(&f, 8), 28);  /* minstret at index 28 */
    assert_int_equal(spad_word(&f, 9), 29);  /* instret */
    assert_int_equal(spad_word(&f, 10), 1001); /* csrw mcycle, 1000, read next */
    assert_int_equal(spad_word(&f, 11), 6);  /* csrwi minstret, 5, read next */
    /* simulated time itself is not moved by the writes: 43 instructions, 2 control accesses */
    assert_int_equal(r.instret, 43);
    assert_int_equal(r.cycles, 45);
    finish(&f);
}

static void expect_halt(const char *name, unsigned cause)
{
    fixture f;
    sn_hart_result r = run_to_end(&f, name);
    assert_int_equal(r.stop, SN_HART_HALTED);
    assert_int_equal(r.halt_cause, cause);
    assert_int_equal(r.pc, 4);
    assert_int_equal(r.instret, 1); /* the lui; the faulting instruction does not retire */
    assert_int_equal(r.cycles, 2);
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

static void test_wfi_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_wfi", 4);
    assert_contains(r.message, "wfi with no interrupt source at 0x4");
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

/* A 32-bit load is found at the next block; the bus did serve its read. */
static void test_ctrl_word_load_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_ctrl_lw", 4);
    assert_contains(r.message, "4-byte read at control offset 0x70");
    assert_int_equal(f.bus.n, 1);
    finish(&f);
}

static void test_ctrl_misaligned_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_ctrl_misaligned", 4);
    assert_contains(r.message, "8-byte data write at 0x2004c (pc 0x4)");
    assert_contains(r.message, "control offset 0x4c takes whole aligned 64-bit accesses only");
    assert_int_equal(f.bus.n, 0);
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

static void test_dram_fetch_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_dram_fetch", SN_DRAM_CPU_BASE);
    assert_contains(r.message, "instruction fetch at 0x80000000");
    assert_contains(r.message, "DRAM-resident code is a later feature");
    finish(&f);
}

static void test_misaligned_jump_stops(void **state)
{
    (void)state;
    fixture f;
    sn_hart_result r = expect_sim_error(&f, "stop_misaligned_jump", 0x0e);
    assert_contains(r.message, "the block at 0xe starts off a 4-byte boundary");
    finish(&f);
}

/* stop_loop: `j .` at 4, a one-instruction block: the limit is met exactly,
 * and a second run resumes there. */
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
    assert_int_equal(r.instret, 2500);
    assert_false(f.bus.went_back);
    finish(&f);
}

/* dram.S: the word preset at offset 0x100 is read through the alias, +1
 * stored through the base at 0x208, a byte through the alias at 0x300. */
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
 * memory, zero past the file bytes; no counter CSRs. counters.S has 14. */
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
    assert_int_equal(img.counter_csr_count, 0);
    sn_elf_image_free(&img);

    prog_path(path, sizeof path, "counters");
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(img.counter_csr_count, 14);
    const sn_elf_counter_csr *c = &img.counter_csrs[0];
    assert_int_equal(c->addr, 8); /* rdcycle t0 */
    assert_int_equal(c->rd, 5);
    assert_int_equal(c->csr, 0xC00);
    assert_int_equal(c->funct3, 2);
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
    expect_refused("refuse_dram", "section .text [0x80000000,", "DRAM-resident code is a later feature");
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
}

static void test_refuses_entry_not_zero(void **state)
{
    (void)state;
    char path[512], err[256];
    sn_elf_image img;
    prog_path(path, sizeof path, "entry_0x100");
    if (sn_elf_image_load(path, &img, err, sizeof err) != 0)
        fail_msg("%s", err);
    bus_rec bus_state = {0};
    sn_hart_bus bus = {&bus_state, rec_read, rec_write, rec_advance};
    uint8_t *dram = calloc(1, DRAM_SIZE);
    sn_hart *h = sn_hart_create(&bus, dram, DRAM_SIZE, err, sizeof err);
    assert_non_null(h);
    assert_int_equal(sn_hart_load(h, &img, err, sizeof err), -1);
    assert_contains(err, "entry point 0x100");
    sn_hart_destroy(h);
    free(dram);
    sn_elf_image_free(&img);
}

static void test_create_checks(void **state)
{
    (void)state;
    char err[256];
    bus_rec bus_state = {0};
    sn_hart_bus bus = {&bus_state, rec_read, rec_write, rec_advance};
    uint8_t dram[4096];
    assert_null(sn_hart_create(&bus, dram, 100, err, sizeof err));
    assert_contains(err, "multiple of 4096");
    bus.advance = NULL;
    assert_null(sn_hart_create(&bus, dram, sizeof dram, err, sizeof err));
    assert_contains(err, "advance");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_control_accesses),
        cmocka_unit_test(test_reload),
        cmocka_unit_test(test_bus_stops_on_access),
        cmocka_unit_test(test_bus_stops_on_advance),
        cmocka_unit_test(test_counter_csrs),
        cmocka_unit_test(test_ecall_halts),
        cmocka_unit_test(test_ebreak_halts),
        cmocka_unit_test(test_illegal_halts),
        cmocka_unit_test(test_trap_handler),
        cmocka_unit_test(test_imem_read_stops),
        cmocka_unit_test(test_imem_write_stops),
        cmocka_unit_test(test_unmapped_stops),
        cmocka_unit_test(test_wfi_stops),
        cmocka_unit_test(test_ctrl_word_store_stops),
        cmocka_unit_test(test_ctrl_word_load_stops),
        cmocka_unit_test(test_ctrl_misaligned_stops),
        cmocka_unit_test(test_ctrl_outside_stops),
        cmocka_unit_test(test_dram_fetch_stops),
        cmocka_unit_test(test_misaligned_jump_stops),
        cmocka_unit_test(test_cycle_limit),
        cmocka_unit_test(test_dram_and_alias),
        cmocka_unit_test(test_image_contents),
        cmocka_unit_test(test_refuses_rvc),
        cmocka_unit_test(test_refuses_float_abi),
        cmocka_unit_test(test_refuses_fp_instruction),
        cmocka_unit_test(test_refuses_compressed_word),
        cmocka_unit_test(test_refuses_rodata_in_imem),
        cmocka_unit_test(test_refuses_dram_code),
        cmocka_unit_test(test_refuses_bad_segments),
        cmocka_unit_test(test_refuses_entry_not_zero),
        cmocka_unit_test(test_create_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
