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
#include <random>
#include <string>
#include <vector>

#include "tests/hls/twotree_engine_load.hpp"

namespace cc = collnet::collectives;
using collnet::Descriptor;
using collnet::DescriptorWord;
using collnet::hls::TwotreeScheduleEngine;
using collnet::testing::Case;
using collnet::testing::describe;

namespace {

template <typename Stall>
std::vector<DescriptorWord> run_engine(TwotreeScheduleEngine& engine,
                                       const std::vector<collnet::hls::TwotreeEngineWrite>& writes, Stall stall) {
  for (const auto& w : writes) {
    EXPECT_FALSE(engine.outputs().busy);
    engine.step({true, w.addr, w.data, false});
  }
  std::vector<DescriptorWord> words;
  for (std::uint64_t cycle = 1; cycle < 1'000'000; ++cycle) {
    collnet::hls::TwotreeEngineInputs in;
    in.out_ready = !stall(cycle);
    const auto out = engine.step(in);
    EXPECT_TRUE(out.busy);
    if (out.out_valid && in.out_ready) {
      words.push_back(out.out_desc);
      if (Descriptor::unpack(out.out_desc).opcode == collnet::Opcode::end) break;
    }
  }
  EXPECT_FALSE(engine.outputs().busy);
  return words;
}

/// The case's reference schedule and the loader's writes, then the engine on
/// every endpoint. Returns the descriptors compared.
template <typename Stall>
std::int64_t check_case(const Case& c, collnet::ReceiveOp op, collnet::DataType dtype, Stall stall) {
  const auto build = collnet::testing::build_twotree_case(c, op, dtype);
  TwotreeScheduleEngine engine;
  std::int64_t words = 0;
  for (std::size_t e = 0; e < build.writes.size(); ++e) {
    const auto got = run_engine(engine, build.writes[e], stall);
    const auto& ref = build.reference.programs[e];
    EXPECT_EQ(got.size(), ref.size()) << describe(c) << " endpoint " << e;
    if (got.size() != ref.size()) return words;
    for (std::size_t i = 0; i < ref.size(); ++i)
      if (got[i] != ref[i].pack()) {
        ADD_FAILURE() << describe(c) << " endpoint " << e << " descriptor " << i;
        return words;
      }
    words += static_cast<std::int64_t>(ref.size());
  }
  return words;
}

auto never = [](std::uint64_t) { return false; };

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
