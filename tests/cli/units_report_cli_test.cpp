// The physical figures of the reports (docs/guide/run.md, "Physical units"):
// `--set clock_ghz=2` halves every time and leaves every cycle count as it
// is; the bandwidths scale with clock_ghz x flit_bytes; a collective's bus
// bandwidth is its algorithm bandwidth times nccl-tests' factor for the
// collective over its ranks (NVIDIA/nccl-tests doc/PERFORMANCE.md:
// allreduce 2(n-1)/n; allgather, reduce-scatter, alltoall (n-1)/n;
// broadcast, reduce 1), the algorithm bandwidth the size S a rank over the
// time.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "cli_runner.hpp"

using namespace collnet::test;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Walks two reports of the same run at clock_ghz 1 and 2 side by side:
/// every cycle count equal, every time (a field named *_ns or under one)
/// halved, every GB/s (*_gbps, or under `gbps`) doubled. Counts the fields
/// of each kind it compared.
struct Walk {
  int cycles = 0, times = 0, rates = 0;
  void operator()(const nlohmann::json& a, const nlohmann::json& b, const std::string& path, bool ns, bool gbps) {
    ASSERT_EQ(a.type(), b.type()) << path;
    if (a.is_object()) {
      for (const auto& [key, value] : a.items()) {
        ASSERT_TRUE(b.contains(key)) << path << "." << key;
        (*this)(value, b[key], path + "." + key, ns || ends_with(key, "_ns"),
                gbps || ends_with(key, "_gbps") || key == "gbps");
      }
      return;
    }
    if (a.is_array()) {
      ASSERT_EQ(a.size(), b.size()) << path;
      for (std::size_t i = 0; i < a.size(); ++i) (*this)(a[i], b[i], path + "[" + std::to_string(i) + "]", ns, gbps);
      return;
    }
    if (!a.is_number()) return;
    const std::string leaf = path.substr(path.rfind('.') + 1);
    if (ns) {
      EXPECT_DOUBLE_EQ(b.get<double>(), a.get<double>() / 2) << path;
      ++times;
    } else if (gbps) {
      EXPECT_DOUBLE_EQ(b.get<double>(), a.get<double>() * 2) << path;
      ++rates;
    } else if (ends_with(leaf, "cycles") || ends_with(leaf, "_latency") || leaf == "flit_hops") {
      EXPECT_EQ(b, a) << path;
      ++cycles;
    }
  }
};

nlohmann::json report(const std::string& options, const std::string& name) {
  const JsonRun r = run_words_json(options, name);
  EXPECT_EQ(r.status, 0) << options << "\n" << r.out << r.err;
  return r.json;
}

}  // namespace

TEST(UnitsReportCli, TwiceTheClockHalvesEveryTimeAndKeepsEveryCycle) {
  const std::string collective =
      "run --set algorithm=ring-allreduce --set topology=torus:3x2 --set elements=36 --set compare=rd-allreduce";
  const std::string synthetic =
      "run --set traffic=uniform --set topology=mesh:3x3 --set injection_rate=0.2 --set warmup_cycles=100 "
      "--set measure_cycles=400";
  for (const std::string& run : {collective, synthetic}) {
    const nlohmann::json one = report(run, "clock1.json");
    const nlohmann::json two = report(run + " --set clock_ghz=2", "clock2.json");
    ASSERT_TRUE(one.is_object() && two.is_object());
    EXPECT_DOUBLE_EQ(one["time_ns"].get<double>(), one["cycles"].get<double>()) << "1 GHz: a cycle is 1 ns";
    Walk walk;
    nlohmann::json a = one, b = two;
    for (auto* j : {&a, &b}) j->erase("scenario");  // the key itself differs
    walk(a, b, run.substr(0, 20), false, false);
    EXPECT_GE(walk.cycles, 3) << run;
    EXPECT_GE(walk.times, 2) << run;
    EXPECT_GE(walk.rates, 3) << run;
    // The text report says the same.
    const CliRun text = run_words(run + " --set clock_ghz=2");
    EXPECT_NE(text.out.find("at 2 GHz"), std::string::npos) << text.out;
  }
  // collnet check: its static time in flit times, a flit time a cycle.
  const std::string check = "check --set algorithm=ring-allreduce --set topology=torus:3x2 --set elements=36";
  const nlohmann::json one = report(check, "check1.json");
  const nlohmann::json two = report(check + " --set clock_ghz=2", "check2.json");
  EXPECT_EQ(one["static_time"], two["static_time"]);
  EXPECT_DOUBLE_EQ(two["static_time_ns"].get<double>(), one["static_time"].get<double>() / 2);
  EXPECT_DOUBLE_EQ(two["lower_bound_ns"].get<double>(), one["lower_bound"].get<double>() / 2);
}

