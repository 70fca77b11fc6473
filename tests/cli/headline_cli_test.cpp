// The scenario files under examples/ reproduce the README's
// headline figures, and the report of a run without a bound (or whose size
// comes from `elements`) says so instead of printing -1 and 0.000.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using ::testing::Not;
using namespace collnet::test;

namespace {

nlohmann::json run_example(const std::string& name, const std::vector<std::string>& extra = {}) {
  const fs::path json = scratch() / (name + ".json");
  std::vector<std::string> args{"run", std::string(COLLNET_SOURCE_DIR) + "/examples/" + name + ".yaml"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--json", json.string()});
  const CliRun r = run_collnet(args);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  return read_json(json);
}

}  // namespace

// README "A2AT in a packet network": no barrier, at least 0.97 of the
// bisection bound at 256-flit messages on both 8x8 networks.
TEST(HeadlineExamples, A2atWithoutBarriersReachesTheBound) {
  for (const std::string name : {"a2at-torus-8x8", "a2at-mesh-8x8"}) {
    const auto j = run_example(name);
    EXPECT_EQ(j["data_check"], "pass") << name;
    EXPECT_EQ(j["barriers"], 0) << name;
    EXPECT_EQ(j["message_flits"], 256) << name;
    EXPECT_GE(j["efficiency"].get<double>(), 0.97) << name;
  }
  // The same file serves another size without retuning.
  const auto small = run_example("a2at-torus-8x8", {"--set", "topology=torus:6x6", "--set", "message_flits=64"});
  EXPECT_EQ(small["data_check"], "pass");
  EXPECT_GE(small["efficiency"].get<double>(), 0.95);
}

// README "Two-trees on a leaf/spine fabric": examples/twotree-p16.yaml runs
// twotree-hier with stage_pipelining against twotree-flat (p = 16 takes about
// 20 s of CPU, so the test runs the same file on p = 6). Pipelining the
// stages shortens the hierarchical allreduce; the flat two-tree stays ahead.
TEST(HeadlineExamples, TwotreeFileRunsPipelinedAgainstFlat) {
  const std::vector<std::string> small{"--set", "topology=leafspine:p=6", "--set", "elements=1024"};
  const auto j = run_example("twotree-p16", small);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["algorithm"], "twotree-hier");
  EXPECT_EQ(j["schedule_engine"], "reference");  // the engine runs the stages one after another
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["compare"][0]["algorithm"], "twotree-flat");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");
  auto sequential_args = small;
  sequential_args.insert(sequential_args.end(), {"--set", "stage_pipelining=false"});
  const auto sequential = run_example("twotree-p16", sequential_args);
  EXPECT_LT(j["cycles"].get<long>(), sequential["cycles"].get<long>());
  EXPECT_LT(j["compare"][0]["cycles"].get<long>(), j["cycles"].get<long>());
}

