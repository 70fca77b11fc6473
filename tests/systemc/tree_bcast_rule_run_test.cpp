// Tree broadcast driven by the forwarding-rule block in the NIC (spec tree-broadcast, document 003): every NIC runs no program; on
// each receipt it asks hls/tree_bcast_rule.hpp where to forward. These tests
// run the cycle model with the HLS class (no Verilator needed; the RTL in the
// loop is tests/systemc/nic_blocks_rtl_test.cpp) and check the spec's facts:
//
//   1. every node but the logical root receives the message exactly once, the
//      logical root never; exactly N-1 link transmissions (each message
//      crosses one network link; flit_hops = (N-1) x message);
//   2. completion against a closed form of depth x per-hop time plus
//      serialization (below);
//   3. the worked example's trace (tree 0->{1,2}, 1->{3,4}, 2->{5,6}, logical
//      root 4): 4->1; 1->3 and 1->0; 0->2; 2->5 and 2->6; six messages, depth 4;
//   4. random trees, every logical root (leaf, interior, the physical root),
//      physical root as the topology has it and moved by the key `root`.
//
// Closed form (independent of the simulator's code: the zero-load pipeline of
// tests/systemc/zero_load_test.cpp and the spec's rule). A message of L words
// whose head leaves a NIC in cycle s reaches the neighbour's NIC complete in
// cycle s + L - 1 + H, H = 2 x router_delay + link_latency + 2 x nic_latency
// (source router, link, destination router, the two NIC ports). The rule
// block answers one cycle after a receipt (or after cycle 0 at the logical
// root), and the NIC starts the first SEND in that cycle. With one
// controller the node's j-th target (0-based, in port order, which is the
// reference rule's order: parent, then children ascending) waits for the j
// messages before it:
//   a(logical root) = 0,  a(j-th target of u) = a(u) + H + (j + 1) L
// With k >= fanout controllers (dispatch next-idle) the sends overlap and
// only the dispatcher's one descriptor per cycle separates them:
//   a(j-th target of u) = a(u) + H + L + j
// A node finishes the cycle after its last receipt or delivery, so the run
// takes max a(v) + 2 cycles. Along a path this is depth x (H + L) + 2; the
// fanout adds the serialization.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collectives/algorithms/tree_bcast.hpp"
#include "systemc/run/collective_run.hpp"
#include "tests/support/error_message.hpp"
#include "topology/tree.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// One message as the network saw it: its first head flit on a network link.
struct Sent {
  topology::EndpointId source = 0;
  topology::EndpointId destination = 0;
  std::uint16_t tag = 0;
  Cycle inject = 0;
  std::set<topology::LinkId> links;  // every network link any of its flits crossed
};

struct Traced {
  CollectiveResult result;
  std::map<std::pair<topology::EndpointId, topology::EndpointId>, Sent> messages;
};

Traced run_traced(const Params& p) {
  CollectiveScenario s = collective_from(p);
  auto t = std::make_shared<Traced>();
  s.flit_probe = [t](const Link& link, const PacketHeader& h, const Flit&, Cycle) {
    Sent& m = t->messages[{h.source, h.destination}];
    if (m.links.empty()) m = Sent{h.source, h.destination, h.tag, h.inject_cycle, {}};
    m.inject = std::min(m.inject, h.inject_cycle);
    m.links.insert(link.graph_link());
  };
  t->result = run_collective(s);
  return *t;
}

struct Pipeline {
  int router_delay = 1;
  int link_latency = 1;
  int nic_latency = 1;  // RouterConfig::nic_latency (not a key)
};

/// The port of v's link to its neighbour u as the network numbers it
/// (topology/tree.hpp: 0 = the topology's parent, 1 + i = its i-th child).
std::int32_t port_of(const topology::Tree& wiring, topology::EndpointId v, topology::EndpointId u) {
  if (wiring.parent(v) == u) return 0;
  const auto& c = wiring.children(v);
  return 1 + static_cast<std::int32_t>(std::find(c.begin(), c.end(), u) - c.begin());
}

