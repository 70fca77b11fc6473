// The packet pacer: a gate between a NIC controller and its injection port
// that spaces the packets of one flow (spec a2a-hopgroup, "Pacing").
//
// After the last flit of a packet of P flits it holds the next packet back for
//
//     gap x P + slack   cycles,
//
// where gap and slack are those of the packet just sent (they come from its
// SEND descriptor). P is the length of the packet just sent, counted by the
// pacer itself: the spec glossary defines the gap in "packet transfer times"
// of the flow's own packets ("after a packet of P flits the controller stays
// idle for gap x P flit times"), and a SEND's last packet may be shorter than
// the others. With gap = k-1 (hop count k) k flows share a link in turn at
// load k/(gap+1) = 1; slack absorbs router pipeline overhead (spec: the idle
// period must be "longer than" (k-1) x packet length).
//
// Ports (PacketPacerInputs, PacketPacerOutputs below, each documented there):
// the flit side (controller -> pacer, in_*) and the port side (pacer ->
// injection port, out_*), one flit per handshake on each.
//
// Handshake contract (both sides valid/ready, a transfer when both are 1):
//   - out_valid does not depend on out_ready (only on in_valid and state);
//     in_ready depends on out_ready combinationally (the pacer adds no
//     latency and no buffer: a flit passes in the cycle it is offered when
//     the gate is open and the port is ready).
//   - The controller must keep in_valid and the flit stable until in_ready
//     (then the same holds at the output, so back-pressure never loses or
//     reorders a flit).
//   - A packet is at most max_packet_flits flits long (the hold accumulator
//     is sized for it; rtl/packet_pacer.sv asserts it).
//   Initiation interval 1: one flit per cycle inside a packet.
//
// State (same names as rtl/packet_pacer.sv, so a signal has one name in
// GTKWave and in this class):
//   in_packet_q  a head flit has passed and the last flit has not
//   gap_q        gap of the packet being passed
//   hold_q       inside a packet: slack + gap x (flits passed so far), i.e.
//                the hold after the packet, accumulated one gap per flit so
//                that no multiplier is needed; between packets: the cycles
//                still to wait (counts down to 0, the gate opens at 0).
//   hold_zero_q  between packets: hold_q == 0; inside a packet: the packet's
//                gap and slack are both 0 (hold_q is 0 exactly then)
//   gate_open_q  in_packet_q || hold_q == 0, a register of its own (set a
//                cycle ahead) so that the gate is not a wide compare
// gap_q follows in_gap between packets and holds inside one. What hold_q
// takes next depends on the state only (in a packet: + gap; at the open
// gate: the head flit's slack + gap; closed: - 1); it changes when a flit is
// offered and taken or while the gate is closed (rtl/packet_pacer.sv says why:
// the enable is one LUT on iCE40).
#pragma once

#include <cstdint>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"

namespace collnet::hls {

/// Inputs of the pacer in one cycle.
struct PacketPacerInputs {
  bool in_valid = false;
  std::uint64_t in_data = 0;  // the flit (one payload word)
  bool in_last = false;       // 1 on the last flit of a packet (a one-flit packet: on its only flit)
  std::uint8_t in_gap = 0;    // the SEND's gap; sampled on the head flit only (the first after a last, or reset)
  std::uint8_t in_slack = 0;  // the SEND's slack; sampled on the head flit only
  bool out_ready = false;     // the injection port takes the flit
};

/// Outputs of the pacer in one cycle (combinational from state and inputs).
struct PacketPacerOutputs {
  bool in_ready = false;       // the flit is taken (passed on) in this cycle
  bool out_valid = false;      // a flit is offered to the injection port: in_valid and the gate open
  std::uint64_t out_data = 0;  // in_data, passed through
  bool out_last = false;       // in_last, passed through
};

/// PacketFlitsWidth: bits of the longest packet length (max_packet_flits =
/// 2^PacketFlitsWidth - 1). Same parameter as the RTL module.
template <unsigned PacketFlitsWidth = 12>
class PacketPacer {
 public:
  static constexpr unsigned gap_width = descriptor_layout::gap.width;
  static constexpr unsigned slack_width = descriptor_layout::slack.width;
  static_assert(gap_width == slack_width, "hold accumulator is sized for equal gap and slack widths");
  /// gap x P + slack <= 255 x (2^W - 1) + 255 = 255 x 2^W < 2^(gap_width + W)
  /// for every P <= max_packet_flits (W = PacketFlitsWidth).
  static constexpr unsigned hold_width = gap_width + PacketFlitsWidth;
  static_assert(hold_width <= 32, "hold_q is held in 32 bits");
  static constexpr std::uint32_t max_packet_flits = (std::uint32_t{1} << PacketFlitsWidth) - 1;
  static constexpr std::uint32_t hold_mask = (std::uint32_t{1} << hold_width) - 1;

