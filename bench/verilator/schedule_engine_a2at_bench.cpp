// Verilator bench of the A2AT schedule engine: rtl/schedule_engine_a2at.sv
// (Verilated), the HLS class hls/schedule_engine_a2at.hpp and the software
// reference programs of a2a-optimal (collectives/algorithms/a2a_optimal.cpp), side by
// side (engine_harness.hpp: RTL = HLS every cycle).
//
// For every node of every 2-D torus and mesh up to 8x8, with and without
// group barriers (nct and group order varying with the case, every node
// alternately with an always-ready and a randomly stalled consumer), plus torus:16x16 and mesh:2x64 at the table
// limits, the stream of taken descriptors must equal the node's reference
// program word for word. Also checks that the RTL assertion reports
// COORD_X = SIZE_X.
//
//   collnet_schedule_engine_a2at_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Vschedule_engine_a2at.h>

#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithm.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "topology/grid.hpp"

namespace {

namespace reg = collnet::hls::a2at_engine_reg;
namespace cc = collnet::collectives;
using collnet::bench::CfgWrite;
using Harness = collnet::bench::EngineHarness<Vschedule_engine_a2at, collnet::hls::A2atScheduleEngine>;

/// The writes software issues for one node (driver/engine_loader.hpp: the
/// configuration, the offset table from collectives::a2at_offset_groups,
/// CONTROL last).
std::vector<CfgWrite> engine_writes(const std::string& topology, const collnet::Params& params,
                                    collnet::topology::EndpointId node) {
  return collnet::driver::engine_writes("a2a-optimal", *collnet::topology::make_topology(topology), params, node);
}

std::vector<std::string> topologies() {
  std::vector<std::string> list;
  for (const char* form : {"torus:", "mesh:"})
    for (int x = 1; x <= 8; ++x)
      for (int y = 1; y <= 8; ++y) list.push_back(form + std::to_string(x) + "x" + std::to_string(y));
  list.push_back("torus:16x16");
  list.push_back("mesh:2x64");
  return list;
}

/// Node (1, 1) of torus:3x2 is quiet, COORD_X = SIZE_X (outside the map) is reported.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  const collnet::Params small{{"nct", "2"}, {"group_order", "printed"}, {"message_flits", "1"}};
  const auto legal = engine_writes("torus:3x2", small, 4);
  return harness.assertion_check("COORD_X = SIZE_X", legal,
                                 collnet::bench::with_write_before_control(legal, {reg::coord_x, 3}), 40);
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  collnet::bench::Tally tally;
  int case_number = 0;
  for (const std::string& topology : topologies()) {
    ++case_number;
    const int nct = 1 + case_number % 4;
    const bool printed = case_number % 3 == 0;
    const std::uint32_t m = 1 + static_cast<std::uint32_t>(case_number % 7);
    const auto topo = collnet::topology::make_topology(topology);
    for (const bool barriers : {false, true}) {
      const collnet::Params params{{"nct", std::to_string(nct)},
                                   {"group_order", printed ? "printed" : "reordered"},
                                   {"group_barriers", barriers ? "true" : "false"},
                                   {"message_flits", std::to_string(m)}};
      const auto schedule = cc::find_algorithm("a2a-optimal").build(*topo, params);
      const std::string label = "a2a-optimal on " + topology + " nct " + std::to_string(nct) +
                                (printed ? " printed" : " reordered") + (barriers ? " group_barriers" : "");
      harness.check_endpoints(
          tally, label, schedule.programs, rng,
          [&](std::size_t node) { return engine_writes(topology, params, static_cast<std::int32_t>(node)); },
          [](std::size_t node) { return node % 2 ? 0.4 : 0.0; });
    }
  }
  return tally.summary("schedule engine a2at", std::to_string(topologies().size()) + " sizes");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