/// max a(v) + 2 of the closed form in the header. `tree` gives parent and
/// child (the scenario's physical root), `wiring` the port numbers (the
/// topology's own rooting), whose order the NIC sends in.
Cycle closed_form(const topology::Tree& tree, const topology::Tree& wiring, topology::EndpointId logical,
                  std::int64_t words, const Pipeline& p, bool concurrent) {
  const std::int64_t hop = 2 * p.router_delay + p.link_latency + 2 * p.nic_latency;
  std::int64_t last = 0;
  struct Visit {
    topology::EndpointId node, from;
    std::int64_t arrival;
  };
  std::vector<Visit> pending{{logical, topology::kNone, 0}};
  while (!pending.empty()) {
    const Visit v = pending.back();
    pending.pop_back();
    last = std::max(last, v.arrival);
    auto targets = collectives::tree_bcast_targets(tree, v.node, v.from);
    std::sort(targets.begin(), targets.end(), [&](topology::EndpointId a, topology::EndpointId b) {
      return port_of(wiring, v.node, a) < port_of(wiring, v.node, b);
    });
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const auto jj = static_cast<std::int64_t>(j);
      const std::int64_t a = concurrent ? v.arrival + hop + words + jj : v.arrival + hop + (jj + 1) * words;
      pending.push_back({targets[j], v.node, a});
    }
  }
  return static_cast<Cycle>(last + 2);
}

Params scenario(const std::string& topology, std::int64_t words, std::int64_t logical) {
  Params p{{"topology", topology}, {"algorithm", "tree-bcast"}, {"message_flits", std::to_string(words)}};
  if (logical >= 0) p.set("logical_root", std::to_string(logical));
  return p;
}

/// Facts 1 and 2 for one run of the rule; returns the result.
CollectiveResult expect_facts(const Params& p, const topology::Tree& tree, topology::EndpointId logical,
                              std::int64_t words, const std::string& what) {
  const Traced t = run_traced(p);
  const CollectiveResult& r = t.result;
  const auto n = static_cast<std::uint64_t>(tree.size());
  EXPECT_TRUE(r.completed) << what;
  EXPECT_EQ(r.schedule_engine, "hls-tree_bcast_rule") << what;
  EXPECT_TRUE(r.data_check) << what;
  EXPECT_EQ(r.reference_mismatch_words, 0) << what;
  // Fact 1: N-1 messages, each over exactly one link, between tree
  // neighbours; every node but the logical root receives exactly one.
  EXPECT_EQ(r.messages, n - 1) << what;
  EXPECT_EQ(t.messages.size(), n - 1) << what;
  EXPECT_EQ(r.flit_hops, (n - 1) * static_cast<std::uint64_t>(words)) << what;
  std::vector<int> received(n, 0);
  for (const auto& [pair, m] : t.messages) {
    ++received[static_cast<std::size_t>(m.destination)];
    EXPECT_EQ(m.links.size(), 1u) << what << " " << m.source << "->" << m.destination;
    if (!m.links.empty()) {
      EXPECT_EQ(*m.links.begin(), tree.link_between(m.source, m.destination)) << what;
    }
    // The tag is the hop count of the sender from the logical root.
    EXPECT_EQ(m.tag, tree.distance(logical, m.source)) << what;
  }
  for (topology::EndpointId v = 0; v < tree.size(); ++v)
    EXPECT_EQ(received[static_cast<std::size_t>(v)], v == logical ? 0 : 1) << what << " node " << v;
  return r;
}

}  // namespace