  /// The combinational part: what the pacer drives in this cycle.
  [[nodiscard]] PacketPacerOutputs outputs(const PacketPacerInputs& in) const {
    PacketPacerOutputs out;
    const bool open = gate_open_q_;
    out.out_valid = in.in_valid && open;
    out.in_ready = in.out_ready && open;
    out.out_data = in.in_data;
    out.out_last = in.in_last;
    return out;
  }

  /// One clock cycle: returns this cycle's outputs, then commits the
  /// registers (compute every _d from _q and inputs, then q <= d).
  PacketPacerOutputs step(const PacketPacerInputs& in) {
    const PacketPacerOutputs out = outputs(in);
    const bool take = in.in_valid && in.out_ready;
    const bool fire = take && gate_open_q_;
    const bool hold_en = take || !gate_open_q_;
    const bool head_zero = in.in_slack == 0 && in.in_gap == 0;

    std::uint32_t hold_d = 0;
    bool gate_open_d = false;
    if (in_packet_q_) {
      hold_d = (hold_q_ + gap_q_) & hold_mask;
      gate_open_d = !in.in_last || hold_zero_q_;
    } else if (hold_zero_q_) {
      // head flit: the gate is open with hold_q == 0; start the sum.
      hold_d = std::uint32_t{in.in_slack} + in.in_gap;
      gate_open_d = !in.in_last || head_zero;
    } else {
      hold_d = hold_q_ - 1;
      gate_open_d = hold_q_ == 1;
    }

    const bool in_packet_d = fire ? !in.in_last : in_packet_q_;
    const std::uint8_t gap_d = in_packet_q_ ? gap_q_ : in.in_gap;
    const bool hold_zero_d = hold_en && !in_packet_q_ ? (hold_zero_q_ ? head_zero : hold_q_ == 1) : hold_zero_q_;
    if (hold_en) {
      hold_q_ = hold_d;
      gate_open_q_ = gate_open_d;
    }
    in_packet_q_ = in_packet_d;
    gap_q_ = gap_d;
    hold_zero_q_ = hold_zero_d;
    return out;
  }

  void reset() {
    in_packet_q_ = false;
    gap_q_ = 0;
    hold_q_ = 0;
    hold_zero_q_ = true;
    gate_open_q_ = true;
  }

  [[nodiscard]] bool in_packet_q() const { return in_packet_q_; }
  [[nodiscard]] std::uint8_t gap_q() const { return gap_q_; }
  [[nodiscard]] std::uint32_t hold_q() const { return hold_q_; }

 private:
  bool in_packet_q_ = false;
  std::uint8_t gap_q_ = 0;
  std::uint32_t hold_q_ = 0;
  bool hold_zero_q_ = true;
  bool gate_open_q_ = true;
};

/// Top function for an HLS tool: one call is one clock cycle (free-running,
/// no block-level handshake; the static object is the block's registers).
inline void packet_pacer_top(bool in_valid, std::uint64_t in_data, bool in_last, std::uint8_t in_gap,
                             std::uint8_t in_slack, bool out_ready, bool& in_ready, bool& out_valid,
                             std::uint64_t& out_data, bool& out_last) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  COLLNET_HLS(INTERFACE ap_none port = in_ready)
  COLLNET_HLS(INTERFACE ap_none port = out_valid)
  COLLNET_HLS(INTERFACE ap_none port = out_data)
  COLLNET_HLS(INTERFACE ap_none port = out_last)
  COLLNET_HLS(PIPELINE II = 1)
  static PacketPacer<> pacer;
  const PacketPacerOutputs out = pacer.step({in_valid, in_data, in_last, in_gap, in_slack, out_ready});
  in_ready = out.in_ready;
  out_valid = out.out_valid;
  out_data = out.out_data;
  out_last = out.out_last;
}

}  // namespace collnet::hls
