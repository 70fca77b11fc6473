// The HLS schedule engine for hd-allreduce and hd-allreduce-conventional
// (hls/schedule_engine_hd.hpp) against the software reference programs
// (collectives/algorithms/hd_allreduce.cpp build_hd_allreduce): word for word
// (Descriptor::pack()), for every endpoint of the boards 2x2x2x2, 4x1x1x1,
// 4x2x4x2, 4x4x4x4 (and small extra shapes), both variants, both dimension
// orders, every op, both dtypes, A = 1, 2, 4; with a stalled consumer; and
// the documented timing.
#include "hls/schedule_engine_hd.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "collectives/algorithms/hd_allreduce.hpp"
#include "tests/hls/engine_run.hpp"
#include "topology/boards.hpp"

namespace collnet::hls {

using collectives::HdOp;
using collectives::HdOptions;
using collectives::HdVariant;
using topology::Boards;

namespace {


/// The loader's writes of endpoint e (as the hd engine's registers).
std::vector<EngineWrite> engine_writes(const HdOptions& o, const Boards& boards, topology::EndpointId e) {
  const auto c = boards.board_coord(Boards::board_of(e));
  std::array<std::uint32_t, 4> sizes{}, coord{};
  for (int d = 0; d < 4; ++d) {
    sizes[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(boards.size(d));
    coord[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(c[static_cast<std::size_t>(d)]);
  }
  return hd_engine_writes(
      o.variant == HdVariant::conventional, o.dim_order == "bandwidth", static_cast<std::uint32_t>(o.op),
      o.dtype == DataType::float64, static_cast<std::uint32_t>(e % Boards::kUnitsPerBoard), o.elements,
      static_cast<std::uint32_t>(o.aggregation_units), sizes, coord);
}

std::string describe(const Boards& b, const HdOptions& o, topology::EndpointId e) {
  return "boards " + std::to_string(b.size(0)) + "x" + std::to_string(b.size(1)) + "x" + std::to_string(b.size(2)) +
         "x" + std::to_string(b.size(3)) + (o.variant == HdVariant::conventional ? " conventional" : " hierarchical") +
         " " + o.dim_order + " op " + std::to_string(static_cast<int>(o.op)) + " A " +
         std::to_string(o.aggregation_units) + " L " + std::to_string(o.elements) + " endpoint " + std::to_string(e);
}

/// Every endpoint of the schedule, word for word; returns the number of
/// descriptors compared.
template <typename Stall>
std::int64_t compare_all(const Boards& boards, const HdOptions& o, Stall stall) {
  const auto s = collectives::build_hd_allreduce(boards, o);
  HdScheduleEngine engine;
  return testing::compare_endpoints(
      engine, static_cast<std::size_t>(boards.endpoint_count()),
      [&](std::size_t e) { return engine_writes(o, boards, static_cast<topology::EndpointId>(e)); }, s.programs,
      stall, [&](std::size_t e) { return describe(boards, o, static_cast<topology::EndpointId>(e)); },
      100'000);
}

using testing::never;

}  // namespace

// Every endpoint, every variant x dim order x op x A, on the shapes the brief
// names (4x4x4x4 with A = 4 only: it has 3072 endpoints).
TEST(HdScheduleEngine, EqualsReferenceOnEveryEndpoint) {
  std::int64_t words = 0;
  const std::vector<std::array<int, 4>> shapes{{2, 2, 2, 2}, {4, 1, 1, 1}, {4, 2, 4, 2}, {1, 1, 1, 1},
                                               {1, 2, 1, 4}, {2, 4, 1, 1}};
  for (const auto& shape : shapes) {
    const Boards boards(shape);
    for (HdVariant v : {HdVariant::hierarchical, HdVariant::conventional})
      for (const char* order : {"wxyz", "bandwidth"})
        for (HdOp op : {HdOp::sum, HdOp::product, HdOp::max, HdOp::min, HdOp::average})
          for (int A : {1, 2, 4}) {
            HdOptions o;
            o.variant = v;
            o.dim_order = order;
            o.op = op;
            o.dtype = (static_cast<int>(op) + A) % 2 ? DataType::float64 : DataType::int64;
            o.aggregation_units = A;
            // odd multiples too: blocks of odd length split unevenly on size-2 rings
            o.elements = static_cast<std::uint32_t>(A * boards.boards() * (A == 2 ? 3 : 1 + (A == 4)));
            words += compare_all(boards, o, never);
            if (HasFailure()) return;
          }
  }
  const Boards big({4, 4, 4, 4});
  for (HdVariant v : {HdVariant::hierarchical, HdVariant::conventional})
    for (const char* order : {"wxyz", "bandwidth"})
      for (HdOp op : {HdOp::sum, HdOp::product, HdOp::max, HdOp::min, HdOp::average}) {
        HdOptions o;
        o.variant = v;
        o.dim_order = order;
        o.op = op;
        o.dtype = op == HdOp::average || op == HdOp::max ? DataType::float64 : DataType::int64;
        o.aggregation_units = 4;
        o.elements = 4 * 256;
        words += compare_all(big, o, never);
        if (HasFailure()) return;
      }
  EXPECT_GT(words, 100000);
}

// A randomly stalled consumer changes the timing, never the stream.
TEST(HdScheduleEngine, StreamUnchangedUnderBackPressure) {
  std::mt19937_64 rng(4);
  std::bernoulli_distribution stall(0.4);
  const Boards boards({4, 2, 1, 2});
  for (HdVariant v : {HdVariant::hierarchical, HdVariant::conventional}) {
    HdOptions o;
    o.variant = v;
    o.dim_order = "bandwidth";
    o.op = HdOp::average;
    o.aggregation_units = 2;
    o.elements = 2 * 16 * 5;
    compare_all(boards, o, [&](std::uint64_t) { return stall(rng); });
  }
}

// Timing (header): one init cycle, one cycle loading the output register,
// then one descriptor per cycle with one bubble before each network step: an
// aggregation unit of 4x4x1x1 (H = 4, 8 steps) offers its first descriptor
// in cycle 3 and END in cycle 2 + descriptors + 8.
TEST(HdScheduleEngine, DocumentedTiming) {
  const Boards boards({4, 4, 1, 1});
  HdOptions o;
  o.aggregation_units = 4;
  o.elements = 4 * 16 * 4;
  HdScheduleEngine engine;
  const topology::EndpointId agg = Boards::aggregation_unit(5, 1);
  const auto run = testing::run_engine(engine, engine_writes(o, boards, agg), never);
  ASSERT_FALSE(run.cycles.empty());
  EXPECT_EQ(run.cycles.front(), 3u);
  const std::uint64_t steps = 2 * 4;  // halving and doubling steps
  EXPECT_EQ(run.cycles.back(), 2 + run.words.size() + steps);
  const auto main = testing::run_engine(engine, engine_writes(o, boards, Boards::main_unit(5, 3)), never);
  EXPECT_EQ(main.cycles.front(), 3u);
  EXPECT_EQ(main.cycles.back(), 2 + main.words.size());  // main unit: no bubble
}

}  // namespace collnet::hls
