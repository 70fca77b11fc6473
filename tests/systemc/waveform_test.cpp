// Waveforms: the VCD that `--vcd` writes is well formed (header, declarations,
// increasing times, only declared identifiers), GTKWave's own converter reads
// it, its per-link signals agree with the statistics, the flow counts show
// document 000's link superposition (a line where nodes 1, 2, 3 send three
// hops ahead: links carry 1, 2, 3, 2, 1 flows), GTKWave itself opens it on
// the whole run and reads those flow counts, and tracing does not change the
// simulation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "systemc/run/synthetic.hpp"
#include "systemc/trace/waveform.hpp"
#include "tests/support/ci_guard.hpp"
#include "tests/support/gtkwave_runner.hpp"
#include "tests/support/synthetic_fixtures.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct Vcd {
  std::string timescale;
  std::map<std::string, std::string> name_of;  // identifier -> hierarchical name
  std::map<std::string, int> width;            // hierarchical name -> bits
  std::map<std::string, std::map<std::uint64_t, std::uint64_t>> changes;  // name -> time -> value
  bool times_increase = true;
  bool ids_declared = true;
  std::uint64_t last_time = 0;
};

Vcd parse(const std::string& path) {
  Vcd v;
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> scope;
  bool definitions = true;
  std::uint64_t time = 0;
  bool seen_time = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (w.empty()) continue;
    if (definitions) {
      if (w == "$timescale") ls >> v.timescale;
      if (w == "$scope") {
        std::string kind, name;
        ls >> kind >> name;
        scope.push_back(name);
      }
      if (w == "$upscope") scope.pop_back();
      if (w == "$var") {
        std::string kind, id, name;
        int bits = 0;
        ls >> kind >> bits >> id >> name;
        std::string full;
        for (const auto& s : scope) full += s + ".";
        v.name_of[id] = full + name;
        v.width[full + name] = bits;
      }
      if (w == "$enddefinitions") definitions = false;
      continue;
    }
    if (w[0] == '#') {
      const std::uint64_t t = std::stoull(w.substr(1));
      if (seen_time && t <= time) v.times_increase = false;
      time = t;
      seen_time = true;
      v.last_time = t;
      continue;
    }
    if (w == "$dumpvars" || w == "$end") continue;
    std::string id;
    std::uint64_t value = 0;
    if (w[0] == 'b') {
      ls >> id;
      value = std::stoull(w.substr(1), nullptr, 2);
    } else {
      id = w.substr(1);
      value = w[0] == '1' ? 1 : 0;
    }
    auto it = v.name_of.find(id);
    if (it == v.name_of.end()) {
      v.ids_declared = false;
      continue;
    }
    v.changes[it->second][time] = value;
  }
  return v;
}

/// Value of a signal at time t (last change at or before t).
std::uint64_t value_at(const Vcd& v, const std::string& name, std::uint64_t t) {
  const auto& c = v.changes.at(name);
  auto it = c.upper_bound(t);
  return it == c.begin() ? 0 : std::prev(it)->second;
}

/// Document 000 FIG. 5's line (tests/support/synthetic_fixtures.hpp), one VC.
SyntheticScenario line_scenario(const std::string& vcd) {
  RouterConfig router;
  router.vcs = 1;
  SyntheticScenario s = test::fig5_line(router, 0, 600);
  s.vcd_path = vcd;
  return s;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("collnet_" + std::to_string(::getpid()) + "_" + name)).string();
}

}  // namespace

