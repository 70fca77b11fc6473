// A schedule engine behind one interface, whatever implements it: every
// engine of hls/ and rtl/ has the same ports (hls/schedule_engine.hpp), a
// configuration write port (cfg_we, cfg_addr, cfg_wdata) and a valid/ready
// descriptor output with busy. The NIC's descriptor source
// (systemc/nic/descriptor_source.cpp) steps either the HLS class (HlsEngine,
// below, made by the engine's catalog entry) or its Verilated RTL
// (systemc/nic/rtl_blocks.hpp) through it, so both see the same cycles.
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <type_traits>

#include "hls/schedule_engine.hpp"

namespace collnet::driver {

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

/// An HLS engine class behind the EngineBlock interface, after reset.
template <typename Engine>
class HlsEngine final : public EngineBlock {
 public:
  HlsEngine() { engine_.reset(); }
  [[nodiscard]] EngineOutputs outputs() const override { return engine_.outputs(); }
  void step(const EngineInputs& in) override { engine_.step(in); }
  bool step_idle() override {
    if constexpr (requires(const Engine& e) { e.idle_step_is_no_op(); }) {
      // An engine with a large memory says itself when an idle cycle
      // changes nothing (its state apart from the memory, which only a
      // configuration write changes).
      const bool no_op = engine_.idle_step_is_no_op();
      engine_.step(EngineInputs{});
      return no_op;
    } else if constexpr (requires { Engine::tables_follow_registers; }) {
      static_assert(Engine::tables_follow_registers);
      return engine_.step_idle_registers();
    } else {
      // The engine's state is its bytes (a plain class of registers and
      // tables): equal bytes before and after the step mean a fixed point.
      // Padding that happened to change only makes this answer false.
      static_assert(std::is_trivially_copyable_v<Engine>);
      std::array<unsigned char, sizeof(Engine)> before{};
      std::memcpy(before.data(), static_cast<const void*>(&engine_), sizeof(Engine));
      engine_.step(EngineInputs{});
      return std::memcmp(before.data(), static_cast<const void*>(&engine_), sizeof(Engine)) == 0;
    }
  }

 private:
  Engine engine_;
};

template <typename Engine>
std::unique_ptr<EngineBlock> make_hls_engine_of() {
  return std::make_unique<HlsEngine<Engine>>();
}

}  // namespace collnet::driver
