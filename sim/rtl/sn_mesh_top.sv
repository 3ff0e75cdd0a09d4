// The simulated mesh of rv64_mesh_2p2 as the SysNode CPU sees it: the
// mailbox at (0,0) and four unit endpoints (vec0 (1,0), vec1 (1,2), mat0
// (1,1), mat1 (2,1)), joined by the skeleton crossbar. The memory node (0,1)
// is not a fabric endpoint yet: unit memory traffic goes straight to the DRAM
// model through DPI (see sim/README.md). Facts: DESIGN.md §6, sysnode-facts §5.
module sn_mesh_top
    import sn_regs_pkg::*;
#(
    parameter int unsigned CU_VERSION = 4
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        cpu_wr,
    input  logic [9:0]  cpu_addr,
    input  logic [63:0] cpu_wdata,
    output logic [63:0] cpu_rdata,
    output logic        noroute_valid,
    output logic [7:0]  noroute_coord,
    output logic [31:0] accepted_go,
    output logic [31:0] dropped_go,
    output logic [3:0]  bad_flit
);
    localparam int unsigned N = 5;
    // port: 0 mailbox, 1 vec0, 2 vec1, 3 mat0, 4 mat1; coordinate {y, x}
    localparam bit [N*8-1:0] COORDS = {8'h12, 8'h11, 8'h21, 8'h01, 8'h00};

    logic [N-1:0]  in_valid, in_ready, out_valid;
    logic [N-1:0]  out_ready /*verilator split_var*/;
    logic [287:0]  in_flit[N], out_flit[N];

    sn_xbar #(.N(N), .COORDS(COORDS)) xbar (
        .clk, .rst_n, .in_valid, .in_flit, .in_ready, .out_valid, .out_flit, .out_ready,
        .noroute_valid, .noroute_coord);

    sn_mailbox #(.MY_X(0), .MY_Y(0)) mbox (
        .clk, .rst_n, .reg_wr(cpu_wr), .reg_addr(cpu_addr), .reg_wdata(cpu_wdata),
        .reg_rdata(cpu_rdata),
        .out_valid(in_valid[0]), .out_flit(in_flit[0]), .out_ready(in_ready[0]),
        .in_valid(out_valid[0]), .in_flit(out_flit[0]), .in_ready(out_ready[0]),
        .accepted_go, .dropped_go);

    localparam int unsigned UX[4] = '{1, 1, 1, 2};
    localparam int unsigned UY[4] = '{0, 2, 1, 1};
    localparam int unsigned UT[4] = '{SN_CU_TYPE_VC, SN_CU_TYPE_VC, SN_CU_TYPE_MG, SN_CU_TYPE_MG};

    for (genvar u = 0; u < 4; u++) begin : unit
        sn_unit_shell #(
            .MY_X(UX[u]), .MY_Y(UY[u]), .UNIT_INDEX(u), .CU_TYPE(UT[u]), .CU_VERSION(CU_VERSION)
        ) shell (
            .clk, .rst_n,
            .in_valid(out_valid[u+1]), .in_flit(out_flit[u+1]), .in_ready(out_ready[u+1]),
            .out_valid(in_valid[u+1]), .out_flit(in_flit[u+1]), .out_ready(in_ready[u+1]),
            .bad_flit(bad_flit[u]));
    end
endmodule
