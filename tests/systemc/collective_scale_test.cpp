// The collectives at the documents' scales run to completion with every
// word right: A2AT on the 1024-node torus:32x32 with the
// router of the README's A2AT section (8 VCs, a barrier after every group)
// and the hierarchical two-tree allreduce on the 576 servers of a p=16
// leaf/spine fabric. Small messages keep them short; they test completion
// and data, not time (the speed figures live in `collnet bench
// --collectives`).
#include <gtest/gtest.h>

#include <cstdint>

#include "systemc/run/collective_run.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// Sum over the offsets 0..n-1 of a ring of n of the minimal hop count.
std::uint64_t ring_distance_sum(std::uint64_t n) {
  std::uint64_t sum = 0;
  for (std::uint64_t d = 0; d < n; ++d) sum += d < n - d ? d : n - d;
  return sum;
}

}  // namespace

TEST(CollectiveScale, A2atOnTorus32x32CompletesWithEveryWordRight) {
  constexpr std::uint64_t kMessageFlits = 1;
  constexpr std::uint64_t kSide = 32;
  constexpr std::uint64_t kNodes = kSide * kSide;
  const CollectiveScenario s = collective_from(Params{{"topology", "torus:32x32"},
                                                      {"algorithm", "a2a-optimal"},
                                                      {"nct", "4"},
                                                      {"message_flits", std::to_string(kMessageFlits)},
                                                      {"vcs", "8"},
                                                      {"group_barriers", "true"}});
  const CollectiveResult r = run_collective(s);
  ASSERT_TRUE(r.completed);
  EXPECT_FALSE(r.deadlocked());
  EXPECT_TRUE(r.data_check) << (r.check.first_errors.empty() ? "" : r.check.first_errors.front());
  EXPECT_EQ(r.check.mismatches, 0);
  EXPECT_EQ(r.reference_mismatch_words, 0);
  // The A2AT engine's offset table holds N - 1 <= 256 entries
  // (docs/architecture.md): 1024 nodes run the reference programs.
  EXPECT_EQ(r.schedule_engine, "reference");
  // Every node sends to every other node once (spec a2a-optimal), each
  // message on a minimal route: the flit-hops are m times the sum of the
  // torus distances over all ordered pairs.
  EXPECT_EQ(r.messages, kNodes * (kNodes - 1));
  EXPECT_EQ(r.flits, kNodes * (kNodes - 1) * kMessageFlits);
  const std::uint64_t distance_sum_per_node = 2 * kSide * ring_distance_sum(kSide);
  EXPECT_EQ(r.flit_hops, kNodes * distance_sum_per_node * kMessageFlits);
  // A barrier after every group of 4 sends: (N - 1) / 4 groups, rounded up.
  EXPECT_EQ(r.barriers, (kNodes - 1 + 3) / 4);
  // The bisection bound holds.
  EXPECT_GE(r.cycles, static_cast<Cycle>(r.lower_bound_cycles));
}

TEST(CollectiveScale, TwotreeAllreduceOnLeafspineP16CompletesWithEveryWordRight) {
  const CollectiveScenario s = collective_from(Params{{"topology", "leafspine:p=16"},
                                                      {"algorithm", "twotree-hier"},
                                                      {"collective", "allreduce"},
                                                      {"elements", "64"}});
  const CollectiveResult r = run_collective(s);
  EXPECT_EQ(r.endpoints, 576u);  // document 002: p = 16 gives 576 servers
  ASSERT_TRUE(r.completed);
  EXPECT_FALSE(r.deadlocked());
  EXPECT_TRUE(r.data_check) << (r.check.first_errors.empty() ? "" : r.check.first_errors.front());
  EXPECT_EQ(r.check.mismatches, 0);
  EXPECT_EQ(r.reference_mismatch_words, 0);
  // Every message between two servers leaves its server and enters the
  // destination server: at least two links per flit.
  EXPECT_GE(r.flit_hops, 2 * r.flits);
  EXPECT_GT(r.flits, 0u);
}
