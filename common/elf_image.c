/* Runner ELF loading through libelf, and pushing it through the host
 * window; see elf_image.h. */
#include "elf_image.h"
#include "err_text.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysnode/regs.h"

typedef struct region {
    const char *name;
    uint64_t base, size;
} region;

static const region regions[] = {
    {"IMEM", SN_IMEM_BASE, SN_IMEM_SIZE},
    {"SPAD", SN_SPAD_BASE, SN_SPAD_SIZE},
};
static const region *const imem = &regions[0], *const spad = &regions[1];

/* Loader state, so every exit path frees the same things. */
typedef struct loader {
    Elf *elf;
    uint64_t file_size; /* bytes: every table and every section's and segment's bytes must lie inside */
    int has_magic;      /* the file starts with the ELF magic */
    sn_elf_image *out;
    char *err;
    size_t errlen;
} loader;

static int fail(loader *ld, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(ld->err, ld->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The region holding all of [addr, addr+size), or NULL; cannot overflow. */
static const region *region_of(uint64_t addr, uint64_t size)
{
    for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        const region *r = &regions[i];
        if (addr >= r->base && addr - r->base <= r->size && size <= r->size - (addr - r->base))
            return r;
    }
    return NULL;
}

static int fail_outside(loader *ld, const char *what, uint64_t addr, uint64_t size)
{
    return fail(ld,
                "%s [0x%" PRIx64 ", 0x%" PRIx64 ") is outside IMEM [0x%llx, 0x%llx) and SPAD "
                "[0x%llx, 0x%llx): the host window loads only those (an image copies its DRAM code there itself)",
                what, addr, addr + size, SN_IMEM_BASE, SN_IMEM_BASE + SN_IMEM_SIZE, SN_SPAD_BASE,
                SN_SPAD_BASE + SN_SPAD_SIZE);
}

/* A range of the file [off, off+n) that must lie inside it. */
static int check_in_file(loader *ld, const char *what, uint64_t off, uint64_t n)
{
    if (off > ld->file_size || n > ld->file_size - off)
        return fail(ld, "truncated: %s [0x%" PRIx64 ", 0x%" PRIx64 ") ends past the end of the file (0x%" PRIx64 " bytes)",
                    what, off, off + n, ld->file_size);
    return 0;
}

/* The program and section header tables lie inside the file. */
static int check_tables(loader *ld, const GElf_Ehdr *eh)
{
    /* libelf steps by the ELF64 sizes whatever the header says: a table
     * with other entry sizes would be read other than it is checked */
    if (eh->e_phnum != 0 && eh->e_phentsize != sizeof(Elf64_Phdr))
        return fail(ld, "e_phentsize %u is not %zu, the size of an ELF64 program header", (unsigned)eh->e_phentsize,
                    sizeof(Elf64_Phdr));
    if (eh->e_shoff != 0 && eh->e_shentsize != sizeof(Elf64_Shdr))
        return fail(ld, "e_shentsize %u is not %zu, the size of an ELF64 section header", (unsigned)eh->e_shentsize,
                    sizeof(Elf64_Shdr));
    if (check_in_file(ld, "the program header table", eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize) != 0)
        return -1;
    if (eh->e_shoff == 0)
        return 0;
    if (check_in_file(ld, "the first section header", eh->e_shoff, eh->e_shentsize) != 0)
        return -1;
    size_t shnum = eh->e_shnum; /* 0: the count is in section 0's sh_size (extended numbering) */
    if (shnum == 0 && elf_getshdrnum(ld->elf, &shnum) != 0)
        return fail(ld, "unreadable section count: %s", elf_errmsg(-1));
    return check_in_file(ld, "the section header table", eh->e_shoff, (uint64_t)shnum * eh->e_shentsize);
}

static int check_header(loader *ld)
{
    if (!ld->has_magic)
        return fail(ld, "not an ELF file");
    if (ld->file_size < sizeof(Elf64_Ehdr))
        return check_in_file(ld, "the ELF header", 0, sizeof(Elf64_Ehdr));
    if (elf_kind(ld->elf) != ELF_K_ELF)
        return fail(ld, "not an ELF file");
    GElf_Ehdr eh;
    if (gelf_getehdr(ld->elf, &eh) == NULL)
        return fail(ld, "unreadable ELF header: %s", elf_errmsg(-1));
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(ld, "not a little-endian ELF64 file: the SysNode CPU is RV64");
    if (eh.e_machine != EM_RISCV)
        return fail(ld, "e_machine %u is not EM_RISCV", (unsigned)eh.e_machine);
    if (eh.e_type != ET_EXEC)
        return fail(ld, "e_type %u is not ET_EXEC: a linked image is needed", (unsigned)eh.e_type);
    if (eh.e_flags & EF_RISCV_RVC)
        return fail(ld, "e_flags 0x%x has EF_RISCV_RVC: the core has no C extension "
                        "(build with -march=rv64ima_zicsr_zifencei)",
                    (unsigned)eh.e_flags);
    if (eh.e_flags & EF_RISCV_FLOAT_ABI)
        return fail(ld, "e_flags 0x%x has a floating-point ABI: the core has no F/D (build with -mabi=lp64)",
                    (unsigned)eh.e_flags);
    ld->out->entry = eh.e_entry;
    return check_tables(ld, &eh);
}

static int check_entry(loader *ld)
{
    if (ld->out->entry != 0)
        return fail(ld, "entry point 0x%" PRIx64 " is not the reset PC 0 (sysnode-facts §1.3: fixed at 0)",
                    ld->out->entry);
    return 0;
}

typedef int (*section_visit)(loader *ld, Elf_Scn *scn, const GElf_Shdr *sh, const char *name);

/* Calls visit for every section with its header and name. An image without
 * section headers is refused: without them nothing tells code from data. */
static int for_each_section(loader *ld, section_visit visit)
{
    size_t shstrndx, count = 0;
    if (elf_getshdrstrndx(ld->elf, &shstrndx) != 0)
        return fail(ld, "no section name table: %s", elf_errmsg(-1));
    for (Elf_Scn *scn = elf_nextscn(ld->elf, NULL); scn != NULL; scn = elf_nextscn(ld->elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL)
            return fail(ld, "unreadable section header: %s", elf_errmsg(-1));
        const char *name = elf_strptr(ld->elf, shstrndx, sh.sh_name);
        if (visit(ld, scn, &sh, name ? name : "(unnamed)") != 0)
            return -1;
        count++;
    }
    return count ? 0 : fail(ld, "no section headers: cannot check that IMEM holds only code");
}

/* Every allocated section sits in IMEM or SPAD, and nothing but code in
 * IMEM (sysnode-facts §1.4, §1.6). Code in SPAD is bytes the image copies
 * to DRAM and runs there through the I-cache (core-timing §4.2): a fetch
 * from SPAD itself reads IMEM (§4.1). */
static int place_section(loader *ld, Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
    (void)scn;
    char what[160];
    sn_text_fit(what, sizeof what, "section %s", name);
    if (sh->sh_type != SHT_NOBITS && check_in_file(ld, what, sh->sh_offset, sh->sh_size) != 0)
        return -1;
    if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_size == 0)
        return 0;
    const region *r = region_of(sh->sh_addr, sh->sh_size);
    if (r == NULL)
        return fail_outside(ld, what, sh->sh_addr, sh->sh_size);
    int code = (sh->sh_flags & SHF_EXECINSTR) != 0;
    if (r == imem && !code)
        return fail(ld, "%s [0x%" PRIx64 ", 0x%" PRIx64 "): loadable data placed in IMEM: the core serves no "
                        "data reads there (link it into SPAD)",
                    what, sh->sh_addr, sh->sh_addr + sh->sh_size);
    return 0;
}

