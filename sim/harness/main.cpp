// sysnode-sim: boots a runner image on the simulated SysNode, prints its
// console, how it stopped and the runner's error worded from its status
// block (common/messages.h, as `sysnode run` words it), and exits with
// the image's exit code (or 124 for a hang, 125 for a halt or simulation error, 2 for bad usage: a
// malformed argument, or an image or file that cannot be placed as asked;
// 128+N after signal N, which stops the run where it is and says where).
//   sysnode-sim IMAGE.elf [OPTION]... (the options: common/options.c)
// --load writes a file into DRAM at unit address ADDR; --table does the same
// with a packed table (sysnode pack) and writes the boot arguments that point
// runner.elf at it (sysnode/boot_args.h); --gdb serves GDB's remote protocol
// on 127.0.0.1:PORT (0: a free port, printed) before the image runs;
// --dram-latency sets the CPU's DRAM latency L in cycles (0..1000, default 0:
// core-timing.md §0); --lockstep clocks the mesh every cycle (sim/README.md,
// Clocking): the same result, slower; --inject requests one fault (inject.h).
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <csignal>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gdb_sim.h"
#include "gdb_stub.h"
#include "sim.h"
extern "C" {
#include "err_text.h"
#include "escape.h"
#include "messages.h"
#include "options.h"
}
#include "sysnode/boot_args.h"

/* Prints "sysnode-sim: MESSAGE" on stderr with the control characters of
 * what it quotes (paths, arguments) escaped (common/escape.h). */
static void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = sn_text_vdup(fmt, ap); /* whole: it quotes paths and arguments, however long */
    va_end(ap);
    size_t n = msg ? strlen(msg) : 0;
    if (n > 0 && msg[n - 1] == '\n')
        msg[n - 1] = '\0';
    fputs("sysnode-sim: ", stderr);
    sn_fput_escaped(stderr, msg ? msg : "out of memory for the message", true);
    free(msg);
    fputc('\n', stderr);
}

/* The console, every byte: as it is into a file or a pipe, as escaped text
 * (sn_sim_console_text) on a terminal. */
static void print_console(sn_sim *s)
{
    if (isatty(fileno(stdout)))
        fputs(sn_sim_console_text(s), stdout);
    else
        fwrite(sn_sim_console(s), 1, sn_sim_console_length(s), stdout);
}

/* One --load or --table argument: a DRAM address and a file. */
struct placement {
    const char *spec; /* "ADDR=FILE", for messages */
    uint64_t addr;
    const char *file;
};

/* A --load or --table value the option table accepted. */
static placement placement_of(const char *spec)
{
    placement p = {spec, 0, nullptr};
    sn_opts_place(spec, &p.addr, &p.file);
    return p;
}

/* The DRAM ranges placed so far, [first, second), with their specs: a file
 * overlapping one would overwrite part of it. */
static std::vector<std::pair<std::pair<uint64_t, uint64_t>, const char *>> placed;

/* Reads p's file into DRAM at p's address after checking, without blocking
 * and before reading a byte, that it is a regular file that fits DRAM; its
 * size goes to *bytes_out (may be null). */
static bool load_file(sn_sim *s, const placement &p, uint64_t *bytes_out = nullptr)
{
    int fd = open(p.file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        complain("%s: not a readable regular file%s%s\n", p.file, fd < 0 ? ": " : "",
                fd < 0 ? strerror(errno) : "");
        if (fd >= 0)
            close(fd);
        return false;
    }
    uint64_t dram = sn_sim_dram_size(s), size = (uint64_t)st.st_size;
    if (p.addr > dram || size > dram - p.addr) {
        complain("%s (%llu bytes) does not fit DRAM (%llu bytes) at unit address 0x%llx (ADDR is "
                        "a DRAM offset, not a CPU address)\n", p.file, (unsigned long long)size,
                (unsigned long long)dram, (unsigned long long)p.addr);
        close(fd);
        return false;
    }
    for (const auto &q : placed)
        if (size != 0 && p.addr < q.first.second && q.first.first < p.addr + size) {
            complain("'%s' and '%s': their DRAM ranges overlap\n", q.second, p.spec);
            close(fd);
            return false;
        }
    std::vector<unsigned char> bytes(size);
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, bytes.data() + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            complain("reading %s failed after %zu of %llu bytes%s%s\n", p.file, got,
                    (unsigned long long)size, n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
            close(fd);
            return false;
        }
        got += (size_t)n;
    }
    close(fd);
    if (sn_sim_dram_write(s, p.addr, bytes.data(), size) != 0) {
        complain("%s: the DRAM write at 0x%llx failed\n", p.file, (unsigned long long)p.addr);
        return false;
    }
    placed.push_back({{p.addr, p.addr + size}, p.spec});
    if (bytes_out)
        *bytes_out = size;
    return true;
}

static volatile sig_atomic_t stop_signal = 0;

/* SIGINT/SIGTERM: the run stops at its next mesh cycle and reports where
 * (sn_sim_run's message: sn_sim_stop_where), as `sysnode run` does. */
static void on_signal(int sig)
{
    stop_signal = sig;
    sn_sim_interrupt(sig);
}