// Each collective's factor against nccl-tests' closed form, with the ranks
// the run really has (a subset of the endpoints where `processes` or
// `ranks` say so), and the bandwidths against their definitions.
TEST(UnitsReportCli, BusBandwidthIsTheCollectivesFactorTimesTheAlgorithmBandwidth) {
  struct Case {
    const char* options;
    const char* collective;
    int ranks;
  };
  const auto allreduce = [](int n) { return 2.0 * (n - 1) / n; };
  const auto spread = [](int n) { return static_cast<double>(n - 1) / n; };
  const auto one = [](int) { return 1.0; };
  const std::vector<std::pair<Case, std::function<double(int)>>> cases = {
      {{"--set algorithm=ring-allreduce --set topology=torus:3x2 --set elements=36", "allreduce", 6}, allreduce},
      {{"--set algorithm=rd-allreduce --set topology=torus:3x2 --set elements=36 --set processes=4", "allreduce", 4},
       allreduce},
      {{"--set algorithm=ring-allgather --set topology=torus:3x2 --set elements=36", "allgather", 6}, spread},
      {{"--set algorithm=ring-reduce-scatter --set topology=torus:3x2 --set elements=36", "reduce-scatter", 6},
       spread},
      {{"--set algorithm=pairwise-alltoall --set topology=torus:3x2 --set message_flits=4", "alltoall", 6}, spread},
      {{"--set algorithm=a2a-optimal --set topology=torus:2x2 --set message_flits=4", "alltoall", 4}, spread},
      {{"--set algorithm=binomial-bcast --set topology=torus:3x2 --set elements=36", "broadcast", 6}, one},
      {{"--set algorithm=binomial-reduce --set topology=torus:3x2 --set elements=36", "reduce", 6}, one},
      {{"--set algorithm=hd-allreduce --set topology=boards:2x1x1x1", "allreduce", 16}, allreduce},
      {{"--set algorithm=twotree-hier --set topology=leafspine:p=6 --set elements=16 --set collective=broadcast "
        "--set processes=12",
        "broadcast", 12},
       one},
      {{"--set algorithm=twotree-hier --set topology=leafspine:p=6 --set elements=16", "allreduce", 36}, allreduce},
      {{"--set algorithm=msccl --set schedule=" COLLNET_SOURCE_DIR "/examples/msccl/allgather_ring_8.xml "
        "--set topology=torus:4x2 --set chunk_words=4",
        "allgather", 8},
       spread},
      {{"--set algorithm=tree-bcast --set topology=tree:kary=2,n=7 --set message_flits=8", "broadcast", 7},
       one},
  };
  for (const auto& [c, factor] : cases) {
    const std::string options = std::string("run --set compare= --set flit_bytes=4 --set clock_ghz=1.5 ") + c.options;
    const nlohmann::json j = report(options, "busbw.json");
    ASSERT_TRUE(j.is_object()) << options;
    ASSERT_TRUE(j["collective_operation"].is_object()) << options;
    EXPECT_EQ(j["collective_operation"]["name"], c.collective) << options;
    EXPECT_EQ(j["collective_operation"]["ranks"], c.ranks) << options;
    EXPECT_DOUBLE_EQ(j["collective_operation"]["bus_factor"].get<double>(), factor(c.ranks)) << options;
    EXPECT_EQ(j["bytes_per_rank"].get<std::int64_t>(), j["words_per_rank"].get<std::int64_t>() * 4) << options;
    const double time_ns = j["cycles"].get<double>() / 1.5;
    EXPECT_DOUBLE_EQ(j["time_ns"].get<double>(), time_ns) << options;
    const double algbw = j["bytes_per_rank"].get<double>() / time_ns;  // bytes / ns = GB/s
    EXPECT_DOUBLE_EQ(j["algorithm_bandwidth_gbps"].get<double>(), algbw) << options;
    EXPECT_DOUBLE_EQ(j["bus_bandwidth_gbps"].get<double>(), algbw * factor(c.ranks)) << options;
    EXPECT_DOUBLE_EQ(j["link_gbps"].get<double>(), 4 * 1.5) << options;
  }
}

// A link's GB/s is its busy fraction x flit_bytes x clock_ghz, link by link.
TEST(UnitsReportCli, LinkBandwidthIsUtilizationTimesTheLinkRate) {
  const nlohmann::json j = report(
      "run --set algorithm=ring-allreduce --set topology=torus:3x2 --set elements=36 --set flit_bytes=16 "
      "--set clock_ghz=0.5",
      "links.json");
  const nlohmann::json& links = j["link_utilization"];
  ASSERT_TRUE(links["per_link"].is_object());
  ASSERT_EQ(links["gbps"].size(), links["per_link"].size());
  for (const auto& [name, u] : links["per_link"].items())
    EXPECT_DOUBLE_EQ(links["gbps"][name].get<double>(), u.get<double>() * 16 * 0.5) << name;
  EXPECT_DOUBLE_EQ(links["max_gbps"].get<double>(), links["max"].get<double>() * 8);
  EXPECT_DOUBLE_EQ(j["injection_gbps"].get<double>(),
                   j["flits"].get<double>() / (j["endpoints"].get<double>() * j["cycles"].get<double>()) * 8);
}

// collnet saturation: the saturation rate per endpoint in GB/s and the
// zero-load latency in ns, from its own flits/node/cycle and cycles.
TEST(UnitsReportCli, SaturationRateInGigabytesAndZeroLoadLatencyInNanoseconds) {
  const nlohmann::json j = report(
      "saturation --set topology=mesh:2x2 --set warmup_cycles=200 --set measure_cycles=500 --set drain_cycles=1000 "
      "--resolution 0.05 --set flit_bytes=32 --set clock_ghz=2",
      "saturation.json");
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j["saturation_rate"].is_number());
  EXPECT_DOUBLE_EQ(j["saturation_gbps"].get<double>(), j["saturation_rate"].get<double>() * 32 * 2);
  EXPECT_DOUBLE_EQ(j["zero_load_latency_ns"].get<double>(), j["zero_load_latency"].get<double>() / 2);
}
