// Golden figures: every scenario of tests/golden/scenarios.txt, run again with
// the `collnet run` of this build, must reproduce the figures that the
// reference build recorded in tests/golden/figures.json (scripts/golden_record.py):
// the same cycles, data check, barriers, traffic counts and latencies. Speed
// work and refactoring must leave every one of them identical; a change that
// means to change what is simulated re-records the scenarios it changes, in
// the same commit, and says why.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace collnet::test {
namespace {

struct Golden {
  std::string name;
  std::vector<std::string> args;
};

// Test names carry the scenario name; this keeps gtest from printing the bytes.
[[maybe_unused]] void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

std::vector<Golden> golden_scenarios() {
  std::ifstream in(std::string(COLLNET_SOURCE_DIR) + "/tests/golden/scenarios.txt");
  std::vector<Golden> all;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::vector<std::string> args = words(line.substr(colon + 1));
    // "{source}" stands for the source tree (files a scenario reads, e.g. an imported schedule).
    for (auto& a : args)
      for (std::size_t at = a.find("{source}"); at != std::string::npos; at = a.find("{source}"))
        a.replace(at, 8, COLLNET_SOURCE_DIR);
    all.push_back({line.substr(0, colon), std::move(args)});
  }
  return all;
}

const nlohmann::json& recorded() {
  static const nlohmann::json figures =
      nlohmann::json::parse(slurp(std::string(COLLNET_SOURCE_DIR) + "/tests/golden/figures.json"));
  return figures;
}

const nlohmann::json& at_path(const nlohmann::json& doc, const std::string& path) {
  const nlohmann::json* node = &doc;
  std::stringstream parts(path);
  for (std::string part; std::getline(parts, part, '.');) node = &node->at(part);
  return *node;
}

// Doubles are computed by the same arithmetic in the same order; the
// tolerance only absorbs the last digit of the JSON round trip.
void expect_same(const nlohmann::json& want, const nlohmann::json& got, const std::string& what) {
  if (want.is_number_float() || got.is_number_float()) {
    ASSERT_TRUE(got.is_number()) << what << ": " << got;
    const double w = want.get<double>();
    const double g = got.get<double>();
    EXPECT_LE(std::abs(w - g), 1e-12 * std::max(1.0, std::abs(w))) << what << ": recorded " << w << ", now " << g;
  } else {
    EXPECT_EQ(want, got) << what;
  }
}

class GoldenFigures : public ::testing::TestWithParam<Golden> {};

// Runs scenario `g` (with the NAME=value `environment`) and compares every
// recorded figure.
// `err` (if given) receives the run's standard error.
void expect_recorded_figures(const Golden& g, const std::vector<std::string>& environment,
                             const std::vector<std::string>& options = {}, std::string* err = nullptr) {
  ASSERT_TRUE(recorded().contains(g.name)) << "scenario '" << g.name
                                          << "' has no recorded figures: run scripts/golden_record.py on the "
                                             "reference build";
  const nlohmann::json& want = recorded().at(g.name);
  const fs::path json = scratch() / (g.name + ".json");
  std::vector<std::string> args{"run"};
  args.insert(args.end(), g.args.begin(), g.args.end());
  args.insert(args.end(), {"--json", json.string()});
  args.insert(args.end(), options.begin(), options.end());
  const CliRun r = run_collnet(args, environment);
  if (err != nullptr) *err = r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json got = read_json(json);
  for (const auto& [path, value] : want.items()) {
    if (path == "compare") continue;
    expect_same(value, at_path(got, path), g.name + " " + path);
  }
  if (want.contains("compare")) {
    const auto& runs = got.at("compare");
    ASSERT_EQ(runs.size(), want["compare"].size());
    for (std::size_t i = 0; i < runs.size(); ++i)
      for (const auto& [key, value] : want["compare"][i].items())
        expect_same(value, runs[i].at(key), g.name + " compare[" + std::to_string(i) + "]." + key);
  }
}

TEST_P(GoldenFigures, ReproducesTheRecordedRun) { expect_recorded_figures(GetParam(), {}); }

