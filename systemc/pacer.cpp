#include "systemc/pacer.hpp"

#include "systemc/rtl_blocks.hpp"

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

}  // namespace

std::unique_ptr<Pacer> make_pacer(NicBlocks blocks) {
  if (blocks == NicBlocks::rtl) return make_rtl_pacer();
  return std::make_unique<HlsPacer>();
}

}  // namespace collnet::systemc