TEST(TreeBcastRuleNic, WorkedExampleTraceOfFact3) {
  const std::string shape = "tree:parents=-1,0,0,1,1,2,2";
  const topology::Tree tree({-1, 0, 0, 1, 1, 2, 2});
  const std::int64_t words = 8;
  const Traced t = run_traced(scenario(shape, words, 4));
  ASSERT_TRUE(t.result.completed);
  EXPECT_TRUE(t.result.data_check);
  // The trace: exactly these six messages, with the spec's stages as tags.
  const std::map<std::pair<int, int>, int> expected = {
      {{4, 1}, 0}, {{1, 3}, 1}, {{1, 0}, 1}, {{0, 2}, 2}, {{2, 5}, 3}, {{2, 6}, 3}};
  ASSERT_EQ(t.messages.size(), expected.size());
  for (const auto& [pair, tag] : expected) {
    const auto it = t.messages.find({pair.first, pair.second});
    ASSERT_NE(it, t.messages.end()) << pair.first << "->" << pair.second;
    EXPECT_EQ(it->second.tag, tag) << pair.first << "->" << pair.second;
  }
  // Each stage starts only after the message reached its sender: a node
  // forwards no earlier than H + L cycles after its sender injected.
  const Cycle hop = 2 * 1 + 1 + 2 * 1;
  auto inject = [&](int a, int b) { return t.messages.at({a, b}).inject; };
  EXPECT_GE(inject(1, 3), inject(4, 1) + hop + words);
  EXPECT_GE(inject(1, 0), inject(4, 1) + hop + words);
  EXPECT_GE(inject(0, 2), inject(1, 0) + hop + words);
  EXPECT_GE(inject(2, 5), inject(0, 2) + hop + words);
  EXPECT_GE(inject(2, 6), inject(0, 2) + hop + words);
  // Depth 4: the last message was sent at distance 3 from the logical root.
  int deepest = 0;
  for (const auto& [pair, m] : t.messages) deepest = std::max(deepest, static_cast<int>(m.tag));
  EXPECT_EQ(deepest + 1, 4);
  EXPECT_EQ(tree.eccentricity(4), 4);
  EXPECT_EQ(t.result.cycles, closed_form(tree, tree, 4, words, Pipeline{}, false));
}

TEST(TreeBcastRuleNic, CompletionEqualsClosedForm) {
  struct Case {
    std::string topology;
    std::vector<std::int32_t> parents;
  };
  const std::vector<Case> cases = {
      {"tree:parents=-1,0,1,2,3,4,5", {-1, 0, 1, 2, 3, 4, 5}},  // a path: depth x (H + L)
      {"tree:kary=2,n=15", topology::Tree::complete_kary_parents(2, 15)},
      {"tree:kary=4,n=21", topology::Tree::complete_kary_parents(4, 21)},
      {"tree:random=24,seed=7", topology::Tree::random_parents(24, 7)},
  };
  const std::vector<Pipeline> pipelines = {{1, 1, 1}, {3, 2, 1}};
  int checked = 0;
  for (const Case& c : cases) {
    const topology::Tree tree(c.parents);
    for (const Pipeline& pipe : pipelines)
      for (const std::int64_t words : {1, 8, 32})
        for (const bool concurrent : {false, true})
          for (const topology::EndpointId logical : {topology::EndpointId{0}, tree.size() - 1}) {
            Params p = scenario(c.topology, words, logical);
            p.set("router_delay", std::to_string(pipe.router_delay));
            p.set("link_latency", std::to_string(pipe.link_latency));
            if (concurrent) {
              p.set("controllers", "5");  // the largest fanout here: 4 children and a parent
              p.set("dispatch", "next-idle");
            }
            const std::string what = c.topology + " logical " + std::to_string(logical) + " words " +
                                     std::to_string(words) + " router_delay " + std::to_string(pipe.router_delay) +
                                     (concurrent ? " concurrent" : " one controller");
            const CollectiveResult r = expect_facts(p, tree, logical, words, what);
            EXPECT_EQ(r.cycles, closed_form(tree, tree, logical, words, pipe, concurrent)) << what;
            ++checked;
          }
  }
  EXPECT_EQ(checked, 4 * 2 * 3 * 2 * 2);
}

