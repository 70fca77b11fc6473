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
#include "hls/schedule_engine.hpp"

namespace collnet::systemc {

/// The engines' own port types (hls/schedule_engine.hpp).
using EngineInputs = hls::EngineInputs;
/// Register outputs: they depend on no input of the same cycle.
using EngineOutputs = hls::EngineOutputs;

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
