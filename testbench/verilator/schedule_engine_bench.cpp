// Verilator bench of the a2a schedule engine: rtl/schedule_engine_a2a.sv
// (Verilated), the HLS class hls/schedule_engine_a2a.hpp and the software
// reference programs (collectives/a2a_baselines.cpp), side by side.
//
// For every node of every size below, both models are loaded through their
// register port with the same writes and clocked with the same consumer
// (always ready, or randomly stalled); every cycle their outputs (out_valid,
// the 128-bit descriptor, busy) must be equal, and the stream of taken
// descriptors must equal the node's reference program word for word.
// Sizes: every 2-D size up to 8x8, every 3-D size up to 4x4x4, 1-D rings and
// 4-D boards up to 4x4x4x4; nct 1..4; group barriers on two cases in five.
//
//   collnet_schedule_engine_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Vschedule_engine_a2a.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "testbench/verilator/engine_harness.hpp"

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "topology/grid.hpp"

namespace {

using collnet::DescriptorWord;

using collnet::bench::Mismatch;
using EngineHarness = collnet::bench::EngineHarness<Vschedule_engine_a2a, collnet::hls::A2aScheduleEngine, collnet::hls::A2aEngineInputs,
                                                    collnet::hls::A2aEngineOutputs>;

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

}  // namespace

int main(int argc, char** argv) {
  collnet::bench::BenchArgs args;
  if (!collnet::bench::parse_bench_args(argc, argv, args)) return 2;
  const std::uint64_t seed = args.seed;
  const char* const trace_file = args.trace_file;
  Verilated::commandArgs(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  EngineHarness harness(trace_file);
  std::uint64_t nodes = 0, descriptors = 0;
  int case_number = 0;
  std::printf("checking that the RTL assertions fire (the %%Error lines below are expected):\n");
  std::fflush(stdout);
  // a legal start (NCT 2) is quiet, NCT = 0 (outside the map's 1..4) is reported
  const auto start_with_nct = [](std::uint32_t nct) {
    return collnet::bench::cfg_writes(collnet::hls::a2a_engine_writes(0, nct, 1, {2, 2, 1, 1}, {0, 1, 0, 0}));
  };
  if (harness.rtl_assertion_errors(start_with_nct(2), 40) != 0 ||
      harness.rtl_assertion_errors(start_with_nct(0), 40) == 0) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report NCT = 0\n");
    return 1;
  }
  std::printf("RTL assertion reports NCT = 0: yes\n");
  try {
    for (const char* algorithm : {"a2a-spread", "a2a-nd"}) {
      std::uint64_t algorithm_nodes = 0;
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
        for (std::int32_t node = 0; node < grid.endpoint_count(); ++node) {
          const std::string where = std::string(algorithm) + " on " + topology + " nct " + std::to_string(nct) +
                                    (barriers ? " group_barriers" : "") + " node " + std::to_string(node);
          // loaded by the software loader, as the NIC loads it
          const auto taken = harness.run(where, collnet::driver::engine_writes(algorithm, grid, params, node), rng,
                                         node % 2 ? 0.4 : 0.0);
          collnet::bench::expect_program(where, taken, schedule.programs[static_cast<std::size_t>(node)]);
          descriptors += taken.size();
          ++algorithm_nodes;
        }
      }
      nodes += algorithm_nodes;
      std::printf("%s: RTL = HLS = reference for %llu nodes on %zu sizes\n", algorithm,
                  static_cast<unsigned long long>(algorithm_nodes), topologies().size());
    }
  } catch (const Mismatch& e) {
    std::fprintf(stderr, "MISMATCH: %s\n", e.what());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("schedule engine a2a: RTL = HLS = reference on %llu node programs, %llu descriptors, %llu cycles "
              "(%.1f s)\n",
              static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
