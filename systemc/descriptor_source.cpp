#include "systemc/descriptor_source.hpp"

#include <stdexcept>
#include <vector>

#include "collectives/a2a_common.hpp"
#include "collectives/a2a_grouped.hpp"
#include "collectives/a2a_optimal.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "topology/grid.hpp"

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

struct EngineWrite {
  std::uint8_t addr = 0;
  std::uint32_t data = 0;
};

/// An HLS schedule engine (every one has the same port shape: a
/// configuration write port and a valid/ready descriptor output), stepped
/// once per cycle from cycle 0.
template <typename Engine, typename Inputs>
class HlsEngineSource final : public DescriptorSource {
 public:
  explicit HlsEngineSource(const std::vector<EngineWrite>& writes) {
    engine_.reset();
    // Register writes before cycle 0: software loads the NIC's engine before
    // the collective starts.
    for (const EngineWrite& w : writes) engine_.step(Inputs{true, w.addr, w.data, false});
  }

  std::optional<Descriptor> peek(Cycle now) override {
    // Cycles [stepped_, now) had ready low; replay them exactly (the engine
    // may keep computing while its output waits).
    while (stepped_ < now) {
      engine_.step(Inputs{false, 0, 0, false});
      ++stepped_;
    }
    const auto out = engine_.outputs();
    if (!out.out_valid) return std::nullopt;
    return Descriptor::unpack(out.out_desc);
  }

  void take(Cycle now) override {
    if (now != stepped_ || !engine_.outputs().out_valid) throw std::logic_error("schedule engine: take without offer");
    engine_.step(Inputs{false, 0, 0, true});
    ++stepped_;
    ++taken_;
  }
  [[nodiscard]] std::size_t taken() const override { return taken_; }
  /// The engines go idle (busy low) once END has been taken.
  [[nodiscard]] bool exhausted() const override { return taken_ > 0 && !engine_.outputs().busy; }

 private:
  Engine engine_;
  Cycle stepped_ = 0;  // the engine has been stepped through cycle stepped_ - 1
  std::size_t taken_ = 0;
};

std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill) {
  std::array<std::uint32_t, 4> a{fill, fill, fill, fill};
  for (std::size_t d = 0; d < v.size() && d < 4; ++d) a[d] = static_cast<std::uint32_t>(v[d]);
  return a;
}

bool sizes_at_most(const topology::Grid& grid, int limit) {
  for (int d = 0; d < grid.dims(); ++d)
    if (grid.size(d) > limit) return false;
  return true;
}

std::uint32_t words_of(const Params& params, const topology::Grid& grid) {
  return collectives::message_words(params, 2u * static_cast<std::uint64_t>(grid.endpoint_count()));
}

/// Software's register writes for the A2AT engine: configuration, the offset
/// table from collectives::a2at_offset_groups, CONTROL last.
std::vector<EngineWrite> a2at_writes(const topology::Grid& grid, const Params& params, topology::EndpointId self) {
  namespace R = hls::a2at_engine_reg;
  const int nct = collectives::read_nct(params, grid);
  const auto order = params.choice("group_order", "reordered", {"printed", "reordered"}) == "printed"
                         ? collectives::A2atOrder::printed
                         : collectives::A2atOrder::reordered;
  const std::vector<int> c = grid.coord(self);
  std::vector<EngineWrite> w{{R::message_words, words_of(params, grid)},
                             {R::size_x, static_cast<std::uint32_t>(grid.size(0))},
                             {R::size_y, static_cast<std::uint32_t>(grid.size(1))},
                             {R::coord_x, static_cast<std::uint32_t>(c[0])},
                             {R::coord_y, static_cast<std::uint32_t>(c[1])},
                             {R::torus, grid.torus() ? 1u : 0u},
                             {R::table_addr, 0}};
  std::uint32_t count = 0;
  for (const auto& group : collectives::a2at_offset_groups(grid.size(0), grid.size(1), grid.torus(), nct, order))
    for (std::size_t k = 0; k < group.size(); ++k, ++count)
      w.push_back({R::table_data, R::table_word(group[k].dx, group[k].dy, k + 1 == group.size())});
  w.push_back({R::table_count, count});
  w.push_back({R::control, 1});
  return w;
}

