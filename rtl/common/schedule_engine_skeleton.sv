// What every schedule engine shares (hls/schedule_engine.hpp,
// ScheduleEngine::step): its registers (a packed struct regs_t of the engine,
// passed flat: the engine computes regs_d_i from regs_q_o and the inputs),
// their reset, the output register with the descriptor offered on the
// valid/ready port, busy, and the configuration gate.
//
// A cycle in which the engine loads a descriptor (load_i, only while
// can_load_o) offers it from the next cycle on; a descriptor taken
// (out_ready_i) and not replaced leaves the port empty. busy_o is 1 while the
// engine runs (running_i: its state is not idle) or a descriptor is offered;
// a configuration write is taken (cfg_write_o) only while busy_o is 0.
module schedule_engine_skeleton #(
  /// Width of the engine's register struct ($bits(r_q)).
  parameter int unsigned RegsWidth = 1
) (
  /// Clock; every register samples on its rising edge.
  input  logic                                clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                                rst_ni,
  /// The engine's configuration write enable.
  input  logic                                cfg_we_i,
  /// The engine's state is not idle.
  input  logic                                running_i,
  /// Load load_word_i into the output register (only while can_load_o).
  input  logic                                load_i,
  /// The descriptor to load.
  input  collnet_descriptor_pkg::descriptor_t load_word_i,
  /// The consumer takes the offered descriptor in this cycle.
  input  logic                                out_ready_i,
  /// A descriptor is offered (a register: independent of out_ready_i).
  output logic                                out_valid_o,
  /// The offered descriptor.
  output collnet_descriptor_pkg::descriptor_t out_desc_o,
  /// The engine runs or a descriptor is offered.
  output logic                                busy_o,
  /// The configuration write of this cycle is taken.
  output logic                                cfg_write_o,
  /// The output register is empty or being taken: the engine may load.
  output logic                                can_load_o,
  /// The engine's registers: next value.
  input  logic [RegsWidth-1:0]                regs_d_i,
  /// The engine's registers: value after reset.
  input  logic [RegsWidth-1:0]                regs_reset_i,
  /// The engine's registers: current value.
  output logic [RegsWidth-1:0]                regs_q_o
);

  logic                                out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_q;

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = running_i || out_valid_q;
  assign cfg_write_o = cfg_we_i && !busy_o;
  assign can_load_o  = !out_valid_q || out_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) regs_q_o <= regs_reset_i;
    else regs_q_o <= regs_d_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else if (load_i) begin
      out_valid_q <= 1'b1;
      out_q       <= load_word_i;
    end else if (out_ready_i) begin
      out_valid_q <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("%m: descriptor withdrawn or changed before out_ready_i");

  // The engine loads only into an empty or departing output register.
  assert property (@(posedge clk_i) disable iff (!rst_ni) load_i |-> can_load_o)
    else $error("%m: load while a descriptor is offered and not taken");
`endif

`ifdef FORMAL
  // Formal properties (scripts/formal.sh; Yosys read_verilog -formal, proven
  // by induction with yosys-smtbmc). For the skeleton alone the engine's side
  // is free but for its contract (load only while can_load_o); inside an
  // engine the same properties are proven with the engine's logic.
  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  initial assume (!rst_ni);

  always @(posedge clk_i) begin
    // The engine's contract: assumed for the skeleton alone
    // (FORMAL_SKELETON_ALONE), proven inside every engine.
`ifdef FORMAL_SKELETON_ALONE
    if (rst_ni && load_i) assume (can_load_o);
`else
    if (rst_ni && load_i) assert (can_load_o);
`endif
    if (f_past_valid && $past(rst_ni) && rst_ni) begin
      // K1 handshake: an offered descriptor stays offered and unchanged until taken.
      if ($past(out_valid_o && !out_ready_i)) assert (out_valid_o && out_desc_o == $past(out_desc_o));
      // K2 a descriptor is offered only after a load, and it is the loaded word.
      if ($past(load_i)) assert (out_valid_o && out_desc_o == $past(load_word_i));
      else if (!$past(out_valid_o)) assert (!out_valid_o);
      // K3 a taken descriptor that is not replaced leaves the port empty.
      if ($past(out_valid_o && out_ready_i && !load_i)) assert (!out_valid_o);
      // K5 the registers follow regs_d_i.
      assert (regs_q_o == $past(regs_d_i));
    end
    if (f_past_valid && !$past(rst_ni)) assert (!out_valid_o && regs_q_o == $past(regs_reset_i));
    // K4 configuration gate: a write is taken only while not busy, and busy
    // covers a running engine and an offered descriptor.
    assert (cfg_write_o == (cfg_we_i && !running_i && !out_valid_o));
    assert (busy_o == (running_i || out_valid_o));
  end
`endif

endmodule
