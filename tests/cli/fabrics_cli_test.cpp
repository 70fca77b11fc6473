// Fat trees and dragonflies through the command line: collectives that run
// on any topology run on both (data checked), the ones bound to another
// topology are refused naming both, the report gives a dragonfly's link
// latencies and the credit loop they set, and bad fabric input ends with
// exit status 2 naming the key and the accepted values before anything runs.
#include <algorithm>
#include <fstream>

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

// The report's link latencies and credit-loop line against the dragonfly's
// closed form (dragonfly:p=1: 6 endpoints and 3 groups of 2 routers, so 12
// directed endpoint cables, 6 local and 6 global links), and the loop's bound
// against the run: under saturating group-shift traffic a global link of
// latency 100 with 8-flit VC buffers carries at most 8 / its credit round
// trip flits per cycle per VC (2 x 100 + the 1-cycle pipeline of
// router_delay 1 = 201 cycles), and min routing uses one VC class there.
TEST(FabricReport, LinkLatenciesAndTheCreditLoopBound) {
  const fs::path json = scratch() / "fabric_credit_loop.json";
  const CliRun r = run_collnet({"run", "--set", "topology=dragonfly:p=1,local_latency=1", "--set",
                                "traffic=group-shift", "--set", "injection_rate=1.0", "--set", "measure_cycles=3000",
                                "--set", "buffer_sizing=fixed", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link latency 1 (18 links), 100 (6)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flits per cycle: 0.04 on the 6 links of latency 100 (buffer_flits 201 keeps every link "
                       "busy)"),
            std::string::npos)
      << r.out;
  const auto j = read_json(json);
  EXPECT_EQ(j.at("link_latencies"), nlohmann::json::parse(R"([{"latency": 1, "links": 18},
                                                              {"latency": 100, "links": 6}])"));
  // Routers are named r<group><index>: a global link joins two groups.
  const double bound = 8.0 / (2 * 100 + 1);
  double most = 0;
  int global = 0;
  for (const auto& [name, utilization] : j.at("link_utilization").at("per_link").items()) {
    const std::string src = name.substr(0, name.find(':'));
    const std::string dst = name.substr(name.find("->") + 2);
    if (src[0] != 'r' || dst[0] != 'r' || src[1] == dst[1]) continue;
    ++global;
    EXPECT_LE(utilization.get<double>(), 1.05 * bound) << name;
    most = std::max(most, utilization.get<double>());
  }
  EXPECT_EQ(global, 6);
  EXPECT_GE(most, 0.9 * bound);
}

// Where a run's links have VC buffers shorter than their credit round trip
// (buffer_sizing fixed on dragonfly:p=1's 10- and 100-cycle cables), a sweep
// says so once on standard error and collnet saturation in its result, with
// the bound of each latency (8 / (2 x 10 + 1) = 0.38, 8 / (2 x 100 + 1) = 0.04); with
// the default round-trip buffers neither says it, and the run's JSON
// credit_loop is null.
TEST(FabricReport, SweepAndSaturationSayTheCreditLoop) {
  const fs::path dir = scratch() / "credit_loop_sweep";
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "sweep.yaml");
    f << "base: {topology: \"dragonfly:p=1\", traffic: uniform, measure_cycles: 500, warmup_cycles: 100}\n"
         "axes:\n  buffer_sizing: [fixed, round-trip]\n";
  }
  const CliRun sweep = run_collnet({"sweep", (dir / "sweep.yaml").string(), "--out", (dir / "r.jsonl").string()});
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  EXPECT_NE(sweep.err.find("sweep: credit loop on 1 of 2 points: a VC carries at most buffer_flits / credit round "
                           "trip (2 x latency + pipeline) flits per cycle (point 1: 0.38 on the 6 links of latency "
                           "10, 0.04 on the 6 links of latency 100 (buffer_flits 201 keeps every link busy))"),
            std::string::npos)
      << sweep.err;
  const std::vector<std::string> base = {"--set", "topology=dragonfly:p=1", "--set", "measure_cycles=500", "--set",
                                         "warmup_cycles=100", "--set", "drain_cycles=2000", "--resolution", "0.05"};
  for (const std::string sizing : {"fixed", "round-trip"}) {
    std::vector<std::string> args = {"saturation", "--set", "buffer_sizing=" + sizing};
    args.insert(args.end(), base.begin(), base.end());
    const CliRun r = run_collnet(args);
    ASSERT_EQ(r.status, 0) << r.err;
    if (sizing == "fixed")
      // RouterConfig's defaults: round trip 2 x latency + the 1-cycle
      // allocation and traversal pipeline, 21 and 201 cycles: 8/21, 8/201.
      EXPECT_NE(r.out.find("  credit loop       a VC carries at most buffer_flits / credit round trip (2 x latency + "
                           "pipeline) flits per cycle: 0.38 on the 6 links of latency 10, 0.04 on the 6 links of "
                           "latency 100 (buffer_flits 201 keeps every link busy)"),
                std::string::npos)
          << r.out;
    else
      EXPECT_EQ(r.out.find("credit loop"), std::string::npos) << r.out;
  }
  const fs::path json = scratch() / "credit_loop_default.json";
  ASSERT_EQ(run_collnet({"run", "--set", "topology=dragonfly:p=1", "--set", "traffic=uniform", "--set",
                         "measure_cycles=200", "--json", json.string()})
                .status,
            0);
  EXPECT_TRUE(read_json(json).at("credit_loop").is_null());
}

