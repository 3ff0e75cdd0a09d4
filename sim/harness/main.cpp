// sysnode-sim: boots a runner image on the simulated SysNode, prints its
// console, how it stopped and the runner's error worded from its status
// block (host/lib/messages.h, as `sysnode run` words it), and exits with
// the image's exit code (or 124 for a hang, 125 for a halt or simulation
// error, 2 for bad usage).
//   sysnode-sim IMAGE.elf [--load ADDR=FILE]... [--table ADDR=TABLE.bin] [--max-cycles N] [--gdb PORT]
//               [--lockstep]
// --load writes a file into DRAM at unit address ADDR; --table does the same
// with a packed table (sysnode pack) and writes the boot arguments that point
// runner.elf at it (sysnode/boot_args.h); --gdb serves GDB's remote protocol
// on 127.0.0.1:PORT (0: a free port, printed) before the image runs;
// --lockstep clocks the mesh every cycle (sim/README.md, Clocking): the same
// result, slower.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "gdb_sim.h"
#include "messages.h"
#include "sim.h"
#include "sysnode/boot_args.h"

/* The console, every byte: as it is into a file or a pipe, as escaped text
 * (sn_sim_console_text) on a terminal. */
static void print_console(sn_sim *s)
{
    if (isatty(fileno(stdout)))
        fputs(sn_sim_console_text(s), stdout);
    else
        fwrite(sn_sim_console(s), 1, sn_sim_console_length(s), stdout);
}

static int usage()
{
    fprintf(stderr, "usage: sysnode-sim IMAGE.elf [--load ADDR=FILE]... [--table ADDR=TABLE.bin] [--max-cycles N] "
                    "[--gdb PORT] [--lockstep]\n");
    return 2;
}

/* The DRAM ranges placed so far, [first, second), with their specs: a file
 * overlapping one would overwrite part of it. */
static std::vector<std::pair<std::pair<uint64_t, uint64_t>, const char *>> placed;

/* Writes FILE of "ADDR=FILE" into DRAM at ADDR; *addr_out and *bytes_out
 * (may be null) get where and how much. */
