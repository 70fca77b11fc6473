#include "systemc/descriptor_source.hpp"

#include <stdexcept>
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

/// An HLS engine class behind the EngineBlock interface (the classes share
/// the port shape; only the structs' names differ).
template <typename Engine, typename Inputs>
class HlsEngine final : public EngineBlock {
 public:
  HlsEngine() { engine_.reset(); }
  [[nodiscard]] EngineOutputs outputs() const override {
    const auto out = engine_.outputs();
    return {out.out_valid, out.out_desc, out.busy};
  }
  void step(const EngineInputs& in) override { engine_.step(Inputs{in.cfg_we, in.cfg_addr, in.cfg_wdata, in.out_ready}); }

 private:
  Engine engine_;
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
    // may keep computing while its output waits).
    while (stepped_ < now) {
      engine_->step(EngineInputs{});
      ++stepped_;
    }
    const EngineOutputs out = engine_->outputs();
    if (!out.out_valid) return std::nullopt;
    return Descriptor::unpack(out.out_desc);
  }

  void take(Cycle now) override {
    if (now != stepped_ || !engine_->outputs().out_valid) throw std::logic_error("schedule engine: take without offer");
    engine_->step(EngineInputs{false, 0, 0, true});
    ++stepped_;
    ++taken_;
  }
  [[nodiscard]] std::size_t taken() const override { return taken_; }
  /// The engines go idle (busy low) once END has been taken.
  [[nodiscard]] bool exhausted() const override { return taken_ > 0 && !engine_->outputs().busy; }

 private:
  std::unique_ptr<EngineBlock> engine_;
  Cycle stepped_ = 0;  // the engine has been stepped through cycle stepped_ - 1
  std::size_t taken_ = 0;
};

}  // namespace

std::unique_ptr<EngineBlock> make_hls_engine(driver::EngineKind kind) {
  switch (kind) {
    case driver::EngineKind::a2a: return std::make_unique<HlsEngine<hls::A2aScheduleEngine, hls::A2aEngineInputs>>();
    case driver::EngineKind::a2at:
      return std::make_unique<HlsEngine<hls::A2atScheduleEngine, hls::A2atEngineInputs>>();
    case driver::EngineKind::hopgroup:
      return std::make_unique<HlsEngine<hls::HopgroupScheduleEngine, hls::HopgroupEngineInputs>>();
    case driver::EngineKind::hd: return std::make_unique<HlsEngine<hls::HdScheduleEngine, hls::HdEngineInputs>>();
    case driver::EngineKind::twotree:
      return std::make_unique<HlsEngine<hls::TwotreeScheduleEngine, hls::TwotreeEngineInputs>>();
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
