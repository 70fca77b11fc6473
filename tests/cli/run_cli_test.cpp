// `collnet run`: the embedded default scenario, the JSON contract
// fields, --vcd, exit status 3 with the waiting cycle on a deadlock (and the
// run ends instead of hanging), and bad input (exit status 2 naming the key).
// Runs the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run.hpp"
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

namespace {

/// `collnet ARGS...` sent `signal` (INT or TERM) after `seconds` by
/// coreutils' timeout, whose status is then collnet's own.
CliRun run_interrupted(const std::string& signal, double seconds, const std::vector<std::string>& args) {
  const fs::path out = scratch() / "interrupted_stdout.txt";
  const fs::path err = scratch() / "interrupted_stderr.txt";
  std::string command = "timeout --preserve-status -k 60 -s " + signal + " " + std::to_string(seconds) + " " +
                        quoted(COLLNET_BINARY);
  for (const auto& a : args) command += " " + quoted(a);
  command += " >" + quoted(out.string()) + " 2>" + quoted(err.string());
  const int raw = std::system(command.c_str());
  CliRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace

// SIGINT ends a synthetic run after its current slice: one line on stderr
// naming the run and the cycle, the report and the JSON of the cycles so far
// (interrupted: true), a VCD that ends on a complete cycle with a save file
// zoomed on what was written, exit 130. The run would take hours otherwise.
TEST(RunCli, SigintEndsTheRunWithTheFiguresSoFar) {
  const fs::path json = scratch() / "interrupted.json";
  const fs::path vcd = scratch() / "interrupted.vcd";
  const CliRun r = run_interrupted(
      "INT", 2.0,
      {"run", "--set", "topology=mesh:3x3", "--set", "injection_rate=0.05", "--set", "warmup_cycles=0", "--set",
       "measure_cycles=100000000", "--json", json.string(), "--vcd", vcd.string()});
  ASSERT_EQ(r.status, 130) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("collnet run: interrupted by SIGINT: uniform traffic on mesh:3x3 at cycle "));
  EXPECT_THAT(r.out, HasSubstr("INTERRUPTED"));
  const auto j = read_json(json);
  EXPECT_EQ(j["interrupted"], true);
  EXPECT_EQ(j["saturated"], false);
  EXPECT_EQ(j["completed"], false);
  const auto cycles = j["cycles"].get<std::uint64_t>();
  EXPECT_GT(cycles, 0u);
  EXPECT_LT(cycles, 100000000u);
  EXPECT_THAT(r.err, HasSubstr("at cycle " + std::to_string(cycles)));
  EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 0u);  // the figures so far are real ones
  // The VCD ends with a whole line, at the time after the last cycle run.
  const std::string text = slurp(vcd);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const std::size_t last_time = text.rfind("\n#");
  ASSERT_NE(last_time, std::string::npos);
  EXPECT_EQ(text.find('\n', last_time + 1), text.size() - 1) << "the last line is the closing time stamp";
  // The save file fits its zoom to the cycles written (the line "*<zoom> -1 ...").
  EXPECT_THAT(slurp(vcd.string() + ".gtkw"), HasSubstr("\n*"));
}

// SIGTERM ends a collective run the same way, exit 143: the data check is
// not made (null), and the compare baselines not yet run are listed.
TEST(RunCli, SigtermEndsACollectiveRunWithoutADataCheck) {
  const fs::path json = scratch() / "terminated.json";
  const CliRun r = run_interrupted("TERM", 2.0,
                                   {"run", "--set", "topology=torus:12x12", "--set", "message_flits=256", "--set",
                                    "compare=a2a-spread", "--json", json.string()});
  ASSERT_EQ(r.status, 143) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("collnet run: interrupted by SIGTERM: a2a-optimal on torus:12x12 at cycle "));
  const auto j = read_json(json);
  EXPECT_EQ(j["interrupted"], true);
  EXPECT_TRUE(j["data_check"].is_null());
  EXPECT_EQ(j["max_cycles_reached"], false);
  EXPECT_TRUE(j["deadlock"].is_null());
  ASSERT_TRUE(j.contains("compare_not_run"));
  EXPECT_EQ(j["compare_not_run"], nlohmann::json::array({"a2a-spread"}));
  EXPECT_THAT(r.out, HasSubstr("data check        not made (interrupted at cycle"));
}