int main(int argc, char **argv)
{
    sn_opts o;
    int parsed = sn_opts_parse(SN_TOOL_SIM, argc, argv, &o);
    if (parsed >= 0) {
        sn_opts_free(&o);
        return parsed;
    }
    const char *image = o.operands[0];
    uint64_t max_cycles = o.num[SN_OPT_MAX_CYCLES];
    std::vector<placement> loads;
    placement table = {nullptr, 0, nullptr};
    sn_inject_spec inject = {};
    sn_sim_config cfg = {};
    cfg.lockstep = o.given[SN_OPT_LOCKSTEP] != 0;
    cfg.dram_latency = static_cast<unsigned>(o.num[SN_OPT_DRAM_LATENCY]);
    int gdb_port = o.given[SN_OPT_GDB] ? static_cast<int>(o.num[SN_OPT_GDB]) : -1;
    for (size_t i = 0; i < o.norder; i++)
        if (o.order[i] == SN_OPT_LOAD)
            loads.push_back(placement_of(o.values[i]));
    if (o.given[SN_OPT_TABLE_AT])
        table = placement_of(o.text[SN_OPT_TABLE_AT]);
    char why[256];
    if (o.given[SN_OPT_INJECT] && sn_inject_parse(o.text[SN_OPT_INJECT], &inject, why, sizeof why) != 0) {
        sn_opts_free(&o);
        return sn_opts_usage_error(SN_TOOL_SIM, "%s", why);
    }
    sn_opts_free(&o); /* the values point into argv */
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction old;
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) /* an ignored signal stays ignored */
            sigaction(sig, &sa, nullptr);
    }
    char err[512];
    /* Before the image loads: a port that cannot be served is a refused option, not a run. */
    int gdb_listener = gdb_port >= 0 ? sn_gdb_listen(gdb_port, err, sizeof err) : -1;
    if (gdb_port >= 0 && gdb_listener < 0) {
        complain("--gdb %d: %s\n", gdb_port, err);
        return 2;
    }
    sn_sim *s = sn_sim_create(&cfg, err, sizeof err);
    if (!s) {
        complain("%s\n", err);
        return 125;
    }
    int rc = 125;
    sn_sim_set_inject(s, &inject);
    if (sn_sim_load_image(s, image, err, sizeof err) != 0) {
        complain("%s: %s\n", image, err);
        rc = 2;
    } else {
        bool ok = true;
        for (const placement &l : loads)
            ok = ok && load_file(s, l);
        uint64_t table_bytes = 0;
        if (ok && table.spec) {
            sn_boot_args args = {SN_BOOT_ARGS_MAGIC, SN_BOOT_ARGS_VERSION, 0, 0, 0, 0, sn_sim_dram_size(s), 0};
            ok = load_file(s, table, &table_bytes);
            args.table_addr = table.addr;
            args.table_bytes = table_bytes;
            ok = ok && sn_sim_write_boot_args(s, &args) == 0;
            if (!ok)
                complain("--table %s: not placed\n", table.spec);
        }
        if (!ok)
            rc = 2; /* an input given on the command line could not be placed as asked */
        if (ok && sn_sim_boot(s, err, sizeof err) != 0) {
            complain("boot: %s\n", err);
            ok = false;
        }
        if (ok) {
            sn_run_status r = gdb_listener >= 0 ? sn_sim_run_gdb(s, max_cycles, gdb_listener) : sn_sim_run(s, max_cycles);
            gdb_listener = -1; /* closed by sn_sim_run_gdb */
            print_console(s);
            if (*sn_sim_inject_report(s))
                printf("sysnode-sim: %s\n", sn_sim_inject_report(s));
            if (sn_sim_dropped_gos(s) != 0)
                printf("sysnode-sim: %u GO%s dropped\n", sn_sim_dropped_gos(s), sn_sim_dropped_gos(s) == 1 ? "" : "s");
            switch (r.stop) {
            case SN_RUN_EXITED:
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
            case SN_RUN_CYCLE_LIMIT:
                printf("sysnode-sim: stopped at the --max-cycles cap after %llu cycles (pc 0x%llx): %s\n",
                       (unsigned long long)r.cycles, (unsigned long long)r.pc, r.message);
                rc = 124;
                break;
            case SN_RUN_HALTED:
                printf("sysnode-sim: core halted, cause %u at pc 0x%llx: %s\n", r.halt_cause,
                       (unsigned long long)r.pc, r.message);
                break;
            default:
                printf("sysnode-sim: simulation error: %s\n", r.message);
            }
            std::string errata = sn_sim_errata(s);
            if (!errata.empty())
                fflush(stdout); /* the warnings follow the verdict in a merged stream too */
            for (size_t at = 0, nl; at < errata.size(); at = nl + 1) {
                nl = errata.find('\n', at);
                fprintf(stderr, "sysnode-sim: warning: the core's erratum reproduced: %s\n",
                        errata.substr(at, nl - at).c_str());
            }
        }
    }
    sn_sim_destroy(s);
    if (gdb_listener >= 0)
        close(gdb_listener);
    if (stop_signal)
        rc = 128 + stop_signal;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        complain("writing to standard output failed: %s\n", strerror(errno));
        return rc == 0 ? 1 : rc;
    }
    return rc;
}
