// The waveform a user opens: `collnet run --vcd FILE` and then GTKWave itself
// (`gtkwave FILE FILE.gtkw` on a virtual X server, tests/support/gtkwave_runner.hpp).
// What GTKWave shows must be the whole run from cycle 0, and the rows in the
// order docs/guide/waveforms.md gives: the overview (one `flows` row per
// directed link, open), the per-link details (closed), the nodes' phase,
// barrier and injection rows, then the routers (closed). And the node
// signals agree with the run's statistics, which tracing leaves unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "tests/support/gtkwave_runner.hpp"

using namespace collnet::test;

namespace {

/// The last time stamp of a VCD file and its declared signals, read from the
/// text (independently of collnet's writer and of GTKWave).
struct VcdFacts {
  long long last_time = -1;
  std::vector<std::string> flows;  // hierarchical names of the links' flows signals, in file order
  std::vector<std::string> nodes;  // node scopes under network.nodes, in file order
};

VcdFacts read_vcd(const fs::path& path) {
  VcdFacts f;
  std::ifstream in(path);
  std::vector<std::string> scope;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (w == "$scope") {
      std::string kind, name;
      ls >> kind >> name;
      scope.push_back(name);
      if (scope.size() == 3 && scope[1] == "nodes") f.nodes.push_back(name);
    } else if (w == "$upscope") {
      scope.pop_back();
    } else if (w == "$var") {
      std::string kind, bits, id, name;
      ls >> kind >> bits >> id >> name;
      if (name == "flows") {
        std::string full;
        for (const auto& s : scope) full += s + ".";
        f.flows.push_back(full + "flows[15:0]");
      }
    } else if (!w.empty() && w[0] == '#') {
      f.last_time = std::stoll(w.substr(1));
    }
  }
  return f;
}

/// Per 1-bit signal of a VCD file: the cycles it is 1 (up to the last time)
/// and its rising edges, by hierarchical name.
struct BitSignals {
  std::map<std::string, long long> high_cycles;
  std::map<std::string, int> rises;
};

BitSignals read_bits(const fs::path& path) {
  BitSignals b;
  std::ifstream in(path);
  std::vector<std::string> scope;
  std::map<std::string, std::string> name_of;  // 1-bit identifiers only
  std::map<std::string, long long> high_since;
  long long now = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (w.empty()) continue;
    if (w == "$scope") {
      std::string kind, name;
      ls >> kind >> name;
      scope.push_back(name);
    } else if (w == "$upscope") {
      scope.pop_back();
    } else if (w == "$var") {
      std::string kind, bits, id, name;
      ls >> kind >> bits >> id >> name;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      if (bits == "1") name_of[id] = full + name;
    } else if (w[0] == '#') {
      now = std::stoll(w.substr(1));
    } else if ((w[0] == '0' || w[0] == '1') && name_of.count(w.substr(1)) != 0) {
      const std::string& name = name_of[w.substr(1)];
      auto it = high_since.find(name);
      if (w[0] == '1' && it == high_since.end()) {
        high_since[name] = now;
        ++b.rises[name];
      } else if (w[0] == '0' && it != high_since.end()) {
        b.high_cycles[name] += now - it->second;
        high_since.erase(it);
      }
    }
  }
  for (const auto& [name, since] : high_since) b.high_cycles[name] += now - since;
  return b;
}

}  // namespace

TEST(Gtkwave, NodeSignalsAgreeWithTheRunAndTracingChangesNothing) {
  const std::string options = "run --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set compare=";
  const fs::path vcd = scratch() / "same.vcd";
  const JsonRun traced = run_words_json(options + " --vcd " + vcd.string(), "traced.json");
  const JsonRun plain = run_words_json(options, "plain.json");
  ASSERT_EQ(traced.status, 0) << traced.out << traced.err;
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  for (const char* key : {"cycles", "flits", "flit_hops", "packets", "barriers", "barrier_wait_cycles",
                          "arbitration_conflicts", "max_queue_flits", "router_evaluations", "nic_evaluations"})
    EXPECT_EQ(traced.json.at(key), plain.json.at(key)) << key;

  // Every injected flit is one cycle of some controller's inject pulse,
  // every flit hop one cycle of some link's busy pulse, and every node
  // enters each of the run's barriers once.
  const BitSignals bits = read_bits(vcd);
  long long inject = 0, link_busy = 0;
  int nodes = 0;
  for (const auto& [name, cycles] : bits.high_cycles) {
    if (name.find("_inject") != std::string::npos) inject += cycles;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".busy") == 0) link_busy += cycles;
  }
  for (const auto& [name, rises] : bits.rises) {
    if (name.size() < 8 || name.compare(name.size() - 8, 8, ".barrier") != 0) continue;
    ++nodes;
    EXPECT_EQ(rises, plain.json.at("barriers").get<int>()) << name;
  }
  EXPECT_EQ(nodes, 16);
  EXPECT_EQ(inject, plain.json.at("flits").get<long long>());
  EXPECT_EQ(link_busy, plain.json.at("flit_hops").get<long long>());
}