/// The same options the reference reads (collectives/a2a_hopgroup.cpp).
std::vector<EngineWrite> hopgroup_writes(const std::string& algorithm, const topology::Grid& grid,
                                         const Params& params, topology::EndpointId self) {
  namespace R = hls::hopgroup_engine_reg;
  std::uint32_t options = grid.torus() ? R::opt_torus : 0u;
  if (params.boolean("pacing", true)) options |= R::opt_pacing;
  if (params.choice("hop_order", "ascending", {"ascending", "descending"}) == "descending") options |= R::opt_descending;
  if (params.choice("directions", "plus", {"plus", "both"}) == "both") options |= R::opt_both;
  if (params.choice("mode3d", "literal", {"literal", "concurrent"}) == "concurrent") options |= R::opt_concurrent;
  if (params.boolean("barriers", true)) options |= R::opt_barriers;
  const auto slack = static_cast<std::uint32_t>(params.integer("gap_slack", 0, 0, 255));
  const std::uint8_t code = algorithm == "a2a-hopgroup" ? R::algorithm_hopgroup : R::algorithm_direct;
  std::vector<EngineWrite> w;
  for (const auto& x : hls::hopgroup_engine_writes(code, words_of(params, grid), options, slack,
                                                   static_cast<std::uint32_t>(grid.dims()), padded(grid.sizes(), 1),
                                                   padded(grid.coord(self), 0)))
    w.push_back({x.addr, x.data});
  return w;
}

std::vector<EngineWrite> a2a_writes(const std::string& algorithm, const topology::Grid& grid, const Params& params,
                                    topology::EndpointId self) {
  const std::uint8_t code = algorithm == "a2a-nd" ? hls::a2a_engine_reg::algorithm_nd
                                                  : hls::a2a_engine_reg::algorithm_spread;
  const auto nct = static_cast<std::uint32_t>(collectives::read_nct(params, grid));
  std::vector<EngineWrite> w;
  for (const auto& x : hls::a2a_engine_writes(code, nct, words_of(params, grid), padded(grid.sizes(), 1),
                                              padded(grid.coord(self), 0)))
    w.push_back({x.addr, x.data});
  return w;
}

}  // namespace

std::string hls_engine_for(const std::string& algorithm, const topology::Topology& topology, const Params& params) {
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  if (grid == nullptr) return "";
  if (algorithm == "a2a-spread" || algorithm == "a2a-nd") {
    const int nct = collectives::read_nct(params, *grid);
    if (grid->dims() <= 4 && nct >= 1 && nct <= 4 && grid->endpoint_count() <= 65536) return "hls-a2a";
  }
  if (algorithm == "a2a-optimal" && grid->dims() == 2 && sizes_at_most(*grid, static_cast<int>(hls::a2at_engine_reg::max_size)) &&
      grid->endpoint_count() - 1 <= static_cast<int>(hls::a2at_engine_reg::table_entries))
    return "hls-a2at";
  if ((algorithm == "a2a-hopgroup" && grid->dims() <= 3) || (algorithm == "a2a-hopgroup-direct" && grid->dims() <= 4))
    if (sizes_at_most(*grid, static_cast<int>(hls::hopgroup_engine_reg::max_size))) return "hls-hopgroup";
  return "";
}

std::unique_ptr<DescriptorSource> make_descriptor_source(SourceKind kind, const collectives::Schedule& schedule,
                                                         const topology::Topology& topology, const Params& params,
                                                         topology::EndpointId endpoint) {
  if (kind == SourceKind::reference)
    return std::make_unique<ProgramSource>(schedule.programs.at(static_cast<std::size_t>(endpoint)));
  const auto& grid = dynamic_cast<const topology::Grid&>(topology);
  const std::string engine = hls_engine_for(schedule.algorithm, topology, params);
  if (engine == "hls-a2a")
    return std::make_unique<HlsEngineSource<hls::A2aScheduleEngine, hls::A2aEngineInputs>>(
        a2a_writes(schedule.algorithm, grid, params, endpoint));
  if (engine == "hls-a2at")
    return std::make_unique<HlsEngineSource<hls::A2atScheduleEngine, hls::A2atEngineInputs>>(
        a2at_writes(grid, params, endpoint));
  if (engine == "hls-hopgroup")
    return std::make_unique<HlsEngineSource<hls::HopgroupScheduleEngine, hls::HopgroupEngineInputs>>(
        hopgroup_writes(schedule.algorithm, grid, params, endpoint));
  throw std::logic_error("no HLS schedule engine covers " + schedule.algorithm);
}

}  // namespace collnet::systemc