TEST(Waveform, VcdIsWellFormedAndMatchesTheRun) {
  const std::string path = temp_path("line.vcd");
  const SyntheticResult r = run_synthetic(line_scenario(path));
  ASSERT_TRUE(std::filesystem::exists(path));
  const Vcd v = parse(path);
  EXPECT_EQ(v.timescale, "1ns");
  EXPECT_TRUE(v.times_increase);
  EXPECT_TRUE(v.ids_declared);
  // Every directed link of the line has its four signals, every router one.
  const std::vector<std::string> plus = {"r0_to_r1", "r1_to_r2", "r2_to_r3", "r3_to_r4", "r4_to_r5"};
  for (const auto& l : plus) {
    EXPECT_EQ(v.width.at("network.x_plus." + l + ".busy"), 1);
    EXPECT_EQ(v.width.at("network.x_plus." + l + ".source"), 16);
    EXPECT_EQ(v.width.at("network.x_plus." + l + ".hops"), 8);
    EXPECT_EQ(v.width.at("network.x_plus." + l + ".flows"), 16);
  }
  EXPECT_EQ(v.width.count("network.x_minus.r1_to_r0.busy"), 1u);
  for (int n = 0; n < 6; ++n) EXPECT_EQ(v.width.count("network.routers.r" + std::to_string(n) + ".occupancy"), 1u);

  // busy: one cycle per flit. The cycles with busy = 1 in the window equal the
  // flits the link statistics counted there.
  const std::vector<int> link_of_plus = {0, 2, 4, 6, 8};  // graph order: + link then - link per cable
  for (std::size_t i = 0; i < plus.size(); ++i) {
    std::uint64_t busy_cycles = 0;
    for (std::uint64_t t = 0; t < 600; ++t) busy_cycles += value_at(v, "network.x_plus." + plus[i] + ".busy", t);
    EXPECT_DOUBLE_EQ(static_cast<double>(busy_cycles) / 600.0,
                     r.link_utilization[static_cast<std::size_t>(link_of_plus[i])]) << plus[i];
  }
  // Document 000: every packet has hop count 3, the link out of node 3 (r2)
  // is shared by sources 0, 1 and 2, and at saturation links carry
  // 1, 2, 3, 2, 1 flows.
  EXPECT_EQ(value_at(v, "network.x_plus.r2_to_r3.hops", 500), 3u);
  std::set<std::uint64_t> sources;
  for (const auto& [t, s] : v.changes.at("network.x_plus.r2_to_r3.source")) sources.insert(s);
  EXPECT_EQ(sources, (std::set<std::uint64_t>{0, 1, 2}));
  const std::vector<std::uint64_t> flows = {1, 2, 3, 2, 1};
  for (std::size_t i = 0; i < plus.size(); ++i)
    EXPECT_EQ(value_at(v, "network.x_plus." + plus[i] + ".flows", 500), flows[i]) << plus[i];
  EXPECT_EQ(value_at(v, "network.x_minus.r1_to_r0.flows", 500), 0u);
  EXPECT_GT(value_at(v, "network.routers.r2.occupancy", 500), 0u);

  // The save file opens this VCD and names only signals that exist in it.
  const std::string gtkw = WaveformTracer::save_file_path(path);
  std::ifstream save(gtkw);
  ASSERT_TRUE(save.good());
  std::string line;
  bool dumpfile = false;
  std::set<std::string> groups;
  int signals = 0;
  while (std::getline(save, line)) {
    if (line == "[dumpfile] \"" + path + "\"") dumpfile = true;
    if (line.rfind("-", 0) == 0) groups.insert(line.substr(1));
    if (line.rfind("+{", 0) == 0) line = line.substr(line.find("} ") + 2);  // an aliased signal
    if (line.rfind("network.", 0) == 0) {
      std::string name = line.substr(0, line.find('['));
      EXPECT_EQ(v.width.count(name), 1u) << line;
      ++signals;
    }
  }
  EXPECT_TRUE(dumpfile);
  EXPECT_EQ(groups.count("x+ flows"), 1u);
  EXPECT_EQ(groups.count("x- flows"), 1u);
  EXPECT_EQ(groups.count("r2:x+->r3"), 1u);
  EXPECT_EQ(signals, 10 + 10 * 4 + 6);  // overview, link details, routers
  std::uint64_t last_time = 0;
  {
    std::ifstream vcd(path);
    for (std::string l; std::getline(vcd, l);)
      if (l.rfind("#", 0) == 0) last_time = std::max<std::uint64_t>(last_time, std::stoull(l.substr(1)));
  }
  ASSERT_GT(last_time, 600u);

  std::filesystem::remove(path);
  std::filesystem::remove(gtkw);
}

