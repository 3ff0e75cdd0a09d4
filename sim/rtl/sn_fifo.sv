// Synchronous first-word-fall-through FIFO: the storage behind the mailbox
// queues and the unit instruction and signal queues. Push and pop may happen
// in the same cycle; pushing when full or popping when empty is ignored (the
// users gate on full/empty, so nothing is lost).
module sn_fifo #(
    parameter int unsigned W = 64,
    parameter int unsigned D = 16
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic         push,
    input  logic [W-1:0] din,
    input  logic         pop,
    output logic [W-1:0] dout,
    output logic         empty,
    output logic         full,
    output logic [$clog2(D+1)-1:0] count
);
    localparam int unsigned AW = (D > 1) ? $clog2(D) : 1;
    localparam int unsigned CW = $clog2(D + 1);
    logic [W-1:0] mem[D];
    logic [AW-1:0] rd_ptr, wr_ptr;

    assign empty = (count == 0);
    assign full  = (count == CW'(D));
    assign dout  = mem[rd_ptr];

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            rd_ptr <= '0;
            wr_ptr <= '0;
            count  <= '0;
        end else begin
            if (do_push) begin
                mem[wr_ptr] <= din;
                wr_ptr <= (wr_ptr == AW'(D - 1)) ? '0 : wr_ptr + 1'b1;
            end
            if (do_pop) rd_ptr <= (rd_ptr == AW'(D - 1)) ? '0 : rd_ptr + 1'b1;
            count <= count + CW'(do_push) - CW'(do_pop);
        end
    end
endmodule
