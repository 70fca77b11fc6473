// The in-network collectives (collectives/algorithms/innet.cpp) in the
// functional executor and the static checker: under every delivery order
// every receiver ends with the collective's definition, computed here from
// the ranks' input words (payload_word(rank, 0x2002, i), the int64 inputs of
// tree_pipeline.hpp) folded in the test; the tree links each tag loads carry
// the part once, whatever the number of contributors; bad keys are refused
// naming the key.
#include <gtest/gtest.h>

#include <algorithm>

#include "collectives/executor.hpp"
#include "collectives/msccl_export.hpp"
#include "collectives/params.hpp"
#include "tests/support/built_schedule.hpp"
#include "tests/support/error_message.hpp"
#include "topology/aggregation.hpp"

using namespace collnet;
using namespace collnet::collectives;

namespace {

Word input(int rank, std::uint32_t i) { return payload_word(static_cast<std::uint64_t>(rank), 0x2002, i); }

std::vector<Word> folded(int n, std::uint32_t elements, const std::string& op) {
  std::vector<Word> r(elements);
  for (std::uint32_t i = 0; i < elements; ++i) {
    auto acc = static_cast<std::int64_t>(input(0, i));
    for (int e = 1; e < n; ++e) {
      const auto v = static_cast<std::int64_t>(input(e, i));
      acc = op == "max" ? std::max(acc, v) : op == "min" ? std::min(acc, v)
                                                         : static_cast<std::int64_t>(static_cast<Word>(acc) + static_cast<Word>(v));
    }
    r[i] = static_cast<Word>(acc);
  }
  return r;
}

}  // namespace

TEST(InNetwork, AllreduceEveryEndpointEndsWithTheFoldUnderEveryOrder) {
  for (const char* topology : {"leafspine:p=6", "fattree:k=4,n=2", "tree:kary=2,n=7"}) {
    for (const char* op : {"sum", "max"}) {
      const auto built = test::build_schedule("innet-allreduce", topology, {{"elements", "37"}, {"op", op}});
      const int n = static_cast<int>(built.schedule.endpoints());
      const std::vector<Word> want = folded(n, 37, op);
      for (const auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
        const ExecResult r = execute(built.schedule, {order, 11});
        for (int e = 0; e < n; ++e)
          for (std::uint32_t i = 0; i < 37; ++i)
            ASSERT_EQ(r.memory[static_cast<std::size_t>(e)][i], want[i])
                << topology << " op " << op << " endpoint " << e << " word " << i;
      }
    }
  }
}

TEST(InNetwork, ReduceToRootAndBcastFromRoot) {
  const auto reduce = test::build_schedule("innet-reduce", "fattree:k=4,n=2", {{"elements", "20"}, {"root", "9"}});
  const auto bcast = test::build_schedule("innet-bcast", "leafspine:p=6", {{"elements", "20"}, {"root", "13"}});
  const std::vector<Word> sum = folded(16, 20, "sum");
  for (const auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const ExecResult r = execute(reduce.schedule, {order, 3});
    for (std::uint32_t i = 0; i < 20; ++i) EXPECT_EQ(r.memory[9][i], sum[i]) << "word " << i;
    // the others keep their own vector
    EXPECT_EQ(r.memory[0][0], input(0, 0));
    const ExecResult b = execute(bcast.schedule, {order, 3});
    for (std::size_t e = 0; e < 36; ++e)
      for (std::uint32_t i = 0; i < 20; ++i) ASSERT_EQ(b.memory[e][i], input(13, i)) << "endpoint " << e;
  }
}

TEST(InNetwork, EachBlockLoadsItsTreeLinksOnceWhateverTheContributors) {
  // leafspine:p=6: 6 trees, 192 words in 12 blocks of 16, two a tree; each
  // endpoint's cable carries 32 flits each way in every tree's phase (its
  // blocks up, the results down), 192 in all, against 2(n-1)/n x 192 each
  // way for a ring allreduce.
  const auto built = test::build_schedule("innet-allreduce", "leafspine:p=6", {{"elements", "192"}},
                                          test::StaticCheck::run);
  const topology::Graph& g = built.topology->graph();
  ASSERT_EQ(built.report.phases.size(), 6u);
  for (const PhaseReport& p : built.report.phases) {
    EXPECT_EQ(p.max_link_messages, 2) << "tag " << p.tag;
    EXPECT_EQ(p.max_link_flits, 32) << "tag " << p.tag;
    int endpoint_links = 0;
    for (const LinkLoad& l : p.links) {
      const topology::Link& link = g.link(l.link);
      if (g.node(link.src).kind != topology::NodeKind::server && g.node(link.dst).kind != topology::NodeKind::server)
        continue;
      ++endpoint_links;
      EXPECT_EQ(l.flits, 32) << g.link_name(l.link) << " tag " << p.tag;
    }
    EXPECT_EQ(endpoint_links, 72) << "every endpoint's cable once each way, tag " << p.tag;
  }
  EXPECT_EQ(built.report.static_time, 192);
}

TEST(InNetwork, BadKeysAreRefusedNamingTheKey) {
  const auto refused = [](const std::string& algorithm, const std::string& topology, const Params& params) {
    return test::error_message<ConfigError>([&] { (void)test::build_schedule(algorithm, topology, params); });
  };
  EXPECT_NE(refused("innet-reduce", "leafspine:p=6", {{"root", "36"}}).find("key 'root'"), std::string::npos);
  EXPECT_NE(refused("innet-bcast", "fattree:k=4,n=2", {{"root", "-1"}}).find("key 'root'"), std::string::npos);
  EXPECT_NE(refused("innet-allreduce", "leafspine:p=6", {{"op", "product"}}).find("key 'op'"), std::string::npos);
  EXPECT_NE(refused("innet-allreduce", "leafspine:p=6", {{"dtype", "float64"}}).find("key 'dtype'"),
            std::string::npos);
  EXPECT_NE(refused("innet-allreduce", "leafspine:p=6", {{"aggregation_trees", "7"}}).find("key 'aggregation_trees'"),
            std::string::npos);
  EXPECT_NE(refused("innet-allreduce", "torus:4x4", {}).find("key 'topology'"), std::string::npos);
  EXPECT_NE(refused("innet-allreduce", "leafspine:p=10", {}).find("10 children"), std::string::npos);
  // the registry refuses the topology before building
  EXPECT_FALSE(find_algorithm("innet-allreduce").supports.accepts(*topology::make_topology("torus:4x4")));
  // MSCCL-IR has no form for a switch that reduces
  const auto built = test::build_schedule("innet-allreduce", "fattree:k=4,n=2");
  EXPECT_NE(test::error_message<ConfigError>([&] { (void)export_msccl(built.schedule, "innet-allreduce", {}); })
                .find("no form for a switch"),
            std::string::npos);
}