// Fact 4 (and 1): random trees, every node as logical root, with the
// physical root where the topology has it and moved by the key `root`. Where
// the physical root is the topology's, the rule's run costs exactly one
// cycle more than the reference programs: the logical root's request takes
// the block's one cycle of latency, while at every other node the answer
// arrives in the cycle the reference spends on its WAIT. With the root moved
// the NIC still walks the mask from port 0 (the topology's parent link), so
// its order of sends, and its cycles, differ from the reference programs'
// (parent by the moved root first); the closed form in port order holds.
TEST(TreeBcastRuleNic, RandomTreesEveryLogicalRoot) {
  int runs = 0;
  for (const auto& [n, seed] : std::vector<std::pair<int, int>>{{2, 1}, {9, 2}, {16, 3}, {23, 4}}) {
    const std::string shape = "tree:random=" + std::to_string(n) + ",seed=" + std::to_string(seed);
    const topology::Tree tree(topology::Tree::random_parents(n, static_cast<std::uint64_t>(seed)));
    for (const topology::EndpointId physical : {topology::EndpointId{0}, static_cast<topology::EndpointId>(n / 2)}) {
      // The rule's view: parent and child by the scenario's physical root.
      const topology::Tree view(tree.parents_rooted_at(physical));
      for (topology::EndpointId logical = 0; logical < n; ++logical) {
        const std::int64_t words = 1 + (logical % 3) * 5;
        Params p = scenario(shape, words, logical);
        p.set("root", std::to_string(physical));
        const std::string what = shape + " root " + std::to_string(physical) + " logical " + std::to_string(logical);
        const CollectiveResult rule = expect_facts(p, tree, logical, words, what);
        EXPECT_EQ(rule.cycles, closed_form(view, tree, logical, words, Pipeline{}, false)) << what;
        p.set("schedule_engine", "reference");
        const CollectiveResult reference = run_collective(collective_from(p));
        EXPECT_EQ(reference.schedule_engine, "reference");
        // Where the ports' order is the reference's (physical root = the
        // topology's), the rule costs exactly the root's one cycle.
        if (physical == 0) {
          EXPECT_EQ(rule.cycles, reference.cycles + 1) << what;
        }
        EXPECT_EQ(rule.flit_hops, reference.flit_hops) << what;
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 2 * (2 + 9 + 16 + 23));
}

TEST(TreeBcastRuleNic, KeysChooseTheRuleOrTheProgramsAndRefuseWhatTheBlockCannotHold) {
  Params p = scenario("tree:kary=3,n=13", 4, 5);
  EXPECT_EQ(run_collective(collective_from(p)).schedule_engine, "hls-tree_bcast_rule");  // auto
  p.set("schedule_engine", "hls");
  EXPECT_EQ(run_collective(collective_from(p)).schedule_engine, "hls-tree_bcast_rule");
  p.set("schedule_engine", "reference");
  EXPECT_EQ(run_collective(collective_from(p)).schedule_engine, "reference");
  // A node with 64 children needs ports 1..64; the block numbers 0..63.
  Params wide = scenario("tree:kary=64,n=66", 2, 65);
  const CollectiveResult fallback = run_collective(collective_from(wide));  // auto: the programs
  EXPECT_EQ(fallback.schedule_engine, "reference");
  EXPECT_TRUE(fallback.data_check);
  wide.set("schedule_engine", "hls");
  const std::string what = test::error_message<ConfigError>([&] { (void)run_collective(collective_from(wide)); });
  EXPECT_NE(what.find("key 'schedule_engine'"), std::string::npos) << what;
  EXPECT_NE(what.find("port 64"), std::string::npos) << what;
  EXPECT_NE(what.find("at most 63 children"), std::string::npos) << what;
}