TEST(HeadlineReport, NoBoundIsNullAndElementsAreNamed) {
  const fs::path json = scratch() / "hd_nobound.json";
  const CliRun r = run_collnet({"run", "--set", "topology=boards:2x2x2x2", "--set", "algorithm=hd-allreduce",
                                "--set", "elements=64", "--set", "compare=hd-allreduce-conventional", "--json",
                                json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("64 elements"));
  EXPECT_THAT(r.out, Not(HasSubstr("flit messages")));
  EXPECT_THAT(r.out, HasSubstr("no lower bound for this algorithm"));
  EXPECT_THAT(r.out, Not(HasSubstr("lower bound -1")));
  EXPECT_THAT(r.out, Not(HasSubstr("efficiency 0.000")));
  // The side-by-side table (cycles, time, busbw, bound, efficiency): "none"
  // and "-" in the bound and efficiency columns.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("hd-allreduce-conventional +[0-9]+ +[0-9]+ ns +[0-9.]+ +none +- "));
  const auto j = read_json(json);
  EXPECT_TRUE(j["lower_bound_cycles"].is_null());
  EXPECT_TRUE(j["efficiency"].is_null());
  EXPECT_TRUE(j["message_flits"].is_null());
  EXPECT_EQ(j["elements"], 64);
  EXPECT_TRUE(j["compare"][0]["lower_bound_cycles"].is_null());
  // An all-to-all keeps its bound and its message size.
  const fs::path a2a = scratch() / "a2a_bound.json";
  ASSERT_EQ(run_collnet({"run", "--set", "algorithm=a2a-optimal", "--set", "topology=torus:4x4", "--set",
                         "message_flits=8", "--json", a2a.string()})
                .status,
            0);
  const auto k = read_json(a2a);
  EXPECT_EQ(k["lower_bound_cycles"], 64);  // torus 4x4: 8 messages (spec fact 3) x 8 flits
  EXPECT_EQ(k["message_flits"], 8);
  EXPECT_TRUE(k["elements"].is_null());
}

// README "Tree broadcast with the forwarding rule in the NIC": the rule block
// runs every node; N - 1 messages, each over one link, and the cycles of the
// closed form a(j-th target of u) = a(u) + H + L + j (concurrent sends),
// cycles = max a + 2, H = 2 router_delay + link_latency + 2 nic_latency = 5,
// here computed on the complete binary tree (parent of i = (i - 1) / 2).
TEST(HeadlineExamples, TreeBcastRuleMeetsTheClosedForm) {
  const int n = 63;
  const int logical = 62;
  const long words = 64;
  const long hop = 5;
  long last = 0;
  struct Visit {
    int node, from;
    long arrival;
  };
  std::vector<Visit> pending{{logical, -1, 0}};
  while (!pending.empty()) {
    const Visit v = pending.back();
    pending.pop_back();
    last = std::max(last, v.arrival);
    std::vector<int> targets;  // every tree neighbour but the sender: parent first, children ascending
    if (v.node > 0 && (v.node - 1) / 2 != v.from) targets.push_back((v.node - 1) / 2);
    for (const int c : {2 * v.node + 1, 2 * v.node + 2})
      if (c < n && c != v.from) targets.push_back(c);
    for (std::size_t j = 0; j < targets.size(); ++j)
      pending.push_back({targets[j], v.node, v.arrival + hop + words + static_cast<long>(j)});
  }
  const auto j = run_example("tree-bcast-rule");
  EXPECT_EQ(j["schedule_engine"], "hls-tree_bcast_rule");
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["messages"], n - 1);
  EXPECT_EQ(j["flit_hops"], (n - 1) * words);
  EXPECT_EQ(j["lower_bound_cycles"], 10 * words);  // depth 10 x message
  EXPECT_EQ(j["cycles"], last + 2);
}

// The headline of README "Without barriers: each group paced at its fair
// share" is examples/a2at-torus-8x8.yaml, which the README names beside the
// main job: A2AT with no barrier at 0.998 of the bisection bound of the 8x8
// torus with 256-flit messages (64 x 256 = 16384 cycles), next to the A2A
// baseline.
TEST(HeadlineMainJob, TheHeadlineFileIsA2atWithoutBarriersAtTheBound) {
  const fs::path json = scratch() / "main_job.json";
  const CliRun r = run_collnet({"run", std::string(COLLNET_SOURCE_DIR) + "/examples/a2at-torus-8x8.yaml", "--set",
                                "compare=a2a-spread", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["algorithm"], "a2a-optimal");
  EXPECT_EQ(j["topology"], "torus:8x8");
  EXPECT_EQ(j["message_flits"], 256);
  EXPECT_EQ(j["barriers"], 0);
  EXPECT_EQ(j["lower_bound_cycles"], 64 * 256);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_GE(j["efficiency"].get<double>(), 0.99);
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["compare"][0]["algorithm"], "a2a-spread");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");
  EXPECT_GT(j["compare"][0]["cycles"].get<long>(), j["cycles"].get<long>());
  EXPECT_THAT(r.out, HasSubstr("efficiency 0.998"));
}

// The main job (`collnet run` with no scenario, scripts/main.sh) runs A2AT
// next to A2A on the 8x8 torus with every other key at its default; A2AT
// takes fewer cycles than the baseline, and both pass their data check.
TEST(HeadlineMainJob, TheDefaultRunIsA2atNextToA2aAtTheKeysDefaults) {
  const fs::path json = scratch() / "main_job_default.json";
  const CliRun r = run_collnet({"run", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["algorithm"], "a2a-optimal");
  EXPECT_EQ(j["topology"], "torus:8x8");
  EXPECT_EQ(j["data_check"], "pass");
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["compare"][0]["algorithm"], "a2a-spread");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");
  EXPECT_GT(j["compare"][0]["cycles"].get<long>(), j["cycles"].get<long>());
}
