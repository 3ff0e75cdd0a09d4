/* The Verilated mesh (sim/rtl sn_mesh_top) with its DPI unit models, driven
 * through the top's CPU ports as a CPU would drive the mailbox: GOs,
 * completion pops, CU_CTRL reads. One edge per tick; the DPI calls see the
 * tick's cycle as sim.cpp has them see the mesh cycle. Shared by the
 * Verilator-level tests of tests/sim. */
#ifndef SN_TESTS_MESH_HARNESS_H
#define SN_TESTS_MESH_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <memory>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "Vsn_mesh_top.h"
#include "dpi_units.h"
#include "verilated.h"

struct completion {
    unsigned x, y, code, arg;
};

struct mesh {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vsn_mesh_top> top;
    sn_dram dram{};
    sn_dpi_units units{};
    uint64_t cycle = 0;
    bool noroute_seen = false;
    unsigned noroute_coord = 0;

    explicit mesh(unsigned cu_version, uint64_t dram_bytes = 1u << 20, unsigned dram_latency = 0)
    {
        assert_int_equal(sn_dram_init(&dram, dram_bytes), SN_OK);
        sn_dpi_units_init(&units, &dram, dram_latency);
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vsn_mesh_top>(ctx.get(), "mesh");
        sn_dpi_units_bind(&units);
        top->cfg_cu_version = (uint8_t)cu_version;
        top->cfg_mbox_drop_on_full = 0;
        top->cpu_wr = 0;
        top->rst_n = 0;
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        top->rst_n = 1;
        top->clk = 0;
        top->eval();
    }
    ~mesh()
    {
        top->final();
        sn_dram_free(&dram);
    }

    void tick()
    {
        sn_dpi_units_bind(&units);
        units.now = cycle; // the cycle the DPI calls of this edge see, as sim.cpp sets it
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        cycle++;
        if (top->noroute_valid) {
            noroute_seen = true;
            noroute_coord = top->noroute_coord;
        }
        if (units.error[0])
            fail_msg("model error: %s", units.error);
        assert_int_equal(top->bad_flit, 0);
    }
    void run(uint64_t n)
    {
        for (uint64_t i = 0; i < n; i++)
            tick();
    }
    void write(uint32_t off, uint64_t v)
    {
        top->cpu_wr = 1;
        top->cpu_addr = off;
        top->cpu_wdata = v;
        tick();
        top->cpu_wr = 0;
    }
    uint64_t read(uint32_t off)
    {
        top->cpu_wr = 0;
        top->cpu_addr = off;
        top->eval();
        return top->cpu_rdata;
    }
    unsigned queued() { return (unsigned)sn_stat_queued(read(SN_MBOX_STAT)); }

    // One GO with payload p (p.w[0] = ARG0); type < 0 sends CU_INST.
    void send(unsigned x, unsigned y, const sn_payload &p, int type = -1)
    {
        for (int i = 0; sn_stat_offered(read(SN_MBOX_STAT)); i++) {
            assert_true(i < 10000);
            tick();
        }
        uint64_t dst = SN_DST_VALUE(x, y);
        if (type >= 0)
            dst = sn_dst_with_type(sn_dst_with_typed(dst, 1), (uint64_t)type);
        write(SN_MBOX_DST, dst);
        write(SN_MBOX_ARG0, p.w[0]);
        write(SN_MBOX_ARG1, p.w[1]);
        write(SN_MBOX_ARG2, p.w[2]);
        write(SN_MBOX_ARG3, p.w[3]);
        write(SN_MBOX_GO, 1);
    }
    // Ticks until n completions are queued; returns the cycles waited.
    uint64_t wait_queued(unsigned n, uint64_t limit = 200000)
    {
        uint64_t start = cycle;
        while (queued() < n) {
            assert_true(cycle - start < limit);
            tick();
        }
        return cycle - start;
    }
    completion pop()
    {
        uint64_t w = read(SN_MBOX_HEAD);
        write(SN_MBOX_HEAD, 0);
        return completion{(unsigned)sn_head_src_x(w), (unsigned)sn_head_src_y(w), (unsigned)sn_head_code(w),
                          (unsigned)sn_head_arg(w)};
    }
    std::vector<completion> take(unsigned n)
    {
        std::vector<completion> out;
        for (unsigned i = 0; i < n; i++) {
            wait_queued(1);
            out.push_back(pop());
        }
        return out;
    }
    // A CU_CTRL read of register idx of (x, y): the reply through the RX queue.
    uint64_t ctrl_read(unsigned x, unsigned y, unsigned idx)
    {
        sn_payload p{};
        sn_ctrl_req_set_index(&p, idx);
        send(x, y, p, SN_T_CU_CTRL);
        for (int i = 0; !(read(SN_CTRL_RX_HDR) >> 63); i++) {
            assert_true(i < 10000);
            tick();
        }
        uint64_t hdr = read(SN_CTRL_RX_HDR);
        // header[31:0] = flit[287:256]: src_x [23:20], src_y [19:16], type [15:12]
        assert_int_equal(hdr >> 20 & 0xF, x);
        assert_int_equal(hdr >> 16 & 0xF, y);
        assert_int_equal(hdr >> 12 & 0xF, SN_T_CU_CTRL);
        sn_payload r;
        for (int i = 0; i < 4; i++)
            r.w[i] = read(SN_CTRL_RX_P0 + 8 * i);
        write(SN_CTRL_RX_HDR, 0);
        assert_int_equal(sn_ctrl_reply_op(&r), 2);   // op = reply
        assert_int_equal(sn_ctrl_reply_index(&r), idx); // index echoed
        return sn_ctrl_reply_value(&r);
    }
};

#endif
