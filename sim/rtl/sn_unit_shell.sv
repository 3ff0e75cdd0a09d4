// A compute unit's mesh endpoint, shared by both unit types (noc_cu_base):
//  - an instruction FIFO of INST_DEPTH with backpressure; one instruction
//    executes at a time through the unit's C model (DPI);
//  - a SIG_DEPTH-deep signal queue; the unit stops issuing while it is full.
//    Every instruction returns one CU_SIGNAL to its source: BATCH_COMPLETE
//    with the txn when last=1, INST_COMPLETE with the result otherwise,
//    FAULT with the fault code;
//  - completion generations by cfg_cu_version: below SN_CU_VERSION_FENCED the
//    completion leaves when the last write beat is sent (the writes land
//    later, see dpi_units.h); from it on the completion waits until the
//    unit's writes are acknowledged (landed);
//  - timing (unit-timing §1-§3): the unit's C timing model gives each
//    payload's completion cycle from its accept cycle (a GEMM's sweep, the
//    memory node's queue and the kernel's waits included); the shell counts
//    down to it, the countdown of a payload that touches DRAM holding while
//    the SysNode hub holds its inbound link, and takes the next payload in
//    the cycle the completion enters the signal queue (accept = completion
//    tap - 1, unit-timing §2.1, §3.1);
//  - CU_COUNTERS (unit-timing §1): busy counts every cycle an instruction is
//    queued, executing, or its completion not yet handed out; retired counts
//    completions;
//  - CU_DATA send, either unit type: a node DRAIN (matmul cluster, dnode=1)
//    or a RUN whose kernel peer-drained (vector core VDRAIN bit 24) sends the
//    bursts the model recorded (sim/models/cu_data.h), each a descriptor and
//    1..8 data flits, after its compute and memory time and before its
//    completion: the completion leaves after the last data flit, as a cluster
//    DRAIN's does and as hw/vector.py@60942f3 has VHALT mean "the flits were
//    sent, not landed" (the receiver's DATA_RECEIVED says they landed);
//  - CU_DATA receive (vector core): framed by count from the descriptor's
//    source, buffer 0 only, written to L1 through the model; a bad buffer, a
//    burst past L1 or a second sender's flit inside a burst is kernel fault 9
//    (SIG_FAULT), otherwise flags[0] asks for DATA_RECEIVED (arg = buf_id).
//    Both go to {ack_y, ack_x}, where (0,0) is the SysNode mailbox (DESIGN
//    §6). No further CU_DATA is taken until that signal is queued;
//  - CU_CTRL reads of CU_CAPS, CU_STATUS, CU_COUNTERS, CU_DBG;
//  - output priority: signals, then CU_CTRL replies, then CU_DATA.
// Facts: sysnode-facts §2.4, §3.1, §3.3, §4, §7.1 (KohakuTPU
// src/kohakuaccel/noc/endpoint/noc_cu_base.v@1a77e97e,
// src/kohakutpu/vector/vec_cu.v@1a77e97e, src/kohakutpu/matmul/
// mx_cluster_cu.v@1a77e97e, docs/spec/flit-format.md@1a77e97e §4-§5).
module sn_unit_shell
    import sn_regs_pkg::*;
