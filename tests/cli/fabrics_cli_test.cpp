// Fat trees and dragonflies through the command line: collectives that run
// on any topology run on both (data checked), the ones bound to another
// topology are refused naming both, and bad fabric input ends with exit
// status 2 naming the key and the accepted values before anything runs.
#include <gtest/gtest.h>

#include "cli_runner.hpp"

namespace collnet::test {
namespace {

struct Collective {
  std::string topology;
  std::string routing;
  std::string algorithm;
};

class FabricCollective : public ::testing::TestWithParam<Collective> {};

TEST_P(FabricCollective, RunsToCompletionWithCorrectData) {
  const Collective& c = GetParam();
  const fs::path json = scratch() / ("fabric_" + c.algorithm + ".json");
  const CliRun r = run_collnet({"run", "--set", "topology=" + c.topology, "--set", "algorithm=" + c.algorithm,
                                "--set", "routing=" + c.routing, "--set", "vcs=3", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = read_json(json);
  EXPECT_EQ(j.at("data_check"), "pass");
  EXPECT_GT(j.at("cycles").get<double>(), 0);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, FabricCollective,
                         ::testing::Values(Collective{"fattree:k=4,n=2", "nca", "binomial-bcast"},
                                           Collective{"fattree:k=2,n=3", "nca-random", "ring-allreduce"},
                                           Collective{"fattree:k=4,n=2", "nca-adaptive", "pairwise-alltoall"},
                                           Collective{"dragonfly:p=1", "min", "ring-allreduce"},
                                           Collective{"dragonfly:p=1", "valiant", "pairwise-alltoall"},
                                           Collective{"dragonfly:p=1", "ugal", "pairwise-alltoall"}),
                         [](const ::testing::TestParamInfo<Collective>& c) {
                           std::string name = c.param.topology.substr(0, c.param.topology.find(':')) + "_" +
                                              c.param.routing + "_" + c.param.algorithm;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

struct Refusal {
  std::vector<std::string> sets;
  std::vector<std::string> message_parts;
};

class FabricRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(FabricRefusal, ExitsTwoNamingTheKey) {
  std::vector<std::string> args = {"run"};
  for (const auto& s : GetParam().sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  const CliRun r = run_collnet(args);
  EXPECT_EQ(r.status, 2) << r.err;
  for (const auto& part : GetParam().message_parts) EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Fabrics, FabricRefusal,
    ::testing::Values(
        Refusal{{"topology=fattree:k=4,n=2", "algorithm=tree-bcast"}, {"tree-bcast", "fattree:k=4,n=2"}},
        Refusal{{"topology=dragonfly:p=1", "algorithm=tree-bcast"}, {"tree-bcast", "dragonfly:p=1"}},
        Refusal{{"topology=dragonfly:p=1", "routing=valiant", "vcs=2", "traffic=uniform"},
                {"key 'vcs'", "valiant", "at least 3 VCs", "got 2"}},
        Refusal{{"topology=dragonfly:p=2", "routing=ugal", "vcs=2", "traffic=group-shift"},
                {"key 'vcs'", "routing ugal", "at least 3 VCs", "got 2"}},
        Refusal{{"topology=torus:4x4", "routing=ugal", "traffic=uniform"},
                {"key 'routing'", "'ugal' does not run on torus:4x4", "dor, min-adaptive, dor-vc-adaptive, valiant"}},
        Refusal{{"topology=dragonfly:p=2", "vcs=1", "traffic=uniform"}, {"key 'vcs'", "2 VC classes"}},
        Refusal{{"topology=fattree:k=2,n=2", "traffic=group-shift"}, {"key 'traffic'", "group-shift", "fattree"}},
        Refusal{{"topology=fattree:k=4"}, {"key 'topology'", "needs k=K and n=N", "fattree:k=K,n=N"}},
        Refusal{{"topology=fattree:k=4,n=2", "routing=ecmp"}, {"key 'routing'"}},
        Refusal{{"topology=fattree:k=4,n=2", "routing=min", "traffic=uniform"}, {"key 'routing'", "nca, nca-random"}},
        Refusal{{"topology=mesh:4x4", "routing=nca", "traffic=uniform"}, {"key 'routing'", "'nca' does not run on mesh:4x4"}},
        Refusal{{"topology=dragonfly:p=2,g=12", "traffic=uniform"}, {"accepted g: 1..9"}},
        Refusal{{"topology=dragonfly:p=2,global_latency=0"}, {"key 'global_latency'", "from 1 to 1000"}}),
    [](const ::testing::TestParamInfo<Refusal>& r) { return "case" + std::to_string(r.index); });

}  // namespace
}  // namespace collnet::test
