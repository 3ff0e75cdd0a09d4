// One mesh router: five ports (local, north, south, east, west), a FIFO of
// FIFO_DEPTH flits and one hold slot on every input, an output register on
// every output, XY dimension-order routing on clamped coordinates, and
// rotating-priority arbitration per output over valid/ready links. A flit
// tapped on an input link taps on its output link 3 cycles later (FIFO, hold
// slot, output register); an output register holding a flit its receiver
// does not take blocks that output for every input; the priority pointer
// moves every cycle, not per grant (unit-timing §5, NoCRouter,
// src/kohakuaccel/noc/router/noc_router.v@7703ee80). Routing restates noc_inport.v: the destination is clamped into the
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
    input  logic [4:0]   out_ready,
    // cycles the coming edge stands for (sn_mesh_top): the pointer's step
    input  logic [31:0]  edge_cycles,
    // nothing moves inside on the coming edge: no FIFO head enters a hold
    // slot, no hold slot enters an output register
    output logic         quiet
);
    logic [4:0]   fifo_valid, fifo_pop, hold_valid, hold_pop;
    logic [287:0] fifo_flit[5], hold_flit[5];
    logic [2:0]   hold_port[5];

    for (genvar i = 0; i < 5; i++) begin : input_port
        logic empty, full;
        logic [$clog2(FIFO_DEPTH+1)-1:0] used;
        sn_fifo #(.W(288), .D(FIFO_DEPTH)) buffer (
            .clk, .rst_n, .push(in_valid[i] && !full), .din(in_flit[i]),
            .pop(fifo_pop[i]), .dout(fifo_flit[i]), .empty, .full, .count(used));
        assign in_ready[i] = !full;
        assign fifo_valid[i] = !empty;
        // the hold slot takes the FIFO's head when it is empty or handing its flit on
        assign fifo_pop[i] = fifo_valid[i] && (!hold_valid[i] || hold_pop[i]);
        always_ff @(posedge clk or negedge rst_n) begin
            if (!rst_n) begin
                hold_valid[i] <= 1'b0;
            end else if (fifo_pop[i]) begin
                hold_valid[i] <= 1'b1;
                hold_flit[i] <= fifo_flit[i];
                hold_port[i] <= route(sn_flit_hdr_dst_x(sn_flit_hdr_of(fifo_flit[i])),
                                      sn_flit_hdr_dst_y(sn_flit_hdr_of(fifo_flit[i])));
            end else if (hold_pop[i]) begin
                hold_valid[i] <= 1'b0;
            end
        end
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

    // Rotating priority in the order N, E, S, W, local (unit-timing §5): the
    // input at the pointer first; the pointer moves on every cycle.
    function automatic logic [2:0] port_of_rank(input int unsigned r);
        case (r)
            0: return PORT_NORTH;
            1: return PORT_EAST;
            2: return PORT_SOUTH;
            3: return PORT_WEST;
            default: return PORT_LOCAL;
        endcase
    endfunction

    logic [2:0] ptr;
    logic [4:0] out_free, load;
    logic [2:0] grant[5];
    logic [287:0] out_q[5];

    always_comb begin
        for (int o = 0; o < 5; o++) begin
            out_free[o] = !out_valid[o] || out_ready[o];
            load[o] = 1'b0;
            grant[o] = '0;
            for (int k = 4; k >= 0; k--) begin
                logic [2:0] i;
                i = port_of_rank((int'(ptr) + k) % 5);
                if (hold_valid[i] && hold_port[i] == 3'(o)) begin
                    load[o] = out_free[o];
                    grant[o] = i;
                end
            end
        end
        hold_pop = '0;
        for (int o = 0; o < 5; o++)
            if (load[o]) hold_pop[grant[o]] = 1'b1;
    end

    // apart from the grant logic, so that no flit depends on a ready
    for (genvar o = 0; o < 5; o++) begin : output_port
        assign out_flit[o] = out_q[o];
    end

    assign quiet = fifo_pop == '0 && load == '0;

    wire [31:0] step = edge_cycles > 1 ? edge_cycles : 32'd1;
    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ptr <= '0;
            out_valid <= '0;
        end else begin
            ptr <= 3'((32'(ptr) + step % 5) % 5);
            for (int o = 0; o < 5; o++) begin
                if (load[o]) begin
                    out_valid[o] <= 1'b1;
                    out_q[o] <= hold_flit[grant[o]];
                end else if (out_valid[o] && out_ready[o]) begin
                    out_valid[o] <= 1'b0;
                end
            end
        end
    end
endmodule
