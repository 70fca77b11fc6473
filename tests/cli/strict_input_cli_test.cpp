// Strict input: a key the run does not read is refused naming what it
// applies to; scenario paths that are not a readable, non-empty file are
// refused naming them; each problem is reported once, near misses with
// "did you mean"; one set of boolean spellings everywhere; a run stopped by
// max_cycles says so first; `collnet` alone prints its usage, `--version`
// the version. Every refusal exits 2 before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "cli_runner.hpp"
#include "collectives/input_text.hpp"
#include "cli/run.hpp"
#include "cli/scenario.hpp"
#include "cli/sweep.hpp"

using ::testing::HasSubstr;
using ::testing::Not;
using namespace collnet::test;

namespace {

void expect_refused(const CliRun& r, const std::vector<std::string>& named) {
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "") << "a refused scenario must not run";
  for (const auto& n : named) EXPECT_THAT(r.err, HasSubstr(n));
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

// --- a key the run does not read ------------------------------------------

TEST(KeyApplicability, AnotherAlgorithmsKeyIsRefusedNamingWhatItAppliesTo) {
  // nct is declared by a2a-optimal, a2a-spread and a2a-nd, not by a2a-hopgroup.
  const CliRun r = run_words("run --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set nct=3");
  expect_refused(r, {"key 'nct' applies to algorithms a2a-optimal", "this run's algorithm is a2a-hopgroup"});
  expect_refused(run_words("check --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set nct=3"),
                 {"key 'nct' applies to algorithms a2a-optimal", "a2a-hopgroup"});
}

TEST(KeyApplicability, CollectiveKeysAreRefusedInASyntheticRun) {
  expect_refused(run_words("run --set traffic=uniform --set topology=mesh:4x4 --set group_barriers=true"),
                 {"key 'group_barriers' applies to algorithms", "this run is synthetic traffic"});
  expect_refused(run_words("run --set traffic=uniform --set topology=mesh:4x4 --set elements=64"),
                 {"key 'elements' applies to algorithms", "synthetic traffic"});
  expect_refused(run_words("run --set injection_rate=0.1 --set topology=mesh:4x4 --set barrier_latency=5"),
                 {"key 'barrier_latency' applies to collective runs", "synthetic traffic"});
  // And the other way round: a synthetic run's window is no collective's,
  // and the background's load goes with 'traffic' (background traffic).
  expect_refused(run_words("run --set algorithm=a2a-spread --set topology=torus:4x4 --set measure_cycles=100"),
                 {"key 'measure_cycles' belongs to synthetic-traffic runs", "runs for the collective's cycles"});
  expect_refused(run_words("run --set algorithm=a2a-spread --set topology=torus:4x4 --set injection_rate=0.1"),
                 {"key 'injection_rate' sets background traffic, which key 'traffic' turns on"});
}

// A key applies when it applies to the algorithm or to one in `compare`.
TEST(KeyApplicability, AKeyOfACompareAlgorithmIsAccepted) {
  const std::string base = "run --set algorithm=a2a-spread --set topology=torus:4x4 --set message_flits=4 ";
  expect_refused(run_words(base + "--set group_pacing=load"),
                 {"key 'group_pacing' applies to algorithm a2a-optimal", "this run's algorithm is a2a-spread"});
  const CliRun with_compare = run_words(base + "--set group_pacing=load --set compare=a2a-optimal");
  EXPECT_EQ(with_compare.status, 0) << with_compare.err;
}

// The model's keys stay accepted by `collnet check`, which does not read
// them (a run's scenario file may be checked); synthetic-traffic keys do not.
TEST(KeyApplicability, CheckToleratesModelKeysButNotTrafficKeys) {
  EXPECT_EQ(run_words("check --set topology=torus:4x4 --set vcs=8 --set compare=a2a-spread").status, 0);
  expect_refused(run_words("check --set topology=torus:4x4 --set traffic=uniform"),
                 {"key 'traffic' applies to synthetic-traffic runs"});
}

// Every shipped scenario, sweep file and golden scenario still loads.
TEST(KeyApplicability, EveryExampleSweepAndGoldenScenarioLoads) {
  const fs::path examples = fs::path(COLLNET_SOURCE_DIR) / "examples";
  int files = 0;
  for (const auto& e : fs::directory_iterator(examples)) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    std::vector<std::string> problems;
    const auto params = collnet::cli::load_run_scenario(e.path().string(), {}, problems);
    for (auto& p : collnet::cli::run_problems(params)) problems.push_back(p);
    EXPECT_TRUE(problems.empty()) << e.path() << ": " << ::testing::PrintToString(problems);
  }
  EXPECT_GE(files, 7);
  int sweeps = 0;
  for (const auto& e : fs::directory_iterator(examples / "sweeps")) {
    ++sweeps;
    const auto sweep = collnet::cli::load_sweep(e.path().string());
    for (const auto& p : sweep.points) {
      const auto problems = collnet::cli::run_problems(collnet::cli::complete_run_scenario(p.scenario));
      EXPECT_TRUE(problems.empty()) << e.path() << " point " << p.index + 1 << ": "
                                    << ::testing::PrintToString(problems);
    }
  }
  EXPECT_GE(sweeps, 5);
  std::ifstream golden(fs::path(COLLNET_SOURCE_DIR) / "tests" / "golden" / "scenarios.txt");
  int scenarios = 0;
  for (std::string line; std::getline(golden, line);) {
    if (line.empty() || line[0] == '#' || line.find(':') == std::string::npos) continue;
    ++scenarios;
    std::vector<std::string> sets;
    const auto w = words(line.substr(line.find(':') + 1));
    for (std::size_t i = 0; i + 1 < w.size(); i += 2) {
      ASSERT_EQ(w[i], "--set") << line;
      std::string set = w[i + 1];
      // "{source}" stands for the source tree, as in golden_figures_test.cpp.
      for (std::size_t at = set.find("{source}"); at != std::string::npos; at = set.find("{source}"))
        set.replace(at, 8, COLLNET_SOURCE_DIR);
      sets.push_back(set);
    }
    std::vector<std::string> problems;
    const auto params = collnet::cli::load_run_scenario("", sets, problems);
    for (auto& p : collnet::cli::run_problems(params)) problems.push_back(p);
    EXPECT_TRUE(problems.empty()) << line << ": " << ::testing::PrintToString(problems);
  }
  EXPECT_GE(scenarios, 40);
}