TEST(Gtkwave, OpensTheWholeRunWithOverviewNodesAndDetailsInOrder) {
  if (const std::string missing = gtkwave_missing(); !missing.empty())
    COLLNET_SKIP_OUTSIDE_CI(missing << " not installed", "gtkwave, xvfb and xauth");
  // All-to-all by hop groups on a 4x4 torus: two controllers per node,
  // barriers between the hop groups.
  const fs::path vcd = scratch() / "hop.vcd";
  const JsonRun run = run_words_json(
      "run --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set compare= --vcd " + vcd.string(), "hop.json");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  const VcdFacts vcd_facts = read_vcd(vcd);
  const long long cycles = run.json.at("cycles").get<long long>();
  ASSERT_GT(cycles, 100);
  ASSERT_GE(vcd_facts.last_time, cycles);  // the dump reaches the end of the run
  ASSERT_EQ(vcd_facts.flows.size(), 64u);  // 16 nodes x 4 directed links
  ASSERT_EQ(vcd_facts.nodes.size(), 16u);

  const std::string r0 = "network.nodes." + vcd_facts.nodes[0];
  const GtkwaveReport g =
      run_gtkwave(vcd.string(), vcd.string() + ".gtkw",
                  {r0 + ".phase[15:0]", r0 + ".barrier", r0 + ".c0_inject", vcd_facts.flows[0]});
  ASSERT_TRUE(g.window_seen) << "GTKWave exit status " << g.status << ":\n" << g.output;

  // The whole run from cycle 0, filling most of the wave pane.
  EXPECT_EQ(g.max_time, vcd_facts.last_time);
  EXPECT_EQ(g.window_start, 0);
  EXPECT_GE(g.window_end, vcd_facts.last_time) << g.output;
  EXPECT_LE(static_cast<double>(g.window_end), 1.25 * static_cast<double>(vcd_facts.last_time)) << g.output;

  // Rows: the overview group first, open, one row per directed link.
  ASSERT_FALSE(g.traces.empty());
  EXPECT_TRUE(g.traces[0].group_begin());
  EXPECT_FALSE(g.traces[0].closed());
  EXPECT_EQ(g.traces[0].name, "overview: flows");
  std::vector<std::string> groups;  // top-level and nested group titles in order, with their state
  std::vector<bool> closed;
  int overview_rows = 0;
  int depth = 0;
  bool in_overview = false;
  for (const GtkwaveTrace& t : g.traces) {
    if (t.group_begin()) {
      if (depth == 0) in_overview = t.name == "overview: flows";
      if (depth == 0) {
        groups.push_back(t.name);
        closed.push_back(t.closed());
      }
      ++depth;
    } else if (t.group_end()) {
      --depth;
    } else if (in_overview && t.signal()) {
      ++overview_rows;
      EXPECT_TRUE(std::regex_match(t.name, std::regex("r[0-9]+:[xy][+-]->r[0-9]+"))) << t.name;
    }
  }
  EXPECT_EQ(overview_rows, 64);
  const std::vector<std::string> expected_groups = {
      "overview: flows", "links x+",     "links x-",      "links y+",    "links y-",
      "nodes: phase",    "nodes: barrier", "nodes: inject", "nodes: busy", "routers: occupancy"};
  EXPECT_EQ(groups, expected_groups);
  EXPECT_EQ(closed, (std::vector<bool>{false, true, true, true, true, false, false, false, true, true}));

  // Displayed signals in that order: every link's flows once, the four
  // detail signals per link, then per node phase, barrier and injection.
  ASSERT_GE(g.signals.size(), 64u + 4 * 64u + 16u + 16u);
  const std::set<std::string> overview(g.signals.begin(), g.signals.begin() + 64);
  EXPECT_EQ(overview, std::set<std::string>(vcd_facts.flows.begin(), vcd_facts.flows.end()));
  const std::size_t nodes_at = 64 + 4 * 64;
  for (std::size_t n = 0; n < 16; ++n) {
    EXPECT_EQ(g.signals[nodes_at + n], "network.nodes." + vcd_facts.nodes[n] + ".phase[15:0]");
    EXPECT_EQ(g.signals[nodes_at + 16 + n], "network.nodes." + vcd_facts.nodes[n] + ".barrier");
  }
  EXPECT_EQ(g.signals[nodes_at + 32], r0 + ".c0_inject");

  // GTKWave reads moving signals: the node steps through phases, waits in
  // barriers, injects flits, and links are shared by flows.
  EXPECT_GE(g.changes.at(r0 + ".phase[15:0]").count, 3);
  EXPECT_GE(g.changes.at(r0 + ".barrier").count, 2);
  EXPECT_GE(g.changes.at(r0 + ".c0_inject").count, 2);
  EXPECT_GE(g.changes.at(vcd_facts.flows[0]).max_value, 1u);
}
