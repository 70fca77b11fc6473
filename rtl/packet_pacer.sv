// Packet pacer: a gate between a NIC controller and its injection port that
// spaces the packets of one flow (spec a2a-hopgroup, "Pacing").
//
// After the last flit of a packet of P flits it holds the next packet back for
// gap x P + slack cycles, gap and slack being those of the packet just sent
// (sampled on its head flit). RTL of hls/packet_pacer.hpp, register for
// register; bench/verilator/packet_pacer_bench.cpp runs both against the
// reference timing model collectives/pacer_timing.hpp, flit by flit.
//
// Handshake contract (valid/ready on both sides, a transfer when both are 1):
//   - out_valid_o depends on in_valid_i and state only, never on out_ready_i;
//     in_ready_o = out_ready_i when the gate is open (no latency, no buffer).
//   - The controller keeps in_valid_i and the flit stable until in_ready_o.
//   - A packet is at most 2^PacketFlitsWidth - 1 flits long.
//   Initiation interval 1 inside a packet.
//
// No multiplier: while a packet passes, hold_q accumulates slack + gap per
// flit; between packets it counts down, and the gate opens at 0.
//
// Timing (iCE40: the clock enable of hold_q reaches its 28 flip-flops through
// a global buffer, so it must be one LUT from registers): the gate is a
// register of its own, gate_open_q = in_packet_q || hold_q == 0, set a cycle
// ahead (hold_q == 1 while counting down; at a packet's last flit, whether
// its gap and slack were both 0, kept in hold_zero_q: inside a packet hold_q
// is 0 exactly then, since it never wraps). What hold_q takes next depends on
// the state only (in a packet: + gap; at the gate: the head flit's slack +
// gap; closed: - 1), and it changes when a flit is offered and taken or the
// gate is closed, so its enable is one LUT of in_valid_i, out_ready_i,
// gate_open_q and the reset. gap_q follows in_gap_i between packets and holds
// inside one.
module packet_pacer #(
  /// Bits of one flit (one payload word).
  parameter int unsigned FlitWidth = 64,
  /// Bits of the longest packet length, in flits.
  parameter int unsigned PacketFlitsWidth = 12
) (
  /// Clock; every register samples on its rising edge.
  input  logic                                 clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                                 rst_ni,
  /// Controller side: a flit is offered.
  input  logic                                 in_valid_i,
  /// Controller side: the flit is taken in this cycle (when in_valid_i).
  output logic                                 in_ready_o,
  /// Controller side: the flit.
  input  logic [FlitWidth-1:0]                 in_data_i,
  /// Controller side: the flit is the last of its packet.
  input  logic                                 in_last_i,
  /// Controller side: pacing gap of the packet, in packet times (head flit).
  input  collnet_descriptor_pkg::gap_t         in_gap_i,
  /// Controller side: extra idle cycles after the packet (head flit).
  input  collnet_descriptor_pkg::slack_t       in_slack_i,
  /// Port side: a flit is offered to the injection port.
  output logic                                 out_valid_o,
  /// Port side: the injection port takes the flit in this cycle.
  input  logic                                 out_ready_i,
  /// Port side: the flit.
  output logic [FlitWidth-1:0]                 out_data_o,
  /// Port side: the flit is the last of its packet.
  output logic                                 out_last_o
);

  localparam int unsigned GapWidth = collnet_descriptor_pkg::GapWidth;
  // gap x P + slack <= 255 x (2^W - 1) + 255 = 255 x 2^W < 2^(GapWidth + W)
  // for every P < 2^W (W = PacketFlitsWidth; slack is as wide as gap).
  localparam int unsigned HoldWidth = GapWidth + PacketFlitsWidth;

  logic                 in_packet_q;
  logic [GapWidth-1:0]  gap_q;
  logic [HoldWidth-1:0] hold_d, hold_q;
  logic                 hold_zero_q;  // between packets: hold_q == 0; in a packet: gap and slack are 0
  logic                 gate_open_d, gate_open_q;  // in_packet_q || hold_q == 0
  logic                 head_zero;  // the offered head flit's gap and slack are 0

  logic take;  // a flit is offered and the port is ready (it passes if the gate is open)
  logic fire;  // a flit passes
  logic hold_en;

  assign out_valid_o = in_valid_i && gate_open_q;
  assign in_ready_o  = out_ready_i && gate_open_q;
  assign out_data_o  = in_data_i;
  assign out_last_o  = in_last_i;
  assign take        = in_valid_i && out_ready_i;
  assign fire        = take && gate_open_q;
  assign head_zero   = (in_slack_i == '0) && (in_gap_i == '0);
  // a flit passes (the gate is open) or the gate is closed and counts down
  assign hold_en     = take || !gate_open_q;

  always_comb begin
    if (in_packet_q) begin
      hold_d = hold_q + HoldWidth'(gap_q);
      gate_open_d = !in_last_i || hold_zero_q;
    end else if (hold_zero_q) begin
      // head flit: the gate is open with hold_q == 0; start the sum
      hold_d      = HoldWidth'(in_slack_i) + HoldWidth'(in_gap_i);
      gate_open_d = !in_last_i || head_zero;
    end else begin
      hold_d      = hold_q - 1'b1;
      gate_open_d = hold_q == HoldWidth'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      in_packet_q <= 1'b0;
      gap_q       <= '0;
      hold_q      <= '0;
      hold_zero_q <= 1'b1;
      gate_open_q <= 1'b1;
    end else begin
      if (fire) in_packet_q <= !in_last_i;
      if (!in_packet_q) gap_q <= in_gap_i;
      if (hold_en) begin
        hold_q      <= hold_d;
        gate_open_q <= gate_open_d;
      end
      if (hold_en && !in_packet_q) hold_zero_q <= hold_zero_q ? head_zero : hold_q == HoldWidth'(1);
    end
  end

