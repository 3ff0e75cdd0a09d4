// A compute unit's mesh endpoint, shared by both unit types: an instruction
// FIFO of INST_DEPTH with backpressure, one instruction executing at a time
// through the C datapath model (DPI), a SIG_DEPTH-deep signal queue that
// returns one CU_SIGNAL per instruction to its source (BATCH_COMPLETE with
// the txn when last=1, INST_COMPLETE otherwise, FAULT with the fault code),
// and CU_CTRL reads of CU_CAPS/CU_STATUS/CU_COUNTERS/CU_DBG. The unit stops
// issuing while its signal queue could overflow; signals leave before CU_CTRL
// replies. Facts: sysnode-facts §4, §7.1, §3.1 (noc_cu_base.v@1a77e97e,
// docs/spec/flit-format.md@1a77e97e §4-§5).
module sn_unit_shell
    import sn_regs_pkg::*;
#(
    parameter int unsigned MY_X = 1,
    parameter int unsigned MY_Y = 0,
    parameter int unsigned UNIT_INDEX = 0,  // the C model instance behind sn_dpi_unit_exec
    parameter int unsigned CU_TYPE = SN_CU_TYPE_VC,
    parameter int unsigned CU_VERSION = 4,
    parameter int unsigned N_BUFFERS = 2,
    parameter int unsigned INST_DEPTH = SN_INST_DEPTH_DEFAULT,
    parameter int unsigned SIG_DEPTH = 16
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic         in_valid,
    input  logic [287:0] in_flit,
    output logic         in_ready,
    output logic         out_valid,
    output logic [287:0] out_flit,
    input  logic         out_ready,
    // a flit of a type this endpoint does not take (sticky, for the harness)
    output logic         bad_flit
);
    // Executes one CU_INST payload in the unit's C model; returns the cycles
    // it occupies the unit, its fault code (0 = none) and its result word.
    import "DPI-C" function void sn_dpi_unit_exec(
        input int unsigned unit_index, input bit [255:0] payload,
        output int unsigned fault, output int unsigned result, output int unsigned cycles);

    localparam int unsigned IW = 8 + 8 + 1 + 256;  // {src y,x; txn; last; payload}

    wire [3:0] in_type = in_flit[SN_FLIT_TYPE_LO +: 4];
    wire in_inst = in_type == 4'(SN_T_CU_INST);
    wire in_ctrl = in_type == 4'(SN_T_CU_CTRL);

    // instruction FIFO
    logic inst_pop, inst_empty, inst_full;
    logic [IW-1:0] inst_head;
    logic [$clog2(INST_DEPTH+1)-1:0] inst_count;
    sn_fifo #(.W(IW), .D(INST_DEPTH)) inst_q (
        .clk, .rst_n,
        .push(in_valid && in_inst && !inst_full),
        .din({in_flit[SN_FLIT_SRC_Y_LO +: 4], in_flit[SN_FLIT_SRC_X_LO +: 4],
              in_flit[SN_FLIT_TXN_LO +: 8], in_flit[SN_FLIT_LAST_BIT], in_flit[255:0]}),
        .pop(inst_pop), .dout(inst_head), .empty(inst_empty), .full(inst_full), .count(inst_count));

    // signal queue: {dst y,x; code; arg}
    logic sig_push, sig_pop, sig_empty, sig_full;
    logic [47:0] sig_din, sig_head;
    logic [$clog2(SIG_DEPTH+1)-1:0] sig_count;
    sn_fifo #(.W(48), .D(SIG_DEPTH)) sig_q (
        .clk, .rst_n, .push(sig_push), .din(sig_din), .pop(sig_pop), .dout(sig_head),
        .empty(sig_empty), .full(sig_full), .count(sig_count));

    // one CU_CTRL request at a time: a second waits at the input
    logic        ctrl_pending;
    logic [7:0]  ctrl_index, ctrl_txn, ctrl_src;
    assign in_ready = in_inst ? !inst_full : in_ctrl ? !ctrl_pending : 1'b1;

    // execution
    logic        busy;
    logic [31:0] busy_left, cur_fault, cur_result, last_result;
    logic [7:0]  cur_src, cur_txn;
    logic        cur_last;
    logic [31:0] retired, busy_cycles;
    assign inst_pop = !busy && !inst_empty && !sig_full;

    assign sig_push = busy && busy_left == 1;
    assign sig_din = {cur_src,
                      cur_fault != 0 ? 8'(SN_SIG_FAULT) : cur_last ? 8'(SN_SIG_BATCH_COMPLETE) : 8'(SN_SIG_INST_COMPLETE),
                      cur_fault != 0 ? cur_fault : cur_last ? {24'b0, cur_txn} : cur_result};

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            busy <= 1'b0;
            busy_left <= '0;
            retired <= '0;
            busy_cycles <= '0;
            last_result <= '0;
        end else begin
            if (inst_pop) begin
                int unsigned fault, result, cycles;
                sn_dpi_unit_exec(UNIT_INDEX, inst_head[255:0], fault, result, cycles);
                busy <= 1'b1;
                busy_left <= (cycles == 0) ? 32'd1 : cycles;
                cur_fault <= fault;
                cur_result <= result;
                cur_src <= inst_head[IW-1 -: 8];
                cur_txn <= inst_head[IW-9 -: 8];
                cur_last <= inst_head[256];
            end else if (busy) begin
                busy_left <= busy_left - 1;
                busy_cycles <= busy_cycles + 1;
                if (busy_left == 1) begin
                    busy <= 1'b0;
                    retired <= retired + 1;
                    last_result <= cur_result;
                end
            end
        end
    end

    // CU_CTRL (sysnode-facts §7.1): reads only; a write request reads too.
    logic [63:0] ctrl_value;
    always_comb begin
        case (ctrl_index)
            8'd0: ctrl_value = {16'(CU_TYPE), 8'(CU_VERSION), 4'(N_BUFFERS), 16'(INST_DEPTH), 20'b0};
            8'd1: ctrl_value = {busy, 1'b0, 14'b0, 16'(INST_DEPTH - 32'(inst_count)), 32'b0};
            8'd2: ctrl_value = {retired, busy_cycles};
            8'd3: ctrl_value = {32'b0, last_result};
            default: ctrl_value = 64'b0;
        endcase
    end

    // output: signals before CU_CTRL replies
    wire send_sig = !sig_empty;
    assign out_valid = send_sig || ctrl_pending;
    assign sig_pop = send_sig && out_ready;
    wire ctrl_sent = !send_sig && ctrl_pending && out_ready;
    always_comb begin
        if (send_sig)
            out_flit = {sig_head[43:40], sig_head[47:44], 4'(MY_X), 4'(MY_Y), 4'(SN_T_CU_SIGNAL),
                        8'h00, 1'b1, 3'b000, sig_head[39:32], sig_head[31:0], 216'b0};
        else
            out_flit = {ctrl_src[3:0], ctrl_src[7:4], 4'(MY_X), 4'(MY_Y), 4'(SN_T_CU_CTRL),
                        ctrl_txn, 1'b1, 3'b000, 8'h02, ctrl_index, ctrl_value, 176'b0};
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ctrl_pending <= 1'b0;
            bad_flit <= 1'b0;
        end else begin
            if (ctrl_sent) ctrl_pending <= 1'b0;
            if (in_valid && in_ctrl && !ctrl_pending) begin
                ctrl_pending <= 1'b1;
                ctrl_index <= in_flit[247:240];
                ctrl_txn <= in_flit[SN_FLIT_TXN_LO +: 8];
                ctrl_src <= {in_flit[SN_FLIT_SRC_Y_LO +: 4], in_flit[SN_FLIT_SRC_X_LO +: 4]};
            end
            if (in_valid && !in_inst && !in_ctrl) bad_flit <= 1'b1;
        end
    end
endmodule
