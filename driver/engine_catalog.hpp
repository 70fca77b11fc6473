// The engine registry: one entry per schedule engine, keyed by its name,
// and every question about an engine is a lookup in it: its block, the
// limits its register map implies (from the constants rendered from
// hls/engine_registers.yaml), why it refuses a topology, the configuration
// writes its loader makes and its HLS class. Its RTL model is the Verilated
// module of the same block name (systemc/nic/rtl_blocks.cpp, the one place
// that sees Verilator, takes every rtl/schedule_engine_*.sv the build
// verilates).
//
// An engine is registered where it lives: the file driver/engines/NAME.cpp
// defines `EngineEntry engines::NAME()`, and the build lists every file of
// that folder (driver/CMakeLists.txt), so adding an engine is its HLS header,
// its RTL, its register map in hls/engine_registers.yaml, its file here and
// its Verilator bench (docs/develop/engine.md walks through one).
#pragma once

#include <any>
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "driver/engine_block.hpp"
#include "hls/schedule_engine.hpp"
#include "topology/grid.hpp"
#include "topology/topology.hpp"

namespace collnet::driver {

/// One write of an engine's configuration port (cfg_we high for one cycle).
using EngineWrite = hls::EngineWrite;

/// What a run hands an engine's loader.
struct LoadRequest {
  /// The algorithm's registry entry; nullptr for a schedule that is no
  /// algorithm's (only engines that replay programs take those).
  const collectives::Algorithm* algorithm = nullptr;
  /// The run's reference schedule when it has been built (its programs, and
  /// the loader values the builder computed: Schedule::engine_params);
  /// nullptr: the loader computes what it needs from the scenario.
  const collectives::Schedule* schedule = nullptr;
  const topology::Topology* topology = nullptr;
  const Params* params = nullptr;
};

/// An endpoint's writes, CONTROL last. What is shared by every endpoint (the
/// loader values, a plan) is computed once, when the loader is made.
using EndpointWrites = std::function<std::vector<EngineWrite>(topology::EndpointId)>;

struct EngineEntry {
  /// Its registry key, the value of Algorithm::engine: "a2a" names the block
  /// schedule_engine_a2a (RTL module and HLS header) and reads hls-a2a in reports.
  std::string name;
  /// Its register map's limits, one phrase for messages.
  std::string limits;
  /// Which algorithms it runs: by their registry entry (Algorithm::engine),
  /// or every schedule's programs (`runs_programs`).
  bool runs_programs = false;
  /// Why it cannot run `algorithm` on `topology` ("" when it can): a
  /// ConfigError message naming the key. Cheap: no schedule or plan built.
  std::function<std::string(const std::string& algorithm, const topology::Topology&)> topology_refusal;
  /// The loader: validates the scenario against the engine (ConfigError
  /// naming the key) and returns every endpoint's writes.
  std::function<EndpointWrites(const LoadRequest&)> load;
  /// Its HLS class, after reset.
  std::function<std::unique_ptr<EngineBlock>()> make_hls;

  /// schedule_engine_<name>: the RTL module, the HLS header.
  [[nodiscard]] std::string block() const { return "schedule_engine_" + std::string(name); }
};

/// Every file of driver/engines/ defines `EngineEntry engines::NAME()`
/// (NAME: the file's name); the build generates the function that calls them
/// all (build/generated/driver/engine_list.cpp, driver/CMakeLists.txt).
std::vector<EngineEntry> registered_engines();

/// The descriptor memory the NIC's programmable engine is given, in
/// descriptors (at most its map's program_entries): a program longer than
/// this is refused naming the key.
const Key& program_depth_key();

/// Every engine, in name order.
const std::vector<EngineEntry>& engine_catalog();
/// The entry named `name`; std::logic_error when there is none (an
/// algorithm naming an engine that is not registered).
const EngineEntry& engine_entry(std::string_view name);

// ---- for the entries: what several engines' loaders share ----------------

/// The loader values the algorithm's registry entry reads from the scenario
/// (Algorithm::engine_params), or those the schedule's builder computed on
/// the way (Schedule::engine_params): the struct the algorithm's header
/// declares for this engine.
template <typename Values>
Values loader_values(const LoadRequest& r) {
  std::any values;
  if (r.schedule != nullptr && r.schedule->engine_params.has_value())
    values = r.schedule->engine_params;
  else if (r.algorithm != nullptr && r.algorithm->engine_params)
    values = r.algorithm->engine_params(*r.topology, *r.params);
  else
    throw std::logic_error("engine registry: no loader values for this schedule");
  if (const auto* v = std::any_cast<Values>(&values)) return *v;
  throw std::logic_error("engine registry: the algorithm's loader values are not this engine's");
}

/// The grid engines run on mesh and torus grids only: the grid, or nullptr.
const topology::Grid* grid_of(const topology::Topology& topology);
/// The refusal of a grid engine's `block` on another topology.
std::string not_a_grid(const std::string& block, const std::string& algorithm, const topology::Topology& topology);
/// The largest side of `grid`.
int largest_side(const topology::Grid& grid);
/// The first four values of `v`, `fill` after them (the engines' 4-dimension registers).
std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill);

}  // namespace collnet::driver
