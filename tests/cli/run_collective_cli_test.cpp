// `collnet run` for collectives: the embedded default runs A2AT
// next to A2A on an 8x8 torus and writes the contract fields; a YAML scenario
// with `algorithm` runs that collective; a deadlock exits 3; bad input exits 2
// naming the key; a traffic key still selects the synthetic default.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "cli/run.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

// The default is A2AT next to A2A with every other key at its default: the
// same scenario as `--set algorithm=a2a-optimal` (the default algorithm
// named) and as `collnet check` with no keys.
TEST(RunCollectiveCli, DefaultScenarioComparesA2atWithA2a) {
  const fs::path json = scratch() / "collective_default.json";
  const CliRun r = run_collnet({"run", "--set", "message_flits=8", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("a2a-optimal on torus:8x8"));
  EXPECT_THAT(r.out, HasSubstr("a2a-spread"));
  const auto j = read_json(json);
  for (const char* key : {"cycles", "lower_bound_cycles", "efficiency", "data_check", "barriers", "max_queue_flits",
                          "link_utilization", "arbitration_conflicts", "sim_seconds", "router_cycles_per_second"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["algorithm"], "a2a-optimal");
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["link_utilization"]["per_link"].size(), 256u);
  EXPECT_EQ(j["link_utilization"]["bisection_links"], 32u);  // the 8x8 torus's cut: 2 x 8 links each way, both wraps
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(),
                   j["lower_bound_cycles"].get<double>() / j["cycles"].get<double>());
  // torus 8x8: the bisection bound is 64 messages x 8 flits (README: 16384 cycles at 256 flits).
  EXPECT_EQ(j["lower_bound_cycles"], 64 * 8);
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["compare"][0]["algorithm"], "a2a-spread");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");

  // Naming the default algorithm runs the same scenario (without the baseline).
  const fs::path named_json = scratch() / "collective_default_named.json";
  const CliRun named =
      run_collnet({"run", "--set", "algorithm=a2a-optimal", "--set", "message_flits=8", "--json", named_json.string()});
  ASSERT_EQ(named.status, 0) << named.out << named.err;
  auto named_j = read_json(named_json);
  auto scenario = j["scenario"];
  EXPECT_EQ(scenario["compare"], "a2a-spread");
  scenario.erase("compare");
  named_j["scenario"].erase("compare");
  EXPECT_EQ(scenario, named_j["scenario"]);
  EXPECT_EQ(j["cycles"], named_j["cycles"]);
  EXPECT_FALSE(named_j.contains("compare"));

  // `collnet check` with no keys checks that scenario: every key both report
  // has the same value.
  const fs::path check_json = scratch() / "collective_default_check.json";
  const CliRun check = run_collnet({"check", "--set", "message_flits=8", "--json", check_json.string()});
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  const auto check_j = read_json(check_json);
  ASSERT_TRUE(check_j.contains("scenario"));
  int common = 0;
  for (const auto& [key, value] : check_j["scenario"].items())
    if (scenario.contains(key)) {
      EXPECT_EQ(value, scenario[key]) << key;
      ++common;
    }
  EXPECT_GE(common, 3);  // topology, algorithm, message_flits at least
}

