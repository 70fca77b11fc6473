// What every schedule engine shares (hls/schedule_engine.hpp,
// ScheduleEngine::step): its registers (a packed struct regs_t of the engine,
// passed flat: the engine computes regs_d_i from regs_q_o and the inputs),
// their reset, the two-entry output buffer with the descriptor offered on the
// valid/ready port, busy, and the configuration gate.
//
// The output buffer holds two descriptors in two entry registers (ent0_q,
// ent1_q), offered in the order loaded: rd_q names the entry offered (the
// head), out_valid_q says the buffer holds one descriptor or more, full_q
// that it holds two. The engine may load while the buffer is not full
// (can_load_o = !full_q, a register: neither out_ready_i nor the engine's
// own decision reaches it); the word goes into the entry behind the head
// (the head's entry when the buffer is empty) and is offered from the next
// cycle on when nothing waits before it. A taken head passes rd_q to the
// other entry. So descriptors leave one per cycle in the order loaded, and
// with a consumer that is always ready the buffer never fills and the port
// is the same, cycle for cycle, as a single output register. A descriptor
// taken and not followed by one leaves the port empty.
//
// Timing: an entry takes the engine's word in every cycle in which it is
// empty (what it takes without a load is not offered), so its enable is a
// decode of registers and neither load_i nor out_ready_i reaches it, and
// the engine's word goes into the entries' flip-flops without a choice
// before them; the port's descriptor is a choice of the two entries by
// rd_q. load_i and out_ready_i decide the four state bits only. busy_o is 1
// while the engine runs (running_i: its state is not idle) or a descriptor
// is offered; a configuration write is taken (cfg_write_o) only while
// busy_o is 0.
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
  /// The output buffer is not full: the engine may load (a register).
  output logic                                can_load_o,
  /// The engine's registers: next value.
  input  logic [RegsWidth-1:0]                regs_d_i,
  /// The engine's registers: value after reset.
  input  logic [RegsWidth-1:0]                regs_reset_i,
  /// The engine's registers: current value.
  output logic [RegsWidth-1:0]                regs_q_o
);

  logic                                out_valid_q;  // one descriptor or more: the head is offered
  logic                                full_q;       // two descriptors: the second waits behind the head
  logic                                rd_q;         // the head's entry
  collnet_descriptor_pkg::descriptor_t ent0_q, ent1_q;
  logic                                take;         // the head is taken in this cycle

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = rd_q ? ent1_q : ent0_q;
  assign busy_o      = running_i || out_valid_q;
  assign cfg_write_o = cfg_we_i && !busy_o;
  assign can_load_o  = !full_q;
  assign take        = out_valid_q && out_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) regs_q_o <= regs_reset_i;
    else regs_q_o <= regs_d_i;
  end

  // The state: one more descriptor on a load (only while not full), one
  // fewer on a take, which passes the head to the other entry.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      {out_valid_q, full_q, rd_q} <= '0;
    end else begin
      out_valid_q <= full_q || load_i || (out_valid_q && !out_ready_i);
      full_q      <= !take && (full_q || (out_valid_q && load_i));
      if (take) rd_q <= !rd_q;
    end
  end

  // The entries take the engine's word while empty: entry rd_q holds the
  // head (valid with out_valid_q), the other entry the second (with full_q).
  always_ff @(posedge clk_i) begin
    if (!(rd_q ? full_q : out_valid_q)) ent0_q <= load_word_i;
  end
  always_ff @(posedge clk_i) begin
    if (!(rd_q ? out_valid_q : full_q)) ent1_q <= load_word_i;
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("%m: descriptor withdrawn or changed before out_ready_i");

  // The engine loads only while the output buffer is not full.
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
  // the descriptor behind the head (valid with full_q)
  collnet_descriptor_pkg::descriptor_t f_second;
  assign f_second = rd_q ? ent0_q : ent1_q;

  // Every assertion is labelled with its property group (K1_..., K6_...):
  // scripts/formal.sh checks that each group it lists has assertions and
  // names the group a failing assertion belongs to.
  always @(posedge clk_i) begin
    // The engine's contract: assumed for the skeleton alone
    // (FORMAL_SKELETON_ALONE), proven inside every engine (with K6: the
    // engine may load exactly while the buffer is not full).