TEST(FabricReport, NoCreditLoopLineWhereTheBuffersCoverIt) {
  const CliRun r = run_collnet({"run", "--set", "topology=mesh:4x4", "--set", "traffic=uniform", "--set",
                                "link_latency=4", "--set", "measure_cycles=200"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link latency 4\n"), std::string::npos) << r.out;  // a mesh has no dateline
  EXPECT_EQ(r.out.find("credit loop"), std::string::npos) << r.out;
}

// `collnet list` names under each fabric every routing function the
// reference (docs/reference/topologies.md, Routing) gives it, the default
// first: the functions the runs above take by name.
TEST(FabricList, EachFabricNamesItsRoutingFunctions) {
  const CliRun r = run_collnet({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto routing_of = [&](const std::string& syntax) {
    const auto at = r.out.find("  " + syntax + " ");
    if (at == std::string::npos) return std::string("(no line for " + syntax + ")");
    const auto next = r.out.find('\n', at) + 1;
    return r.out.substr(next, r.out.find('\n', next) - next);
  };
  EXPECT_NE(routing_of("fattree:k=K,n=N[,bandwidth_L=B]").find("routing: nca, nca-random, nca-adaptive"), std::string::npos)
      << r.out;
  EXPECT_NE(routing_of(
                "dragonfly:p=P[,a=A,h=H,g=G][,local_latency=L][,global_latency=L][,local_bandwidth=B][,global_bandwidth=B]").find(
                "routing: min, valiant, ugal"),
            std::string::npos)
      << r.out;
  EXPECT_NE(routing_of("torus:NXxNY[xNZ[xNW]][,bandwidth_D=B]").find("routing: dor, min-adaptive, dor-vc-adaptive, valiant"),
            std::string::npos)
      << r.out;
}

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
        Refusal{{"topology=dragonfly:p=2,global_latency=0"}, {"key 'global_latency'", "from 1 to 1000"}},
        Refusal{{"topology=mesh:4x4", "endpoint_attach=direct", "traffic=uniform"},
                {"key 'endpoint_attach'", "mesh:4x4", "not servers on a cable", "accepted here: server"}},
        Refusal{{"topology=fattree:k=4,n=2", "endpoint_attach=switch", "traffic=uniform"},
                {"key 'endpoint_attach'", "server, direct"}},
        Refusal{{"topology=fattree:k=4,n=2", "endpoint_attach=direct", "algorithm=ring-allreduce"},
                {"key 'endpoint_attach'", "synthetic-traffic runs"}}),
    [](const ::testing::TestParamInfo<Refusal>& r) { return "case" + std::to_string(r.index); });

}  // namespace
}  // namespace collnet::test