`ifndef SYNTHESIS
  // One assertion per interface invariant (checked under Verilator --assert).

  // Controller contract: an offered flit stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (in_valid_i && !in_ready_o) |=> (in_valid_i && $stable(in_data_i) && $stable(in_last_i)))
    else $error("packet_pacer: controller withdrew or changed a flit before in_ready_o");

  // Output contract: an offered flit stays offered until the port takes it
  // (the gate never closes inside a packet, and opens only by counting down).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> out_valid_o)
    else $error("packet_pacer: out_valid_o dropped without a transfer");

  // Packet length contract: the hold accumulator never wraps.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (fire && in_packet_q) |-> ({1'b0, hold_q} + (HoldWidth+1)'(gap_q)) < (1 << HoldWidth))
    else $error("packet_pacer: packet longer than 2^PacketFlitsWidth - 1 flits");
`endif

`ifdef FORMAL
  // Formal properties (scripts/formal.sh; Yosys read_verilog -formal, proven
  // by induction with yosys-smtbmc). f_* is a monitor written from the ports
  // only: it counts the flits of the packet in flight and the idle cycles the
  // programmed gap asks for (gap x P + slack, a multiplication the RTL does
  // not do), independently of hold_q.
  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  initial assume (!rst_ni);

  localparam int unsigned FMaxFlits = (1 << PacketFlitsWidth) - 1;

  logic                        f_in_fire, f_out_fire;
  logic                        f_in_packet;   // a head flit passed, its last one not yet
  logic [PacketFlitsWidth-1:0] f_flits;       // flits of that packet so far
  logic [GapWidth-1:0]         f_gap, f_slack;  // sampled on its head flit
  logic [HoldWidth-1:0]        f_wait;        // idle cycles still owed after the last packet
  logic [HoldWidth-1:0]        f_owed;        // gap x P + slack of the packet whose last flit passes now
  logic [7:0]                  f_count_in, f_count_out;  // flits in / out, modulo 256
  assign f_in_fire  = in_valid_i && in_ready_o;
  assign f_out_fire = out_valid_o && out_ready_i;
  assign f_owed = (f_in_packet ? HoldWidth'(f_gap) * HoldWidth'({1'b0, f_flits} + 1'b1) + HoldWidth'(f_slack)
                               : HoldWidth'(in_gap_i) + HoldWidth'(in_slack_i));

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_in_packet <= 1'b0;
      f_flits     <= '0;
      f_gap       <= '0;
      f_slack     <= '0;
      f_wait      <= '0;
      f_count_in  <= '0;
      f_count_out <= '0;
    end else begin
      if (f_in_fire)  f_count_in  <= f_count_in + 8'd1;
      if (f_out_fire) f_count_out <= f_count_out + 8'd1;
      if (f_out_fire) begin
        if (!f_in_packet) begin
          f_gap   <= in_gap_i;
          f_slack <= in_slack_i;
          f_flits <= PacketFlitsWidth'(1);
        end else begin
          f_flits <= f_flits + 1'b1;
        end
        f_in_packet <= !out_last_o;
        if (out_last_o) f_wait <= f_owed;
      end else if (!f_in_packet && f_wait != '0) begin
        f_wait <= f_wait - 1'b1;
      end
    end
  end

  // Environment (the controller's contract, as stated in the header):
  // an offered flit stays offered and unchanged until taken; a packet has
  // at most 2^PacketFlitsWidth - 1 flits.
  always @(posedge clk_i) begin
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(in_valid_i && !in_ready_o))
      assume (in_valid_i && in_data_i == $past(in_data_i) && in_last_i == $past(in_last_i));
    if (f_in_packet && {1'b0, f_flits} + 1'b1 == (PacketFlitsWidth+1)'(FMaxFlits))
      assume (in_last_i);
  end

  // Every assertion is labelled with its property group (P1_..., P0_...):
  // scripts/formal.sh checks that each group it lists has assertions and
  // names the group a failing assertion belongs to.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // P1 gap: no head flit leaves while the monitor still owes idle cycles,
      // and the gate adds nothing beyond them (open as soon as none is owed).
      if (!f_in_packet && f_wait != '0) P1_owed_closed: assert (!out_valid_o);
      if (!f_in_packet && f_wait == '0) P1_paid_open: assert (out_valid_o == in_valid_i);
      // P2 no flit lost, created or reordered: a flit leaves in the cycle it
      // is taken, unchanged (no storage), so flits in - flits out = 0.
      P2_same_cycle: assert (f_in_fire == f_out_fire);
      if (f_out_fire) P2_unchanged: assert (out_data_o == in_data_i && out_last_o == in_last_i);
      P2_counts: assert (f_count_in == f_count_out);
      // P1 inside a packet the gate stays open.
      if (f_in_packet) P1_packet_open: assert (out_valid_o == in_valid_i);
      // P0 induction strengthening: the RTL's registers against the monitor.
      P0_in_packet: assert (in_packet_q == f_in_packet);
      P0_gate: assert (gate_open_q == (in_packet_q || hold_q == '0));
      if (!in_packet_q) P0_hold_zero_between: assert (hold_zero_q == (hold_q == '0));
      else P0_hold_zero_inside: assert (hold_zero_q == (f_gap == '0 && f_slack == '0));
      if (f_in_packet) P0_hold_inside: assert (gap_q == f_gap && f_flits != '0 && f_flits != '1 &&
                                               hold_q == HoldWidth'(f_gap) * HoldWidth'(f_flits) + HoldWidth'(f_slack));
      else P0_hold_between: assert (hold_q == f_wait);
    end
    // P3 handshake: an offered flit stays offered and unchanged until taken.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(out_valid_o && !out_ready_i))
      P3_held: assert (out_valid_o && out_data_o == $past(out_data_o) && out_last_o == $past(out_last_o));
  end

  // Covers (scripts/formal.sh checks that each is reached from reset within
  // its depth): the events the assertions are about happen, so that no
  // assertion holds only because its condition never does.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // P1: the last flit of a packet of two or more flits with a gap leaves
      // (gap x P + slack is owed), a head flit waits while cycles are owed,
      // and one leaves in the first cycle after a wait.
      cover_P1_gap_owed: cover (f_out_fire && out_last_o && f_in_packet && f_gap != '0);
      cover_P1_head_held: cover (!f_in_packet && f_wait != '0 && in_valid_i);
      cover_P1_head_after_wait: cover (f_past_valid && $past(rst_ni) &&
                                       $past(!f_in_packet && f_wait == HoldWidth'(1)) && f_out_fire && !f_in_packet);
      // P2: a flit inside a packet passes.
      cover_P2_body_flit: cover (f_out_fire && f_in_packet && !out_last_o);
      // P3: an offered flit is not taken.
      cover_P3_stall: cover (out_valid_o && !out_ready_i);
      // P0: inside a packet whose gap and slack are not both 0.
      cover_P0_hold_inside: cover (in_packet_q && !hold_zero_q);
    end
  end
`endif

endmodule
