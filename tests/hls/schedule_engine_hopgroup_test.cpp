// The HLS schedule engine for a2a-hopgroup and a2a-hopgroup-direct against
// the software reference programs (collectives/algorithms/a2a_hopgroup.cpp): word for
// word, for every node of every 2-D torus and mesh up to 8x8 and every 3-D
// torus and mesh up to 4x4x4, over the options that change the program
// (hop order, directions, mode3d, pacing, gap_slack, barriers, message
// length including pieces of 0 words), with and without back-pressure.
#include "hls/schedule_engine_hopgroup.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "tests/hls/engine_run.hpp"
#include "topology/grid.hpp"

using collnet::hls::HopgroupScheduleEngine;
namespace reg = collnet::hls::hopgroup_engine_reg;

namespace {

using collnet::testing::EngineRun;

template <typename Stall>
EngineRun run_engine(HopgroupScheduleEngine& engine, const std::vector<collnet::hls::EngineWrite>& writes,
                     Stall stall) {
  return collnet::testing::run_engine(engine, writes, stall, 10'000'000);
}

using collnet::testing::padded;

using Options = std::map<std::string, std::string>;

/// The OPTIONS register software writes for these scenario keys (defaults as
/// in the algorithm's key table).
std::uint32_t options_word(bool torus, const Options& o) {
  const auto get = [&](const char* key, const char* fallback) {
    const auto it = o.find(key);
    return it == o.end() ? std::string(fallback) : it->second;
  };
  std::uint32_t w = torus ? reg::opt_torus : 0;
  if (get("pacing", "true") == "true") w |= reg::opt_pacing;
  if (get("hop_order", "ascending") == "descending") w |= reg::opt_descending;
  if (get("directions", "plus") == "both") w |= reg::opt_both;
  if (get("mode3d", "literal") == "concurrent") w |= reg::opt_concurrent;
  if (get("barriers", "true") == "true") w |= reg::opt_barriers;
  return w;
}

void expect_engine_equals_reference(const std::string& algorithm, const std::string& topology, Options options,
                                    std::uint32_t m, bool back_pressure) {
  const auto topo = collnet::topology::make_topology(topology);
  const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
  options["message_flits"] = std::to_string(m);
  collnet::Params params;
  for (const auto& [k, v] : options) params.set(k, v);
  const collnet::collectives::Schedule schedule = collnet::collectives::find_algorithm(algorithm).build(*topo, params);
  const std::uint8_t code = algorithm == "a2a-hopgroup" ? reg::algorithm_hopgroup : reg::algorithm_direct;
  const std::uint32_t slack = options.contains("gap_slack") ? static_cast<std::uint32_t>(std::stoul(options["gap_slack"])) : 0;
  std::string label = algorithm + " " + topology + " m " + std::to_string(m);
  for (const auto& [k, v] : options) label += " " + k + "=" + v;
  const auto writes_of = [&](std::size_t node) {
    return collnet::hls::hopgroup_engine_writes(code, m, options_word(grid.torus(), options), slack,
                                                static_cast<std::uint32_t>(grid.dims()), padded(grid.sizes(), 1),
                                                padded(grid.coord(static_cast<std::int32_t>(node)), 0));
  };
  HopgroupScheduleEngine engine;  // one engine, reused node after node
  collnet::testing::RandomStall stall{back_pressure, 5};  // the same stream of stalls over every node
  collnet::testing::compare_endpoints(engine, static_cast<std::size_t>(grid.endpoint_count()), writes_of,
                                      schedule.programs, std::ref(stall), collnet::testing::node_of(label), 10'000'000);
}

std::string grid_name(const char* form, const std::vector<int>& sizes) {
  std::string s = form;
  for (std::size_t d = 0; d < sizes.size(); ++d) s += (d ? "x" : "") + std::to_string(sizes[d]);
  return s;
}

}  // namespace

// The NIC's descriptor source stops stepping a stalled engine once an idle
// cycle leaves its registers and output buffer unchanged (the tables are
// written only while filled): on every node of a 2-D and a 3-D torus, both
// programs, under random back-pressure, each such claim holds for the whole
// engine.
TEST(HopgroupScheduleEngine, RegistersAtRestMeanTheWholeEngineIsAtRest) {
  // the flag the NIC's engine block reads (driver/engine_block.hpp): public
  static_assert(requires { HopgroupScheduleEngine::tables_follow_registers; });
  int claims = 0;
  for (const std::uint8_t code : {reg::algorithm_hopgroup, reg::algorithm_direct})
    for (const char* topology : {"torus:6x4", "torus:3x4x3"}) {
      const auto topo = collnet::topology::make_topology(topology);
      const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
      collnet::testing::RandomStall stall{true, 9};
      for (std::int32_t node = 0; node < grid.endpoint_count(); ++node) {
        HopgroupScheduleEngine engine;
        claims += collnet::testing::check_rest_claims(
            engine,
            collnet::hls::hopgroup_engine_writes(code, 6, options_word(true, {}), 0,
                                                 static_cast<std::uint32_t>(grid.dims()), padded(grid.sizes(), 1),
                                                 padded(grid.coord(node), 0)),
            std::ref(stall));
        if (HasFailure()) return;
      }
    }
  EXPECT_GT(claims, 1000);
}

TEST(HopgroupScheduleEngine, HopgroupEqualsReferenceOnEvery2DTorusAndMeshUpTo8x8) {
  for (int nx = 1; nx <= 8; ++nx)
    for (int ny = 1; ny <= 8; ++ny)
      for (const char* form : {"torus:", "mesh:"})
        for (const char* order : {"ascending", "descending"})
          for (const char* directions : {"plus", "both"})
            for (const char* pacing : {"true", "false"})
              expect_engine_equals_reference(
                  "a2a-hopgroup", grid_name(form, {nx, ny}),
                  {{"hop_order", order}, {"directions", directions}, {"pacing", pacing}, {"gap_slack", "3"}},
                  1 + static_cast<std::uint32_t>(nx + 2 * ny) % 5, false);
}

