// The HLS schedule engine for a2a-spread and a2a-nd against the software
// reference programs (collectives/algorithms/a2a_baselines.cpp): word for word, for every
// node of every 2-D size up to 8x8, with and without back-pressure; and its
// documented timing (init cycles, initiation interval 1).
#include "hls/schedule_engine_a2a.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "topology/grid.hpp"

using collnet::Descriptor;
using collnet::DescriptorWord;
using collnet::hls::A2aEngineInputs;
using collnet::hls::A2aScheduleEngine;
namespace reg = collnet::hls::a2a_engine_reg;

namespace {

struct EngineRun {
  std::vector<DescriptorWord> words;
  std::vector<std::uint64_t> cycles;  // cycle (from the start write) each word was taken
};

/// Loads the engine through its register port, starts it and collects the
/// stream up to END; the consumer is not ready when `stall(cycle)`.
template <typename Stall>
EngineRun run_engine(A2aScheduleEngine& engine, std::uint8_t algorithm, std::uint32_t nct, std::uint32_t m,
                     const std::array<std::uint32_t, 4>& sizes, const std::array<std::uint32_t, 4>& coord,
                     Stall stall) {
  for (const auto& w : collnet::hls::a2a_engine_writes(algorithm, nct, m, sizes, coord)) {
    EXPECT_FALSE(engine.outputs().busy);
    engine.step({true, w.addr, w.data, false});
  }
  EngineRun run;
  for (std::uint64_t cycle = 1; cycle < 1'000'000; ++cycle) {
    A2aEngineInputs in;
    in.out_ready = !stall(cycle);
    const auto out = engine.step(in);
    EXPECT_TRUE(out.busy || run.words.empty() == false);
    if (out.out_valid && in.out_ready) {
      run.words.push_back(out.out_desc);
      run.cycles.push_back(cycle);
      if (Descriptor::unpack(out.out_desc).opcode == collnet::Opcode::end) break;
    }
  }
  EXPECT_FALSE(engine.outputs().busy) << "busy after END was taken";
  return run;
}

std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill) {
  std::array<std::uint32_t, 4> a{fill, fill, fill, fill};
  for (std::size_t d = 0; d < v.size(); ++d) a[d] = static_cast<std::uint32_t>(v[d]);
  return a;
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
  A2aScheduleEngine engine;  // one engine, reused node after node (as a NIC would)
  std::uint64_t lcg = 7;
  for (std::int32_t node = 0; node < grid.endpoint_count(); ++node) {
    const auto run = run_engine(engine, code, static_cast<std::uint32_t>(nct), m, padded(grid.sizes(), 1),
                                padded(grid.coord(node), 0), [&](std::uint64_t) {
                                  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
                                  return back_pressure && (lcg >> 62) != 0;  // stalled 3 cycles in 4
                                });
    const auto& program = schedule.programs[static_cast<std::size_t>(node)];
    ASSERT_EQ(run.words.size(), program.size()) << algorithm << " " << topology << " node " << node;
    for (std::size_t i = 0; i < program.size(); ++i)
      ASSERT_EQ(run.words[i], program[i].pack())
          << algorithm << " " << topology << " nct " << nct << " m " << m << " node " << node << " descriptor " << i;
  }
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

// Valid/ready: a descriptor offered and not taken stays offered, unchanged.
TEST(A2aScheduleEngine, OfferedDescriptorStaysStableUntilTaken) {
  A2aScheduleEngine engine;
  for (const auto& w : collnet::hls::a2a_engine_writes(reg::algorithm_spread, 2, 4, {4, 4, 1, 1}, {1, 2, 0, 0}))
    engine.step({true, w.addr, w.data, false});
  bool was_offered = false;
  DescriptorWord offered;
  for (int cycle = 0; cycle < 400 && engine.outputs().busy; ++cycle) {
    const bool ready = cycle % 3 == 2;
    const auto out = engine.step({false, 0, 0, ready});
    if (was_offered) {
      EXPECT_TRUE(out.out_valid);
      EXPECT_EQ(out.out_desc, offered);
    }
    was_offered = out.out_valid && !ready;
    offered = out.out_desc;
  }
  EXPECT_FALSE(engine.outputs().busy);
}

// Configuration writes while busy are ignored (register map contract).
TEST(A2aScheduleEngine, WritesWhileBusyAreIgnored) {
  A2aScheduleEngine reference_engine, engine;
  const std::array<std::uint32_t, 4> sizes{3, 3, 1, 1}, coord{1, 1, 0, 0};
  const auto expected = run_engine(reference_engine, reg::algorithm_nd, 2, 5, sizes, coord,
                                   [](std::uint64_t) { return false; });
  for (const auto& w : collnet::hls::a2a_engine_writes(reg::algorithm_nd, 2, 5, sizes, coord))
    engine.step({true, w.addr, w.data, false});
  std::vector<DescriptorWord> words;
  for (int cycle = 0; cycle < 100 && engine.outputs().busy; ++cycle) {
    // overwrite SIZE0 with 7 and start again every cycle of the run
    const auto out = engine.step({true, static_cast<std::uint8_t>(cycle % 2 ? reg::size0 : reg::control),
                                  cycle % 2 ? 7u : 1u, true});
    if (out.out_valid) words.push_back(out.out_desc);
  }
  EXPECT_EQ(words, expected.words);
}