static int by_addr(const void *a, const void *b)
{
    const sn_elf_segment *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_segments(loader *ld)
{
    size_t n;
    if (elf_getphdrnum(ld->elf, &n) != 0)
        return fail(ld, "no program headers: %s", elf_errmsg(-1));
    sn_elf_image *out = ld->out;
    out->segments = calloc(n ? n : 1, sizeof *out->segments);
    if (out->segments == NULL)
        return fail(ld, "out of memory");
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(ld->elf, (int)i, &ph) == NULL)
            return fail(ld, "unreadable program header %zu: %s", i, elf_errmsg(-1));
        if (ph.p_type != PT_LOAD)
            continue;
        char what[64];
        sn_text_fit(what, sizeof what, "PT_LOAD segment %zu", i);
        uint64_t end = ph.p_paddr + ph.p_memsz;
        if (check_in_file(ld, what, ph.p_offset, ph.p_filesz) != 0)
            return -1;
        /* before the empty-segment skip: file bytes with no memory to go to are lost, not empty */
        if (ph.p_filesz > ph.p_memsz)
            return fail(ld, "%s at 0x%" PRIx64 ": filesz 0x%" PRIx64 " > memsz 0x%" PRIx64, what, ph.p_paddr,
                        ph.p_filesz, ph.p_memsz);
        if (ph.p_memsz == 0)
            continue;
        if (ph.p_paddr != ph.p_vaddr)
            return fail(ld, "%s: load address 0x%" PRIx64 " differs from run address 0x%" PRIx64
                            " (nothing copies it at run time)",
                        what, ph.p_paddr, ph.p_vaddr);
        const region *r = region_of(ph.p_paddr, ph.p_memsz);
        if (r == NULL)
            return fail_outside(ld, what, ph.p_paddr, ph.p_memsz);
        if (r == imem && (ph.p_flags & PF_W))
            return fail(ld, "%s [0x%" PRIx64 ", 0x%" PRIx64 ") is writable: loadable data placed in IMEM: the core "
                            "serves no data reads there",
                        what, ph.p_paddr, end);
        if (r == imem && ph.p_paddr % 4 != 0)
            return fail(ld, "%s at 0x%" PRIx64 " is not 4-aligned: the host window writes IMEM in whole 32-bit words",
                        what, ph.p_paddr);
        sn_elf_segment *s = &out->segments[out->segment_count];
        s->addr = ph.p_paddr;
        s->memsz = ph.p_memsz;
        s->bytes = calloc(1, ph.p_memsz); /* the .bss rule: zero past filesz */
        if (s->bytes == NULL)
            return fail(ld, "out of memory");
        out->segment_count++;
        if (ph.p_filesz == 0)
            continue;
        Elf_Data *d = elf_getdata_rawchunk(ld->elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
        if (d == NULL || d->d_size != ph.p_filesz)
            return fail(ld, "%s: file bytes unreadable: %s", what, elf_errmsg(-1));
        memcpy(s->bytes, d->d_buf, ph.p_filesz);
    }
    if (out->segment_count == 0)
        return fail(ld, "no loadable segment");
    qsort(out->segments, out->segment_count, sizeof *out->segments, by_addr);
    for (size_t i = 1; i < out->segment_count; i++) {
        const sn_elf_segment *a = &out->segments[i - 1], *b = &out->segments[i];
        if (a->addr + a->memsz > b->addr)
            return fail(ld,
                        "segments [0x%" PRIx64 ", 0x%" PRIx64 ") and [0x%" PRIx64 ", 0x%" PRIx64 ") overlap",
                        a->addr, a->addr + a->memsz, b->addr, b->addr + b->memsz);
    }
    return 0;
}

