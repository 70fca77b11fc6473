// Verilator bench of the document-000 schedule engine:
// rtl/schedule_engine_hopgroup.sv (Verilated), the HLS class
// hls/schedule_engine_hopgroup.hpp and the software reference programs of
// a2a-hopgroup and a2a-hopgroup-direct (collectives/algorithms/a2a_hopgroup.cpp), side by
// side (engine_harness.hpp: RTL = HLS every cycle).
//
// For every node of every 2-D torus and mesh up to 8x8 and every 3-D torus
// and mesh up to 4x4x4 (options varying with the case: hop order,
// directions, mode3d, pacing, gap_slack, barriers, message length; every node
// alternately with an always-ready and a randomly stalled consumer), plus
// 1-D rings and 4-D boards for the direct program, the stream of taken
// descriptors must equal the node's reference program word for word.
//
//   collnet_schedule_engine_hopgroup_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <Vschedule_engine_hopgroup.h>

#include "collectives/algorithm.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "topology/grid.hpp"

namespace {

namespace reg = collnet::hls::hopgroup_engine_reg;
using Harness =
    collnet::bench::EngineHarness<Vschedule_engine_hopgroup, collnet::hls::HopgroupScheduleEngine>;

struct Case {
  std::string algorithm;
  std::string topology;
};

std::vector<Case> cases() {
  std::vector<Case> list;
  for (const char* algorithm : {"a2a-hopgroup", "a2a-hopgroup-direct"})
    for (const char* form : {"torus:", "mesh:"}) {
      for (int x = 1; x <= 8; ++x)
        for (int y = 1; y <= 8; ++y) list.push_back({algorithm, form + std::to_string(x) + "x" + std::to_string(y)});
      for (int x = 1; x <= 4; ++x)
        for (int y = 1; y <= 4; ++y)
          for (int z = 1; z <= 4; ++z)
            list.push_back({algorithm, form + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z)});
      for (int n : {1, 2, 5, 8}) list.push_back({algorithm, form + std::to_string(n)});
    }
  for (const char* t : {"torus:2x3x2x3", "mesh:3x2x2x2"}) list.push_back({"a2a-hopgroup-direct", t});
  return list;
}

/// A start of a2a-hopgroup is quiet, DIMS = 4 (for the direct program only) is reported.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  const auto grid = collnet::topology::make_topology("torus:3x2");
  const auto& g = dynamic_cast<const collnet::topology::Grid&>(*grid);
  const auto good = collnet::driver::engine_writes("a2a-hopgroup", g, collnet::Params{{"message_flits", "2"}}, 1);
  return harness.assertion_check("DIMS = 4 for a2a-hopgroup", good,
                                 collnet::bench::with_write_before_control(good, {reg::dims, 4}), 200);
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  collnet::bench::Tally tally;
  int case_number = 0;
  const auto list = cases();
  for (const Case& k : list) {
    ++case_number;
    const bool hopgroup = k.algorithm == "a2a-hopgroup";
    const auto topo = collnet::topology::make_topology(k.topology);
    const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
    // options vary with the case number so that every combination occurs
    const int bits = case_number * 7;
    const bool pacing = bits % 2 == 0, descending = (bits / 2) % 2 == 1, both = (bits / 4) % 2 == 1,
               concurrent = (bits / 8) % 2 == 1, barriers = (bits / 3) % 2 == 0;
    const std::uint32_t slack = static_cast<std::uint32_t>(case_number % 4);
    const std::uint32_t m = 1 + static_cast<std::uint32_t>(case_number % 8);
    collnet::Params params{{"pacing", pacing ? "true" : "false"},
                           {"gap_slack", std::to_string(slack)},
                           {"message_flits", std::to_string(m)}};
    if (hopgroup) {
      params.set("hop_order", descending ? "descending" : "ascending");
      params.set("directions", both ? "both" : "plus");
      params.set("mode3d", concurrent ? "concurrent" : "literal");
    } else {
      params.set("barriers", barriers ? "true" : "false");
    }
    const auto schedule = collnet::collectives::find_algorithm(k.algorithm).build(*topo, params);
    std::string label = k.algorithm + " on " + k.topology;
    for (const auto& [key, value] : params.values()) label += " " + key + "=" + value;
    // the software loader turns the scenario's keys into OPTIONS bits
    harness.check_endpoints(
        tally, label, schedule.programs, rng,
        [&](std::size_t node) {
          return collnet::driver::engine_writes(k.algorithm, grid, params, static_cast<std::int32_t>(node));
        },
        [](std::size_t node) { return node % 2 ? 0.4 : 0.0; });
  }
  return tally.summary("schedule engine hopgroup", std::to_string(list.size()) + " cases");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