#(
    parameter int unsigned MY_X = 1,
    parameter int unsigned MY_Y = 0,
    parameter int unsigned UNIT_INDEX = 0,  // the C model instance behind the DPI calls
    parameter int unsigned CU_TYPE = SN_CU_TYPE_VC,
    parameter int unsigned N_BUFFERS = 2,
    parameter int unsigned INST_DEPTH = SN_INST_DEPTH_DEFAULT,
    parameter int unsigned SIG_DEPTH = 16
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic [7:0]   cfg_cu_version,
    input  logic         hub_stalled,
    // cycles the coming rising edge stands for: 0 or 1 an ordinary cycle;
    // more only while `quiet` and at most `quiet_cycles` (a jump, sim.cpp)
    input  logic [31:0]  edge_cycles,
    // nothing inside the unit moves on the coming edge but its busy
    // countdown: no instruction issues, no signal is queued, no CU_DATA flit
    // is loaded (flits through its ports are the mesh's to see)
    output logic         quiet,
    // cycles that may pass before the countdown reaches its last work cycle
    // (all ones: no countdown that ends by itself)
    output logic [31:0]  quiet_cycles,
    input  logic         in_valid,
    input  logic [287:0] in_flit,
    output logic         in_ready,
    output logic         out_valid,
    output logic [287:0] out_flit,
    input  logic         out_ready,
    // a flit of a type this endpoint does not take (sticky, for the harness)
    output logic         bad_flit,
    // a flit for another coordinate is at the input (it is consumed)
    output logic         misrouted_valid,
    output logic [7:0]   misrouted_coord
);
    // Executes one CU_INST payload in the unit's model, accepted now.
    // compute then memory cycles are how long it holds the unit before its
    // completion (or its CU_DATA bursts) goes out; kernel_run: result is a
    // kernel's cycle count (CU_DBG); nbursts: CU_DATA bursts a node DRAIN or
    // a RUN's peer VDRAINs send; dbg_fill, dbg_compute: what it adds to a
    // cluster's CU_DBG.
    import "DPI-C" function void sn_dpi_unit_exec(
        input int unsigned unit_index, input int unsigned cu_type, input bit [255:0] payload,
        output int unsigned fault, output int unsigned result,
        output int unsigned compute_cycles, output int unsigned memory_cycles,
        output bit kernel_run, output int unsigned nbursts,
        output int unsigned dbg_fill, output int unsigned dbg_compute);
    // For the run's report and timeline: a CU_INST tapped at the port now;
    // the shell at (x, y) accepts one now; its completion taps now.
    import "DPI-C" function void sn_dpi_unit_arrive(input int unsigned unit_index);
    import "DPI-C" function void sn_dpi_unit_issue(input int unsigned unit_index, input int unsigned x,
                                                   input int unsigned y);
    import "DPI-C" function void sn_dpi_unit_completed(input int unsigned unit_index);
    // The unit's last write beat is sent: its pending writes start landing.
    import "DPI-C" function void sn_dpi_unit_writes_sent(input int unsigned unit_index);
    // Writes of the unit not yet landed in DRAM.
    import "DPI-C" function int unsigned sn_dpi_unit_writes_outstanding(input int unsigned unit_index);
    // Burst `burst` of the last payload's CU_DATA send: its descriptor fields,
    // the cycles the unit sends nothing after its last data flit (before the
    // next descriptor, or before the completion after the last burst), and
    // granule `index`.
    import "DPI-C" function void sn_dpi_unit_burst_head(
        input int unsigned unit_index, input int unsigned burst,
        output int unsigned dst_x, output int unsigned dst_y, output int unsigned buf_id,
        output int unsigned flags, output int unsigned ack_x, output int unsigned ack_y,
        output int unsigned offset, output int unsigned ngranules, output int unsigned gap);
    import "DPI-C" function void sn_dpi_unit_burst_granule(
        input int unsigned unit_index, input int unsigned burst, input int unsigned index,
        output bit [255:0] data);
    // CU_DATA receive: stage data flit `index`; commit the burst to L1 (or
    // drop it) and return the kernel fault it raises (0 = none).
    import "DPI-C" function void sn_dpi_unit_data_flit(
        input int unsigned unit_index, input int unsigned index, input bit [255:0] data);
    import "DPI-C" function int unsigned sn_dpi_unit_data_commit(
        input int unsigned unit_index, input int unsigned buf_id, input int unsigned offset,
        input int unsigned nwords, input bit intruded);

    localparam bit IS_VC = CU_TYPE == SN_CU_TYPE_VC;
    localparam int unsigned IW = 8 + 8 + 1 + 256;  // {src y,x; txn; last; payload}

    // ---- input classification ----
    wire [31:0] in_hdr = sn_flit_hdr_of(in_flit);
    wire [255:0] in_payload = in_flit[255:0];
    wire [3:0] in_type = sn_flit_hdr_type(in_hdr);
    wire [7:0] in_src = {sn_flit_hdr_src_y(in_hdr), sn_flit_hdr_src_x(in_hdr)};
    wire for_me = sn_flit_hdr_dst_x(in_hdr) == 4'(MY_X) && sn_flit_hdr_dst_y(in_hdr) == 4'(MY_Y);
    wire in_inst = for_me && in_type == 4'(SN_T_CU_INST);
    wire in_ctrl = for_me && in_type == 4'(SN_T_CU_CTRL);
    wire in_data = for_me && in_type == 4'(SN_T_CU_DATA) && IS_VC;

    assign misrouted_valid = in_valid && !for_me;
    assign misrouted_coord = {sn_flit_hdr_dst_y(in_hdr), sn_flit_hdr_dst_x(in_hdr)};

    logic inst_full, ctrl_pending, rx_sig_pending;
    assign in_ready = in_inst ? !inst_full : in_ctrl ? !ctrl_pending : in_data ? !rx_sig_pending : 1'b1;

    // ---- instruction FIFO ----
    logic inst_pop, inst_empty;
    logic [IW-1:0] inst_head;
    logic [$clog2(INST_DEPTH+1)-1:0] inst_count;
    sn_fifo #(.W(IW), .D(INST_DEPTH)) inst_q (
        .clk, .rst_n,
        .push(in_valid && in_inst && !inst_full),
        .din({in_src, sn_flit_hdr_txn(in_hdr), sn_flit_hdr_last(in_hdr), in_payload}),
        .pop(inst_pop), .dout(inst_head), .empty(inst_empty), .full(inst_full), .count(inst_count));

    // ---- signal queue: {an instruction's completion; dst y,x; code; arg} ----
    logic sig_push, sig_pop, sig_empty, sig_full;
    logic [48:0] sig_din, sig_head;
    logic [$clog2(SIG_DEPTH+1)-1:0] sig_count;
    sn_fifo #(.W(49), .D(SIG_DEPTH)) sig_q (
        .clk, .rst_n, .push(sig_push), .din(sig_din), .pop(sig_pop), .dout(sig_head),
        .empty(sig_empty), .full(sig_full), .count(sig_count));

    // Two producers, one slot a cycle: the CU_DATA receiver's signal first
    // (it blocks further CU_DATA), then the instruction's completion.
    logic        cmpl_pending;
    logic [47:0] cmpl_word, rx_sig_word;
    logic [1:0] rx_sig_delay; // DATA_RECEIVED leaves 4 cycles after the last data flit (unit-timing §2.4)
    wire rx_sig_push = rx_sig_pending && rx_sig_delay == 0 && !sig_full;
    wire cmpl_push = cmpl_pending && !sig_full && !rx_sig_push;
    assign sig_push = rx_sig_push || cmpl_push;
    assign sig_din = rx_sig_push ? {1'b0, rx_sig_word} : {1'b1, cmpl_word};

    // ---- execution ----
    typedef enum logic [1:0] {IDLE, EXECUTE, SEND_BURSTS, FENCE} phase_t;
    phase_t      phase;
    logic [31:0] compute_left, memory_left, nbursts;
    logic [31:0] retired, busy_cycles, kernel_cycles, dbg_fill_total, dbg_compute_total;

    // The next payload is taken in the cycle the completion is queued.
    assign inst_pop = phase == IDLE && !inst_empty && !sig_full && (!cmpl_pending || cmpl_push);
    wire busy_now = !inst_empty || phase != IDLE || cmpl_pending || (!sig_empty && sig_head[48] && !sig_pop);
    // Memory traffic in flight cannot move while the hub holds the link.
    wire memory_held = memory_left != 0 && hub_stalled;
    wire last_work_cycle = !memory_held && (compute_left == 0 ? memory_left == 1
                                                              : compute_left == 1 && memory_left == 0);
    wire [31:0] step = edge_cycles > 1 ? edge_cycles : 32'd1;

    // Event-driven clocking (sim/README.md): while quiet, the only motion is
    // this countdown (and busy_cycles), which a jump applies in one edge.
    wire [32:0] work_left = 33'(compute_left) + 33'(memory_left);
    assign quiet_cycles = phase != EXECUTE || memory_held ? '1
                          : work_left > 33'hFFFF_FFFF ? 32'hFFFF_FFFE : 32'(work_left - 33'd1);

    // ---- CU_DATA bursts (node DRAIN, peer VDRAIN): one output register loaded a flit at a time ----
    logic         dat_valid;
    logic [287:0] dat_flit;
    logic [31:0]  burst_idx;
    logic [8:0]   flit_idx, burst_ngranules;  // flit 0 is the descriptor
    logic [7:0]   burst_dst;                  // {y, x}
    logic         bursts_loaded;
    logic [31:0]  burst_gap, gap_left;        // idle cycles after a burst's last data flit
    logic         dat_taken;
    wire dat_free = !dat_valid || dat_taken;

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            phase <= IDLE;
            compute_left <= '0;
            memory_left <= '0;
            cmpl_pending <= 1'b0;
            retired <= '0;
            busy_cycles <= '0;
            kernel_cycles <= '0;
            dbg_fill_total <= '0;
            dbg_compute_total <= '0;
            dat_valid <= 1'b0;
        end else begin
            if (cmpl_push) begin
                cmpl_pending <= 1'b0;
                retired <= retired + 1;
            end
            if (busy_now) busy_cycles <= busy_cycles + step;
            if (in_valid && in_inst && !inst_full) sn_dpi_unit_arrive(UNIT_INDEX);
            if (sig_pop && sig_head[48]) sn_dpi_unit_completed(UNIT_INDEX);
            if (dat_taken) dat_valid <= 1'b0;
            case (phase)
                IDLE: if (inst_pop) begin
                    int unsigned fault, result, ccycles, mcycles, bursts, dfill, dcompute;
                    bit kernel_run;
                    sn_dpi_unit_issue(UNIT_INDEX, MY_X, MY_Y);
                    sn_dpi_unit_exec(UNIT_INDEX, CU_TYPE, inst_head[255:0], fault, result, ccycles, mcycles,
                                     kernel_run, bursts, dfill, dcompute);
                    cmpl_word <= {inst_head[IW-1 -: 8],
                                  fault != 0 ? 8'(SN_SIG_FAULT) : inst_head[256] ? 8'(SN_SIG_BATCH_COMPLETE)
                                                                                  : 8'(SN_SIG_INST_COMPLETE),
                                  fault != 0 ? fault : inst_head[256] ? {24'b0, inst_head[IW-9 -: 8]} : result};
                    if (kernel_run) kernel_cycles <= result;
                    dbg_fill_total <= dbg_fill_total + dfill;
                    dbg_compute_total <= dbg_compute_total + dcompute;
                    compute_left <= ccycles == 0 ? 32'd1 : ccycles;
                    memory_left <= mcycles;
                    nbursts <= bursts;
                    phase <= EXECUTE;
                end
                EXECUTE: if (!memory_held) begin
                    if (step > 1) begin
                        // a jump: `quiet_cycles` keeps it short of the last work cycle
                        if (compute_left >= step) begin
                            compute_left <= compute_left - step;
                        end else begin
                            compute_left <= '0;
                            memory_left <= memory_left - (step - compute_left);
                        end
                    end else if (compute_left != 0) begin
                        compute_left <= compute_left - 1;
                    end else begin
                        memory_left <= memory_left - 1;
                    end
                    if (step == 1 && last_work_cycle) begin
                        if (nbursts != 0) begin
                            burst_idx <= '0;
                            flit_idx <= '0;
                            bursts_loaded <= 1'b0;
                            gap_left <= '0;
                            phase <= SEND_BURSTS;
                        end else begin
                            finish_instruction();
                        end
                    end
                end
                SEND_BURSTS: if (gap_left != 0) begin
                    gap_left <= gap_left - 1;
                end else if (dat_free) begin
                    if (bursts_loaded) begin
                        finish_instruction();
                    end else if (flit_idx == 0) begin
                        int unsigned dx, dy, buf_id, flags, ack_x, ack_y, offset, ngranules, gap;
                        sn_dpi_unit_burst_head(UNIT_INDEX, burst_idx, dx, dy, buf_id, flags, ack_x, ack_y,
                                               offset, ngranules, gap);
                        burst_gap <= gap;
                        dat_flit <= sn_flit(sn_flit_hdr_pack(3'b000, 1'b0, 8'h00, 4'(SN_T_CU_DATA), 4'(MY_Y),
                                                             4'(MY_X), 4'(dy), 4'(dx)),
                                            sn_cu_data_desc_pack(4'(ack_x), 4'(ack_y), 8'(flags),
                                                                 8'(ngranules - 1), 16'(offset), 8'(buf_id)));
                        dat_valid <= 1'b1;
                        burst_dst <= {4'(dy), 4'(dx)};
                        burst_ngranules <= 9'(ngranules);
                        flit_idx <= 9'd1;
                    end else begin
                        bit [255:0] granule;
                        sn_dpi_unit_burst_granule(UNIT_INDEX, burst_idx, 32'(flit_idx) - 1, granule);
                        dat_flit <= sn_flit(sn_flit_hdr_pack(3'b000, flit_idx == burst_ngranules, 8'h00,
                                                             4'(SN_T_CU_DATA), 4'(MY_Y), 4'(MY_X),
                                                             burst_dst[7:4], burst_dst[3:0]),
                                            granule);
                        dat_valid <= 1'b1;
                        if (flit_idx == burst_ngranules) begin
                            gap_left <= burst_gap;
                            flit_idx <= '0;
                            burst_idx <= burst_idx + 1;
                            bursts_loaded <= burst_idx + 1 == nbursts;
                        end else begin
                            flit_idx <= flit_idx + 1;
                        end
                    end
                end
                FENCE: if (sn_dpi_unit_writes_outstanding(UNIT_INDEX) == 0) begin
                    cmpl_pending <= 1'b1;
                    phase <= IDLE;
                end
                default: phase <= IDLE;
            endcase
        end
    end

    // The instruction's last beat is sent. Fenced units hold the completion
    // until the writes land; the others send it now.
    task automatic finish_instruction();
        sn_dpi_unit_writes_sent(UNIT_INDEX);
        if (cfg_cu_version >= 8'(SN_CU_VERSION_FENCED)
                     && sn_dpi_unit_writes_outstanding(UNIT_INDEX) != 0) begin
            phase <= FENCE;
        end else begin
            cmpl_pending <= 1'b1;
            phase <= IDLE;
        end
    endtask

    // ---- CU_DATA receive (vector core) ----
    logic        rx_active, rx_intruded;
    logic [7:0]  rx_src, rx_buf, rx_flags, rx_ack;
    logic [15:0] rx_offset;
    logic [8:0]  rx_words, rx_index;
    wire data_take = in_valid && in_data && !rx_sig_pending;

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            rx_active <= 1'b0;
            rx_sig_pending <= 1'b0;
            rx_sig_delay <= '0;
        end else begin
            if (rx_sig_push) rx_sig_pending <= 1'b0;
            if (rx_sig_delay != 0) rx_sig_delay <= rx_sig_delay - 1;
            if (data_take) begin
                if (!rx_active) begin
                    rx_active <= 1'b1;
                    rx_intruded <= 1'b0;
                    rx_src <= in_src;
                    rx_buf <= sn_cu_data_desc_buf(in_payload);
                    rx_offset <= sn_cu_data_desc_offset(in_payload);
                    rx_words <= 9'(sn_cu_data_desc_len(in_payload)) + 9'd1;
                    rx_flags <= sn_cu_data_desc_flags(in_payload);
                    rx_ack <= {sn_cu_data_desc_ack_y(in_payload), sn_cu_data_desc_ack_x(in_payload)};
                    rx_index <= '0;
                end else if (in_src != rx_src) begin
                    rx_intruded <= 1'b1;  // dropped; the burst faults
                end else begin
                    sn_dpi_unit_data_flit(UNIT_INDEX, 32'(rx_index), in_payload);
                    rx_index <= rx_index + 1;
                    if (rx_index + 1 == rx_words) begin
                        int unsigned fault;
                        fault = sn_dpi_unit_data_commit(UNIT_INDEX, 32'(rx_buf), 32'(rx_offset),
                                                        32'(rx_words), rx_intruded);
                        rx_active <= 1'b0;
                        rx_sig_pending <= fault != 0 || rx_flags[0];
                        rx_sig_delay <= 2'd2;
                        rx_sig_word <= {rx_ack,
                                        fault != 0 ? 8'(SN_SIG_FAULT) : 8'(SN_SIG_DATA_RECEIVED),
                                        fault != 0 ? fault : {24'b0, rx_buf}};
                    end
                end
            end
        end
    end

    // ---- CU_CTRL (sysnode-facts §7.1): reads only; a write request reads too ----
    logic [7:0]  ctrl_index, ctrl_txn, ctrl_src;
    logic [63:0] ctrl_value;
    always_comb begin
        case (ctrl_index)
            8'(SN_CU_REG_CAPS): ctrl_value = sn_cu_caps_pack(16'(INST_DEPTH), 4'(N_BUFFERS), cfg_cu_version,
                                                             16'(CU_TYPE));
            8'(SN_CU_REG_STATUS): ctrl_value = sn_cu_status_pack(16'(INST_DEPTH - 32'(inst_count)), 1'b0,
                                                                 phase != IDLE);
            8'(SN_CU_REG_COUNTERS): ctrl_value = sn_cu_counters_pack(busy_cycles, retired);
            8'(SN_CU_REG_DBG): ctrl_value = IS_VC ? sn_cu_dbg_vc_pack(kernel_cycles)
                                                  : sn_cu_dbg_mg_pack(dbg_fill_total, dbg_compute_total);
            default: ctrl_value = 64'b0;
        endcase
    end

    // ---- output: signals, then CU_CTRL replies, then CU_DATA ----
    wire send_sig = !sig_empty;
    // a CU_CTRL reply taps 2 cycles after its request (unit-timing §1)
    logic ctrl_ready;
    wire send_ctrl = !send_sig && ctrl_pending && ctrl_ready;
    assign out_valid = send_sig || send_ctrl || dat_valid;
    assign quiet = !inst_pop && !sig_push && !(phase == SEND_BURSTS && (!dat_valid || gap_left != 0))
                   && rx_sig_delay == 0 && !(ctrl_pending && !ctrl_ready);
    assign sig_pop = send_sig && out_ready;
    wire ctrl_sent = send_ctrl && out_ready;
    assign dat_taken = !send_sig && !send_ctrl && dat_valid && out_ready;
    always_comb begin
        if (send_sig)
            out_flit = sn_flit(sn_flit_hdr_pack(3'b000, 1'b1, 8'h00, 4'(SN_T_CU_SIGNAL), 4'(MY_Y), 4'(MY_X),
                                                sig_head[47:44], sig_head[43:40]),
                               sn_sig_pack(sig_head[31:0], sig_head[39:32]));
        else if (send_ctrl)
            out_flit = sn_flit(sn_flit_hdr_pack(3'b000, 1'b1, ctrl_txn, 4'(SN_T_CU_CTRL), 4'(MY_Y), 4'(MY_X),
                                                ctrl_src[7:4], ctrl_src[3:0]),
                               sn_ctrl_reply_pack(ctrl_value, ctrl_index, 8'(SN_CU_CTRL_REPLY_OP)));
        else
            out_flit = dat_flit;
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ctrl_pending <= 1'b0;
            ctrl_ready <= 1'b0;
            bad_flit <= 1'b0;
        end else begin
            if (ctrl_sent) ctrl_pending <= 1'b0;
            if (ctrl_pending && !ctrl_ready) ctrl_ready <= 1'b1;
            if (in_valid && in_ctrl && !ctrl_pending) begin
                ctrl_pending <= 1'b1;
                ctrl_ready <= 1'b0;
                ctrl_index <= sn_ctrl_req_index(in_payload);
                ctrl_txn <= sn_flit_hdr_txn(in_hdr);
                ctrl_src <= in_src;
            end
            if (in_valid && for_me && !in_inst && !in_ctrl && !in_data) bad_flit <= 1'b1;
        end
    end
endmodule
