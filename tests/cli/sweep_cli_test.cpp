// collnet sweep: sweep expansion, validation of every point
// before anything runs, failing points recorded, the JSONL fields and resume
// after a killed sweep (collnet plot: plot_cli_test.cpp).
#include <gtest/gtest.h>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "cli/sweep.hpp"
#include "cli/sweep_runner.hpp"
#include "tests/cli/cli_runner.hpp"
#include "tests/support/error_message.hpp"

namespace collnet::test {
namespace {

using cli::parse_sweep_text;

std::vector<nlohmann::json> read_lines(const fs::path& p) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(slurp(p));
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(nlohmann::json::parse(l));
  return lines;
}

std::string problem_of(const std::string& yaml) {
  return error_message<ConfigError>([&] { parse_sweep_text(yaml, "test"); });
}

/// The value of scenario key `key` at every point, in order ("(unset)"
/// where a point's scenario lacks it).
std::vector<std::string> column(const cli::Sweep& s, const std::string& key) {
  std::vector<std::string> v;
  for (const auto& p : s.points) v.push_back(p.scenario.has(key) ? p.scenario.text(key, "") : "(unset)");
  return v;
}
using Column = std::vector<std::string>;

TEST(SweepExpansion, ProductVariesTheLastAxisFastest) {
  const auto s = parse_sweep_text(
      "base: {topology: torus:4x4, algorithm: a2a-optimal}\n"
      "axes:\n  message_flits: [16, 64]\n  nct: [1, 2, 4]\n",
      "test");
  ASSERT_EQ(s.points.size(), 6U);  // 2 x 3
  const std::vector<std::pair<int, int>> expect{{16, 1}, {16, 2}, {16, 4}, {64, 1}, {64, 2}, {64, 4}};
  std::set<std::string> hashes;
  for (std::size_t i = 0; i < expect.size(); ++i) {
    EXPECT_EQ(s.points[i].keys["message_flits"], expect[i].first);
    EXPECT_EQ(s.points[i].keys["nct"], expect[i].second);
    EXPECT_EQ(s.points[i].scenario.text("message_flits", ""), std::to_string(expect[i].first));
    EXPECT_EQ(s.points[i].scenario.text("topology", ""), "torus:4x4");  // base kept
    hashes.insert(s.points[i].hash);
  }
  EXPECT_EQ(hashes.size(), 6U);
}

TEST(SweepExpansion, ZipPairsTheAxes) {
  const auto s = parse_sweep_text(
      "base: {algorithm: a2a-optimal}\nzip: true\n"
      "axes:\n  topology: [torus:4x4, mesh:4x4, torus:8x8]\n  nct: [4, 2, 4]\n",
      "test");
  EXPECT_EQ(column(s, "topology"), (Column{"torus:4x4", "mesh:4x4", "torus:8x8"}));
  EXPECT_EQ(column(s, "nct"), (Column{"4", "2", "4"}));
  EXPECT_NE(problem_of("zip: true\naxes:\n  topology: [torus:4x4, mesh:4x4]\n  nct: [1, 2, 4]\n").find(
                "axis 'nct' has 3 values"),
            std::string::npos);
}

TEST(SweepExpansion, RangesLinearAndGeometricWithoutBinaryNoise) {
  const auto s = parse_sweep_text(
      "base: {traffic: uniform}\naxes:\n  injection_rate: {from: 0.05, to: 0.5, step: 0.05}\n", "test");
  ASSERT_EQ(s.points.size(), 10U);  // 0.05, 0.10, ..., 0.50: (0.5 - 0.05) / 0.05 + 1
  EXPECT_EQ(s.points[2].scenario.text("injection_rate", ""), "0.15");
  EXPECT_EQ(s.points[9].scenario.text("injection_rate", ""), "0.5");
  EXPECT_DOUBLE_EQ(s.points[2].keys["injection_rate"].get<double>(), 0.15);
  const auto g = parse_sweep_text("axes:\n  message_flits: {from: 16, to: 1024, factor: 4}\n", "test");
  ASSERT_EQ(g.points.size(), 4U);  // 16, 64, 256, 1024
  EXPECT_EQ(g.points[3].scenario.text("message_flits", ""), "1024");
  EXPECT_EQ(g.points[3].keys["message_flits"], 1024);
}

TEST(SweepExpansion, GroupAxisSetsSeveralKeys) {
  const auto s = parse_sweep_text(
      "base: {topology: torus:8x8}\naxes:\n  variant:\n    - {algorithm: a2a-hopgroup}\n"
      "    - {algorithm: a2a-hopgroup, directions: both}\n  barrier_latency: [10, 250]\n",
      "test");
  EXPECT_EQ(column(s, "directions"), (Column{"(unset)", "(unset)", "both", "both"}));
  EXPECT_EQ(column(s, "barrier_latency"), (Column{"10", "250", "10", "250"}));
  ASSERT_EQ(s.points.size(), 4U);
  EXPECT_EQ(s.points[2].keys["variant"], "algorithm=a2a-hopgroup directions=both");
}

TEST(SweepExpansion, SameScenarioSameHashWhateverTheFile) {
  const auto a = parse_sweep_text("base: {topology: torus:4x4, nct: 2}\naxes:\n  message_flits: [16]\n", "a");
  const auto b = parse_sweep_text("base: {message_flits: 16}\naxes:\n  nct: [2]\n  topology: [torus:4x4]\n", "b");
  EXPECT_EQ(a.points[0].hash, b.points[0].hash);
  EXPECT_EQ(a.points[0].canonical, "message_flits: 16\nnct: 2\ntopology: torus:4x4\n");
}

TEST(SweepExpansion, BadAxesAreRefusedNamingTheAxis) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"axes:\n  nosuchkey: [1, 2]\n", "axis 'nosuchkey': 'nosuchkey' is not a scenario key"},
      {"axes:\n  nct: []\n", "axis 'nct': has no values"},
      {"axes:\n  nct: 3\n", "axis 'nct': expected a list of values"},
      {"axes:\n  injection_rate: {from: 0.1, to: 0.5, step: 0}\n", "axis 'injection_rate': step must be greater than 0"},
      {"axes:\n  injection_rate: {from: 0.5, to: 0.1, step: 0.1}\n", "is empty (to < from)"},
      {"axes:\n  injection_rate: {from: 0.1, to: 0.5}\n", "exactly one of step and factor"},
      {"axes:\n  injection_rate: {from: 0.1, to: 0.5, stride: 1}\n", "unknown range field 'stride'"},
      {"axes:\n  injection_rate: {from: x, to: 0.5, step: 0.1}\n", "field 'from' must be a number"},
      {"axes:\n  nct: [1, 2, 1]\n", "axis 'nct': value 1 is listed twice"},
      {"axes:\n  nct: [[1, 2]]\n", "axis 'nct': value 1 must be a single value"},
      {"axes:\n  v:\n    - {algorithm: a2a-nd, bogus: 1}\n", "value 1: unknown key 'bogus'"},
      {"axes:\n  nct: [1]\n  v:\n    - {nct: 2}\n", "axes 'nct' and 'v' both set key 'nct'"},
      {"axes: {}\n", "'axes' must be a map of at least one axis"},
      {"base: {topology: torus:4x4}\n", "'axes' must be a map"},
      {"axis:\n  nct: [1]\n", "unknown key 'axis'; accepted keys: base, axes, zip, seeds, table, plot"},
      {"base: {nosuch: 1}\naxes:\n  nct: [1]\n", "unknown key 'nosuch'"},
      {"axes:\n  nct: [1\n", "malformed YAML"},
  };
  for (const auto& [yaml, expect] : cases) {
    const std::string problem = problem_of(yaml);
    EXPECT_NE(problem.find(expect), std::string::npos) << yaml << "\n got: " << problem;
  }
}

