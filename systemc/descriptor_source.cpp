#include "systemc/descriptor_source.hpp"

#include <array>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "hls/schedule_engine_twotree.hpp"
#include "systemc/engine_block.hpp"
#include "systemc/rtl_blocks.hpp"

namespace collnet::systemc {

namespace {

/// The reference program, one descriptor per cycle.
class ProgramSource final : public DescriptorSource {
 public:
  explicit ProgramSource(const collectives::Program& program) : program_(program) {}
  std::optional<Descriptor> peek(Cycle /*now*/) override {
    if (next_ >= program_.size()) return std::nullopt;
    return program_[next_];
  }
  void take(Cycle /*now*/) override { ++next_; }
  [[nodiscard]] std::size_t taken() const override { return next_; }
  [[nodiscard]] bool exhausted() const override { return next_ >= program_.size(); }

 private:
  const collectives::Program& program_;
  std::size_t next_ = 0;
};

/// An HLS engine class behind the EngineBlock interface (every engine has
/// the ports of hls/schedule_engine.hpp).
template <typename Engine>
class HlsEngine final : public EngineBlock {
 public:
  HlsEngine() { engine_.reset(); }
  [[nodiscard]] EngineOutputs outputs() const override { return engine_.outputs(); }
  void step(const EngineInputs& in) override { engine_.step(in); }
  bool step_idle() override {
    // The engine's state is its bytes (a plain class of registers and
    // tables): equal bytes before and after the step mean a fixed point.
    // Padding that happened to change only makes this answer false.
    static_assert(std::is_trivially_copyable_v<Engine>);
    std::memcpy(before_.data(), static_cast<const void*>(&engine_), sizeof(Engine));
    engine_.step(EngineInputs{false, 0, 0, false});
    return std::memcmp(before_.data(), static_cast<const void*>(&engine_), sizeof(Engine)) == 0;
  }

 private:
  Engine engine_;
  std::array<unsigned char, sizeof(Engine)> before_{};
};

/// A schedule engine (HLS or RTL), stepped once per cycle from cycle 0.
class EngineSource final : public DescriptorSource {
 public:
  EngineSource(std::unique_ptr<EngineBlock> engine, const std::vector<driver::EngineWrite>& writes)
      : engine_(std::move(engine)) {
    // Register writes before cycle 0: software loads the NIC's engine before
    // the collective starts.
    for (const driver::EngineWrite& w : writes) engine_->step(EngineInputs{true, w.addr, w.data, false});
  }

  std::optional<Descriptor> peek(Cycle now) override {
    // Cycles [stepped_, now) had ready low; replay them exactly (the engine
    // may keep computing while its output waits). Once an idle cycle leaves
    // the engine's state unchanged (its offer waiting for the NIC), the
    // remaining idle cycles are no-ops until the next take.
    if (!at_rest_) {
      while (stepped_ < now) {
        ++stepped_;
        // Only an engine holding its offer is likely at rest (one comparison
        // per take); one still computing is stepped plainly.
        if (!engine_->outputs().out_valid) {
          engine_->step(EngineInputs{});
        } else if (engine_->step_idle()) {
          at_rest_ = true;
          break;
        }
      }
    }
    if (at_rest_) stepped_ = std::max(stepped_, now);
    const EngineOutputs out = engine_->outputs();
    if (!out.out_valid) return std::nullopt;
    if (!unpacked_ || !(out.out_desc == word_)) {
      word_ = out.out_desc;
      descriptor_ = Descriptor::unpack(word_);
      unpacked_ = true;
    }
    return descriptor_;
  }

  void take(Cycle now) override {
    if (now != stepped_ || !engine_->outputs().out_valid) throw std::logic_error("schedule engine: take without offer");
    engine_->step(EngineInputs{false, 0, 0, true});
    at_rest_ = false;
    ++stepped_;
    ++taken_;
  }
  [[nodiscard]] std::size_t taken() const override { return taken_; }
  /// The engines go idle (busy low) once END has been taken.
  [[nodiscard]] bool exhausted() const override { return taken_ > 0 && !engine_->outputs().busy; }

 private:
  std::unique_ptr<EngineBlock> engine_;
  Cycle stepped_ = 0;  // the engine has been stepped through cycle stepped_ - 1
  bool at_rest_ = false;  // an idle cycle left the engine unchanged (since the last take)
  bool unpacked_ = false;
  DescriptorWord word_;   // the last offered word and its unpacked descriptor
  Descriptor descriptor_;
  std::size_t taken_ = 0;
};

}  // namespace

std::unique_ptr<EngineBlock> make_hls_engine(driver::EngineKind kind) {
  switch (kind) {
    case driver::EngineKind::a2a: return std::make_unique<HlsEngine<hls::A2aScheduleEngine>>();
    case driver::EngineKind::a2at: return std::make_unique<HlsEngine<hls::A2atScheduleEngine>>();
    case driver::EngineKind::hopgroup: return std::make_unique<HlsEngine<hls::HopgroupScheduleEngine>>();
    case driver::EngineKind::hd: return std::make_unique<HlsEngine<hls::HdScheduleEngine>>();
    case driver::EngineKind::twotree: return std::make_unique<HlsEngine<hls::TwotreeScheduleEngine>>();
  }
  throw std::logic_error("make_hls_engine: unknown engine");
}

std::unique_ptr<DescriptorSource> make_descriptor_source(SourceKind kind, const collectives::Schedule& schedule,
                                                         const std::vector<driver::EngineWrite>& writes,
                                                         topology::EndpointId endpoint) {
  if (kind == SourceKind::reference)
    return std::make_unique<ProgramSource>(schedule.programs.at(static_cast<std::size_t>(endpoint)));
  const std::optional<driver::EngineKind> engine = collectives::find_algorithm(schedule.algorithm).engine;
  if (!engine) throw std::logic_error("no schedule engine covers " + schedule.algorithm);
  return std::make_unique<EngineSource>(kind == SourceKind::rtl ? make_rtl_engine(*engine) : make_hls_engine(*engine),
                                        writes);
}

}  // namespace collnet::systemc