static int is_fp_opcode(uint32_t op)
{
    return op == 0x07 || op == 0x27 || op == 0x43 || op == 0x47 || op == 0x4B || op == 0x4F || op == 0x53;
}

/* The name of the allocated section holding CPU address addr, for messages. */
static const char *section_at(loader *ld, uint64_t addr)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(ld->elf, &shstrndx) != 0)
        return "(no section)";
    for (Elf_Scn *scn = elf_nextscn(ld->elf, NULL); scn != NULL; scn = elf_nextscn(ld->elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) != NULL && (sh.sh_flags & SHF_ALLOC) && addr - sh.sh_addr < sh.sh_size) {
            const char *name = elf_strptr(ld->elf, shstrndx, sh.sh_name);
            return name ? name : "(unnamed)";
        }
    }
    return "(no section)";
}

/* Decodes every byte an IMEM-bound segment loads, one 32-bit word at a
 * time, whatever section (or none) the bytes belong to: the bytes the core
 * will fetch are the ones checked (sysnode-facts §1.1: no C, no F/D). An
 * all-zero word is padding; a segment's last partial word is zero-padded
 * as the window writes it. */
static int scan_segment(loader *ld, const sn_elf_segment *seg)
{
    for (uint64_t i = 0; i < seg->memsz; i += 4) {
        uint64_t at = seg->addr + i;
        uint32_t w = 0;
        for (uint64_t k = 0; k < 4 && i + k < seg->memsz; k++)
            w |= (uint32_t)seg->bytes[i + k] << 8 * k;
        if (w == 0)
            continue;
        if ((w & 3) != 3)
            return fail(ld, "section %s: compressed (16-bit) instruction 0x%04x at 0x%" PRIx64
                            ": the core has no C extension",
                        section_at(ld, at), w & 0xFFFF, at);
        if (is_fp_opcode(w & 0x7F))
            return fail(ld, "section %s: floating-point instruction 0x%08x at 0x%" PRIx64 ": the core has no F/D",
                        section_at(ld, at), w, at);
    }
    return 0;
}