static bool load_file(sn_sim *s, const char *spec, uint64_t *addr_out = nullptr, uint64_t *bytes_out = nullptr)
{
    const char *eq = strchr(spec, '=');
    if (!eq) {
        fprintf(stderr, "sysnode-sim: --load and --table want ADDR=FILE, got '%s'\n", spec);
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long addr = strtoull(spec, &end, 0);
    if (end != eq || spec[0] == '-' || errno == ERANGE) {
        fprintf(stderr, "sysnode-sim: bad address in '%s'\n", spec);
        return false;
    }
    struct stat st;
    if (stat(eq + 1, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "sysnode-sim: %s: not a readable regular file\n", eq + 1);
        return false;
    }
    FILE *f = fopen(eq + 1, "rb");
    if (!f) {
        fprintf(stderr, "sysnode-sim: cannot open %s\n", eq + 1);
        return false;
    }
    std::vector<unsigned char> bytes;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        bytes.insert(bytes.end(), buf, buf + n);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        fprintf(stderr, "sysnode-sim: reading %s failed\n", eq + 1);
        return false;
    }
    for (const auto &p : placed)
        if (!bytes.empty() && addr < p.first.second && p.first.first < addr + bytes.size()) {
            fprintf(stderr, "sysnode-sim: '%s' and '%s': their DRAM ranges overlap\n", p.second, spec);
            return false;
        }
    if (sn_sim_dram_write(s, addr, bytes.data(), bytes.size()) != 0) {
        fprintf(stderr, "sysnode-sim: %s (%zu bytes) does not fit DRAM at unit address 0x%llx (ADDR is a DRAM "
                        "offset, not a CPU address)\n", eq + 1, bytes.size(), addr);
        return false;
    }
    placed.push_back({{addr, addr + bytes.size()}, spec});
    if (addr_out)
        *addr_out = addr;
    if (bytes_out)
        *bytes_out = bytes.size();
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    const char *image = argv[1];
    unsigned long long max_cycles = 200000000ull;
    std::vector<const char *> loads;
    const char *table = nullptr;
    sn_sim_config cfg = {};
    int gdb_port = -1;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--load") && i + 1 < argc)
            loads.push_back(argv[++i]);
        else if (!strcmp(argv[i], "--lockstep"))
            cfg.lockstep = 1;
        else if (!strcmp(argv[i], "--table") && i + 1 < argc && !table)
            table = argv[++i];
        else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) {
            const char *text = argv[++i];
            char *end;
            errno = 0;
            max_cycles = strtoull(text, &end, 0);
            if (!*text || *end || text[0] == '-' || errno == ERANGE || max_cycles == 0) {
                fprintf(stderr, "sysnode-sim: --max-cycles wants a positive number, got '%s'\n", text);
                return 2;
            }
        } else if (!strcmp(argv[i], "--gdb") && i + 1 < argc && gdb_port < 0) {
            const char *text = argv[++i];
            char *end;
            long port = strtol(text, &end, 10);
            if (!*text || *end || port < 0 || port > 65535) {
                fprintf(stderr, "sysnode-sim: --gdb wants a TCP port 0..65535 (0: a free one), got '%s'\n", text);
                return 2;
            }
            gdb_port = static_cast<int>(port);
        } else
            return usage();
    }
    char err[512];
    sn_sim *s = sn_sim_create(&cfg, err, sizeof err);
    if (!s) {
        fprintf(stderr, "sysnode-sim: %s\n", err);
        return 125;
    }
    int rc = 125;
    if (sn_sim_load_image(s, image, err, sizeof err) != 0) {
        fprintf(stderr, "sysnode-sim: %s: %s\n", image, err);
    } else {
        bool ok = true;
        for (const char *l : loads)
            ok = ok && load_file(s, l);
        uint64_t table_addr = 0, table_bytes = 0;
        if (ok && table) {
            sn_boot_args args = {SN_BOOT_ARGS_MAGIC, SN_BOOT_ARGS_VERSION, 0, 0, 0, 0, sn_sim_dram_size(s), 0};
            ok = load_file(s, table, &table_addr, &table_bytes);
            args.table_addr = table_addr;
            args.table_bytes = table_bytes;
            ok = ok && sn_sim_write_boot_args(s, &args) == 0;
            if (!ok)
                fprintf(stderr, "sysnode-sim: --table %s: not placed\n", table);
        }
        if (ok && sn_sim_boot(s, err, sizeof err) != 0) {
            fprintf(stderr, "sysnode-sim: boot: %s\n", err);
            ok = false;
        }
        if (ok) {
            sn_sim_result r = gdb_port >= 0 ? sn_sim_run_gdb(s, max_cycles, gdb_port) : sn_sim_run(s, max_cycles);
            print_console(s);
            switch (r.stop) {
            case SN_SIM_EXITED:
                printf("sysnode-sim: exit %llu after %llu cycles, %llu instructions\n",
                       (unsigned long long)r.exit_code, (unsigned long long)r.cycles,
                       (unsigned long long)r.instret);
                if (r.exit_code != 0) {
                    sn_status_block sb;
                    char words[1536];
                    if (sn_sim_status_block(s, &sb) == 0 && sb.error == r.exit_code)
                        printf("sysnode-sim: runner error 0x%x: %s\n", sb.error,
                               sn_runner_describe(&sb, words, sizeof words));
                }
                /* The process status keeps 8 bits: a nonzero word must not read as 0. */
                rc = r.exit_code == 0 ? 0 : (r.exit_code & 0xFF) != 0 ? (int)(r.exit_code & 0xFF) : 1;
                break;
            case SN_SIM_CYCLE_LIMIT: {
                sn_status_block sb;
                printf("sysnode-sim: hang: no exit after %llu cycles (pc 0x%llx)\n",
                       (unsigned long long)r.cycles, (unsigned long long)r.pc);
                if (sn_sim_status_block(s, &sb) == 0)
                    printf("sysnode-sim: runner status: phase %u round %u step %u, %u flits sent, %u completions\n",
                           sb.phase, sb.round, sb.step, sb.flits_sent, sb.completions);
                rc = 124;
                break;
            }
            case SN_SIM_HALTED:
                printf("sysnode-sim: core halted, cause %u at pc 0x%llx: %s\n", r.halt_cause,
                       (unsigned long long)r.pc, r.message);
                break;
            default:
                printf("sysnode-sim: simulation error: %s\n", r.message);
            }
        }
    }
    sn_sim_destroy(s);
    return rc;
}
