// A run's JSON report holds its whole resolved scenario (field `scenario`:
// every key the run reads with the value it used, defaults included), and
// `collnet run --from REPORT.json` runs it again with the same figures;
// `--set` on top overrides. A bad --from file exits 2 naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "cli/scenario.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

/// The report without the figures that differ from run to run (speed).
nlohmann::json figures(nlohmann::json j) {
  const auto timing = {"sim_seconds", "sim_cpu_seconds", "elaboration_seconds", "router_cycles_per_second",
                       "router_cycles_per_cpu_second"};
  for (const char* k : timing) j.erase(k);
  if (j.contains("compare"))
    for (auto& c : j["compare"])
      for (const char* k : timing) c.erase(k);
  return j;
}

}  // namespace

TEST(RunScenarioField, ACollectiveRunRecordsEveryKeyItReadsWithDefaults) {
  const auto r = run_words_json(
      "run --set algorithm=a2a-optimal --set topology=torus:4x4 --set message_flits=4 --set compare=a2a-hopgroup "
      "--set vcs=4",
      "scenario_collective.json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& s = r.json["scenario"];
  ASSERT_TRUE(s.is_object());
  // Given, typed.
  EXPECT_EQ(s["algorithm"], "a2a-optimal");
  EXPECT_EQ(s["topology"], "torus:4x4");
  EXPECT_EQ(s["message_flits"], 4);
  EXPECT_EQ(s["vcs"], 4);
  EXPECT_EQ(s["compare"], "a2a-hopgroup");
  // Defaults, as `collnet list` declares them.
  EXPECT_EQ(s["buffer_flits"], 8);
  EXPECT_EQ(s["switching"], "wormhole");
  EXPECT_EQ(s["dateline"], true);
  EXPECT_EQ(s["packet_flits"], 4);
  EXPECT_EQ(s["barrier"], "ideal");
  EXPECT_EQ(s["link_error_rate"], 0.0);
  EXPECT_EQ(s["group_pacing"], "off");  // a2a-optimal's key
  EXPECT_EQ(s["pacing"], true);         // a2a-hopgroup's key (compared)
  // A default that depends on the scenario: null.
  EXPECT_TRUE(s["controllers"].is_null());
  EXPECT_TRUE(s["nct"].is_null());
  // Keys this run does not read are not there.
  for (const char* k : {"traffic", "injection_rate", "elements", "barriers", "logical_root"})
    EXPECT_FALSE(s.contains(k)) << k;
  // Every key is a declared one.
  for (const auto& [k, v] : s.items()) EXPECT_EQ(collnet::cli::key_scopes().count(k), 1u) << k;
}

TEST(RunScenarioField, ASyntheticRunRecordsTheTrafficKeys) {
  const auto r = run_words_json("run --set traffic=transpose --set topology=mesh:4x4 --set measure_cycles=300",
                                "scenario_synthetic.json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& s = r.json["scenario"];
  EXPECT_EQ(s["traffic"], "transpose");
  EXPECT_EQ(s["measure_cycles"], 300);
  EXPECT_EQ(s["injection_rate"], 0.3);  // the embedded synthetic default
  EXPECT_EQ(s["warmup_cycles"], 1000);
  EXPECT_EQ(s["vcs"], 2);
  for (const char* k : {"algorithm", "compare", "message_flits", "nct", "barrier", "link_error_rate"})
    EXPECT_FALSE(s.contains(k)) << k;
}

TEST(RunFrom, ReproducesACollectiveAndASyntheticRunAndSetOverrides) {
  for (const std::string sets :
       {"--set algorithm=a2a-optimal --set topology=torus:4x4 --set message_flits=4 --set compare=a2a-spread "
        "--set vcs=4 --set group_barriers=yes",
        "--set traffic=uniform --set topology=mesh:4x4 --set measure_cycles=500 --set injection_rate=0.2"}) {
    SCOPED_TRACE(sets);
    const auto first = run_words_json("run " + sets, "from_first.json");
    ASSERT_EQ(first.status, 0) << first.err;
    const fs::path saved = scratch() / "from_saved.json";
    std::ofstream(saved) << first.json.dump();
    const auto again = run_words_json("run --from " + saved.string(), "from_again.json");
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(figures(again.json), figures(first.json));
    EXPECT_EQ(again.out.substr(0, again.out.find('\n')), first.out.substr(0, first.out.find('\n')));
  }
  // --set on top of --from overrides.
  const auto base = run_words_json(
      "run --set algorithm=a2a-spread --set topology=torus:4x4 --set message_flits=4 --set compare=", "from_base.json");
  ASSERT_EQ(base.status, 0) << base.err;
  const fs::path saved = scratch() / "from_base_saved.json";
  std::ofstream(saved) << base.json.dump();
  const auto bigger = run_words_json("run --from " + saved.string() + " --set message_flits=8", "from_bigger.json");
  ASSERT_EQ(bigger.status, 0) << bigger.err;
  EXPECT_EQ(bigger.json["message_flits"], 8);
  EXPECT_EQ(bigger.json["scenario"]["message_flits"], 8);
  EXPECT_EQ(bigger.json["algorithm"], "a2a-spread");
  // Twice the message: twice the bound (the bound is messages x flits on the busiest link).
  EXPECT_EQ(bigger.json["lower_bound_cycles"].get<long>(), 2 * base.json["lower_bound_cycles"].get<long>());
}

TEST(RunFrom, ABadFileExitsTwoNamingIt) {
  const fs::path missing = scratch() / "no_such_report.json";
  auto refused = [](const CliRun& r, const std::vector<std::string>& named) {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    for (const auto& n : named) EXPECT_THAT(r.err, HasSubstr(n));
  };
  refused(run_collnet({"run", "--from", missing.string()}), {missing.string(), "does not exist"});
  const fs::path text = write_file("not_json.json", "topology: torus:4x4\n");
  refused(run_collnet({"run", "--from", text.string()}), {text.string(), "not a JSON document"});
  const fs::path no_scenario = write_file("no_scenario.json", "{\"cycles\": 12}\n");
  refused(run_collnet({"run", "--from", no_scenario.string()}), {no_scenario.string(), "no object 'scenario'"});
  const fs::path bad_key = write_file("bad_key.json", "{\"scenario\": {\"topology\": \"torus:4x4\", \"vsc\": 4}}\n");
  refused(run_collnet({"run", "--from", bad_key.string()}), {bad_key.string(), "unknown key 'vsc'"});
  const fs::path bad_value = write_file("bad_value.json", "{\"scenario\": {\"algorithm\": \"a2a-spread\", \"vcs\": 99}}\n");
  refused(run_collnet({"run", "--from", bad_value.string()}), {"key 'vcs'"});
  refused(run_collnet({"run", "--from", scratch().string()}), {scratch().string(), "is a directory"});
  const fs::path file = write_file("also_file.yaml", "topology: torus:4x4\n");
  refused(run_collnet({"run", file.string(), "--from", bad_key.string()}), {"give one"});
}

TEST(CheckScenarioField, CheckRecordsTheKeysItReads) {
  const auto r = run_words_json("check --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set message_flits=4",
                                "check_scenario.json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& s = r.json["scenario"];
  EXPECT_EQ(s["algorithm"], "a2a-hopgroup");
  EXPECT_EQ(s["message_flits"], 4);
  EXPECT_EQ(s["pacing"], true);
  EXPECT_FALSE(s.contains("vcs"));  // check runs no network
  EXPECT_FALSE(s.contains("nct"));  // not a2a-hopgroup's
  // And `check --from` reads it back: the same report.
  const fs::path saved = scratch() / "check_saved.json";
  std::ofstream(saved) << r.json.dump();
  const auto again = run_words_json("check --from " + saved.string(), "check_again.json");
  ASSERT_EQ(again.status, 0) << again.err;
  auto a = r.json;
  auto b = again.json;
  a.erase("check_seconds");
  b.erase("check_seconds");
  EXPECT_EQ(a, b);
}