// --- scenario paths ----------------------------------------------------------

TEST(ScenarioPath, EmptyMissingDirectoryAndDeviceAreRefusedNamingThePath) {
  const fs::path empty = write_file("empty.yaml", "");
  const fs::path comments = write_file("comments.yaml", "# only a comment\n\n");
  for (const auto& sub : {"run", "check"}) {
    SCOPED_TRACE(sub);
    expect_refused(run_collnet({sub, empty.string()}), {empty.string(), "is empty"});
    expect_refused(run_collnet({sub, comments.string()}), {comments.string(), "is empty"});
    expect_refused(run_collnet({sub, (scratch() / "nope.yaml").string()}), {"nope.yaml", "does not exist"});
    expect_refused(run_collnet({sub, scratch().string()}), {scratch().string(), "is a directory"});
    expect_refused(run_collnet({sub, "/dev/null"}), {"/dev/null", "not a regular file"});
  }
  const CliRun dir = run_collnet({"run", scratch().string()});
  EXPECT_THAT(dir.err, Not(HasSubstr("internal error")));
  // A sweep file likewise.
  expect_refused(run_collnet({"sweep", scratch().string(), "--dry-run"}), {"sweep file", "is a directory"});
}

// --- reported once, near misses ---------------------------------------------

TEST(Messages, AMisspelledAlgorithmIsReportedOnceWithTheNearestName) {
  const CliRun r = run_words("run --set algorithm=a2a-optimall --set topology=torus:4x4");
  expect_refused(r, {"did you mean 'a2a-optimal'?"});
  EXPECT_EQ(count(r.err, "key 'algorithm'"), 1u) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("problems in the scenario"))) << r.err;
  const CliRun c = run_words("check --set algorithm=a2a-optimall");
  expect_refused(c, {"did you mean 'a2a-optimal'?"});
  EXPECT_EQ(count(c.err, "key 'algorithm'"), 1u) << c.err;
}

