// The SysNode dispatch mailbox (generation B, the 8-register map): DST and
// ARG0..ARG3 hold their values across GOs; GO offers one flit built from them
// and is dropped while a flit is still offered (STAT[15]); every flit has
// last=1 and an 8-bit txn counting accepted GOs from 0; CU_SIGNAL flits enter
// a 16-deep completion queue read at HEAD (a read does not pop, a store
// does); other inbound flits enter an 8-deep RX queue; when either queue is
// full the mailbox refuses inbound flits (backpressure, nothing dropped).
// With cfg_drop_on_full (the older generation, for fault injection) a
// completion arriving at a full queue is dropped and STAT[31] set until
// reset instead.
// Facts: sysnode-facts §2.1-§2.5 (rv64_noc_mbox.v@1a77e97e gen B,
// docs/spec/control-registers.md@1a77e97e §7.5).
module sn_mailbox
    import sn_regs_pkg::*;
#(
    parameter int unsigned MY_X = 0,
    parameter int unsigned MY_Y = 0
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic         cfg_drop_on_full,
    // CPU side: one control-region store per cycle; reads are combinational
    input  logic         reg_wr,
    input  logic [9:0]   reg_addr,
    input  logic [63:0]  reg_wdata,
    // stores to DST (bit 0) and ARG0..ARG3 (bits 1..4) from earlier cycles
    // of this edge (sn_mesh_top's cpu_late_wr): written before this cycle's
    // store, and a GO at this edge sends them
    input  logic [4:0]   late_wr,
    input  logic [319:0] late_wdata,
    output logic [63:0]  reg_rdata,
    // fabric side
    output logic         out_valid,
    output logic [287:0] out_flit,
    input  logic         out_ready,
    input  logic         in_valid,
    input  logic [287:0] in_flit,
    output logic         in_ready,
    // observability for tests: GOs accepted, and GOs dropped because a flit
    // was still offered
    output logic [31:0]  accepted_go,
    output logic [31:0]  dropped_go
);
    logic [63:0] dst_q, arg_q[4];
    logic        offered;
    logic [287:0] offer_flit;
    logic [7:0]  txn;

    // completion queue
    logic        cq_push, cq_pop, cq_empty, cq_full;
    logic [63:0] cq_din, cq_dout;
    logic [4:0]  cq_count;
    sn_fifo #(.W(64), .D(SN_CQ_DEPTH)) cq (
        .clk, .rst_n, .push(cq_push), .din(cq_din), .pop(cq_pop), .dout(cq_dout),
        .empty(cq_empty), .full(cq_full), .count(cq_count));

    // RX queue: whole flits
    logic         rx_push, rx_pop, rx_empty, rx_full;
    logic [287:0] rx_dout;
    logic [3:0]   rx_count;
    sn_fifo #(.W(288), .D(SN_RXQ_DEPTH)) rxq (
        .clk, .rst_n, .push(rx_push), .din(in_flit), .pop(rx_pop), .dout(rx_dout),
        .empty(rx_empty), .full(rx_full), .count(rx_count));

    wire [31:0] in_hdr = sn_flit_hdr_of(in_flit);
    wire [3:0] in_type = sn_flit_hdr_type(in_hdr);
    wire is_signal = in_type == 4'(SN_T_CU_SIGNAL);
    assign in_ready = (!cq_full || (cfg_drop_on_full && is_signal)) && !rx_full;
    wire take = in_valid && in_ready;
    assign cq_push = take && is_signal && !cq_full;
    logic overflow; // STAT[31]: a completion was dropped (cfg_drop_on_full only)
    assign rx_push = take && in_type != 4'(SN_T_CU_SIGNAL);
    assign cq_din = sn_head_pack(sn_sig_arg(in_flit[255:0]), sn_sig_code(in_flit[255:0]),
                                 sn_flit_hdr_src_x(in_hdr), sn_flit_hdr_src_y(in_hdr));

    wire is_go   = reg_wr && reg_addr == 10'(SN_MBOX_GO);
    assign cq_pop = reg_wr && reg_addr == 10'(SN_MBOX_HEAD);
    assign rx_pop = reg_wr && reg_addr == 10'(SN_CTRL_RX_HDR);

    assign out_valid = offered;
    assign out_flit  = offer_flit;

    // DST and ARG as this cycle's GO reads them: with the late stores applied
    wire [63:0] dst_now = late_wr[0] ? late_wdata[63:0] : dst_q;
    wire [63:0] arg_now[4];
    for (genvar i = 0; i < 4; i++) begin : late_arg
        assign arg_now[i] = late_wr[i+1] ? late_wdata[64*(i+1) +: 64] : arg_q[i];
    end
    wire [3:0] go_type = sn_dst_typed(dst_now) != 0 ? sn_dst_type(dst_now) : 4'(SN_T_CU_INST);

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            offered    <= 1'b0;
            txn        <= 8'h00;
            dropped_go <= '0;
            accepted_go <= '0;
            overflow   <= 1'b0;
        end else begin
            if (take && is_signal && cq_full) overflow <= 1'b1;
            if (out_valid && out_ready) offered <= 1'b0;
            if (is_go) begin
                if (offered) begin
                    dropped_go <= dropped_go + 1;
                end else begin
                    offered    <= 1'b1;
                    txn        <= txn + 8'h01;
                    accepted_go <= accepted_go + 1;
                    offer_flit <= sn_flit(sn_flit_hdr_pack(3'b000, 1'b1, txn, go_type, 4'(MY_Y), 4'(MY_X),
                                                           sn_dst_y(dst_now), sn_dst_x(dst_now)),
                                          {arg_now[3], arg_now[2], arg_now[1], arg_now[0]});
                end
            end
        end
    end

    // DST and ARG are data, not control: not reset (sysnode-facts §2.1).
    always_ff @(posedge clk) begin
        if (late_wr[0]) dst_q <= late_wdata[63:0];
        for (int i = 0; i < 4; i++)
            if (late_wr[i+1]) arg_q[i] <= late_wdata[64*(i+1) +: 64];
        if (reg_wr) begin
            case (reg_addr)
                10'(SN_MBOX_DST):  dst_q    <= reg_wdata;
                10'(SN_MBOX_ARG0): arg_q[0] <= reg_wdata;
                10'(SN_MBOX_ARG1): arg_q[1] <= reg_wdata;
                10'(SN_MBOX_ARG2): arg_q[2] <= reg_wdata;
                10'(SN_MBOX_ARG3): arg_q[3] <= reg_wdata;
                default: ;
            endcase
        end
    end

    always_comb begin
        case (reg_addr)
            10'(SN_MBOX_DST):  reg_rdata = sn_dst_pack(sn_dst_x(dst_q), sn_dst_y(dst_q), 4'b0, 1'b0);
            10'(SN_MBOX_ARG0): reg_rdata = arg_q[0];
            10'(SN_MBOX_ARG1): reg_rdata = arg_q[1];
            10'(SN_MBOX_ARG2): reg_rdata = arg_q[2];
            10'(SN_MBOX_ARG3): reg_rdata = arg_q[3];
            10'(SN_MBOX_STAT): reg_rdata = sn_stat_pack(8'(cq_count), offered, overflow);
            10'(SN_MBOX_HEAD): reg_rdata = cq_empty ? 64'b0 : cq_dout;
            10'(SN_CTRL_RX_HDR): reg_rdata = sn_rx_hdr_pack(rx_empty ? 32'b0 : sn_flit_hdr_of(rx_dout), !rx_empty);
            10'(SN_CTRL_RX_P0 + 0):  reg_rdata = rx_dout[63:0];
            10'(SN_CTRL_RX_P0 + 8):  reg_rdata = rx_dout[127:64];
            10'(SN_CTRL_RX_P0 + 16): reg_rdata = rx_dout[191:128];
            10'(SN_CTRL_RX_P0 + 24): reg_rdata = rx_dout[255:192];
            10'(SN_CTRL_RX_USED): reg_rdata = {60'b0, rx_count};
            default: reg_rdata = 64'b0;
        endcase
    end
endmodule
