// The skeleton fabric: a single-cycle crossbar that delivers each flit to the
// port whose coordinate equals the flit's (dst_x, dst_y), with round-robin
// arbitration per output. It stands in for the XY routers of rv64_mesh_2p2
// (a simplification named in sim/README.md). A flit to a coordinate with no
// port is consumed and flagged on noroute_* so the harness stops the run
// naming it (sysnode-facts open question 6: the card's behaviour is unknown).
module sn_xbar
    import sn_regs_pkg::*;
#(
    parameter int unsigned N = 2,
    // coordinate of port i at bits [8i+7:8i] as {y[3:0], x[3:0]}
    parameter bit [N*8-1:0] COORDS = '0
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic [N-1:0] in_valid,
    input  logic [287:0] in_flit[N],
    output logic [N-1:0] in_ready,
    output logic [N-1:0] out_valid,
    output logic [287:0] out_flit[N],
    // out_ready -> in_ready looks circular to Verilator at vector granularity;
    // no bit of it is (endpoint readiness does not depend on in_ready).
    /* verilator lint_off UNOPTFLAT */
    input  logic [N-1:0] out_ready,
    /* verilator lint_on UNOPTFLAT */
    output logic         noroute_valid,
    output logic [7:0]   noroute_coord
);
    localparam int unsigned PW = (N > 1) ? $clog2(N) : 1;

    logic [PW-1:0] dest[N];
    logic [N-1:0]  dest_ok;
    logic [PW-1:0] sel[N];
    logic [PW-1:0] rr[N];

    always_comb begin
        for (int i = 0; i < N; i++) begin
            dest[i] = '0;
            dest_ok[i] = 1'b0;
            for (int p = 0; p < N; p++) begin
                if (COORDS[p*8 +: 8] == {in_flit[i][SN_FLIT_DST_Y_LO +: 4], in_flit[i][SN_FLIT_DST_X_LO +: 4]}) begin
                    dest[i] = PW'(p);
                    dest_ok[i] = 1'b1;
                end
            end
        end
    end

    always_comb begin
        for (int o = 0; o < N; o++) begin
            out_valid[o] = 1'b0;
            sel[o] = '0;
            for (int k = N - 1; k >= 0; k--) begin
                int i;
                i = (int'(rr[o]) + k) % N;
                if (in_valid[i] && dest_ok[i] && dest[i] == PW'(o)) begin
                    out_valid[o] = 1'b1;
                    sel[o] = PW'(i);
                end
            end
            out_flit[o] = in_flit[sel[o]];
        end
        noroute_valid = 1'b0;
        noroute_coord = '0;
        for (int i = 0; i < N; i++) begin
            in_ready[i] = dest_ok[i] ? (sel[dest[i]] == PW'(i) && out_valid[dest[i]] && out_ready[dest[i]])
                                     : 1'b1;
            if (in_valid[i] && !dest_ok[i]) begin
                noroute_valid = 1'b1;
                noroute_coord = {in_flit[i][SN_FLIT_DST_Y_LO +: 4], in_flit[i][SN_FLIT_DST_X_LO +: 4]};
            end
        end
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int o = 0; o < N; o++) rr[o] <= '0;
        end else begin
            for (int o = 0; o < N; o++)
                if (out_valid[o] && out_ready[o]) rr[o] <= PW'((int'(sel[o]) + 1) % N);
        end
    end
endmodule
