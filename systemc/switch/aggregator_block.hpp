// The switch's aggregation engine as the cycle model sees it: the
// synthesizable class hls/switch_aggregator.hpp or its Verilated RTL
// rtl/switch_aggregator.sv (key `switch_blocks`), behind one interface, as
// the NIC's pacer (systemc/nic/pacer.hpp) and forwarding rule are. The header
// of hls/switch_aggregator.hpp defines the ports, the handshake contract and
// what happens when the table is full; this interface adds nothing but the
// choice and the table size (key `aggregation_slots`).
//
// step(in) is one clock cycle: the outputs the engine drives in that cycle
// given `in`, then the clock edge. Configuration goes through the register
// writes of the block (cfg_we, cfg_addr, cfg_wdata in `in`), taken only while
// the engine is idle, as software would load them with the collective.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "hls/switch_aggregator.hpp"

namespace collnet::systemc {

/// Which implementation of the switches' aggregation engine runs (key `switch_blocks`).
enum class SwitchBlocks : std::uint8_t { hls, rtl };

class SwitchAggregatorBlock {
 public:
  virtual ~SwitchAggregatorBlock() = default;
  /// One clock cycle with inputs `in`; returns the outputs of that cycle.
  virtual hls::SwitchAggregatorOutputs step(const hls::SwitchAggregatorInputs& in) = 0;
  /// Aggregation slots of the table.
  [[nodiscard]] virtual unsigned slots() const = 0;
};

/// The table sizes the HLS class is built with (aggregation_slots): powers of
/// two from 1 to 64.
[[nodiscard]] bool hls_aggregation_slots(int slots);
/// The table size the Verilated RTL is built with (the module's default
/// parameter Slots, hls/engine_registers.yaml's constant `slots`).
inline constexpr int kRtlAggregationSlots = static_cast<int>(hls::switch_aggregator_reg::slots);

/// Why `blocks` cannot run a table of `slots` slots (a ConfigError message
/// naming the key), or empty.
[[nodiscard]] std::string switch_aggregator_problem(SwitchBlocks blocks, int slots);

/// The engine of kind `blocks` with `slots` slots, after reset. Throws
/// ConfigError naming `aggregation_slots` or `switch_blocks` for a table the
/// kind is not built with, or rtl without Verilator.
std::unique_ptr<SwitchAggregatorBlock> make_switch_aggregator(SwitchBlocks blocks, int slots);

/// Register writes that configure an idle engine (hls/engine_registers.yaml,
/// switch_aggregator): CHILD_MASK, OP, BLOCK_WORDS, then CONTROL = 1. The
/// caller issues one per cycle with cfg_we.
struct SwitchAggregatorConfig {
  std::uint8_t child_mask = 0;
  std::uint8_t op = hls::switch_aggregator_reg::op_sum;
  std::uint32_t block_words = 1;
};
struct RegisterWrite {
  std::uint8_t address = 0;
  std::uint32_t data = 0;
};
[[nodiscard]] std::array<RegisterWrite, 4> configuration_writes(const SwitchAggregatorConfig& config);

}  // namespace collnet::systemc
