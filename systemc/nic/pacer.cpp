#include "systemc/nic/pacer.hpp"

#include "systemc/nic/forwarding_rule.hpp"
#include "systemc/nic/rtl_blocks.hpp"

namespace collnet::systemc {

namespace {

/// The synthesizable class itself (nic_blocks=hls).
class HlsPacer final : public Pacer {
 public:
  HlsPacer() { pacer_.reset(); }
  void reset() override { pacer_.reset(); }
  hls::PacketPacerOutputs step(const hls::PacketPacerInputs& in) override { return pacer_.step(in); }
  [[nodiscard]] bool in_packet_q() const override { return pacer_.in_packet_q(); }
  [[nodiscard]] std::uint32_t hold_q() const override { return pacer_.hold_q(); }

 private:
  hls::PacketPacer<kPacerFlitsWidth> pacer_;
};

/// hls::TreeBcastRule itself (nic_blocks=hls).
class HlsForwardingRule final : public ForwardingRuleBlock {
 public:
  HlsForwardingRule() { rule_.reset(); }
  void configure(const hls::TreeBcastRuleConfig& config) override { rule_.configure(config); }
  hls::TreeBcastRuleOutputs step(const hls::TreeBcastRuleInputs& in) override { return rule_.step(in); }

 private:
  hls::TreeBcastRule rule_;
};

}  // namespace

std::unique_ptr<ForwardingRuleBlock> make_forwarding_rule(NicBlocks blocks) {
  if (blocks == NicBlocks::rtl) return make_rtl_forwarding_rule();
  return std::make_unique<HlsForwardingRule>();
}

std::unique_ptr<Pacer> make_pacer(NicBlocks blocks) {
  if (blocks == NicBlocks::rtl) return make_rtl_pacer();
  return std::make_unique<HlsPacer>();
}

}  // namespace collnet::systemc
