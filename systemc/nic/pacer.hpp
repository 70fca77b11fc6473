// The packet pacer as the NIC's controller sees it (the NIC
// runs either the synthesizable C++ class or its Verilated RTL, key
// `nic_blocks`). Both implementations have the ports and the valid/ready
// contract of hls/packet_pacer.hpp (the one definition of the block's
// behaviour); this interface adds nothing but the choice.
//
// step(in) is one clock cycle: the outputs the pacer drives in that cycle
// given `in` (combinational from its registers and `in`), then the clock
// edge. The NIC steps a pacer only in the cycles its controller offers a flit
// and replays the countdown cycles between (nic.cpp, catch_up), which is why
// it reads the two registers that decide the countdown: in_packet_q and
// hold_q (rtl/packet_pacer.sv names; the RTL exposes them read-only through
// rtl/packet_pacer.vlt).
#pragma once

#include <cstdint>
#include <memory>

#include "hls/packet_pacer.hpp"

namespace collnet::systemc {

/// Which implementation of the NIC's blocks runs (key `nic_blocks`).
enum class NicBlocks : std::uint8_t { hls, rtl };

/// Longest packet the NIC's pacers pass: both implementations are built with
/// PacketFlitsWidth = 12 (the RTL module's default parameter).
inline constexpr unsigned kPacerFlitsWidth = 12;
inline constexpr std::uint32_t kMaxPacketFlits = hls::PacketPacer<kPacerFlitsWidth>::max_packet_flits;

class Pacer {
 public:
  virtual ~Pacer() = default;
  /// Synchronous reset (registers to 0).
  virtual void reset() = 0;
  /// One clock cycle with inputs `in`; returns the outputs of that cycle.
  virtual hls::PacketPacerOutputs step(const hls::PacketPacerInputs& in) = 0;
  [[nodiscard]] virtual bool in_packet_q() const = 0;
  [[nodiscard]] virtual std::uint32_t hold_q() const = 0;
};

/// A pacer of kind `blocks` (after reset). NicBlocks::rtl throws ConfigError
/// naming `nic_blocks` when collnet was built without Verilator.
std::unique_ptr<Pacer> make_pacer(NicBlocks blocks);

}  // namespace collnet::systemc
