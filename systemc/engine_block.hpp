// A schedule engine as the NIC's descriptor source drives it (issue 6,
// item 5): every engine of hls/ and rtl/ has the same port shape, a
// configuration write port (cfg_we, cfg_addr, cfg_wdata) and a valid/ready
// descriptor output with busy (hls/schedule_engine_a2a.hpp and its siblings
// define the behaviour; rtl/schedule_engine_*.sv implement it). The engine
// source (descriptor_source.cpp) runs either the HLS class or the Verilated
// RTL through this interface, so both see the same cycles.
#pragma once

#include <cstdint>
#include <memory>

#include "collectives/descriptor.hpp"
#include "driver/engine_loader.hpp"

namespace collnet::systemc {

struct EngineInputs {
  bool cfg_we = false;
  std::uint8_t cfg_addr = 0;
  std::uint32_t cfg_wdata = 0;
  bool out_ready = false;
};

/// Register outputs: they depend on no input of the same cycle.
struct EngineOutputs {
  bool out_valid = false;
  DescriptorWord out_desc;
  bool busy = false;
};

class EngineBlock {
 public:
  virtual ~EngineBlock() = default;
  /// The outputs in the current cycle.
  [[nodiscard]] virtual EngineOutputs outputs() const = 0;
  /// One clock cycle with inputs `in`.
  virtual void step(const EngineInputs& in) = 0;
  /// One clock cycle with idle inputs (no write, ready low). Returns true
  /// only if the block's whole state is unchanged by it: the step function
  /// is deterministic, so every further idle cycle is then a no-op as well
  /// and may be skipped. False is always safe.
  virtual bool step_idle() {
    step(EngineInputs{});
    return false;
  }
};

/// The HLS class of engine `kind`, after reset (its RTL: rtl_blocks.hpp).
std::unique_ptr<EngineBlock> make_hls_engine(driver::EngineKind kind);

}  // namespace collnet::systemc
