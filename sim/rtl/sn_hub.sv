// The SysNode hub on the west port of router (GRID_LO, GRID_LO): it carries
// the flits of both SysNode coordinates over one link. Inbound, a flit for
// the mailbox coordinate goes to the mailbox, one for the memory-node
// coordinate to the memory node, and one for any other coordinate is
// consumed and reported (it has no endpoint). While the mailbox refuses
// (its completion queue or RX queue is full) the hub takes NO inbound flit,
// memory traffic included: the node's inbound link is held. Outbound, the
// processor (mailbox) has priority over the memory engine.
// Facts: sysnode-facts §2.4 (gen B backpressure holds the node's inbound
// link), §5 (the hub routes (0,0) to the processor; outbound priority agent >
// processor > interlink > engine); KohakuTPU src/kohakuaccel/sysnode/core/
// sn_hub.v@99254496, src/kohakuaccel/pe/rv64-sys/rv64_noc_mbox.v@1a77e97e.
module sn_hub
    import sn_regs_pkg::*;
(
    // router side
    input  logic         link_in_valid,
    input  logic [287:0] link_in_flit,
    output logic         link_in_ready,
    output logic         link_out_valid,
    output logic [287:0] link_out_flit,
    input  logic         link_out_ready,
    // mailbox (SN_SYSNODE_X, SN_SYSNODE_Y)
    output logic         mbox_in_valid,
    input  logic         mbox_in_ready,
    input  logic         mbox_out_valid,
    input  logic [287:0] mbox_out_flit,
    output logic         mbox_out_ready,
    // memory node (SN_MEMNODE_X, SN_MEMNODE_Y)
    output logic         mem_in_valid,
    input  logic         mem_in_ready,
    input  logic         mem_out_valid,
    input  logic [287:0] mem_out_flit,
    output logic         mem_out_ready,
    // the inbound link is held (the mailbox refuses)
    output logic         stalled,
    // a flit for a coordinate the SysNode does not have, consumed
    output logic         noroute_valid,
    output logic [7:0]   noroute_coord
);
    wire [3:0] dst_x = sn_flit_hdr_dst_x(sn_flit_hdr_of(link_in_flit));
    wire [3:0] dst_y = sn_flit_hdr_dst_y(sn_flit_hdr_of(link_in_flit));
    wire to_mbox = dst_x == 4'(SN_SYSNODE_X) && dst_y == 4'(SN_SYSNODE_Y);
    wire to_mem  = dst_x == 4'(SN_MEMNODE_X) && dst_y == 4'(SN_MEMNODE_Y);

    assign stalled = !mbox_in_ready;
    assign mbox_in_valid = link_in_valid && to_mbox && !stalled;
    assign mem_in_valid  = link_in_valid && to_mem && !stalled;
    assign link_in_ready = !stalled && (to_mbox || (to_mem ? mem_in_ready : 1'b1));
    assign noroute_valid = link_in_valid && !to_mbox && !to_mem && !stalled;
    assign noroute_coord = {dst_y, dst_x};

    assign link_out_valid = mbox_out_valid || mem_out_valid;
    assign link_out_flit  = mbox_out_valid ? mbox_out_flit : mem_out_flit;
    assign mbox_out_ready = link_out_ready;
    assign mem_out_ready  = link_out_ready && !mbox_out_valid;
endmodule