// The link timing contract (link.hpp, clocked.hpp) makes a cycle's result
// independent of the order in which its modules run: the wake-up calendar
// evaluating every cycle's modules in construction order, and in the
// opposite order (any two modules of a cycle run one way round in one run
// and the other way round in the other), must give every recorded figure
// again. (A NIC that took a delivery acknowledgement in the cycle it was
// sent, instead of the next, entered barriers a cycle earlier when its
// destination happened to run before it: the barrier wait cycles of seven
// scenarios differed between these two orders.)
TEST_P(GoldenFigures, EveryEvaluationOrderGivesTheSameRun) {
  for (const char* order : {"creation", "reverse-creation"}) {
    SCOPED_TRACE(order);
    expect_recorded_figures(GetParam(), {std::string("COLLNET_EVALUATION_ORDER=") + order});
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenFigures, ::testing::ValuesIn(golden_scenarios()),
                         [](const ::testing::TestParamInfo<Golden>& scenario) { return scenario.param.name; });

// Threads (key `threads`) split a run's cycles over worker threads; every
// recorded figure must come out of 2 and 3 threads as of one, for every
// scenario (synthetic traffic and collectives). Each run reports the thread
// count it used, so the variant cannot silently fall back to one thread.
// What only one thread can do runs on one, reports threads 1 and says why on
// standard error: the scenarios below, with the reason they run on one.
// A threaded run evaluates some cycles on all threads and some on the main
// thread alone (solo, chosen by measured cost): 2 threads run every cycle in
// parallel and 3 threads alternate parallel and solo cycles, so both ways and
// the switch between them must give the same figures.
std::string forced_to_one_thread(const Golden& g) {
  for (const auto& a : g.args)
    if (a == "nic_blocks=rtl") return "nic_blocks=rtl runs Verilated models";
  for (const auto& a : g.args)
    if (a.rfind("algorithm=innet-", 0) == 0) return "an in-network collective runs its switches' aggregation units";
  return "";
}

class GoldenThreads : public ::testing::TestWithParam<Golden> {};

TEST_P(GoldenThreads, TwoAndThreeThreadsGiveTheSameRun) {
  const Golden& g = GetParam();
  const std::string forced = forced_to_one_thread(g);
  const std::pair<const char*, const char*> variants[] = {{"2", "parallel"}, {"3", "alternate"}};
  for (const auto& [threads, mode] : variants) {
    SCOPED_TRACE(std::string(threads) + " threads, " + mode);
    std::string err;
    expect_recorded_figures(g, {std::string("COLLNET_THREAD_MODE=") + mode}, {"--threads", threads}, &err);
    const nlohmann::json got = read_json(scratch() / (g.name + ".json"));
    if (forced.empty()) {
      EXPECT_EQ(got.at("threads").get<int>(), std::stoi(threads));
      const auto calendar = got.at("calendar_cycles").get<std::uint64_t>();
      EXPECT_EQ(got.at("solo_cycles").get<std::uint64_t>(), std::string(mode) == "parallel" ? 0 : calendar / 2);
    } else {
      EXPECT_EQ(got.at("threads").get<int>(), 1);
      EXPECT_NE(err.find("runs on one thread (key threads): " + forced), std::string::npos) << err;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenThreads, ::testing::ValuesIn(golden_scenarios()),
                         [](const ::testing::TestParamInfo<Golden>& scenario) { return scenario.param.name; });

// Most scenarios run threaded: the forced ones are the exception.
TEST(GoldenThreadsCoverage, MostScenariosRunThreaded) {
  std::size_t forced = 0;
  for (const auto& g : golden_scenarios()) forced += forced_to_one_thread(g).empty() ? 0 : 1;
  EXPECT_GE(golden_scenarios().size(), 60u);
  EXPECT_LE(forced, 10u);
}

// The list covers every algorithm `collnet list` names (so a new algorithm
// cannot land without golden figures) and both NIC block implementations.
TEST(GoldenFiguresCoverage, EveryAlgorithmAndBothNicBlocks) {
  const CliRun list = run_words("list");
  ASSERT_EQ(list.status, 0);
  std::string scenarios_text;
  for (const auto& g : golden_scenarios())
    for (const auto& a : g.args) scenarios_text += " " + a;
  const auto algorithms_section = list.out.substr(0, list.out.find("Scenario keys:"));
  std::istringstream lines(algorithms_section.substr(algorithms_section.find("Algorithms")));
  int algorithms = 0;
  for (std::string line; std::getline(lines, line);) {
    // Algorithm lines start with two spaces and the name (option lines are indented further).
    if (line.size() < 3 || line[0] != ' ' || line[1] != ' ' || line[2] == ' ') continue;
    const std::string name = words(line).front();
    ++algorithms;
    EXPECT_NE(scenarios_text.find("algorithm=" + name + " "), std::string::npos)
        << "no golden scenario runs algorithm " << name;
  }
  EXPECT_GE(algorithms, 11);
  EXPECT_NE(scenarios_text.find("nic_blocks=rtl"), std::string::npos);
  EXPECT_NE(scenarios_text.find("schedule_engine=reference"), std::string::npos);
  EXPECT_NE(scenarios_text.find("schedule_engine=hls"), std::string::npos);
}

// The order is a testing aid, and a value it does not know is bad input.
TEST(EvaluationOrder, AnUnknownValueExitsTwoNamingTheVariableAndTheValues) {
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4"}, {"COLLNET_EVALUATION_ORDER=random"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("COLLNET_EVALUATION_ORDER"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("wake, creation, reverse-creation"), std::string::npos) << r.err;
}

// So is the thread mode.
TEST(ThreadMode, AnUnknownValueExitsTwoNamingTheVariableAndTheValues) {
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--threads", "2"}, {"COLLNET_THREAD_MODE=fast"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("COLLNET_THREAD_MODE"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("adaptive, parallel, solo, alternate"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace collnet::test
