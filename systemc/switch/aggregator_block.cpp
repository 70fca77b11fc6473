#include "systemc/switch/aggregator_block.hpp"

#include <fmt/format.h>

#include "collectives/params.hpp"
#include "systemc/nic/rtl_blocks.hpp"

namespace collnet::systemc {

namespace {

/// hls::SwitchAggregator itself (switch_blocks=hls), with a table of Slots.
template <unsigned Slots>
class HlsSwitchAggregator final : public SwitchAggregatorBlock {
 public:
  HlsSwitchAggregator() { engine_.reset(); }
  hls::SwitchAggregatorOutputs step(const hls::SwitchAggregatorInputs& in) override { return engine_.step(in); }
  [[nodiscard]] unsigned slots() const override { return Slots; }

 private:
  hls::SwitchAggregator<Slots> engine_;
};

template <unsigned Slots>
std::unique_ptr<SwitchAggregatorBlock> make_hls() {
  return std::make_unique<HlsSwitchAggregator<Slots>>();
}

}  // namespace

bool hls_aggregation_slots(int slots) { return slots >= 1 && slots <= 64 && (slots & (slots - 1)) == 0; }

std::string switch_aggregator_problem(SwitchBlocks blocks, int slots) {
  if (blocks == SwitchBlocks::rtl) {
    if (slots != kRtlAggregationSlots)
      return fmt::format("key 'aggregation_slots': {} is not accepted with switch_blocks=rtl (the Verilated "
                         "rtl/switch_aggregator.sv is built with Slots = {}); accepted values: {}, or switch_blocks=hls",
                         slots, kRtlAggregationSlots, kRtlAggregationSlots);
    if (!rtl_blocks_built())
      return "key 'switch_blocks': rtl needs the Verilated models, and Verilator was not found when collnet was "
             "built (scripts/setup.sh installs it); accepted value here: hls";
    return {};
  }
  if (!hls_aggregation_slots(slots))
    return fmt::format("key 'aggregation_slots': {} is not accepted; accepted values: 1, 2, 4, 8, 16, 32, 64", slots);
  return {};
}

std::unique_ptr<SwitchAggregatorBlock> make_switch_aggregator(SwitchBlocks blocks, int slots) {
  if (const std::string problem = switch_aggregator_problem(blocks, slots); !problem.empty())
    throw ConfigError(problem);
  if (blocks == SwitchBlocks::rtl) return make_rtl_switch_aggregator();
  switch (slots) {
    case 1: return make_hls<1>();
    case 2: return make_hls<2>();
    case 4: return make_hls<4>();
    case 8: return make_hls<8>();
    case 16: return make_hls<16>();
    case 32: return make_hls<32>();
    default: return make_hls<64>();
  }
}

std::array<RegisterWrite, 4> configuration_writes(const SwitchAggregatorConfig& config) {
  namespace reg = hls::switch_aggregator_reg;
  return {RegisterWrite{static_cast<std::uint8_t>(reg::child_mask), config.child_mask},
          RegisterWrite{static_cast<std::uint8_t>(reg::op), config.op},
          RegisterWrite{static_cast<std::uint8_t>(reg::block_words), config.block_words},
          RegisterWrite{static_cast<std::uint8_t>(reg::control), 1u}};
}

}  // namespace collnet::systemc
