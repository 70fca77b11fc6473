// `collnet bench`: the report's fields per network, the
// per-router speed relative to the 8x8 network of the same kind (exactly 1
// for the 8x8 network itself), the offered load honoured below saturation,
// and bad input (unknown topology, option out of range) exits 2 naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

TEST(BenchCli, ReportsEveryNetworkWithItsFields) {
  const fs::path json = scratch() / "bench.json";
  const CliRun r = run_collnet({"bench", "--topology", "mesh:8x8", "--topology", "mesh:4x4", "--repeat", "1",
                                "--measure-cycles", "2000", "--injection-rate", "0.05", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("ns/hop"));
  const auto j = read_json(json);
  EXPECT_DOUBLE_EQ(j["injection_rate"].get<double>(), 0.05);
  EXPECT_EQ(j["measure_cycles"], 2000);
  ASSERT_EQ(j["runs"].size(), 2u);
  const auto& base = j["runs"][0];
  const auto& small = j["runs"][1];
  EXPECT_EQ(base["topology"], "mesh:8x8");
  EXPECT_EQ(base["routers"], 64);
  EXPECT_EQ(small["routers"], 16);
  EXPECT_DOUBLE_EQ(base["per_router_speed_vs_8x8"].get<double>(), 1.0);
  EXPECT_GT(small["per_router_speed_vs_8x8"].get<double>(), 0.0);
  for (const auto& run : j["runs"]) {
    for (const char* key : {"cycles", "accepted_rate", "avg_latency", "sim_seconds", "sim_cpu_seconds",
                            "router_cycles_per_second", "router_cycles_per_cpu_second", "router_traversals",
                            "ns_per_flit_hop", "peak_rss_kib"})
      EXPECT_TRUE(run.contains(key)) << key;
    // far below saturation the network accepts what is offered
    EXPECT_NEAR(run["accepted_rate"].get<double>(), 0.05, 0.01) << run["topology"];
    EXPECT_GT(run["peak_rss_kib"].get<double>(), 0.0);
  }
}

TEST(BenchCli, BadInputExits2NamingIt) {
  for (const auto& [args, names] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"bench", "--topology", "ring:8", "--repeat", "1"}, "topology"},
           {{"bench", "--repeat", "0"}, "--repeat"},
           {{"bench", "--injection-rate", "1.5"}, "--injection-rate"},
           {{"bench", "--measure-cycles", "0"}, "--measure-cycles"}}) {
    const CliRun r = run_collnet(args);
    EXPECT_EQ(r.status, 2) << names << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(names)) << names;
  }
}

// A collective point reports its fields, and its flit-hops are the
// closed form of A2AT on a 16x16 torus (every ordered pair once, minimal
// routes: 16 words times the sum of the torus distances, 256 x 2048).
TEST(BenchCli, CollectivePointReportsFlitHopsAndItsFields) {
  const fs::path json = scratch() / "bench_collectives.json";
  const CliRun r = run_collnet(
      {"bench", "--collectives", "--no-synthetic", "--point", "a2at-torus:16x16", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("a2at-torus:16x16"));
  const auto j = read_json(json);
  EXPECT_TRUE(j["runs"].empty());
  ASSERT_EQ(j["collective_runs"].size(), 1u);
  const auto& run = j["collective_runs"][0];
  for (const char* key : {"topology", "algorithm", "cycles", "sim_seconds", "sim_cpu_seconds", "flit_hops",
                          "ns_per_flit_hop", "peak_rss_kib", "run_seconds", "run_cpu_seconds", "router_evaluations",
                          "nic_evaluations"})
    EXPECT_TRUE(run.contains(key)) << key;
  EXPECT_EQ(run["topology"], "torus:16x16");
  EXPECT_EQ(run["algorithm"], "a2a-optimal");
  EXPECT_EQ(run["data_check"], "pass");
  EXPECT_EQ(run["flit_hops"].get<std::uint64_t>(), 256ull * 2048ull * 16ull);
  EXPECT_EQ(run["flits"].get<std::uint64_t>(), 256ull * 255ull * 16ull);
  EXPECT_GT(run["peak_rss_kib"].get<double>(), 0.0);
  // A router sends at most one flit on each of its 4 network output ports per
  // evaluation, and runs at most once per cycle.
  const auto evaluations = run["router_evaluations"].get<std::uint64_t>();
  EXPECT_GE(evaluations, 256ull * 2048ull * 16ull / 4ull);
  EXPECT_LE(evaluations, 256ull * run["cycles"].get<std::uint64_t>());
  // Every NIC sends to each of the 255 others and runs at most once per cycle.
  EXPECT_GE(run["nic_evaluations"].get<std::uint64_t>(), 256ull);
  EXPECT_LE(run["nic_evaluations"].get<std::uint64_t>(), 256ull * run["cycles"].get<std::uint64_t>());
}

TEST(BenchCli, UnknownCollectivePointExits2NamingIt) {
  const CliRun r = run_collnet({"bench", "--collectives", "--no-synthetic", "--point", "a2at-ring:7"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("--point"));
  EXPECT_THAT(r.err, HasSubstr("a2at-torus:32x32"));  // the accepted names
}
