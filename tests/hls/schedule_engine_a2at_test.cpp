// The HLS schedule engine for a2a-optimal (A2AT) against the software
// reference programs (collectives/algorithms/a2a_optimal.cpp): word for word, for every
// node of every 2-D torus and mesh up to 8x8, every nct 1..4 and both group
// orders, with and without back-pressure; and its documented timing.
#include "hls/schedule_engine_a2at.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithm.hpp"
#include "tests/hls/engine_run.hpp"
#include "topology/grid.hpp"

using collnet::hls::A2atScheduleEngine;
namespace reg = collnet::hls::a2at_engine_reg;
namespace cc = collnet::collectives;

namespace {

using Write = collnet::hls::EngineWrite;

/// The register writes software issues for one node: configuration, the
/// offset table from a2at_offset_groups, CONTROL last.
std::vector<Write> engine_writes(int nx, int ny, bool torus, int nct, cc::A2atOrder order, std::uint32_t m, int x,
                                 int y) {
  std::vector<Write> w{{reg::message_words, m},
                       {reg::size_x, static_cast<std::uint32_t>(nx)},
                       {reg::size_y, static_cast<std::uint32_t>(ny)},
                       {reg::coord_x, static_cast<std::uint32_t>(x)},
                       {reg::coord_y, static_cast<std::uint32_t>(y)},
                       {reg::torus, torus ? 1u : 0u},
                       {reg::table_addr, 0}};
  std::uint32_t count = 0;
  for (const auto& group : cc::a2at_offset_groups(nx, ny, torus, nct, order))
    for (std::size_t k = 0; k < group.size(); ++k, ++count)
      w.push_back({reg::table_data, reg::table_word(group[k].dx, group[k].dy, k + 1 == group.size())});
  w.push_back({reg::table_count, count});
  w.push_back({reg::control, 1});
  return w;
}

using collnet::testing::run_engine;

void expect_engine_equals_reference(const std::string& topology, int nct, const char* order, std::uint32_t m,
                                    bool back_pressure) {
  const auto topo = collnet::topology::make_topology(topology);
  const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
  const cc::Schedule schedule = cc::find_algorithm("a2a-optimal")
                                    .build(*topo, collnet::Params{{"nct", std::to_string(nct)},
                                                                  {"group_order", order},
                                                                  {"message_flits", std::to_string(m)}});
  const cc::A2atOrder o = std::string(order) == "printed" ? cc::A2atOrder::printed : cc::A2atOrder::reordered;
  const auto writes_of = [&](std::size_t node) {
    const auto c = grid.coord(static_cast<std::int32_t>(node));
    return engine_writes(grid.size(0), grid.size(1), grid.torus(), nct, o, m, c[0], c[1]);
  };
  A2atScheduleEngine engine;  // one engine, reused node after node
  collnet::testing::RandomStall stall{back_pressure, 11};  // the same stream of stalls over every node
  collnet::testing::compare_endpoints(
      engine, static_cast<std::size_t>(grid.endpoint_count()), writes_of, schedule.programs, std::ref(stall),
      collnet::testing::node_of(topology + " nct " + std::to_string(nct) + " " + order + " m " + std::to_string(m)));
}

}  // namespace

TEST(A2atScheduleEngine, EqualsReferenceOnEvery2DTorusAndMeshUpTo8x8EveryNctBothOrders) {
  for (int nx = 1; nx <= 8; ++nx)
    for (int ny = 1; ny <= 8; ++ny)
      for (const char* form : {"torus:", "mesh:"})
        for (int nct = 1; nct <= 4; ++nct)
          for (const char* order : {"printed", "reordered"})
            expect_engine_equals_reference(form + std::to_string(nx) + "x" + std::to_string(ny), nct, order,
                                           1 + static_cast<std::uint32_t>(nx + 3 * ny + nct) % 7, false);
}

TEST(A2atScheduleEngine, EqualsReferenceUnderRandomBackPressure) {
  for (const char* topology : {"torus:8x8", "torus:7x5", "mesh:6x4", "torus:4x6", "mesh:3x8"})
    for (int nct = 1; nct <= 4; ++nct)
      for (const char* order : {"printed", "reordered"}) expect_engine_equals_reference(topology, nct, order, 16, true);
}

// The NIC's descriptor source stops stepping a stalled engine once an idle
// cycle leaves its registers and output buffer unchanged (the tables are
// written only while filled): on every node of torus:8x8 and mesh:6x4 under
// random back-pressure, each such claim holds for the whole engine.
TEST(A2atScheduleEngine, RegistersAtRestMeanTheWholeEngineIsAtRest) {
  // the flag the NIC's engine block reads (driver/engine_block.hpp): public
  static_assert(requires { A2atScheduleEngine::tables_follow_registers; });
  int claims = 0;
  for (const auto& [topology, nct] : {std::pair<std::string, int>{"torus:8x8", 4}, {"mesh:6x4", 2}}) {
    const auto topo = collnet::topology::make_topology(topology);
    const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
    collnet::testing::RandomStall stall{true, 5};
    for (std::int32_t node = 0; node < grid.endpoint_count(); ++node) {
      const auto c = grid.coord(node);
      A2atScheduleEngine engine;
      claims += collnet::testing::check_rest_claims(
          engine, engine_writes(grid.size(0), grid.size(1), grid.torus(), nct, cc::A2atOrder::reordered, 16, c[0], c[1]),
          std::ref(stall));
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(claims, 1000);
}

// Beyond the exhaustive range: a non-square 16x16 table of 255 entries
// (the table's limit is 256) and sizes up to the 64 of the row tables.
TEST(A2atScheduleEngine, EqualsReferenceAtTheTableLimits) {
  expect_engine_equals_reference("torus:16x16", 4, "reordered", 3, false);
  expect_engine_equals_reference("mesh:2x64", 2, "printed", 1, false);
  expect_engine_equals_reference("torus:64x4", 3, "reordered", 2, false);
}

// Documented timing: CONTROL write = cycle 0, (Nx + 1) + (Ny + 1) cycles of
// table fill, three pipeline stages: the first descriptor is taken in cycle
// Nx + Ny + 6, then one per cycle (II = 1) while the consumer is ready.
TEST(A2atScheduleEngine, FirstDescriptorAfterNxPlusNyPlus6CyclesThenOnePerCycle) {
  A2atScheduleEngine engine;
  const auto run = run_engine(engine, engine_writes(7, 5, true, 4, cc::A2atOrder::reordered, 8, 3, 2),
                              [](std::uint64_t) { return false; });
  ASSERT_EQ(run.words.size(), 7u * 5u + 1u);  // 34 sends, the local copy, END
  EXPECT_EQ(run.cycles.front(), 7u + 5u + 6u);
  for (std::size_t i = 1; i < run.cycles.size(); ++i) EXPECT_EQ(run.cycles[i], run.cycles[i - 1] + 1);
}