TEST(HopgroupScheduleEngine, HopgroupEqualsReferenceOnEvery3DTorusAndMeshUpTo4x4x4) {
  for (int nx = 1; nx <= 4; ++nx)
    for (int ny = 1; ny <= 4; ++ny)
      for (int nz = 1; nz <= 4; ++nz)
        for (const char* form : {"torus:", "mesh:"})
          for (const char* mode : {"literal", "concurrent"})
            for (const char* directions : {"plus", "both"}) {
              // m runs over 1..7: pieces of 0 words (m < 3) and every m mod 3
              const auto m = 1 + static_cast<std::uint32_t>(nx + ny + 3 * nz) % 7;
              expect_engine_equals_reference("a2a-hopgroup", grid_name(form, {nx, ny, nz}),
                                             {{"mode3d", mode},
                                              {"directions", directions},
                                              {"hop_order", (nx + ny) % 2 ? "descending" : "ascending"},
                                              {"pacing", nz % 2 ? "true" : "false"}},
                                             m, false);
            }
}

TEST(HopgroupScheduleEngine, HopgroupEqualsReferenceFor1DRingsAndEveryMessageLength) {
  for (int n = 1; n <= 9; ++n)
    for (const char* form : {"torus:", "mesh:"})
      expect_engine_equals_reference("a2a-hopgroup", grid_name(form, {n}), {{"directions", "both"}}, 4, false);
  for (std::uint32_t m = 1; m <= 20; ++m)
    expect_engine_equals_reference("a2a-hopgroup", "torus:4x4x4", {{"mode3d", "concurrent"}}, m, false);
}

TEST(HopgroupScheduleEngine, HopgroupEqualsReferenceUnderRandomBackPressure) {
  for (const char* mode : {"literal", "concurrent"}) {
    expect_engine_equals_reference("a2a-hopgroup", "torus:4x3x4", {{"mode3d", mode}, {"gap_slack", "9"}}, 16, true);
    expect_engine_equals_reference("a2a-hopgroup", "mesh:3x4x2", {{"mode3d", mode}}, 5, true);
  }
  expect_engine_equals_reference("a2a-hopgroup", "torus:8x6", {{"directions", "both"}}, 8, true);
  expect_engine_equals_reference("a2a-hopgroup", "mesh:7x8", {{"hop_order", "descending"}}, 8, true);
}

TEST(HopgroupScheduleEngine, DirectEqualsReferenceOnEvery2DAnd3DSize) {
  for (const char* form : {"torus:", "mesh:"})
    for (const char* barriers : {"true", "false"})
      for (const char* pacing : {"true", "false"}) {
        const Options o{{"barriers", barriers}, {"pacing", pacing}, {"gap_slack", "2"}};
        for (int nx = 1; nx <= 8; ++nx)
          for (int ny = 1; ny <= 8; ++ny)
            expect_engine_equals_reference("a2a-hopgroup-direct", grid_name(form, {nx, ny}), o,
                                           1 + static_cast<std::uint32_t>(nx * ny) % 6, false);
        for (int nx = 1; nx <= 4; ++nx)
          for (int ny = 1; ny <= 4; ++ny)
            for (int nz = 1; nz <= 4; ++nz)
              expect_engine_equals_reference("a2a-hopgroup-direct", grid_name(form, {nx, ny, nz}), o, 3, false);
      }
}

TEST(HopgroupScheduleEngine, DirectEqualsReferenceIn1DAnd4DAndUnderBackPressure) {
  for (const char* barriers : {"true", "false"}) {
    expect_engine_equals_reference("a2a-hopgroup-direct", "torus:9", {{"barriers", barriers}}, 2, false);
    expect_engine_equals_reference("a2a-hopgroup-direct", "mesh:2x3x2x3", {{"barriers", barriers}}, 4, false);
    expect_engine_equals_reference("a2a-hopgroup-direct", "torus:3x2x3x2", {{"barriers", barriers}}, 4, true);
    expect_engine_equals_reference("a2a-hopgroup-direct", "mesh:8x8", {{"barriers", barriers}}, 16, true);
  }
}

// Documented timing of the direct program: counting the CONTROL write as
// cycle 0, sum_d (n_d + 1) cycles of table fill, 20 of division, one loading
// the output register: the local copy is offered in cycle sum_d (n_d + 1) +
// 22, then one descriptor per cycle (II = 1) up to END while the consumer is
// ready.
TEST(HopgroupScheduleEngine, DirectEmitsOneDescriptorPerCycleAfterInit) {
  HopgroupScheduleEngine engine;
  const auto run = run_engine(engine,
                              collnet::hls::hopgroup_engine_writes(reg::algorithm_direct, 8, reg::opt_torus | reg::opt_barriers,
                                                                   0, 2, {6, 5, 1, 1}, {2, 3, 0, 0}),
                              [](std::uint64_t) { return false; });
  ASSERT_EQ(run.words.size(), 1u + 2u * 29u + 1u);  // copy, 29 sends and barriers, END
  EXPECT_EQ(run.cycles.front(), (6u + 1) + (5 + 1) + (1 + 1) + (1 + 1) + 22);
  for (std::size_t i = 1; i < run.cycles.size(); ++i) EXPECT_EQ(run.cycles[i], run.cycles[i - 1] + 1);
}
