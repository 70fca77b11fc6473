// The HLS schedule engine for twotree-hier, twotree-flat and tree-single
// (hls/schedule_engine_twotree.hpp) against the software reference programs
// (collectives/algorithms/tree_pipeline.cpp tree_schedule, the same as the registered
// algorithms build): word for word (Descriptor::pack()) on every endpoint of
// leafspine:p=6 and p=8 for several P, B, L, every collective. The engine is
// loaded from the procedure tables (tables 174-177, twotree_tables.hpp) plus
// each edge's level and slot, the stage phases and the spine choice's hints.
#include "hls/schedule_engine_twotree.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/hls/engine_run.hpp"
#include "tests/hls/twotree_engine_load.hpp"

namespace cc = collnet::collectives;
using collnet::Descriptor;
using collnet::hls::TwotreeScheduleEngine;
using collnet::testing::Case;
using collnet::testing::describe;

namespace {

/// The case's reference schedule and the loader's writes, then the engine on
/// every endpoint. Returns the descriptors compared.
template <typename Stall>
std::int64_t check_case(const Case& c, collnet::ReceiveOp op, collnet::DataType dtype, Stall stall) {
  const auto build = collnet::testing::build_twotree_case(c, op, dtype);
  TwotreeScheduleEngine engine;
  return collnet::testing::compare_endpoints(
      engine, build.writes.size(), [&](std::size_t e) { return build.writes[e]; }, build.reference.programs, stall,
      [&](std::size_t e) { return describe(c) + " endpoint " + std::to_string(e); });
}

using collnet::testing::never;

}  // namespace

TEST(TwotreeScheduleEngine, HierEqualsReferenceOnEveryEndpoint) {
  std::int64_t words = 0;
  for (int p : {6, 8})
    for (int P : {2, 5, 13, 32, p == 6 ? 36 : 80})
      for (auto coll : {cc::Collective::reduce, cc::Collective::broadcast, cc::Collective::allreduce})
        for (auto [L, B] : {std::pair<std::uint32_t, int>{15, 4}, {1, 3}, {64, 1}, {23, 7}}) {
          words += check_case({"twotree-hier", p, P, L, B, coll}, collnet::ReceiveOp::sum, collnet::DataType::int64, never);
          if (HasFailure()) return;
        }
  for (auto op : {collnet::ReceiveOp::product, collnet::ReceiveOp::max, collnet::ReceiveOp::min})
    words += check_case({"twotree-hier", 6, 36, 10, 2, cc::Collective::allreduce}, op, collnet::DataType::float64,
                        never);
  EXPECT_GT(words, 50000);
}

TEST(TwotreeScheduleEngine, FlatAndSingleEqualReferenceOnEveryEndpoint) {
  for (const char* algorithm : {"twotree-flat", "tree-single"})
    for (const char* placement : {"consecutive", "grouped"})
      for (int p : {6, 8})
        for (int P : {2, 7, 32})
          for (auto coll : {cc::Collective::reduce, cc::Collective::broadcast, cc::Collective::allreduce}) {
            check_case({algorithm, p, P, 15, 4, coll, placement}, collnet::ReceiveOp::sum, collnet::DataType::int64, never);
            if (HasFailure()) return;
          }
}

TEST(TwotreeScheduleEngine, StreamUnchangedUnderBackPressure) {
  std::mt19937_64 rng(2);
  std::bernoulli_distribution stall(0.4);
  check_case({"twotree-hier", 6, 36, 15, 4, cc::Collective::allreduce}, collnet::ReceiveOp::sum,
             collnet::DataType::int64, [&](std::uint64_t) { return stall(rng); });
}

// The NIC's descriptor source stops stepping a stalled engine once an idle
// cycle leaves its registers and output buffer unchanged (the tables change
// only by configuration writes): on every endpoint of a two-tree allreduce
// under random back-pressure, each such claim holds for the whole engine.
TEST(TwotreeScheduleEngine, RegistersAtRestMeanTheWholeEngineIsAtRest) {
  // the flag the NIC's engine block reads (driver/engine_block.hpp): public
  static_assert(requires { TwotreeScheduleEngine::tables_follow_registers; });
  const auto build = collnet::testing::build_twotree_case({"twotree-hier", 6, 36, 15, 4, cc::Collective::allreduce},
                                                          collnet::ReceiveOp::sum, collnet::DataType::int64);
  collnet::testing::RandomStall stall{true, 3};
  int claims = 0;
  for (const auto& writes : build.writes) {
    TwotreeScheduleEngine engine;
    claims += collnet::testing::check_rest_claims(engine, writes, std::ref(stall));
    if (HasFailure()) return;
  }
  EXPECT_GT(claims, 100);
}