// seeds: N runs every point of the axes N times with key seed = 1..N, the
// seed varying fastest; each run is a point of its own (index, hash) that
// knows the axes' point it belongs to (group); the axis values stay as they
// are.
TEST(SweepExpansion, SeedsRunEachPointOncePerSeed) {
  const auto s = parse_sweep_text("base: {traffic: uniform}\nseeds: 3\naxes:\n  injection_rate: [0.1, 0.2]\n", "test");
  ASSERT_EQ(s.points.size(), 6U);
  EXPECT_EQ(s.seeds, 3);
  EXPECT_EQ(column(s, "seed"), (Column{"1", "2", "3", "1", "2", "3"}));
  EXPECT_EQ(column(s, "injection_rate"), (Column{"0.1", "0.1", "0.1", "0.2", "0.2", "0.2"}));
  std::set<std::string> hashes;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    EXPECT_EQ(p.index, i);
    EXPECT_EQ(p.group, i / 3);
    EXPECT_EQ(p.seed, static_cast<int>(i % 3) + 1);
    EXPECT_EQ(p.keys, nlohmann::ordered_json({{"injection_rate", i < 3 ? 0.1 : 0.2}}));
    EXPECT_EQ(cli::point_label(p), p.keys.dump() + " seed=" + std::to_string(i % 3 + 1));
    hashes.insert(p.hash);
  }
  EXPECT_EQ(hashes.size(), 6U);
  // Without seeds: one run per point, no seed key set.
  const auto plain = parse_sweep_text("base: {traffic: uniform}\naxes:\n  injection_rate: [0.1, 0.2]\n", "test");
  EXPECT_EQ(column(plain, "seed"), (Column{"(unset)", "(unset)"}));
  EXPECT_EQ(plain.points[1].group, 1U);
  EXPECT_EQ(plain.points[1].seed, 0);
  EXPECT_EQ(cli::point_label(plain.points[1]), "{\"injection_rate\":0.2}");
}