`ifdef FORMAL_SKELETON_ALONE
    if (rst_ni && load_i) assume (can_load_o);
`else
    if (rst_ni && load_i) K6_load_contract: assert (can_load_o);
`endif
    if (rst_ni) begin
      // K6 the buffer: full only with a head, and the engine may load exactly
      // while it is not full.
      if (full_q) K6_full_head: assert (out_valid_o);
      K6_can_load: assert (can_load_o == !full_q);
`ifndef FORMAL_SKELETON_ALONE
      // K6 END (the zero word) is the engine's last word: the engine is idle
      // while END waits behind the head, and nothing follows an offered END.
      if (full_q && f_second == '0) K6_end_idle: assert (!running_i);
      if (out_valid_o && out_desc_o == '0) K6_end_last: assert (!full_q);
`endif
    end
    if (f_past_valid && $past(rst_ni) && rst_ni) begin
      // K1 handshake: an offered descriptor stays offered and unchanged until taken.
      if ($past(out_valid_o && !out_ready_i)) K1_held: assert (out_valid_o && out_desc_o == $past(out_desc_o));
      // K2 a descriptor is offered only after a load, in the order loaded:
      // a taken (or absent) head is followed by the descriptor waiting behind
      // it, else by the word loaded, else by nothing; a load behind a head
      // that stays waits behind it.
      if ($past(!out_valid_o || out_ready_i)) begin
        if ($past(full_q)) K2_second_next: assert (out_valid_o && out_desc_o == $past(f_second) && !full_q);
        else if ($past(load_i)) K2_load_next: assert (out_valid_o && out_desc_o == $past(load_word_i) && !full_q);
        else K2_none_next: assert (!out_valid_o && !full_q);
      end else begin
        if ($past(load_i)) K2_load_behind: assert (full_q && f_second == $past(load_word_i));
        else if ($past(full_q)) K2_second_waits: assert (full_q && f_second == $past(f_second));
        else K2_none_behind: assert (!full_q);
      end
      // K3 a taken descriptor that nothing follows leaves the port empty.
      if ($past(out_valid_o && out_ready_i && !full_q && !load_i)) K3_empty: assert (!out_valid_o);
      // K5 the registers follow regs_d_i.
      K5_follow: assert (regs_q_o == $past(regs_d_i));
    end
    // K5 after reset: the registers at regs_reset_i, the buffer empty.
    if (f_past_valid && !$past(rst_ni)) K5_reset: assert (!out_valid_o && !full_q && regs_q_o == $past(regs_reset_i));
    // K4 configuration gate: a write is taken only while not busy, and busy
    // covers a running engine and an offered descriptor.
    K4_gate: assert (cfg_write_o == (cfg_we_i && !running_i && !out_valid_o));
    K4_busy: assert (busy_o == (running_i || out_valid_o));
  end

`ifdef FORMAL_SKELETON_ALONE
  // Covers of the skeleton alone (scripts/formal.sh checks that each is
  // reached from reset within its depth; inside an engine its own covers
  // stand for them): the events the assertions are about happen.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // K1: an offered descriptor is not taken.
      cover_K1_stall: cover (out_valid_o && !out_ready_i);
      // K2: a load behind a head that stays, and a taken head with one behind it.
      cover_K2_load_behind: cover (out_valid_o && !out_ready_i && load_i);
      cover_K2_second_moves_up: cover (full_q && out_ready_i);
      // K3: a head taken with nothing behind it and no load.
      cover_K3_last_taken: cover (out_valid_o && out_ready_i && !full_q && !load_i);
      // K4: a write refused while busy, and one taken.
      cover_K4_refused: cover (cfg_we_i && busy_o);
      cover_K4_taken: cover (cfg_write_o);
      // K5: the registers change.
      cover_K5_change: cover (regs_d_i != regs_q_o);
      // K6: the buffer is full (the engine may not load).
      cover_K6_full: cover (full_q);
    end
  end
`endif
`endif

endmodule