TEST(RunCollectiveCli, YamlScenarioRunsTheNamedCollective) {
  const fs::path scenario = write_file("hopgroup.yaml",
                                       "topology: torus:4x4\nalgorithm: a2a-hopgroup\nmessage_flits: 4\n"
                                       "barrier: recursive-doubling\n");
  const fs::path json = scratch() / "hopgroup.json";
  const CliRun r = run_collnet({"run", scenario.string(), "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["algorithm"], "a2a-hopgroup");
  EXPECT_EQ(j["barriers"], 5);  // NX + NY - 3
  EXPECT_EQ(j["barrier"]["kind"], "recursive-doubling");
  EXPECT_FALSE(j.contains("compare"));
}

// The `router` object reports every router key as the run used it, for
// collective and synthetic runs alike.
TEST(RunCollectiveCli, RouterObjectReportsTheKeysAsSet) {
  const std::vector<std::string> sets = {"--set", "vcs=4", "--set", "buffer_flits=6", "--set", "switching=vct",
                                         "--set", "allocator=output-first", "--set", "allocator_iterations=3",
                                         "--set", "vc_allocation=atomic", "--set", "age_width=12", "--set",
                                         "router_delay=3", "--set", "routing_delay=1", "--set", "topology=torus:4x4"};
  for (const std::string kind : {"algorithm=a2a-spread", "traffic=uniform"}) {
    const fs::path json = scratch() / "router_object.json";
    std::vector<std::string> args = {"run", "--set", kind, "--set", "message_flits=4", "--json", json.string()};
    if (kind.starts_with("traffic")) args[4] = "measure_cycles=200";
    args.insert(args.end(), sets.begin(), sets.end());
    const CliRun r = run_collnet(args);
    ASSERT_EQ(r.status, 0) << kind << r.out << r.err;
    const auto router = read_json(json)["router"];
    EXPECT_EQ(router["vcs"], 4) << kind;
    EXPECT_EQ(router["buffer_flits"], 6) << kind;
    EXPECT_EQ(router["switching"], "vct") << kind;
    EXPECT_EQ(router["allocator"], "output-first") << kind;
    EXPECT_EQ(router["allocator_iterations"], 3) << kind;
    EXPECT_EQ(router["vc_allocation"], "atomic") << kind;
    EXPECT_EQ(router["age_width"], 12) << kind;
    EXPECT_EQ(router["router_delay"], 3) << kind;
    EXPECT_EQ(router["routing_delay"], 1) << kind;
    // the rest of router_delay: allocation (default 1) then traversal
    EXPECT_EQ(router["allocation_delay"], 1) << kind;
    EXPECT_EQ(router["traversal_delay"], 1) << kind;
    EXPECT_EQ(router["dateline"], true) << kind;
  }
}

TEST(RunCollectiveCli, DeadlockExits3) {
  const CliRun r = run_collnet({"run", "--set", "topology=torus:6", "--set", "algorithm=a2a-hopgroup-direct", "--set",
                                "barriers=false", "--set", "pacing=false", "--set", "arbitration=local-through",
                                "--set", "buffer_flits=2", "--set", "message_flits=64", "--set", "vcs=1", "--set",
                                "dateline=false", "--set", "watchdog_cycles=300"});
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("DEADLOCK"));
  EXPECT_THAT(r.out, HasSubstr("waits for"));
}

TEST(RunCollectiveCli, BadInputExits2NamingTheKey) {
  for (const auto& [sets, key] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"controllers=12"}, "controllers"},
           {{"barrier=star"}, "barrier"},
           {{"algorithm=a2a-optimal", "injection_rate=0.2"}, "injection_rate"},
           {{"algorithm=a2a-optimal", "traffic=sideways"}, "traffic"},  // background traffic of no pattern
           {{"algorithm=a2a-hopgroup", "topology=torus:4x4x4", "controllers=1", "dispatch=named"}, "controllers"},
           {{"group_barriers=often"}, "group_barriers"},
           {{"algorithm=twotree-hier", "topology=leafspine:p=6", "phase_barriers=often"}, "phase_barriers"},
           {{"algorithm=twotree-flat", "topology=leafspine:p=6", "phase_barriers=true", "nic_blocks=rtl"},
            "phase_barriers"},
           {{"algorithm=twotree-hier", "topology=leafspine:p=6", "stage_pipelining=often"}, "stage_pipelining"},
           {{"algorithm=twotree-hier", "topology=leafspine:p=6", "stage_pipelining=true", "schedule_engine=hls"},
            "stage_pipelining"},
           {{"algorithm=twotree-flat", "topology=leafspine:p=6", "stage_pipelining=true", "nic_blocks=rtl"},
            "stage_pipelining"},
           {{"algorithm=hd-allreduce", "topology=boards:2x1x1x1", "plane_order=rotated", "schedule_engine=hls"},
            "plane_order"},
           {{"algorithm=hd-allreduce", "topology=boards:2x1x1x1", "plane_order=diagonal"}, "plane_order"},
           {{"algorithm=hd-allreduce", "topology=boards:2x1x1x1", "link_controllers=per-link", "controllers=4"},
            "controllers"},
           {{"algorithm=hd-allreduce", "topology=boards:2x1x1x1", "reduce_words_per_cycle=0"},
            "reduce_words_per_cycle"}}) {
    std::vector<std::string> args{"run", "--set", "message_flits=2"};
    for (const auto& s : sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    const CliRun r = run_collnet(args);
    EXPECT_EQ(r.status, 2) << key << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("'" + key + "'")) << key;
  }
}

TEST(RunCollectiveCli, TrafficKeySelectsTheSyntheticDefault) {
  const collnet::Params synthetic = collnet::cli::load_run_scenario("", {"injection_rate=0.1"});
  EXPECT_EQ(synthetic.text("traffic", ""), "uniform");
  EXPECT_FALSE(synthetic.has("algorithm"));
  const collnet::Params collective = collnet::cli::load_run_scenario("", {});
  EXPECT_EQ(collective.text("algorithm", ""), "a2a-optimal");
  EXPECT_EQ(collective.text("compare", ""), "a2a-spread");
  EXPECT_EQ(collective.text("topology", ""), "torus:8x8");
  // Every other key is left at its default (the scenario `collnet check` checks).
  EXPECT_EQ(collective.values().size(), 3u);
}
