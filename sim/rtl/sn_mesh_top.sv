// The simulated mesh as the SysNode CPU sees it: a grid of XY routers
// (sn_router) at [GRID_LO, GRID_X_HI] x [GRID_LO, GRID_Y_HI], the units of a
// list (coordinates and types) on the router ports their coordinates reach,
// and the SysNode (mailbox (0,0) and memory node (0,1)) behind the hub on the
// west port of router (GRID_LO, GRID_LO). A router port with no neighbour
// and no unit ends in a sink that reports any flit it receives. The default
// parameters build rv64_mesh_2p2: one router at (1,1); local mat0 (1,1),
// east mat1 (2,1), north vec0 (1,0), south vec1 (1,2), west the SysNode.
// The memory node's flit interface is not modelled: units reach DRAM through
// DPI with modelled latency (dpi_units.h), the hub's stall holds that traffic
// too, and a flit sent to (0,1) is reported like one with no endpoint.
// Facts: DESIGN.md §6, sysnode-facts §5 (rv64_mesh_2p2, R-2P2), §2.4.
module sn_mesh_top
    import sn_regs_pkg::*, sn_mesh_pkg::*;
#(
    parameter int unsigned GRID_LO = 1,
    parameter int unsigned GRID_X_HI = 1,
    parameter int unsigned GRID_Y_HI = 1,
    parameter int unsigned ROUTER_FIFO_DEPTH = 512,
    parameter int unsigned N_UNITS = SN_MESH_UNITS,
    // unit u: coordinate UNIT_X[u], UNIT_Y[u] and CU type UNIT_TYPE[u]
    // (packed, so element 0 is written last); u is also its C model index
    // (dpi_units.h). Default: the mesh of sysnode/mesh.h in its order
    // (SN_MESH_2P2_INIT), generated into sn_regs_pkg.
    parameter bit [N_UNITS-1:0][3:0] UNIT_X = SN_MESH_UNIT_X,
    parameter bit [N_UNITS-1:0][3:0] UNIT_Y = SN_MESH_UNIT_Y,
    parameter bit [N_UNITS-1:0][15:0] UNIT_TYPE = SN_MESH_UNIT_TYPE
) (
    input  logic        clk,
    input  logic        rst_n,
    // every unit's CU_VERSION (4 or 5); set before reset, held during a run
    input  logic [7:0]  cfg_cu_version,
    // cycles the coming rising edge stands for (0 or 1: one). More only while
    // `quiet`, and at most `quiet_cycles`: a jump over cycles in which only
    // busy countdowns move (sim/README.md, Clocking)
    input  logic [31:0] edge_cycles,
    // the older mailbox generation: drop a completion on a full queue, set STAT[31]
    input  logic        cfg_mbox_drop_on_full,
    input  logic        cpu_wr,
    input  logic [9:0]  cpu_addr,
    input  logic [63:0] cpu_wdata,
    // earlier CPU stores to DST (bit 0) and ARG0..ARG3 (bits 1..4) whose
    // cycles this edge stands for, written at it: the harness defers such a
    // store inside a quiet stretch (sim/README.md, Clocking). Value i is
    // cpu_late_wdata[64*i +: 64].
    input  logic [4:0]  cpu_late_wr,
    input  logic [319:0] cpu_late_wdata,
    output logic [63:0] cpu_rdata,
    output logic        noroute_valid,
    output logic [7:0]  noroute_coord,
    output logic [31:0] accepted_go,
    output logic [31:0] dropped_go,
    output logic [N_UNITS-1:0] bad_flit,
    // the hub holds the SysNode's inbound link (the mailbox refuses)
    output logic        hub_stalled,
    // no flit crosses any link on the coming edge (every router, unit, hub
    // and sink port: valid without ready, or nothing offered) and no unit
    // moves inside but for its busy countdown. The state then stays as it is,
    // countdowns aside, until one ends, a write lands or the CPU acts.
    output logic        quiet,
    // while quiet: cycles before the first unit countdown reaches its last
    // work cycle (all ones: none running). DRAM write landings are the
    // harness's to bound (dpi_units.h).
    output logic [31:0] quiet_cycles
);
    // Lands unit DRAM writes whose time has come; time stands still while
    // the hub is stalled (dpi_units.h).
    import "DPI-C" function void sn_dpi_mem_tick(input bit stalled, input int unsigned cycles);

    localparam int unsigned NX = GRID_X_HI - GRID_LO + 1;
    localparam int unsigned NR = NX * (GRID_Y_HI - GRID_LO + 1);
    localparam int unsigned NP = NR * 5;  // router ports, index r*5 + port

    // The unit whose coordinate is (x, y), or N_UNITS when there is none.
    function automatic int unsigned unit_at(input int x, input int y);
        for (int u = 0; u < int'(N_UNITS); u++)
            if (int'(UNIT_X[u]) == x && int'(UNIT_Y[u]) == y) return u;
        return N_UNITS;
    endfunction

    // ---- routers ----
    logic [NP-1:0] rp_in_valid, rp_in_ready, rp_out_valid, rp_out_ready;
    logic [287:0]  rp_out_flit[NP];

    // ---- units ----
    logic [N_UNITS-1:0] u_in_valid, u_in_ready, u_out_valid, u_out_ready, u_misrouted, u_quiet;
    logic [31:0]        u_quiet_cycles[N_UNITS];
    logic [287:0]       u_in_flit[N_UNITS], u_out_flit[N_UNITS];
    logic [7:0]         u_misrouted_coord[N_UNITS];

    // ---- the SysNode: hub, mailbox, memory node ----
    logic         hub_in_valid, hub_in_ready, hub_out_valid, hub_out_ready;
    logic [287:0] hub_in_flit, hub_out_flit;
    logic         mbox_in_valid, mbox_in_ready, mbox_out_valid, mbox_out_ready;
    logic [287:0] mbox_out_flit;
    logic         mem_in_valid, mem_out_ready;
    logic         hub_noroute;
    logic [7:0]   hub_noroute_coord;

    // border ports without an endpoint
    logic [NR-1:0] r_quiet;  // per router: nothing moves inside it on the coming edge
    logic [NP-1:0] sink_hit;
    logic [7:0]    sink_coord[NP];

    for (genvar gy = GRID_LO; gy <= GRID_Y_HI; gy++) begin : row
        for (genvar gx = GRID_LO; gx <= GRID_X_HI; gx++) begin : col
            localparam int unsigned R = (gy - GRID_LO) * NX + (gx - GRID_LO);
            logic [287:0] in_flit[5], out_flit[5];
            sn_router #(
                .MY_X(gx), .MY_Y(gy), .GRID_LO(GRID_LO), .GRID_X_HI(GRID_X_HI), .GRID_Y_HI(GRID_Y_HI),
                .FIFO_DEPTH(ROUTER_FIFO_DEPTH)
            ) router (
                .clk, .rst_n,
                .in_valid(rp_in_valid[R*5 +: 5]), .in_flit, .in_ready(rp_in_ready[R*5 +: 5]),
                .out_valid(rp_out_valid[R*5 +: 5]), .out_flit, .out_ready(rp_out_ready[R*5 +: 5]),
                .edge_cycles, .quiet(r_quiet[R]));

            for (genvar p = 0; p < 5; p++) begin : port
                // the coordinate one hop out of this port (local: the router's own)
                localparam int EX = p == PORT_EAST ? gx + 1 : p == PORT_WEST ? gx - 1 : gx;
                localparam int EY = p == PORT_SOUTH ? gy + 1 : p == PORT_NORTH ? gy - 1 : gy;
                localparam bit NEIGHBOUR = p != PORT_LOCAL && EX >= int'(GRID_LO) && EX <= int'(GRID_X_HI)
                                           && EY >= int'(GRID_LO) && EY <= int'(GRID_Y_HI);
                localparam bit HUB = p == PORT_WEST && gx == GRID_LO && gy == GRID_LO;
                localparam int unsigned U = unit_at(EX, EY);
                localparam int unsigned I = R*5 + p;
                assign rp_out_flit[I] = out_flit[p];
                if (NEIGHBOUR) begin : link
                    localparam int unsigned J = ((EY - GRID_LO) * NX + (EX - GRID_LO)) * 5
                        + 32'(opposite(3'(p)));
                    assign rp_in_valid[I] = rp_out_valid[J];
                    assign in_flit[p] = rp_out_flit[J];
                    assign rp_out_ready[I] = rp_in_ready[J];
                    assign sink_hit[I] = 1'b0;
                    assign sink_coord[I] = '0;
                end else if (HUB) begin : sysnode
                    assign hub_in_valid = rp_out_valid[I];
                    assign hub_in_flit = rp_out_flit[I];
                    assign rp_out_ready[I] = hub_in_ready;
                    assign rp_in_valid[I] = hub_out_valid;
                    assign in_flit[p] = hub_out_flit;
                    assign hub_out_ready = rp_in_ready[I];
                    assign sink_hit[I] = 1'b0;
                    assign sink_coord[I] = '0;
                end else if (U < N_UNITS) begin : unit_port
                    assign u_in_valid[U] = rp_out_valid[I];
                    assign u_in_flit[U] = rp_out_flit[I];
                    assign rp_out_ready[I] = u_in_ready[U];
                    assign rp_in_valid[I] = u_out_valid[U];
                    assign in_flit[p] = u_out_flit[U];
                    assign u_out_ready[U] = rp_in_ready[I];
                    assign sink_hit[I] = 1'b0;
                    assign sink_coord[I] = '0;
                end else begin : sink
                    assign rp_out_ready[I] = 1'b1;
                    assign rp_in_valid[I] = 1'b0;
                    assign in_flit[p] = '0;
                    assign sink_hit[I] = rp_out_valid[I];
                    assign sink_coord[I] = {sn_flit_hdr_dst_y(sn_flit_hdr_of(rp_out_flit[I])),
                                             sn_flit_hdr_dst_x(sn_flit_hdr_of(rp_out_flit[I]))};
                end
            end
        end
    end

    // cfg_cu_version as of the last reset (the port holds it during a run): as
    // a register, the units' reply logic and the router it feeds leave the
    // input logic Verilator runs at every eval (matmul_512x256x512: 819 M ->
    // 728 M instructions). Not traced: an FST dump keeps its signals.
    // verilator tracing_off
    logic [7:0] cu_version_q;
    // verilator tracing_on
    always_ff @(posedge clk or negedge rst_n)
        if (!rst_n) cu_version_q <= cfg_cu_version;

    // cfg_mbox_drop_on_full as a register, loaded at reset and set when the
    // line rises (the injector raises it mid-run, before the edge it acts at;
    // it falls only with a reset): the mailbox's in_ready, the hub stall and
    // everything they feed leave the input logic Verilator runs at every eval.
    // verilator tracing_off
    logic drop_on_full_q;
    // verilator tracing_on
    always_ff @(posedge cfg_mbox_drop_on_full or negedge rst_n)
        if (!rst_n) drop_on_full_q <= cfg_mbox_drop_on_full;
        else drop_on_full_q <= 1'b1;

    for (genvar u = 0; u < N_UNITS; u++) begin : unit
        sn_unit_shell #(
            .MY_X(32'(UNIT_X[u])), .MY_Y(32'(UNIT_Y[u])), .UNIT_INDEX(u), .CU_TYPE(32'(UNIT_TYPE[u]))
        ) shell (
            .clk, .rst_n, .cfg_cu_version(cu_version_q), .hub_stalled, .edge_cycles,
            .quiet(u_quiet[u]), .quiet_cycles(u_quiet_cycles[u]),
            .in_valid(u_in_valid[u]), .in_flit(u_in_flit[u]), .in_ready(u_in_ready[u]),
            .out_valid(u_out_valid[u]), .out_flit(u_out_flit[u]), .out_ready(u_out_ready[u]),
            .bad_flit(bad_flit[u]),
            .misrouted_valid(u_misrouted[u]), .misrouted_coord(u_misrouted_coord[u]));
    end

    sn_hub hub (
        .link_in_valid(hub_in_valid), .link_in_flit(hub_in_flit), .link_in_ready(hub_in_ready),
        .link_out_valid(hub_out_valid), .link_out_flit(hub_out_flit), .link_out_ready(hub_out_ready),
        .mbox_in_valid, .mbox_in_ready,
        .mbox_out_valid, .mbox_out_flit, .mbox_out_ready,
        .mem_in_valid, .mem_in_ready(1'b1),
        .mem_out_valid(1'b0), .mem_out_flit('0), .mem_out_ready,
        .stalled(hub_stalled), .noroute_valid(hub_noroute), .noroute_coord(hub_noroute_coord));

    sn_mailbox #(.MY_X(SN_SYSNODE_X), .MY_Y(SN_SYSNODE_Y)) mbox (
        .clk, .rst_n, .cfg_drop_on_full(drop_on_full_q), .reg_wr(cpu_wr), .reg_addr(cpu_addr),
        .reg_wdata(cpu_wdata), .late_wr(cpu_late_wr), .late_wdata(cpu_late_wdata),
        .reg_rdata(cpu_rdata),
        .out_valid(mbox_out_valid), .out_flit(mbox_out_flit), .out_ready(mbox_out_ready),
        .in_valid(mbox_in_valid), .in_flit(hub_in_flit), .in_ready(mbox_in_ready),
        .accepted_go, .dropped_go);

    // A flit nobody takes: the hub's unknown coordinates, the (unmodelled)
    // memory node, a unit receiving another coordinate's flit, a border port
    // with no endpoint. The harness stops the run naming the coordinate
    // (sysnode-facts open question 6: the card's behaviour is unknown).
    always_comb begin
        noroute_valid = 1'b0;
        noroute_coord = '0;
        if (hub_noroute) begin
            noroute_valid = 1'b1;
            noroute_coord = hub_noroute_coord;
        end
        if (mem_in_valid) begin
            noroute_valid = 1'b1;
            noroute_coord = 8'((SN_MEMNODE_Y << 4) | SN_MEMNODE_X);
        end
        for (int u = 0; u < int'(N_UNITS); u++)
            if (u_misrouted[u]) begin
                noroute_valid = 1'b1;
                noroute_coord = u_misrouted_coord[u];
            end
        for (int i = 0; i < int'(NP); i++)
            if (sink_hit[i]) begin
                noroute_valid = 1'b1;
                noroute_coord = sink_coord[i];
            end
    end

    // Every link is a router port: outbound to a neighbour, unit, hub or
    // sink, inbound from a unit or the hub (a neighbour's is its outbound).
    assign quiet = &u_quiet && &r_quiet && (rp_out_valid & rp_out_ready) == '0 && (rp_in_valid & rp_in_ready) == '0;
    always_comb begin
        quiet_cycles = '1;
        for (int u = 0; u < int'(N_UNITS); u++)
            if (u_quiet_cycles[u] < quiet_cycles) quiet_cycles = u_quiet_cycles[u];
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (rst_n) sn_dpi_mem_tick(hub_stalled, edge_cycles > 1 ? edge_cycles : 32'd1);
    end
endmodule
