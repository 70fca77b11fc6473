// What every schedule engine shares (hls/schedule_engine.hpp,
// ScheduleEngine::step): its registers (a packed struct regs_t of the engine,
// passed flat: the engine computes regs_d_i from regs_q_o and the inputs),
// their reset, the two-entry output buffer with the descriptor offered on the
// valid/ready port, busy, and the configuration gate.
//
// The output buffer is the output register (out_valid_q, out_q: the port)
// and a skid register behind it (skid_valid_q, skid_q). The engine may load
// (load_i) while the skid register is empty (can_load_o = !skid_valid_q, a
// register: neither out_ready_i nor the engine's own decision reaches it). A
// loaded descriptor goes to the output register when that is free in this
// cycle (empty, or its descriptor taken), and to the skid register when the
// offered descriptor stays; a free output register takes the skid register's
// descriptor first. So a descriptor loaded in a cycle is offered from the
// next cycle on when nothing waits before it, descriptors leave in the order
// loaded, one per cycle, and with a consumer that is always ready the skid
// register stays empty and the port is the same, cycle for cycle, as a
// single output register. A descriptor taken and not followed by one leaves
// the port empty. The registers' enables come from registers and
// out_ready_i only (output register: empty or taken; skid register: empty);
// load_i decides the valid bits. busy_o is 1 while the engine runs
// (running_i: its state is not idle) or a descriptor is offered (the skid
// register holds one only behind an offered one); a configuration write is
// taken (cfg_write_o) only while busy_o is 0.
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
  /// Load load_word_i into the output buffer (only while can_load_o).
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
  /// The skid register is empty: the engine may load (a register).
  output logic                                can_load_o,
  /// The engine's registers: next value.
  input  logic [RegsWidth-1:0]                regs_d_i,
  /// The engine's registers: value after reset.
  input  logic [RegsWidth-1:0]                regs_reset_i,
  /// The engine's registers: current value.
  output logic [RegsWidth-1:0]                regs_q_o
);

  logic                                out_valid_q, skid_valid_q;
  collnet_descriptor_pkg::descriptor_t out_q, skid_q;
  logic                                out_free;  // the output register is empty or taken in this cycle

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = running_i || out_valid_q;
  assign cfg_write_o = cfg_we_i && !busy_o;
  assign can_load_o  = !skid_valid_q;
  assign out_free    = !out_valid_q || out_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) regs_q_o <= regs_reset_i;
    else regs_q_o <= regs_d_i;
  end

  // The valid bits: a free output register takes the skid register's
  // descriptor, else the loaded one (load_i only while the skid register is
  // empty); an offered descriptor that stays sends a load to the skid register.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else if (out_free) begin
      out_valid_q  <= skid_valid_q || load_i;
      skid_valid_q <= 1'b0;
    end else begin
      skid_valid_q <= skid_valid_q || load_i;
    end
  end

  // The words, enabled by registers and out_ready_i only: the output
  // register takes a word whenever it is free (what it takes without a
  // descriptor is not offered), the skid register whenever it is empty.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) out_q <= '0;
    else if (out_free) out_q <= skid_valid_q ? skid_q : load_word_i;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) skid_q <= '0;
    else if (!skid_valid_q) skid_q <= load_word_i;
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("%m: descriptor withdrawn or changed before out_ready_i");

  // The engine loads only while the skid register is empty.
  assert property (@(posedge clk_i) disable iff (!rst_ni) load_i |-> can_load_o)
    else $error("%m: load while the output buffer is full");
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
    if (rst_ni) begin
      // K6 the buffer: the skid register holds a descriptor only behind an
      // offered one, and the engine may load exactly while it is empty.
      if (skid_valid_q) assert (out_valid_o);
      assert (can_load_o == !skid_valid_q);
`ifndef FORMAL_SKELETON_ALONE
      // K6 END (the zero word) is the engine's last word: the engine is idle
      // while END waits in the skid register, and nothing follows an offered
      // END.
      if (skid_valid_q && skid_q == '0) assert (!running_i);
      if (out_valid_o && out_desc_o == '0) assert (!skid_valid_q);
`endif
    end
    if (f_past_valid && $past(rst_ni) && rst_ni) begin
      // K1 handshake: an offered descriptor stays offered and unchanged until taken.
      if ($past(out_valid_o && !out_ready_i)) assert (out_valid_o && out_desc_o == $past(out_desc_o));
      // K2 a descriptor is offered only after a load, in the order loaded: a
      // free output register offers the waiting descriptor of the skid
      // register, else the word loaded, else nothing; a load behind an offered
      // descriptor that stays waits in the skid register.
      if ($past(!out_valid_o || out_ready_i)) begin
        if ($past(skid_valid_q)) assert (out_valid_o && out_desc_o == $past(skid_q) && !skid_valid_q);
        else if ($past(load_i)) assert (out_valid_o && out_desc_o == $past(load_word_i) && !skid_valid_q);
        else assert (!out_valid_o && !skid_valid_q);
      end else begin
        if ($past(load_i)) assert (skid_valid_q && skid_q == $past(load_word_i));
        else if ($past(skid_valid_q)) assert (skid_valid_q && skid_q == $past(skid_q));
        else assert (!skid_valid_q);
      end
      // K3 a taken descriptor that nothing follows leaves the port empty.
      if ($past(out_valid_o && out_ready_i && !skid_valid_q && !load_i)) assert (!out_valid_o);
      // K5 the registers follow regs_d_i.
      assert (regs_q_o == $past(regs_d_i));
    end
    if (f_past_valid && !$past(rst_ni)) assert (!out_valid_o && !skid_valid_q && regs_q_o == $past(regs_reset_i));
    // K4 configuration gate: a write is taken only while not busy, and busy
    // covers a running engine and an offered descriptor.
    assert (cfg_write_o == (cfg_we_i && !running_i && !out_valid_o));
    assert (busy_o == (running_i || out_valid_o));
  end
`endif

endmodule