TEST(SweepExpansion, BadSeedsAreRefusedNamingSeedsAndItsLine) {
  for (const char* value : {"0", "-2", "2.5", "three", "[1, 2]", "10001", ""}) {
    const std::string problem =
        problem_of(std::string("base: {traffic: uniform}\nseeds: ") + value + "\naxes:\n  injection_rate: [0.1]\n");
    EXPECT_NE(problem.find("test line 2: 'seeds' must be an integer from 1 to 10000"), std::string::npos)
        << value << "\n got: " << problem;
  }
  // seeds sets key seed: an axis or the base setting it too is refused, naming both.
  const std::vector<std::pair<std::string, std::string>> both{
      {"seeds: 2\naxes:\n  seed: [1, 2]\n", "axis 'seed' sets key 'seed' too"},
      {"seeds: 2\naxes:\n  v:\n    - {seed: 5, vcs: 2}\n", "axis 'v' sets key 'seed' too"},
      {"base: {seed: 4}\nseeds: 2\naxes:\n  vcs: [2]\n", "base sets key 'seed' too (seed: 4)"},
  };
  for (const auto& [yaml, expect] : both) {
    const std::string problem = problem_of(yaml);
    EXPECT_NE(problem.find("'seeds' (2) runs every point with key seed = 1..2; " + expect), std::string::npos)
        << yaml << "\n got: " << problem;
  }
  EXPECT_NE(problem_of("seeds: 10000\naxes:\n  injection_rate: {from: 0.001, to: 0.2, step: 0.001}\n")
                .find("times the seeds has more than 1000000 points"),
            std::string::npos);
}

// The slots of a sweep running `jobs` points at once split its CPUs: while
// there are no more slots than CPUs, every CPU belongs to exactly one slot
// and the slots' shares differ by one CPU at most, in order; with more
// slots, each has one CPU and the CPUs are used in turn.
TEST(SweepSlots, SplitTheCpusEvenly) {
  for (int n = 1; n <= 9; ++n) {
    std::vector<int> cpus;
    for (int c = 0; c < n; ++c) cpus.push_back(3 * c + 1);  // any ids, not 0..n-1
    for (int jobs = 1; jobs <= 12; ++jobs) {
      SCOPED_TRACE(std::to_string(n) + " CPUs, " + std::to_string(jobs) + " jobs");
      std::vector<int> all;
      std::size_t least = cpus.size(), most = 0;
      for (int slot = 0; slot < jobs; ++slot) {
        const auto share = cli::slot_cpus(cpus, jobs, slot);
        ASSERT_FALSE(share.empty());
        least = std::min(least, share.size());
        most = std::max(most, share.size());
        all.insert(all.end(), share.begin(), share.end());
      }
      if (jobs <= n) {
        EXPECT_EQ(all, cpus);  // each CPU once, in order
        EXPECT_LE(most - least, 1U);
      } else {
        EXPECT_EQ(most, 1U);
        EXPECT_EQ(std::set<int>(all.begin(), all.end()).size(), cpus.size());  // every CPU used
        EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
      }
    }
  }
}

