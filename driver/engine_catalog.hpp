// The engine catalog: one entry per schedule engine, registered once
// (driver/engine_catalog.cpp), and every question about an engine is a
// lookup in it: its name and block, the limits its register map implies
// (from the constants rendered from hls/engine_registers.yaml), why it
// refuses a topology, the configuration writes its loader makes and its
// HLS class. Its RTL model is looked up by the block name
// (systemc/nic/rtl_blocks.cpp, the one place that sees Verilator).
//
// Adding an engine: its HLS header and RTL, its register map in
// hls/engine_registers.yaml, its entry here (and its value of EngineKind,
// collectives/engine_params.hpp, with its loader values), its Verilator
// bench and its test.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/engine_params.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "driver/engine_block.hpp"
#include "hls/schedule_engine.hpp"
#include "topology/topology.hpp"

namespace collnet::driver {

using EngineKind = collectives::EngineKind;
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
  EngineKind kind;
  std::string_view name;  // "a2a": reports (hls-a2a) and the block schedule_engine_a2a
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

/// The descriptor memory the NIC's programmable engine is given, in
/// descriptors (at most its map's program_entries): a program longer than
/// this is refused naming the key.
const Key& program_depth_key();

/// Every engine, in EngineKind order.
const std::vector<EngineEntry>& engine_catalog();
/// The entry of `kind`.
const EngineEntry& engine_entry(EngineKind kind);

}  // namespace collnet::driver
