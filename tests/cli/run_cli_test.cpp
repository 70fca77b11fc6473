// `collnet run`: the embedded default scenario, the JSON contract
// fields, --vcd, exit status 3 with the waiting cycle on a deadlock (and the
// run ends instead of hanging), and bad input (exit status 2 naming the key).
// Runs the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbench/run.hpp"
#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

const char* const kRing =
    "run --set topology=torus:6 --set traffic=neighbour --set traffic_shift=4 --set route_direction=plus "
    "--set buffer_flits=8 --set packet_flits=4 --set arbitration=local-through --set injection_rate=1 "
    "--set packets_per_node=100 --set watchdog_cycles=300";

}  // namespace

TEST(RunCli, DefaultScenarioWritesTheContractFields) {
  const fs::path json = scratch() / "default.json";
  const CliRun r = run_words("run --set measure_cycles=2000 --json", {json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("torus:8x8"));
  const auto j = read_json(json);
  for (const char* key : {"cycles", "avg_latency", "p99_latency", "accepted_rate", "offered_rate",
                          "link_utilization", "sim_seconds", "router_cycles_per_second"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["topology"], "torus:8x8");
  EXPECT_EQ(j["traffic"], "uniform");
  EXPECT_EQ(j["link_utilization"]["per_link"].size(), 256u);
  EXPECT_NEAR(j["accepted_rate"].get<double>(), j["offered_rate"].get<double>(), 0.01);
  EXPECT_TRUE(j["deadlock"].is_null());
  EXPECT_GT(j["router_cycles_per_second"].get<double>(), 0.0);
}

TEST(RunCli, DeadlockExitsWithStatus3AndTheWaitingCycle) {
  const fs::path json = scratch() / "deadlock.json";
  const CliRun r = run_words(std::string(kRing) + " --set vcs=1 --set dateline=false --json", {json.string()});
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("DEADLOCK"));
  EXPECT_THAT(r.out, HasSubstr("waits for"));
  const auto j = read_json(json);
  ASSERT_TRUE(j["deadlock"].is_object());
  EXPECT_EQ(j["deadlock"]["waiting_cycle"].size(), 6u);

  const CliRun ok = run_words(std::string(kRing) + " --set vcs=2 --set dateline=true");
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
}

TEST(RunCli, VcdAndSaveFile) {
  const fs::path vcd = scratch() / "run.vcd";
  const CliRun r =
      run_words("run --set topology=mesh:3x3 --set measure_cycles=200 --set warmup_cycles=0 --vcd", {vcd.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::string text = slurp(vcd);
  EXPECT_THAT(text, HasSubstr("$enddefinitions $end"));
  EXPECT_THAT(text, HasSubstr("$scope module x_plus $end"));
  EXPECT_THAT(text, HasSubstr("$scope module y_minus $end"));
  EXPECT_THAT(slurp(vcd.string() + ".gtkw"), HasSubstr("[dumpfile] \"" + vcd.string() + "\""));
}

TEST(RunCli, BadInputExits2NamingTheKey) {
  struct Case {
    std::string set;
    std::string names;
  };
  for (const Case& c : std::vector<Case>{{"arbitration=fifo", "arbitration"},
                                         {"switching=store", "switching"},
                                         {"traffic=random", "traffic"},
                                         {"injection_rate=1.5", "key 'injection_rate': expected a number from 0 to 1, got '1.5'"},
                                         {"vcs=1", "vcs"},  // torus with dateline needs 2
                                         {"topology=mesh:5x5 --set traffic=bit-reverse", "traffic"},
                                         {"topology=mesh:4x4 --set route_direction=plus", "route"},
                                         {"topology=leafspine:p=6 --set route_direction=minus", "route_direction"},
                                         {"switching=vct --set buffer_flits=2", "buffer_flits"},
                                         {"router_delay=2 --set routing_delay=2", "routing_delay"},
                                         {"no_such_key=1", "no_such_key"}}) {
    const CliRun r = run_words("run --set measure_cycles=100 --set " + c.set);
    EXPECT_EQ(r.status, 2) << c.set << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.names)) << c.set;
  }
}

TEST(RunCli, EmbeddedSyntheticDefaultIsUniformOn8x8TorusAtModerateLoad) {
  // A synthetic-traffic key selects the synthetic default scenario.
  const collnet::Params p = collnet::cli::load_run_scenario("", {"traffic=uniform", "seed=3"});
  EXPECT_EQ(p.text("topology", ""), "torus:8x8");
  EXPECT_EQ(p.text("seed", ""), "3");
  const double rate = p.real("injection_rate", 0, 0, 1);
  EXPECT_GT(rate, 0.1);
  EXPECT_LT(rate, 0.4);  // below the 8x8 torus saturation (about 0.43 with the default router)
}
