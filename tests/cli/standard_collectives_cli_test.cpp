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

TEST(StandardCollectivesCli, BadSizesExitTwoNamingTheKey) {
  const CliRun rd = run_collnet({"run", "--set", "algorithm=rd-allreduce", "--set", "topology=mesh:3x5"});
  EXPECT_EQ(rd.status, 2);
  EXPECT_THAT(rd.err, AllOf(HasSubstr("key 'topology'"), HasSubstr("15"), HasSubstr("power-of-two")));
  const CliRun root = run_collnet(
      {"run", "--set", "algorithm=binomial-bcast", "--set", "topology=torus:4x4", "--set", "root=16"});
  EXPECT_EQ(root.status, 2);
  EXPECT_THAT(root.err, AllOf(HasSubstr("key 'root'"), HasSubstr("0 to 15")));
  const CliRun blocks = run_collnet(
      {"run", "--set", "algorithm=ring-allreduce", "--set", "topology=torus:4x4", "--set", "blocks=2"});
  EXPECT_EQ(blocks.status, 2);  // a key of the tree reductions does not apply
  EXPECT_THAT(blocks.err, HasSubstr("blocks"));
}
