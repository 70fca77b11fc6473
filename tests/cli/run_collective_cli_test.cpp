// `collnet run` for collectives: the embedded default runs A2AT
// next to A2A on an 8x8 torus and writes the contract fields; a YAML scenario
// with `algorithm` runs that collective; a deadlock exits 3; bad input exits 2
// naming the key; a traffic key still selects the synthetic default.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "testbench/run.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

// The default is README's "Without barriers: each group paced at its fair
// share" configuration (examples/a2at-torus-8x8.yaml): no barrier, group
// pacing by load, the self copy on a controller of its own (controllers =
// nct + 1 = 5), 1-flit packets, 16 VCs x 32 flits; here with short messages.
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
  EXPECT_EQ(j["controllers"], 5);       // nct 4 + one for the self copy
  EXPECT_EQ(j["dispatch"], "named");
  EXPECT_EQ(j["packet_flits"], 1);
  EXPECT_EQ(j["router"]["vcs"], 16);
  EXPECT_EQ(j["router"]["buffer_flits"], 32);
  EXPECT_EQ(j["router"]["vc_allocation"], "atomic");
  EXPECT_EQ(j["router"]["allocator"], "output-first");
  EXPECT_EQ(j["router"]["allocator_iterations"], 4);
  EXPECT_EQ(j["barriers"], 0);          // no barrier: the groups are paced instead
  EXPECT_EQ(j["scenario"]["group_pacing"], "load");
  EXPECT_EQ(j["scenario"]["self_copy"], "extra");
  EXPECT_EQ(j["scenario"]["group_barriers"], false);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["link_utilization"]["per_link"].size(), 256u);
  EXPECT_TRUE(j["link_utilization"].contains("bisection_mean"));
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(),
                   j["lower_bound_cycles"].get<double>() / j["cycles"].get<double>());
  // torus 8x8: the bisection bound is 64 messages x 8 flits (README: 16384 cycles at 256 flits).
  EXPECT_EQ(j["lower_bound_cycles"], 64 * 8);
  ASSERT_EQ(j["compare"].size(), 1u);
  EXPECT_EQ(j["compare"][0]["algorithm"], "a2a-spread");
  EXPECT_EQ(j["compare"][0]["data_check"], "pass");
  EXPECT_LT(j["cycles"].get<int>(), j["compare"][0]["cycles"].get<int>());
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
           {{"algorithm=a2a-optimal", "traffic=uniform"}, "traffic"},
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
  EXPECT_EQ(collective.text("controllers", ""), "5");  // nct 4 + the self copy's own (README, "Without barriers")
  EXPECT_EQ(collective.text("group_pacing", ""), "load");
  EXPECT_EQ(collective.text("group_barriers", ""), "false");
}