static int scan_code(loader *ld)
{
    for (size_t i = 0; i < ld->out->segment_count; i++)
        if (region_of(ld->out->segments[i].addr, ld->out->segments[i].memsz) == imem &&
            scan_segment(ld, &ld->out->segments[i]) != 0)
            return -1;
    return 0;
}

int sn_elf_image_load(const char *path, sn_elf_image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    loader ld = {.out = out, .err = err, .errlen = errlen};
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(&ld, "libelf is out of date: %s", elf_errmsg(-1));
    if (path[0] == '\0') /* "cannot open : ..." would name nothing */
        return fail(&ld, "the image file's name is empty");
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(&ld, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int stat_errno = errno;
        close(fd);
        return fail(&ld, "cannot stat %s: %s", path, strerror(stat_errno));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fail(&ld, "%s is %s, not a regular file: an image is read whole from a file", path,
                    S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
    }
    int rc = -1;
    ld.file_size = (uint64_t)st.st_size;
    char magic[SELFMAG];
    ld.has_magic = pread(fd, magic, SELFMAG, 0) == SELFMAG && memcmp(magic, ELFMAG, SELFMAG) == 0;
    ld.elf = elf_begin(fd, ELF_C_READ, NULL);
    if (ld.elf == NULL)
        fail(&ld, "%s: %s", path, elf_errmsg(-1));
    else if (check_header(&ld) == 0 && for_each_section(&ld, place_section) == 0 && load_segments(&ld) == 0 &&
             check_entry(&ld) == 0 && scan_code(&ld) == 0)
        rc = 0;
    elf_end(ld.elf);
    close(fd);
    if (rc != 0)
        sn_elf_image_free(out);
    return rc;
}

void sn_elf_image_free(sn_elf_image *img)
{
    for (size_t i = 0; i < img->segment_count; i++)
        free(img->segments[i].bytes);
    free(img->segments);
    memset(img, 0, sizeof *img);
}

/* IMEM: whole words from the segment's 4-aligned start, the last one padded
 * with zeros. */
static int push_imem(const sn_elf_segment *s, sn_imem_write_fn imem_write, void *ctx, char *err, size_t errlen)
{
    if (s->addr % 4 != 0)
        return sn_err_text(err, errlen, "IMEM segment at 0x%" PRIx64 " is not 4-aligned: the window writes whole words",
                         s->addr);
    for (uint64_t i = 0; i < s->memsz; i += 4) {
        uint32_t w = 0;
        for (unsigned k = 0; k < 4 && i + k < s->memsz; k++)
            w |= (uint32_t)s->bytes[i + k] << 8 * k;
        if (imem_write(ctx, (uint32_t)(s->addr + i), w) != 0)
            return sn_err_text(err, errlen, "IMEM write of 0x%08x at 0x%" PRIx64 " refused", w, s->addr + i);
    }
    return 0;
}

/* SPAD: every 8-aligned word the segment touches, strobing only its bytes. */
static int push_spad(const sn_elf_segment *s, sn_spad_write_fn spad_write, void *ctx, char *err, size_t errlen)
{
    uint64_t off = s->addr - SN_SPAD_BASE, end = off + s->memsz;
    for (uint64_t word = off & ~7ull; word < end; word += 8) {
        uint64_t v = 0;
        uint8_t strobes = 0;
        for (unsigned k = 0; k < 8; k++)
            if (word + k >= off && word + k < end) {
                v |= (uint64_t)s->bytes[word + k - off] << 8 * k;
                strobes |= (uint8_t)(1u << k);
            }
        if (spad_write(ctx, (uint32_t)word, v, strobes) != 0)
            return sn_err_text(err, errlen, "SPAD write of 0x%016" PRIx64 " (strobes 0x%02x) at offset 0x%" PRIx64
                                          " refused",
                             v, strobes, word);
    }
    return 0;
}

int sn_elf_image_push(const sn_elf_image *img, sn_imem_write_fn imem_write, sn_spad_write_fn spad_write, void *ctx,
                      char *err, size_t errlen)
{
    for (size_t i = 0; i < img->segment_count; i++) {
        const sn_elf_segment *s = &img->segments[i];
        const region *r = region_of(s->addr, s->memsz);
        int rc;
        if (r == imem)
            rc = push_imem(s, imem_write, ctx, err, errlen);
        else if (r == spad)
            rc = push_spad(s, spad_write, ctx, err, errlen);
        else
            rc = sn_err_text(err, errlen, "segment [0x%" PRIx64 ", 0x%" PRIx64 ") is outside IMEM and SPAD", s->addr,
                           s->addr + s->memsz);
        if (rc != 0)
            return -1;
    }
    return 0;
}