// Every packet of group-shift traffic leaves its group of 8 endpoints for the
// next group; with minimal routing a group's only way there is its one
// global cable to that group, 1 flit per cycle at most: 1/8 of a flit per
// node per cycle, far below 0.3 offered. The run cannot drain: it says it is
// saturated (text and JSON), and with no drain no latency is made up.
TEST(RunCli, SaturatedRunSaysSoAndReportsNoLatencyWithoutASample) {
  const std::string base =
      "run --set topology=dragonfly:p=2 --set routing=min --set vcs=3 --set traffic=group-shift "
      "--set injection_rate=0.3 --set warmup_cycles=500 --set measure_cycles=2000";
  const fs::path json = scratch() / "saturated.json";
  const CliRun r = run_words(base + " --set drain_cycles=2000 --json", {json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("SATURATED"));
  EXPECT_THAT(r.out, HasSubstr("(72 endpoints, 36 switches)"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("dateline")));
  const auto j = read_json(json);
  EXPECT_EQ(j["saturated"], true);
  EXPECT_EQ(j["completed"], false);
  EXPECT_EQ(j["switches"], 36);
  EXPECT_GT(j["unfinished_packets"].get<std::uint64_t>(), 0u);
  EXPECT_NEAR(j["offered_rate"].get<double>(), 0.3, 0.02);
  EXPECT_LE(j["accepted_rate"].get<double>(), 1.0 / 8.0);
  // Every packet created in the window is either measured or unfinished,
  // those still in their source queues included.
  const double created = j["offered_rate"].get<double>() * j["window_cycles"].get<double>() *
                         j["endpoints"].get<double>() / j["packet_flits"].get<double>();
  EXPECT_NEAR(j["measured_packets"].get<double>() + j["unfinished_packets"].get<double>(), created, 1e-6);

  // A source queue is FIFO and drains at most 1/8 flit per cycle: after a
  // 3000-cycle warm-up it holds at least (0.3 - 1/8) x 3000 = 525 flits, more
  // than the 250 it can send in the 2000-cycle window, so no packet created
  // in the window leaves its source before the run ends.
  const fs::path none = scratch() / "saturated_none.json";
  const CliRun n = run_words(
      "run --set topology=dragonfly:p=2 --set routing=min --set vcs=3 --set traffic=group-shift "
      "--set injection_rate=0.3 --set warmup_cycles=3000 --set measure_cycles=2000 --set drain_cycles=0 --json",
      {none.string()});
  ASSERT_EQ(n.status, 0) << n.out << n.err;
  const auto k = read_json(none);
  EXPECT_EQ(k["measured_packets"], 0);
  for (const char* field : {"avg_latency", "p50_latency", "p90_latency", "p99_latency", "p999_latency", "max_latency",
                            "latency_histogram"})
    EXPECT_TRUE(k[field].is_null()) << field;
  EXPECT_THAT(n.out, HasSubstr("latency           none measured"));
  EXPECT_THAT(n.out, ::testing::Not(HasSubstr("avg 0.00")));
  EXPECT_EQ(k["saturated"], true);
}

// latency_by source: one entry per source, whose packets add up to the
// measured packets and whose mean, weighted by packets, is the network's.
TEST(RunCli, LatencyBySourceAddsUpToTheNetworksLatency) {
  const fs::path json = scratch() / "by_source.json";
  const CliRun r = run_words(
      "run --set topology=mesh:4x4 --set injection_rate=0.2 --set measure_cycles=2000 --set latency_by=source --json",
      {json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("by source"));
  const auto j = read_json(json);
  ASSERT_EQ(j["latency_by_source"].size(), 16u);
  EXPECT_TRUE(j["latency_by_flow"].is_null());
  double packets = 0, weighted = 0;
  for (const auto& s : j["latency_by_source"]) {
    packets += s["packets"].get<double>();
    weighted += s["packets"].get<double>() * s["avg_latency"].get<double>();
  }
  EXPECT_EQ(packets, j["measured_packets"].get<double>());
  EXPECT_NEAR(weighted / packets, j["avg_latency"].get<double>(), 1e-6);

  const CliRun bad = run_words("run --set topology=mesh:4x4 --set latency_by=dest");
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("latency_by"));
}