// Each point runs on its slot's CPUs, as its run reports (`cpus`), so a
// run's automatic thread count takes its share of the machine, not all of
// it.
TEST(SweepCli, EachPointRunsOnItsShareOfTheCpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  const int cpus = CPU_COUNT(&set);
  const auto sweep = write_file("slots/sweep.yaml",
                                "base: {topology: torus:4x4, algorithm: a2a-optimal, compare: \"\"}\n"
                                "axes:\n  message_flits: [4, 8, 12]\n");
  for (const int jobs : {1, cpus}) {
    SCOPED_TRACE(std::to_string(jobs) + " jobs");
    const auto out = sweep.parent_path() / ("r" + std::to_string(jobs) + ".jsonl");
    const auto r = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--jobs", std::to_string(jobs)});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto lines = read_lines(out);
    ASSERT_EQ(lines.size(), 3U);
    for (const auto& l : lines) EXPECT_EQ(l["run"]["cpus"].get<int>(), jobs == 1 ? cpus : 1) << l.dump();
  }
}

TEST(SweepCli, BadPointRefusedBeforeAnythingRuns) {
  const auto sweep = write_file("bad_point/sweep.yaml",
                                "base: {topology: torus:4x4, algorithm: a2a-optimal}\n"
                                "axes:\n  message_flits: [4, 8]\n  nct: [2, 9]\n");
  const auto out = sweep.parent_path() / "r.jsonl";
  const auto r = run_collnet({"sweep", sweep.string(), "--out", out.string()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("point 2 {\"message_flits\":4,\"nct\":9}: key 'nct': expected an integer from 1 to 4"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("point 4 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing was run"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

// A deadlocking point, a point refused at run time and good points: every
// one recorded with its status, the sweep goes on, exits 1; the records
// carry the contract fields and the run's own JSON.
TEST(SweepCli, FailingPointsRecordedAndTheSweepFinishes) {
  const auto sweep = write_file("failing/sweep.yaml",
                                "base:\n  topology: torus:8\n  traffic: uniform\n  dateline: false\n  vcs: 1\n"
                                "  buffer_flits: 2\n  buffer_sizing: fixed\n  packet_flits: 8\n  warmup_cycles: 0\n  measure_cycles: 2000\n"
                                "  drain_cycles: 2000\n"
                                "axes:\n  injection_rate: [0.05, 0.9]\n  route_direction: [minimal, plus]\n");
  const fs::path dir = sweep.parent_path();
  const auto out = dir / "r.jsonl";
  const auto r = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--jobs", "2"});
  EXPECT_EQ(r.status, 1) << r.err;
  const auto lines = read_lines(out);
  ASSERT_EQ(lines.size(), 4U);
  std::map<std::pair<double, std::string>, nlohmann::json> by_point;
  for (const auto& l : lines) {
    for (const char* f : {"hash", "index", "point_index", "point", "scenario", "status", "exit_status", "message",
                          "wall_seconds", "finished_at", "host", "run"})
      EXPECT_TRUE(l.contains(f)) << f << " missing in " << l.dump();
    EXPECT_GT(l["wall_seconds"].get<double>(), 0.0);
    by_point[{l["point"]["injection_rate"].get<double>(), l["point"]["route_direction"].get<std::string>()}] = l;
  }
  // Low load on the ring: fine. High load without the dateline: deadlock (spec: a ring needs its VC classes).
  const auto& low = by_point.at({0.05, "minimal"});
  EXPECT_EQ(low["status"], "ok");
  EXPECT_EQ(low["exit_status"], 0);
  EXPECT_EQ(low["message"], "");
  EXPECT_TRUE(low["run"]["completed"].get<bool>());
  const auto& dead = by_point.at({0.9, "minimal"});
  EXPECT_EQ(dead["status"], "deadlock");
  EXPECT_EQ(dead["exit_status"], 3);
  EXPECT_NE(dead["message"].get<std::string>().find("DEADLOCK"), std::string::npos) << dead.dump();
  EXPECT_FALSE(dead["run"]["deadlock"].is_null());
  // The point's scenario, as recorded, is the scenario that ran.
  EXPECT_EQ(dead["scenario"]["injection_rate"], "0.9");
  EXPECT_EQ(dead["scenario"]["topology"], "torus:8");
  EXPECT_EQ(dead["hash"], cli::scenario_hash(cli::canonical_scenario([&] {
              Params p;
              for (const auto& [k, v] : dead["scenario"].items()) p.set(k, v.get<std::string>());
              return p;
            }())));

  // The record's run JSON is what `collnet run` writes for that scenario.
  const auto direct_json = dir / "direct.json";
  std::vector<std::string> args{"run", "--json", direct_json.string()};
  for (const auto& [k, v] : low["scenario"].items()) {
    args.push_back("--set");
    args.push_back(k + "=" + v.get<std::string>());
  }
  ASSERT_EQ(run_collnet(args).status, 0);
  const auto direct = read_json(direct_json);
  for (const char* f : {"cycles", "avg_latency", "p99_latency", "accepted_rate", "measured_packets"})
    EXPECT_EQ(low["run"][f], direct[f]) << f;

  // Run again: nothing runs; --retry-failed runs the failed points only.
  const auto again = run_collnet({"sweep", sweep.string(), "--out", out.string()});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("0 to run, 4 already recorded (1 ok, 3 failed, not retried)"), std::string::npos)
      << again.err;
  EXPECT_EQ(read_lines(out).size(), 4U);
  const auto retry = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--retry-failed"});
  EXPECT_EQ(retry.status, 1);
  EXPECT_NE(retry.err.find("3 to run"), std::string::npos) << retry.err;
  EXPECT_EQ(read_lines(out).size(), 7U);
}

// seeds: 3 gives three records per point, with seeds 1, 2 and 3 in their
// scenarios and the point they belong to; the traffic sources draw from the
// seed, so the latencies differ; and each record's run is the run `collnet
// run --set seed=K` of that point makes.
TEST(SweepCli, SeedsGiveOneRecordPerSeedEachADirectRun) {
  const auto sweep = write_file("seeds/sweep.yaml",
                                "base:\n  topology: mesh:4x4\n  traffic: uniform\n  warmup_cycles: 200\n"
                                "  measure_cycles: 1000\n  drain_cycles: 2000\nseeds: 3\n"
                                "axes:\n  injection_rate: [0.1, 0.3]\n");
  const fs::path dir = sweep.parent_path();
  const auto out = dir / "r.jsonl";
  const auto dry = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--dry-run"});
  ASSERT_EQ(dry.status, 0) << dry.err;
  EXPECT_EQ(std::count(dry.out.begin(), dry.out.end(), '\n'), 6) << dry.out;  // a line per seed of each point
  EXPECT_NE(dry.out.find("{\"injection_rate\":0.3} seed=3"), std::string::npos) << dry.out;
  EXPECT_FALSE(fs::exists(out));

  const auto r = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--jobs", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = read_lines(out);
  ASSERT_EQ(lines.size(), 6U);
  std::map<std::size_t, std::map<std::string, nlohmann::json>> by_point;  // point_index -> seed -> record
  for (const auto& l : lines) {
    EXPECT_EQ(l["status"], "ok") << l.dump();
    const std::size_t point = l["point_index"].get<std::size_t>();
    EXPECT_EQ(point, l["index"].get<std::size_t>() / 3);
    EXPECT_EQ(l["point"], nlohmann::json({{"injection_rate", point == 0 ? 0.1 : 0.3}}));
    by_point[point][l["scenario"]["seed"].get<std::string>()] = l;
  }
  ASSERT_EQ(by_point.size(), 2U);
  for (const auto& [point, seeds] : by_point) {
    SCOPED_TRACE("point " + std::to_string(point));
    ASSERT_EQ(seeds.size(), 3U);
    std::set<double> latencies;
    for (const auto& [seed, record] : seeds) {
      SCOPED_TRACE("seed " + seed);
      EXPECT_TRUE(seed == "1" || seed == "2" || seed == "3");
      EXPECT_EQ(record["run"]["scenario"]["seed"], std::stoi(seed));
      latencies.insert(record["run"]["avg_latency"].get<double>());
      const auto direct_json = dir / ("direct" + std::to_string(point) + seed + ".json");
      std::vector<std::string> args{"run", "--json", direct_json.string()};
      for (const auto& [k, v] : record["scenario"].items()) {
        if (k == "seed") continue;
        args.push_back("--set");
        args.push_back(k + "=" + v.get<std::string>());
      }
      args.push_back("--set");
      args.push_back("seed=" + seed);
      ASSERT_EQ(run_collnet(args).status, 0);
      const auto direct = read_json(direct_json);
      for (const char* f : {"cycles", "offered_rate", "accepted_rate", "avg_latency", "p99_latency",
                            "measured_packets"})
        EXPECT_EQ(record["run"][f], direct[f]) << f;
    }
    EXPECT_EQ(latencies.size(), 3U) << "the seeds gave the same latency";
  }
  // Each seed is resumed as a point of its own.
  const auto again = run_collnet({"sweep", sweep.string(), "--out", out.string()});
  EXPECT_EQ(again.status, 0);
  EXPECT_NE(again.err.find("6 points, 0 to run, 6 already recorded"), std::string::npos) << again.err;
}

/// Starts `collnet sweep ...` in the background; returns its pid.
pid_t start_sweep(const std::vector<std::string>& args, const fs::path& err) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(COLLNET_BINARY), const_cast<char*>("sweep")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (std::freopen(err.c_str(), "w", stderr) == nullptr) ::_exit(126);
    ::execv(COLLNET_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Records the sweep has finished appending: newline-terminated lines. A
/// record being appended is visible to a reader page by page before its
/// newline (a record of a mesh:8x8 run spans several pages), so the lines
/// are counted, not parsed, while the sweep runs.
std::size_t count_lines(const fs::path& p) {
  if (!fs::exists(p)) return 0;
  const std::string text = slurp(p);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Resume after a killed sweep: kill it (SIGTERM, then SIGKILL as a lost node
// would) after some points finished; the finished points stay, the next run
// runs exactly the others, and no point is recorded twice.
void kill_and_resume(int sig, const std::string& name) {
  const auto sweep = write_file(name + "/sweep.yaml",
                                "base:\n  topology: mesh:8x8\n  traffic: uniform\n  warmup_cycles: 500\n"
                                "  measure_cycles: 6000\n  drain_cycles: 2000\n"
                                "axes:\n  injection_rate: {from: 0.05, to: 0.3, step: 0.05}\n");
  const fs::path dir = sweep.parent_path();
  const auto out = dir / "r.jsonl";
  const pid_t pid = start_sweep({sweep.string(), "--out", out.string(), "--jobs", "1"}, dir / "first.err");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count_lines(out) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, sig);
  int st = 0;
  ::waitpid(pid, &st, 0);
  if (sig == SIGTERM) {
    ASSERT_TRUE(WIFEXITED(st)) << slurp(dir / "first.err");
    EXPECT_EQ(WEXITSTATUS(st), 128 + SIGTERM);
    EXPECT_NE(slurp(dir / "first.err").find("interrupted"), std::string::npos);
  } else {
    EXPECT_TRUE(WIFSIGNALED(st));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a child killed with its parent
  const std::size_t kept = count_lines(out);
  ASSERT_GE(kept, 2U);
  ASSERT_LT(kept, 6U) << "the sweep finished before it was killed; the test needs slower points";
  for (const auto& l : read_lines(out)) EXPECT_EQ(l["status"], "ok");

  const auto second = run_collnet({"sweep", sweep.string(), "--out", out.string(), "--jobs", "2"});
  EXPECT_EQ(second.status, 0) << second.err;
  EXPECT_NE(second.err.find(std::to_string(6 - kept) + " to run, " + std::to_string(kept) + " already recorded"),
            std::string::npos)
      << second.err;
  const auto lines = read_lines(out);
  EXPECT_EQ(lines.size(), 6U);
  std::set<std::string> hashes;
  std::set<double> rates;
  for (const auto& l : lines) {
    hashes.insert(l["hash"].get<std::string>());
    rates.insert(l["point"]["injection_rate"].get<double>());
    EXPECT_EQ(l["status"], "ok");
  }
  EXPECT_EQ(hashes.size(), 6U) << "a point was recorded twice";
  EXPECT_EQ(rates, (std::set<double>{0.05, 0.1, 0.15, 0.2, 0.25, 0.3}));
}

TEST(SweepCli, ResumeAfterSigterm) { kill_and_resume(SIGTERM, "resume_term"); }
TEST(SweepCli, ResumeAfterSigkill) { kill_and_resume(SIGKILL, "resume_kill"); }

}  // namespace
}  // namespace collnet::test
