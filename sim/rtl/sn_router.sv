// One mesh router: five ports (local, north, south, east, west), a FIFO of
// FIFO_DEPTH flits on every input, XY dimension-order routing on clamped
// coordinates, and round-robin arbitration per output over valid/ready
// links. Routing restates noc_inport.v: the destination is clamped into the
// router grid [GRID_LO, GRID_X_HI] x [GRID_LO, GRID_Y_HI]; x is resolved
// first (below this router's x goes west, above goes east), then y (below
// goes north, above south); at the router the unclamped destination picks
// the outward hop to a border endpoint, else the flit is local. Arbitration
// is per flit, as in noc_outport.v: a multi-flit CU_DATA burst can interleave
// with another sender's flits at a shared output.
// Facts: sysnode-facts §3.1 (flit header), §5 (rv64_mesh_2p2); KohakuTPU
// src/kohakuaccel/noc/router/noc_inport.v@23a7e65 and noc_outport.v@b12b29c,
// docs/spec/flit-format.md@1a77e97e §2.1.
module sn_router
    import sn_regs_pkg::*, sn_mesh_pkg::*;
#(
    parameter int unsigned MY_X = 1,
    parameter int unsigned MY_Y = 1,
    parameter int unsigned GRID_LO = 1,
    parameter int unsigned GRID_X_HI = 1,
    parameter int unsigned GRID_Y_HI = 1,
    parameter int unsigned FIFO_DEPTH = 512
) (
    input  logic         clk,
    input  logic         rst_n,
    // index = port: PORT_LOCAL .. PORT_WEST (sn_mesh_pkg)
    input  logic [4:0]   in_valid,
    input  logic [287:0] in_flit[5],
    output logic [4:0]   in_ready,
    output logic [4:0]   out_valid,
    output logic [287:0] out_flit[5],
    input  logic [4:0]   out_ready
);
    logic [4:0]   head_valid, head_pop;
    logic [287:0] head_flit[5];
    logic [2:0]   head_port[5];

    for (genvar i = 0; i < 5; i++) begin : input_port
        logic empty, full;
        logic [$clog2(FIFO_DEPTH+1)-1:0] used;
        sn_fifo #(.W(288), .D(FIFO_DEPTH)) buffer (
            .clk, .rst_n, .push(in_valid[i] && !full), .din(in_flit[i]),
            .pop(head_pop[i]), .dout(head_flit[i]), .empty, .full, .count(used));
        assign in_ready[i] = !full;
        assign head_valid[i] = !empty;
        assign head_port[i] = route(sn_flit_hdr_dst_x(sn_flit_hdr_of(head_flit[i])), sn_flit_hdr_dst_y(sn_flit_hdr_of(head_flit[i])));
    end

    function automatic logic [3:0] clamp(input logic [3:0] v, input int unsigned hi);
        if (v < 4'(GRID_LO)) return 4'(GRID_LO);
        if (v > 4'(hi)) return 4'(hi);
        return v;
    endfunction

    function automatic logic [2:0] route(input logic [3:0] dst_x, input logic [3:0] dst_y);
        logic [3:0] x, y;
        x = clamp(dst_x, GRID_X_HI);
        y = clamp(dst_y, GRID_Y_HI);
        // Off the router's column the clamped x decides; on it, the clamped y;
        // at the router the raw coordinate names the border hop (x first).
        if (x != 4'(MY_X)) return x < 4'(MY_X) ? PORT_WEST : PORT_EAST;
        if (y != 4'(MY_Y)) return y < 4'(MY_Y) ? PORT_NORTH : PORT_SOUTH;
        if (dst_x != 4'(MY_X)) return dst_x < 4'(MY_X) ? PORT_WEST : PORT_EAST;
        if (dst_y != 4'(MY_Y)) return dst_y < 4'(MY_Y) ? PORT_NORTH : PORT_SOUTH;
        return PORT_LOCAL;
    endfunction

    // Round-robin per output: the search starts at the input after the one
    // granted last.
    logic [2:0] rr_next[5];
    logic [2:0] grant[5];

    always_comb begin
        for (int o = 0; o < 5; o++) begin
            out_valid[o] = 1'b0;
            grant[o] = '0;
            for (int k = 4; k >= 0; k--) begin
                logic [2:0] i;
                i = 3'((int'(rr_next[o]) + k) % 5);
                if (head_valid[i] && head_port[i] == 3'(o)) begin
                    out_valid[o] = 1'b1;
                    grant[o] = i;
                end
            end
            out_flit[o] = head_flit[grant[o]];
        end
    end

    // Kept apart from the grant logic so that no flit depends on a ready.
    always_comb begin
        head_pop = '0;
        for (int o = 0; o < 5; o++)
            if (out_valid[o] && out_ready[o]) head_pop[grant[o]] = 1'b1;
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int o = 0; o < 5; o++) rr_next[o] <= '0;
        end else begin
            for (int o = 0; o < 5; o++)
                if (out_valid[o] && out_ready[o]) rr_next[o] <= (grant[o] == 3'd4) ? 3'd0 : grant[o] + 3'd1;
        end
    end
endmodule
