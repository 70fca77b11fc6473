// The per-dimension configuration registers of a schedule engine on a
// four-dimensional torus or mesh (a2a, hopgroup, hd): SIZE0..SIZE3 at
// Size0Addr + d and COORD0..COORD3 at Coord0Addr + d, the node's coordinate.
// A size is 1 and a coordinate 0 after reset, as in the HLS classes. The
// engine passes the configuration write its skeleton takes (cfg_write_o of
// rtl/common/schedule_engine_skeleton.sv), so these registers change only
// while the engine is idle, like the engine's own.
//
// Outputs are plain vectors, dimension d at [d*W +: W]: an engine selects a
// dimension at a variable index from a vector, not from a member of its
// register struct (docs/synthesis.md, "Notes for RTL writers").
module schedule_engine_dimensions #(
  /// Bits of a size (the low bits of the write data).
  parameter int unsigned SizeWidth = 16,
  /// Bits of a coordinate (the low bits of the write data).
  parameter int unsigned CoordWidth = 16,
  /// Address of SIZE0 (the engine's register package).
  parameter logic [7:0]  Size0Addr = 8'h00,
  /// Address of COORD0 (the engine's register package).
  parameter logic [7:0]  Coord0Addr = 8'h00
) (
  /// Clock; every register samples on its rising edge.
  input  logic                        clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                        rst_ni,
  /// The engine takes a configuration write in this cycle.
  input  logic                        cfg_write_i,
  /// Its register address.
  input  logic [7:0]                  cfg_addr_i,
  /// Its data (the sizes and coordinates use the low bits).
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [31:0]                 cfg_wdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  /// SIZE d at [d*SizeWidth +: SizeWidth].
  output logic [4*SizeWidth-1:0]      size_o,
  /// COORD d at [d*CoordWidth +: CoordWidth].
  output logic [4*CoordWidth-1:0]     coord_o
);

  logic [4*SizeWidth-1:0]  size_d, size_q;
  logic [4*CoordWidth-1:0] coord_d, coord_q;

  always_comb begin
    size_d = size_q;
    coord_d = coord_q;
    for (int d = 0; d < 4; d++) begin
      if (cfg_write_i && cfg_addr_i == Size0Addr + 8'(d)) size_d[d*SizeWidth +: SizeWidth] = cfg_wdata_i[SizeWidth-1:0];
      if (cfg_write_i && cfg_addr_i == Coord0Addr + 8'(d))
        coord_d[d*CoordWidth +: CoordWidth] = cfg_wdata_i[CoordWidth-1:0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      size_q <= {4{SizeWidth'(1)}};
      coord_q <= '0;
    end else begin
      size_q <= size_d;
      coord_q <= coord_d;
    end
  end

  assign size_o = size_q;
  assign coord_o = coord_q;

endmodule
