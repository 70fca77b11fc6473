// Verilator bench of the a2a schedule engine: rtl/schedule_engine_a2a.sv
// (Verilated), the HLS class hls/schedule_engine_a2a.hpp and the software
// reference programs (collectives/algorithms/a2a_baselines.cpp), side by side
// (engine_harness.hpp: RTL = HLS every cycle).
//
// For every node of every size below, both models are loaded through their
// register port with the same writes and clocked with the same consumer
// (always ready, or randomly stalled), and the stream of taken descriptors
// must equal the node's reference program word for word.
// Sizes: every 2-D size up to 8x8, every 3-D size up to 4x4x4, 1-D rings and
// 4-D boards up to 4x4x4x4; nct 1..4; group barriers on two cases in five.
// Also checks that the RTL assertion reports NCT = 0.
//
//   collnet_schedule_engine_a2a_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <Vschedule_engine_a2a.h>

#include "collectives/algorithm.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "topology/grid.hpp"

namespace {

using Harness = collnet::bench::EngineHarness<Vschedule_engine_a2a, collnet::hls::A2aScheduleEngine>;

std::vector<std::string> topologies() {
  std::vector<std::string> list;
  for (int n = 1; n <= 9; ++n) list.push_back("torus:" + std::to_string(n));
  for (int x = 1; x <= 8; ++x)
    for (int y = 1; y <= 8; ++y) list.push_back("torus:" + std::to_string(x) + "x" + std::to_string(y));
  for (int x = 1; x <= 4; ++x)
    for (int y = 1; y <= 4; ++y)
      for (int z = 1; z <= 4; ++z)
        list.push_back("torus:" + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z));
  for (const char* t : {"mesh:4x4", "mesh:3x5x2", "torus:2x2x2x2", "torus:4x2x3x2", "torus:4x4x4x4"})
    list.push_back(t);
  return list;
}

/// A legal start (NCT 2) is quiet, NCT = 0 (outside the map's 1..4) is reported.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  const auto start_with_nct = [](std::uint32_t nct) {
    return collnet::hls::a2a_engine_writes(0, nct, 1, {2, 2, 1, 1}, {0, 1, 0, 0});
  };
  return harness.assertion_check("NCT = 0", start_with_nct(2), start_with_nct(0), 40);
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  collnet::bench::Tally tally;
  int case_number = 0;
  for (const char* algorithm : {"a2a-spread", "a2a-nd"}) {
    const std::uint64_t nodes_before = tally.endpoints;
    for (const std::string& topology : topologies()) {
      ++case_number;
      const int nct = 1 + case_number % 4;
      const std::uint32_t m = 1 + static_cast<std::uint32_t>(case_number % 7);
      const auto topo = collnet::topology::make_topology(topology);
      const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
      const bool barriers = case_number % 5 < 2;  // group_barriers on two cases in five
      const collnet::Params params{{"nct", std::to_string(nct)},
                                   {"message_flits", std::to_string(m)},
                                   {"group_barriers", barriers ? "true" : "false"}};
      const auto schedule = collnet::collectives::find_algorithm(algorithm).build(*topo, params);
      const std::string label =
          std::string(algorithm) + " on " + topology + " nct " + std::to_string(nct) + (barriers ? " group_barriers" : "");
      // loaded by the software loader, as the NIC loads it
      harness.check_endpoints(
          tally, label, schedule.programs, rng,
          [&](std::size_t node) {
            return collnet::driver::engine_writes(algorithm, grid, params, static_cast<std::int32_t>(node));
          },
          [](std::size_t node) { return node % 2 ? 0.4 : 0.0; });
    }
    std::printf("%s: RTL = HLS = reference for %llu nodes on %zu sizes\n", algorithm,
                static_cast<unsigned long long>(tally.endpoints - nodes_before), topologies().size());
  }
  return tally.summary("schedule engine a2a", std::to_string(topologies().size()) + " sizes of each algorithm");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
