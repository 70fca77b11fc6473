// Every scenario is checked completely before anything is built or
// simulated: the keys from the file and from --set, the
// compare list, and the --json / --vcd output files. All problems come in
// one message, each naming its key; exit status 2; nothing printed on
// stdout (no run report: nothing was simulated), within a second of CPU
// time. A key given twice in a YAML file names both lines. A scenario file
// and the same keys given with --set are the same run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "cli/run.hpp"

using ::testing::HasSubstr;
using ::testing::Not;
using namespace collnet::test;

namespace {

void expect_refused_before_running(const CliRun& r, const std::vector<std::string>& named) {
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "") << "a refused scenario must not run";
  for (const auto& n : named) EXPECT_THAT(r.err, HasSubstr(n));
  // The rule: "exit 2 within a second". CPU time, which a loaded machine
  // does not stretch; kLongRun alone simulates for minutes.
  EXPECT_LT(r.cpu_seconds, 1.0) << r.err;
}

// A scenario that once simulated a 32x32 torus for 217 s before a
// late refusal: each of its refusals must come before the run.
constexpr const char* kLongRun =
    "run --set topology=torus:32x32 --set message_flits=16 --set vcs=8 --set group_barriers=true";

}  // namespace

// The case that once simulated a 32x32 torus for 217 s before
// refusing `compare` (and named 'algorithm'): an unknown compare name is
// refused at once, naming `compare`; the empty value is "no comparison".
TEST(ScenarioValidationCli, UnknownCompareNameIsRefusedBeforeTheRun) {
  const CliRun r = run_words(std::string(kLongRun) + " --set compare=none");
  expect_refused_before_running(r, {"key 'compare'", "'none'", "a2a-spread", "empty for no comparison"});
  EXPECT_THAT(r.err, Not(HasSubstr("key 'algorithm'")));
}

TEST(ScenarioValidationCli, EmptyCompareRunsNoComparison) {
  const fs::path json = scratch() / "no_compare.json";
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "message_flits=2", "--set", "compare=",
                                "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["algorithm"], "a2a-optimal");
  EXPECT_FALSE(j.contains("compare"));
}

// A compared algorithm that cannot run the scenario is refused before the
// first algorithm runs.
TEST(ScenarioValidationCli, ComparedAlgorithmIsPlannedBeforeTheFirstRuns) {
  const CliRun r = run_words("run --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set compare=tree-bcast");
  expect_refused_before_running(r, {"tree-bcast", "key 'topology'"});
}

TEST(ScenarioValidationCli, UnwritableOutputFilesAreRefusedBeforeTheRun) {
  expect_refused_before_running(run_words(std::string(kLongRun) + " --json /no/such/dir/x.json"),
                                {"--json", "/no/such/dir"});
  expect_refused_before_running(run_words("run --json /no/such/dir/x.json"), {"--json", "/no/such/dir"});
  expect_refused_before_running(run_words("run --vcd /no/such/dir/x.vcd"), {"--vcd", "/no/such/dir"});
  expect_refused_before_running(run_collnet({"run", "--vcd", scratch().string()}), {"--vcd", "is a directory"});
  expect_refused_before_running(run_words("check --json /no/such/dir/x.json"), {"--json", "/no/such/dir"});
  expect_refused_before_running(run_words("bench --json /no/such/dir/x.json"), {"--json", "/no/such/dir"});
}

TEST(ScenarioValidationCli, KeyGivenTwiceInAFileNamesTheKeyAndBothLines) {
  const fs::path scenario = write_file("twice.yaml",
                                       "# a comment\n"
                                       "topology: torus:4x4\n"
                                       "message_flits: 2\n"
                                       "topology: mesh:4x4\n");
  expect_refused_before_running(run_collnet({"run", scenario.string()}), {"'topology'", "lines 2 and 4"});
  expect_refused_before_running(run_collnet({"check", scenario.string()}), {"'topology'", "lines 2 and 4"});
  const fs::path long_run = write_file("twice_long.yaml",
                                       "topology: torus:32x32\n"
                                       "message_flits: 16\n"
                                       "vcs: 8\n"
                                       "group_barriers: true\n"
                                       "vcs: 8\n");
  expect_refused_before_running(run_collnet({"run", long_run.string()}), {"'vcs'", "lines 3 and 5"});
}

TEST(ScenarioValidationCli, EveryProblemIsReportedAtOnceEachNamingItsKey) {
  const CliRun r = run_words(
      "run --set vcs=99 --set nct=9 --set compare=bogus --set buffer_flits=0 --set colour=red "
      "--set group_barriers=often --json /no/such/dir/x.json");
  expect_refused_before_running(r, {"7 problems", "key 'vcs'", "key 'nct'", "key 'compare'", "key 'buffer_flits'",
                                    "unknown key 'colour'", "key 'group_barriers'", "--json"});
}

// A file holding only `topology: torus:4x4` and `--set topology=torus:4x4`
// are the same scenario (README "collnet run": the keys given decide the
// run, wherever they come from): both run the default collective.
TEST(ScenarioValidationCli, FileAndSetAreTheSameRun) {
  const fs::path scenario = write_file("only_topology.yaml", "topology: torus:4x4\nmessage_flits: 2\n");
  const fs::path from_file = scratch() / "from_file.json";
  const fs::path from_set = scratch() / "from_set.json";
  const CliRun a = run_collnet({"run", scenario.string(), "--json", from_file.string()});
  const CliRun b = run_collnet(
      {"run", "--set", "topology=torus:4x4", "--set", "message_flits=2", "--json", from_set.string()});
  ASSERT_EQ(a.status, 0) << a.out << a.err;
  ASSERT_EQ(b.status, 0) << b.out << b.err;
  auto ja = read_json(from_file);
  auto jb = read_json(from_set);
  for (auto* j : {&ja, &jb}) {  // speed figures differ from run to run
    const auto timing = {"sim_seconds", "sim_cpu_seconds", "elaboration_seconds", "router_cycles_per_second"};
    for (const char* k : timing) j->erase(k);
    for (auto& c : (*j)["compare"])
      for (const char* k : timing) c.erase(k);
  }
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["algorithm"], "a2a-optimal");
  EXPECT_EQ(ja["compare"][0]["algorithm"], "a2a-spread");

  // The same for a synthetic-traffic key, from a file or from --set.
  const fs::path traffic = write_file("traffic.yaml", "injection_rate: 0.1\ntopology: mesh:4x4\n");
  EXPECT_EQ(collnet::cli::load_run_scenario(traffic.string(), {}).values(),
            collnet::cli::load_run_scenario("", {"injection_rate=0.1", "topology=mesh:4x4"}).values());
  EXPECT_EQ(collnet::cli::load_run_scenario(scenario.string(), {}).values(),
            collnet::cli::load_run_scenario("", {"topology=torus:4x4", "message_flits=2"}).values());
}