// GTKWave itself opens the run from cycle 0 to its end, not much more, and
// reads the flow counts of the link out of r2 (up to 3) and of the first and
// last links (1); GTKWave's converter reads the file. Skipped where GTKWave
// or Xvfb is missing, a failure under CI=true.
TEST(Waveform, GtkwaveOpensTheWholeRunAndReadsTheFlowCounts) {
  std::string missing = test::gtkwave_missing();
  if (std::system("command -v vcd2fst > /dev/null 2>&1") != 0) missing += missing.empty() ? "vcd2fst" : ", vcd2fst";
  if (!missing.empty()) COLLNET_SKIP_OUTSIDE_CI(missing << " not installed", "gtkwave, xvfb and xauth");
  const std::string path = temp_path("gtkwave_line.vcd");
  run_synthetic(line_scenario(path));
  const std::string gtkw = WaveformTracer::save_file_path(path);
  ASSERT_TRUE(std::filesystem::exists(gtkw));
  const std::uint64_t last_time = parse(path).last_time;
  ASSERT_GT(last_time, 600u);

  const test::GtkwaveReport g = test::run_gtkwave(
      path, gtkw,
      {"network.x_plus.r2_to_r3.flows[15:0]", "network.x_plus.r0_to_r1.flows[15:0]",
       "network.x_minus.r1_to_r0.flows[15:0]"});
  ASSERT_TRUE(g.window_seen) << g.output;
  EXPECT_EQ(g.max_time, static_cast<long long>(last_time));
  EXPECT_EQ(g.window_start, 0);
  EXPECT_GE(g.window_end, static_cast<long long>(last_time)) << g.output;
  EXPECT_LE(static_cast<double>(g.window_end), 1.25 * static_cast<double>(last_time)) << g.output;
  EXPECT_EQ(g.changes.at("network.x_plus.r2_to_r3.flows[15:0]").max_value, 3u) << g.output;
  EXPECT_EQ(g.changes.at("network.x_plus.r0_to_r1.flows[15:0]").max_value, 1u) << g.output;
  EXPECT_EQ(g.changes.at("network.x_minus.r1_to_r0.flows[15:0]").count, 0) << g.output;

  const std::string fst = temp_path("gtkwave_line.fst");
  EXPECT_EQ(std::system(("vcd2fst '" + path + "' '" + fst + "' > /dev/null 2>&1").c_str()), 0);
  EXPECT_GT(std::filesystem::file_size(fst), 0u);
  std::filesystem::remove(fst);
  std::filesystem::remove(path);
  std::filesystem::remove(gtkw);
}

TEST(Waveform, TracingDoesNotChangeTheRun) {
  const std::string path = temp_path("same.vcd");
  SyntheticScenario traced = line_scenario(path);
  traced.topology = "torus:4x4";
  traced.custom_destination = nullptr;
  traced.load.injection_rate = 0.4;
  traced.router.vcs = 2;
  SyntheticScenario plain = traced;
  plain.vcd_path.clear();
  const SyntheticResult a = run_synthetic(traced);
  const SyntheticResult b = run_synthetic(plain);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.accepted_flits_by_source, b.accepted_flits_by_source);
  EXPECT_EQ(a.link_utilization, b.link_utilization);
  EXPECT_EQ(a.avg_latency, b.avg_latency);
  const Vcd v = parse(path);
  EXPECT_TRUE(v.times_increase);
  EXPECT_TRUE(v.ids_declared);
  EXPECT_EQ(v.width.count("network.y_minus.r0_to_r12.busy"), 1u);  // wrap link of a 4x4 torus
  std::filesystem::remove(path);
  std::filesystem::remove(WaveformTracer::save_file_path(path));
}

TEST(Waveform, UnwritablePathIsAConfigError) {
  SyntheticScenario s = line_scenario("/nonexistent-directory/x.vcd");
  EXPECT_THROW((void)run_synthetic(s), ConfigError);
}
