// `collnet run` of the standard collectives in the cycle model: every one
// completes on a 4x4 torus and on a leaf/spine fabric with its data check
// passed, and reports its closed-form lower bound; bad sizes exit 2 naming
// the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"

using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

const std::vector<std::string> kAlgorithms = {"ring-allreduce", "rd-allreduce",        "binomial-bcast",
                                              "binomial-reduce", "ring-allgather",      "ring-reduce-scatter",
                                              "pairwise-alltoall"};

nlohmann::json run_json(const std::string& algorithm, const std::string& topology,
                        const std::vector<std::string>& extra = {}) {
  const fs::path json = scratch() / (algorithm + "_" + std::to_string(topology.size()) + ".json");
  std::vector<std::string> args = {"run", "--set", "algorithm=" + algorithm, "--set", "topology=" + topology,
                                   "--set", "compare=", "--json", json.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun r = run_collnet(args);
  EXPECT_EQ(r.status, 0) << algorithm << " " << topology << "\n" << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("data check        pass")) << algorithm;
  return r.status == 0 ? read_json(json) : nlohmann::json::object();
}

}  // namespace

TEST(StandardCollectivesCli, EveryOnePassesItsDataCheckOnATorus) {
  for (const auto& algorithm : kAlgorithms) {
    const auto j = run_json(algorithm, "torus:4x4", {"--set", algorithm == "pairwise-alltoall" ? "message_flits=4"
                                                                                               : "elements=32"});
    ASSERT_FALSE(j.empty()) << algorithm;
    EXPECT_EQ(j["algorithm"], algorithm);
    EXPECT_EQ(j["data_check"], "pass") << algorithm;
    EXPECT_FALSE(j.contains("compare")) << algorithm;  // compare= : this algorithm alone
    // The closed forms for n = 16 ranks: allreduce 2(n-1)/n L, reduce-scatter
    // and allgather (n-1)/n L, bcast and reduce L, all-to-all (n-1) M (the
    // 4x4 torus' bisection bound, 8 x 4, is lower).
    const long bound = algorithm == "ring-allreduce" || algorithm == "rd-allreduce"        ? 2 * 15 * 32 / 16
                       : algorithm == "ring-allgather" || algorithm == "ring-reduce-scatter" ? 15 * 32 / 16
                       : algorithm == "pairwise-alltoall"                                  ? 15 * 4
                                                                                           : 32;
    EXPECT_EQ(j["lower_bound_cycles"].get<long>(), bound) << algorithm;
    EXPECT_GE(j["cycles"].get<long>(), bound) << algorithm;
  }
}

TEST(StandardCollectivesCli, DefaultSizesRunToo) {
  // elements 15 on 16 ranks: one chunk is empty and is not sent.
  for (const char* algorithm : {"ring-allreduce", "ring-allgather"}) {
    const auto j = run_json(algorithm, "torus:4x4");
    EXPECT_EQ(j["data_check"], "pass") << algorithm;
    EXPECT_EQ(j["elements"], 15);
  }
}

TEST(StandardCollectivesCli, RingAllreduceOnALeafSpineFabric) {
  const auto j = run_json("ring-allreduce", "leafspine:p=6", {"--set", "elements=72", "--set", "dtype=float64"});
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["lower_bound_cycles"].get<long>(), 2 * 35 * 72 / 36);  // 36 servers
}

TEST(StandardCollectivesCli, RdAllreduceOnACountThatIsNotAPowerOfTwo) {
  // 36 servers: 32 participants, the first 8 servers folding in pairs. SENDs:
  // 2 log2 32 per participant, one fold and one copy back per pair.
  const auto j = run_json("rd-allreduce", "leafspine:p=6", {"--set", "elements=64"});
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["messages"].get<long>(), 2 * 5 * 32 + 2 * 4);
  EXPECT_EQ(j["lower_bound_cycles"].get<long>(), (2 * 35 * 64 + 35) / 36);
}

TEST(StandardCollectivesCli, BadSizesExitTwoNamingTheKey) {
  const CliRun root = run_collnet(
      {"run", "--set", "algorithm=binomial-bcast", "--set", "topology=torus:4x4", "--set", "root=16"});
  EXPECT_EQ(root.status, 2);
  EXPECT_THAT(root.err, AllOf(HasSubstr("key 'root'"), HasSubstr("0 to 15")));
  const CliRun blocks = run_collnet(
      {"run", "--set", "algorithm=ring-allreduce", "--set", "topology=torus:4x4", "--set", "blocks=2"});
  EXPECT_EQ(blocks.status, 2);  // a key of the tree reductions does not apply
  EXPECT_THAT(blocks.err, HasSubstr("blocks"));
}

namespace {

nlohmann::json run_words(const std::vector<std::string>& args, const std::string& name) {
  const fs::path json = scratch() / (name + ".json");
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--json", json.string()});
  const CliRun r = run_collnet(all);
  EXPECT_EQ(r.status, 0) << name << "\n" << r.out << r.err;
  return r.status == 0 ? read_json(json) : nlohmann::json::object();
}

}  // namespace

TEST(StandardCollectivesCli, RunAsCompareBaselinesOfTheStudiesScenarios) {
  // The tree broadcast's scenario file: binomial-bcast from its
  // logical_root (62), 64 words, 62 messages of 64 flits, data passed.
  auto j = run_words({"run", COLLNET_SOURCE_DIR "/examples/tree-bcast-rule.yaml", "--set", "schedule_engine=auto",
                      "--set", "elements=64", "--set", "compare=binomial-bcast"},
                     "compare_tree_bcast");
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["cycles"], 696);  // the page's closed form for tree-bcast, untouched by the comparison
  const auto& b = j["compare"][0];
  EXPECT_EQ(b["algorithm"], "binomial-bcast");
  EXPECT_EQ(b["data_check"], "pass");
  EXPECT_EQ(b["messages"], 62);
  EXPECT_EQ(b["flits"], 62 * 64);
  // Boards: the allreduces on the 16 main units (ranks=main_units), the
  // same elements as hd-allreduce; rd: 2 log2 16 messages per rank, ring:
  // 2 x 15.
  j = run_words({"run", "--set", "topology=boards:2x1x1x1", "--set", "algorithm=hd-allreduce", "--set", "elements=64",
                 "--set", "ranks=main_units", "--set", "compare=ring-allreduce,rd-allreduce"},
                "compare_boards");
  ASSERT_EQ(j["compare"].size(), 2u);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");
  EXPECT_EQ(j["compare"][0]["messages"], 16 * 2 * 15);
  EXPECT_EQ(j["compare"][1]["data_check"], "pass");
  EXPECT_EQ(j["compare"][1]["messages"], 16 * 2 * 4);
  // Leaf/spine: the two-tree's processes.
  j = run_words({"run", "--set", "topology=leafspine:p=6", "--set", "algorithm=twotree-flat", "--set", "processes=16",
                 "--set", "elements=64", "--set", "compare=ring-allreduce,rd-allreduce"},
                "compare_leafspine");
  ASSERT_EQ(j["compare"].size(), 2u);
  EXPECT_EQ(j["compare"][0]["messages"], 16 * 2 * 15);
  EXPECT_EQ(j["compare"][1]["messages"], 16 * 2 * 4);
  for (const auto& c : j["compare"]) EXPECT_EQ(c["data_check"], "pass");
}