TEST(Messages, NearMissesOfKeysValuesTopologiesAndCompareNames) {
  expect_refused(run_words("run --set vsc=8"), {"unknown key 'vsc'", "did you mean 'vcs'?"});
  expect_refused(run_words("run --set topology=torus:4x4 --set switching=wormhol"),
                 {"key 'switching'", "did you mean 'wormhole'?"});
  expect_refused(run_words("run --set topology=tours:4x4"), {"key 'topology'", "did you mean 'torus:4x4'?"});
  expect_refused(run_words("run --set topology=torus:4x4 --set compare=a2a-sprad"),
                 {"key 'compare'", "did you mean 'a2a-spread' for 'a2a-sprad'?"});
  expect_refused(run_words("run --set topology=torus:4x4 --set group_barriers=ture"),
                 {"key 'group_barriers'", "did you mean 'true'?"});
  // Far from every key: no guess.
  const CliRun far = run_words("run --set colour=red");
  expect_refused(far, {"unknown key 'colour'"});
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
  // A file's key too.
  const fs::path f = write_file("near_miss.yaml", "topology: torus:4x4\nmesage_flits: 4\n");
  expect_refused(run_collnet({"run", f.string()}), {"line 2", "did you mean 'message_flits'?"});
}

TEST(Messages, EditDistanceCountsASwapOfNeighboursAsOne) {
  EXPECT_EQ(collnet::edit_distance("vcs", "vsc"), 1u);
  EXPECT_EQ(collnet::edit_distance("torus", "tours"), 1u);
  EXPECT_EQ(collnet::edit_distance("abc", "abc"), 0u);
  EXPECT_EQ(collnet::edit_distance("", "abc"), 3u);
  EXPECT_EQ(collnet::edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(collnet::nearest("nct", {"vcs", "seed"}), "");  // 2 edits on 3 letters: no near miss
  EXPECT_EQ(collnet::nearest("nctt", {"vcs", "nct"}), "nct");
}

// --- booleans -----------------------------------------------------------------

TEST(Booleans, OneSetOfSpellingsInAnyCaseEverywhere) {
  for (const std::string yes : {"true", "True", "TRUE", "yes", "Yes", "on", "ON", "1"})
    EXPECT_EQ(collnet::parse_boolean(yes), std::optional<bool>(true)) << yes;
  for (const std::string no : {"false", "False", "FALSE", "no", "NO", "off", "Off", "0"})
    EXPECT_EQ(collnet::parse_boolean(no), std::optional<bool>(false)) << no;
  for (const std::string bad : {"ture", "2", "", "y", "nope"}) EXPECT_FALSE(collnet::parse_boolean(bad)) << bad;

  // --set and a scenario file: True and true are the same run (a barrier after every group of sends).
  const std::string base = "run --set algorithm=a2a-spread --set topology=torus:4x4 --set message_flits=2 ";
  const auto lower = run_words_json(base + "--set group_barriers=true", "bool_lower.json");
  const auto upper = run_words_json(base + "--set group_barriers=True", "bool_upper.json");
  const auto off = run_words_json(base + "--set group_barriers=OFF", "bool_off.json");
  ASSERT_EQ(lower.status, 0) << lower.err;
  ASSERT_EQ(upper.status, 0) << upper.err;
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_GT(lower.json["barriers"].get<int>(), 0);
  EXPECT_EQ(upper.json["barriers"], lower.json["barriers"]);
  EXPECT_EQ(upper.json["cycles"], lower.json["cycles"]);
  EXPECT_EQ(off.json["barriers"], 0);
  const fs::path file = write_file("bool.yaml", "algorithm: a2a-spread\ntopology: torus:4x4\nmessage_flits: 2\n"
                                                "group_barriers: TRUE\n");
  const fs::path from_file = scratch() / "bool_file.json";
  ASSERT_EQ(run_collnet({"run", file.string(), "--json", from_file.string()}).status, 0);
  EXPECT_EQ(read_json(from_file)["barriers"], lower.json["barriers"]);
  // The refusal names the accepted spellings.
  expect_refused(run_words(base + "--set group_barriers=maybe"), {"key 'group_barriers'", "yes/no, on/off"});

  // A sweep axis and the sweep file's zip take the same spellings.
  const auto sweep = collnet::cli::parse_sweep_text(
      "base: {algorithm: a2a-spread, topology: 'torus:4x4'}\nzip: Yes\n"
      "axes:\n  group_barriers: [True, off]\n  message_flits: [2, 4]\n",
      "test");
  EXPECT_TRUE(sweep.zip);
  ASSERT_EQ(sweep.points.size(), 2u);
  for (const auto& p : sweep.points) EXPECT_TRUE(collnet::cli::point_problems(p.scenario).empty()) << p.canonical;
}

// --- a sweep with one bad value ------------------------------------------------

TEST(SweepRefusal, CountsAndListsOnlyTheBadPointsOnceEach) {
  const auto sweep = write_file("one_bad/sweep.yaml",
                                "base: {topology: 'torus:4x4', algorithm: a2a-optimal}\n"
                                "axes:\n  message_flits: [4, 8]\n  vcs: [2, 99]\n");
  const auto r = run_collnet({"sweep", sweep.string(), "--dry-run"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("2 of 4 points refused"));
  EXPECT_EQ(count(r.err, "point 2 "), 1u) << r.err;
  EXPECT_EQ(count(r.err, "point 4 "), 1u) << r.err;
  EXPECT_EQ(count(r.err, "point 1 "), 0u) << r.err;
  EXPECT_EQ(count(r.err, "point 3 "), 0u) << r.err;
  EXPECT_EQ(count(r.err, "key 'vcs'"), 2u) << r.err;  // once per bad point
  // A near miss of an axis key.
  const auto near = write_file("near_axis/sweep.yaml", "base: {topology: 'torus:4x4'}\naxes:\n  vsc: [2, 4]\n");
  expect_refused(run_collnet({"sweep", near.string(), "--dry-run"}), {"axis 'vsc'", "did you mean 'vcs'?"});
}

// --- max_cycles ----------------------------------------------------------------

TEST(MaxCycles, ReachingItSaysSoFirstWithoutADeadlockClaimOrADataDump) {
  const auto r = run_words_json(
      "run --set algorithm=a2a-optimal --set topology=torus:4x4 --set message_flits=16 --set max_cycles=50 "
      "--set compare=",
      "max_cycles.json");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  const std::string first_line = r.out.substr(0, r.out.find('\n'));
  EXPECT_THAT(first_line, HasSubstr("max_cycles = 50"));
  EXPECT_THAT(first_line, HasSubstr("a2a-optimal"));
  EXPECT_THAT(r.out, Not(HasSubstr("DEADLOCK")));
  EXPECT_THAT(r.out, Not(HasSubstr("FAIL")));
  EXPECT_THAT(r.out, Not(::testing::ContainsRegex("0x[0-9a-f]{8}")));
  EXPECT_TRUE(r.json["max_cycles_reached"].get<bool>());
  EXPECT_TRUE(r.json["deadlock"].is_null());
  EXPECT_FALSE(r.json["completed"].get<bool>());
  // A run that finishes does not reach it.
  const auto done = run_words_json(
      "run --set algorithm=a2a-optimal --set topology=torus:4x4 --set message_flits=2 --set compare=", "done.json");
  ASSERT_EQ(done.status, 0) << done.err;
  EXPECT_FALSE(done.json["max_cycles_reached"].get<bool>());
}

// A network that stops keeps the watchdog's report and exit 3. Behind a
// failed link the blocked VCs wait for the link, not for each other: a stall
// (every blocked VC listed, the link named), not a deadlock, which needs a
// waiting cycle among the buffers.
TEST(MaxCycles, ARealStallIsStillReportedAsOne) {
  const CliRun r = run_words(
      "run --set algorithm=a2a-optimal --set topology=torus:4x4 --set compare= --set link_down=r5:y+->r9@10");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("STALLED"));
  EXPECT_THAT(r.out, HasSubstr("no waiting cycle among router buffers"));
  EXPECT_THAT(r.out, HasSubstr("LINK DOWN         r5:y+->r9"));
  EXPECT_THAT(r.out, Not(HasSubstr("DEADLOCK")));
  EXPECT_THAT(r.out, Not(HasSubstr("max_cycles =")));
}

// --- usage and version -----------------------------------------------------------

TEST(Usage, CollnetAlonePrintsUsageAndVersionTheProjectVersion) {
  const CliRun r = run_collnet({});
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* sub : {"check", "list", "run", "bench", "sweep", "saturation", "plot", "--version"})
    EXPECT_THAT(r.out, HasSubstr(sub));
  EXPECT_THAT(r.out, Not(HasSubstr("collnet check:")));  // nothing ran
  // The version is the one CMakeLists.txt declares (project(collnet VERSION ...)).
  const std::string cmake = slurp(fs::path(COLLNET_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(cmake, m, std::regex("project\\(collnet VERSION ([0-9.]+)")));
  const CliRun v = run_collnet({"--version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, "collnet " + m[1].str() + "\n");
}
