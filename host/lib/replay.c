/* A replay session on the in-process simulator (see replay.h). */
#include "replay.h"

#include <stdio.h>
#include <string.h>

#include "artifact.h"
#include "manifest.h"
#include "sim.h"

static const char RUNNER_OK[] = "runner: ok ";

/* The runner's summary line: "runner: ok rounds=R flits=F completions=C ...". */
static void parse_summary(const char *console, sn_replay_result *res)
{
    const char *line = strstr(console, RUNNER_OK);
    unsigned rounds, flits, completions;
    if (line && sscanf(line + sizeof RUNNER_OK - 1, "rounds=%u flits=%u completions=%u", &rounds, &flits,
                       &completions) == 3) {
        res->flits = flits;
        res->completions = completions;
    }
}

static sn_status run_status(const sn_sim_result *r, sn_sim *sim, const char *image, sn_error *e)
{
    const char *console = sn_sim_console(sim);
    sn_status_block sb;
    switch (r->stop) {
    case SN_SIM_EXITED:
        if (r->exit_code == SN_OK)
            return SN_OK;
        return sn_error_set(e, r->exit_code < 0x100 ? (sn_status)r->exit_code : SN_ERR_INTERNAL,
                            "%s exited with 0x%llx after %llu cycles: %s", image,
                            (unsigned long long)r->exit_code, (unsigned long long)r->cycles, console);
    case SN_SIM_HALTED:
        return sn_error_set(e, SN_ERR_TRAP, "%s: core halted, cause %u at pc 0x%llx: %s", image, r->halt_cause,
                            (unsigned long long)r->pc, console);
    case SN_SIM_CYCLE_LIMIT:
        if (sn_sim_status_block(sim, &sb) == 0)
            return sn_error_set(e, SN_ERR_HANG,
                                "hang: no exit after %llu cycles; runner in phase %u, round %u, step %u, "
                                "waiting on node (%u,%u); %u flits sent, %u completions",
                                (unsigned long long)r->cycles, sb.phase, sb.round, sb.step, sb.wait_node & 0xF,
                                (sb.wait_node >> 4) & 0xF, sb.flits_sent, sb.completions);
        return sn_error_set(e, SN_ERR_HANG, "hang: no exit after %llu cycles (pc 0x%llx)",
                            (unsigned long long)r->cycles, (unsigned long long)r->pc);
    default:
        return sn_error_set(e, SN_ERR_INTERNAL, "simulation stopped: %s", r->message);
    }
}

static sn_status place_operands(sn_sim *sim, const sn_manifest *m, sn_error *e)
{
    static const unsigned char poison[4096] = {[0 ... 4095] = SN_REPLAY_POISON};
    for (size_t i = 0; i < m->upload_count; i++) {
        const sn_region *u = &m->uploads[i];
        if (sn_sim_dram_write(sim, u->addr, u->data, u->nbytes) != 0)
            return sn_error_set(e, SN_ERR_INPUT, "%s: upload %s (%llu bytes at 0x%llx) does not fit DRAM",
                                m->path, u->file, (unsigned long long)u->nbytes, (unsigned long long)u->addr);
    }
    for (size_t i = 0; i < m->expected_count; i++) {
        const sn_region *x = &m->expected[i];
        for (uint64_t off = 0; off < x->nbytes; off += sizeof poison) {
            uint64_t n = x->nbytes - off < sizeof poison ? x->nbytes - off : sizeof poison;
            if (sn_sim_dram_write(sim, x->addr + off, poison, n) != 0)
                return sn_error_set(e, SN_ERR_INPUT, "%s: expected output %s (%llu bytes at 0x%llx) does not fit DRAM",
                                    m->path, x->file, (unsigned long long)x->nbytes, (unsigned long long)x->addr);
        }
    }
    return SN_OK;
}

static sn_status compare_outputs(sn_sim *sim, const sn_manifest *m, sn_replay_result *res, sn_error *e)
{
    unsigned char buf[4096];
    res->match = 1;
    for (size_t i = 0; i < m->expected_count; i++) {
        const sn_region *x = &m->expected[i];
        res->output_bytes += x->nbytes;
        for (uint64_t off = 0; off < x->nbytes; off += sizeof buf) {
            uint64_t n = x->nbytes - off < sizeof buf ? x->nbytes - off : sizeof buf;
            if (sn_sim_dram_read(sim, x->addr + off, buf, n) != 0)
                return sn_error_set(e, SN_ERR_INTERNAL, "cannot read back 0x%llx", (unsigned long long)(x->addr + off));
            for (uint64_t k = 0; k < n && res->match; k++) {
                if (buf[k] != x->data[off + k]) {
                    res->match = 0;
                    res->diff_offset = off + k;
                    res->diff_addr = x->addr + off + k;
                    snprintf(res->diff_file, sizeof res->diff_file, "%s", x->file);
                    res->got = buf[k];
                    res->want = x->data[off + k];
                }
            }
        }
    }
    return res->match ? SN_OK
                      : sn_error_set(e, SN_ERR_MISMATCH, "%s: offset %llu (0x%llx, DRAM 0x%llx): got 0x%02x, expected 0x%02x",
                                     res->diff_file, (unsigned long long)res->diff_offset,
                                     (unsigned long long)res->diff_offset, (unsigned long long)res->diff_addr,
                                     res->got, res->want);
}

sn_status sn_replay_case(const sn_replay_opts *opts, sn_replay_result *res, sn_error *e)
{
    sn_manifest m;
    sn_program prog;
    sn_status st;
    char err[512];
    memset(res, 0, sizeof *res);
    memset(&prog, 0, sizeof prog);

    /* Read and check everything before anything boots. */
    if ((st = sn_manifest_load(&m, opts->case_dir, e)) != SN_OK || (st = sn_manifest_read_data(&m, e)) != SN_OK ||
        (st = sn_program_load_case(&prog, opts->case_dir, e)) != SN_OK) {
        sn_program_free(&prog);
        sn_manifest_free(&m);
        return st;
    }
    snprintf(res->name, sizeof res->name, "%s", m.name);
    res->rounds = (uint32_t)sn_program_table(&prog).round_count;

    sn_sim *sim = sn_sim_create(NULL, err, sizeof err);
    if (!sim) {
        st = sn_error_set(e, SN_ERR_INTERNAL, "simulator: %s", err);
    } else if (sn_sim_load_image(sim, opts->image, err, sizeof err) != 0) {
        st = sn_error_set(e, SN_ERR_INPUT, "%s: %s", opts->image, err);
    } else if ((st = place_operands(sim, &m, e)) == SN_OK) {
        sn_sim_result r = sn_sim_run(sim, opts->max_cycles);
        res->cycles = r.cycles;
        res->instret = r.instret;
        parse_summary(sn_sim_console(sim), res);
        st = run_status(&r, sim, opts->image, e);
        if (st == SN_OK)
            st = compare_outputs(sim, &m, res, e);
    }
    sn_sim_destroy(sim);
    sn_program_free(&prog);
    sn_manifest_free(&m);
    return st;
}
