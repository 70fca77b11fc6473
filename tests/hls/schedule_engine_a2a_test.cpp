// The HLS schedule engine for a2a-spread and a2a-nd against the software
// reference programs (collectives/algorithms/a2a_baselines.cpp): word for word, for every
// node of every 2-D size up to 8x8, with and without back-pressure; and its
// documented timing (init cycles, initiation interval 1).
#include "hls/schedule_engine_a2a.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "tests/hls/engine_run.hpp"
#include "topology/grid.hpp"

using collnet::hls::A2aScheduleEngine;
namespace reg = collnet::hls::a2a_engine_reg;

namespace {

using collnet::testing::EngineRun;
using collnet::testing::padded;

/// Loads the engine through its register port, starts it and collects the
/// stream up to END; the consumer is not ready when `stall(cycle)`.
template <typename Stall>
EngineRun run_engine(A2aScheduleEngine& engine, std::uint8_t algorithm, std::uint32_t nct, std::uint32_t m,
                     const std::array<std::uint32_t, 4>& sizes, const std::array<std::uint32_t, 4>& coord,
                     Stall stall) {
  return collnet::testing::run_engine(engine, collnet::hls::a2a_engine_writes(algorithm, nct, m, sizes, coord), stall);
}

/// Every node of `topology` under `algorithm`: the engine's stream equals
/// the reference program, descriptor by descriptor.
void expect_engine_equals_reference(const std::string& algorithm, const std::string& topology, int nct,
                                    std::uint32_t m, bool back_pressure) {
  const auto topo = collnet::topology::make_topology(topology);
  const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
  const collnet::collectives::Schedule schedule = collnet::collectives::find_algorithm(algorithm).build(
      *topo, collnet::Params{{"nct", std::to_string(nct)}, {"message_flits", std::to_string(m)}});
  const std::uint8_t code = algorithm == "a2a-nd" ? reg::algorithm_nd : reg::algorithm_spread;
  const auto writes_of = [&](std::size_t node) {
    return collnet::hls::a2a_engine_writes(code, static_cast<std::uint32_t>(nct), m, padded(grid.sizes(), 1),
                                           padded(grid.coord(static_cast<std::int32_t>(node)), 0));
  };
  A2aScheduleEngine engine;  // one engine, reused node after node (as a NIC would)
  collnet::testing::RandomStall stall{back_pressure, 7};  // the same stream of stalls over every node
  const std::string label = algorithm + " " + topology + " nct " + std::to_string(nct) + " m " + std::to_string(m);
  collnet::testing::compare_endpoints(engine, static_cast<std::size_t>(grid.endpoint_count()), writes_of,
                                      schedule.programs, std::ref(stall), collnet::testing::node_of(label));
}

}  // namespace

TEST(A2aScheduleEngine, EqualsReferenceOnEvery2DSizeUpTo8x8) {
  for (int nx = 1; nx <= 8; ++nx)
    for (int ny = 1; ny <= 8; ++ny)
      for (const char* algorithm : {"a2a-spread", "a2a-nd"})
        expect_engine_equals_reference(algorithm, "torus:" + std::to_string(nx) + "x" + std::to_string(ny),
                                       1 + (nx + ny) % 4, 1 + static_cast<std::uint32_t>(nx * ny) % 5, false);
}

TEST(A2aScheduleEngine, EqualsReferenceForEveryNctAndUnderBackPressure) {
  for (int nct = 1; nct <= 4; ++nct)
    for (const char* algorithm : {"a2a-spread", "a2a-nd"}) {
      expect_engine_equals_reference(algorithm, "torus:5x3", nct, 16, true);
      expect_engine_equals_reference(algorithm, "mesh:4x4", nct, 3, true);
    }
}

TEST(A2aScheduleEngine, EqualsReferenceIn1D3DAnd4D) {
  for (const char* algorithm : {"a2a-spread", "a2a-nd"}) {
    expect_engine_equals_reference(algorithm, "torus:7", 3, 2, false);
    expect_engine_equals_reference(algorithm, "torus:4x4x4", 4, 5, false);
    expect_engine_equals_reference(algorithm, "mesh:3x4x5", 2, 1, true);
    expect_engine_equals_reference(algorithm, "torus:2x3x2x3", 4, 4, false);
  }
}

// Documented timing: counting the cycle that wrote CONTROL as 0, the stride
// computation takes cycles 1 .. sum_d(n_d + 1), the first offset one cycle,
// loading the output register one more: the first descriptor is offered in
// cycle sum_d(n_d + 1) + 3, then one per cycle (II = 1) while the consumer is
// ready.
TEST(A2aScheduleEngine, InitTakesSumOfSizesPlusOneThenOneDescriptorPerCycle) {
  A2aScheduleEngine engine;
  const std::array<std::uint32_t, 4> sizes{6, 5, 1, 1};
  const auto run = run_engine(engine, reg::algorithm_nd, 4, 8, sizes, {2, 3, 0, 0}, [](std::uint64_t) { return false; });
  ASSERT_EQ(run.words.size(), 6u * 5u + 1u);  // 29 sends, the local copy, END
  const std::uint64_t init = (6 + 1) + (5 + 1) + (1 + 1) + (1 + 1);
  EXPECT_EQ(run.cycles.front(), init + 3);
  for (std::size_t i = 1; i < run.cycles.size(); ++i) EXPECT_EQ(run.cycles[i], run.cycles[i - 1] + 1);
}
