// Router port numbers of the simulated mesh (not part of the register map,
// so not generated from regs.h). Facts: sysnode-facts §5 (the router ports
// of rv64_mesh_2p2); KohakuTPU src/kohakuaccel/noc/router/noc_inport.v@23a7e65.
package sn_mesh_pkg;
    localparam logic [2:0] PORT_LOCAL = 3'd0;
    localparam logic [2:0] PORT_NORTH = 3'd1;
    localparam logic [2:0] PORT_SOUTH = 3'd2;
    localparam logic [2:0] PORT_EAST  = 3'd3;
    localparam logic [2:0] PORT_WEST  = 3'd4;

    // The port of the neighbouring router that a link out of `port` enters.
    function automatic logic [2:0] opposite(input logic [2:0] port);
        case (port)
            PORT_NORTH: return PORT_SOUTH;
            PORT_SOUTH: return PORT_NORTH;
            PORT_EAST:  return PORT_WEST;
            PORT_WEST:  return PORT_EAST;
            default:    return PORT_LOCAL;
        endcase
    endfunction
endpackage
