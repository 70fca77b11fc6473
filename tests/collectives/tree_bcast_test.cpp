// tree-bcast (spec tree-broadcast, document 003): the forwarding rule, the
// worked trace, and facts 1-4 on random trees for every kind of logical root.
#include "collectives/algorithms/tree_bcast.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "tests/support/tree_distances.hpp"

using namespace collnet;
using namespace collnet::collectives;
using topology::kNone;
using topology::Tree;

namespace {

const std::vector<std::int32_t> kExample{-1, 0, 0, 1, 1, 2, 2};

struct Transfer {
  EndpointId from, to;
  std::uint32_t tag;
  auto operator<=>(const Transfer&) const = default;
};

std::vector<Transfer> transfers(const Schedule& s) {
  std::vector<Transfer> t;
  for (std::size_t e = 0; e < s.endpoints(); ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send) t.push_back({static_cast<EndpointId>(e), static_cast<EndpointId>(d.dest), d.tag});
  return t;
}

void expect_correct_under_every_order(const Schedule& s) {
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const ExecResult r = execute(s, {order, 11});
    const DataCheck c = check_data(s, r.memory);
    EXPECT_TRUE(c.pass) << (c.first_errors.empty() ? "" : c.first_errors.front());
    EXPECT_EQ(r.messages, static_cast<std::int64_t>(s.endpoints()) - 1);
  }
}

std::string config_error(const Algorithm& a, const topology::Topology& t, const Params& p) {
  try {
    (void)a.build(t, p);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// The four cases of the rule (spec tree-broadcast: algorithm).
TEST(TreeBcastRule, TheFourCases) {
  const std::vector<EndpointId> kids{3, 4};
  // Logical root: parent and all children.
  EXPECT_EQ(tree_bcast_targets(0, kids, kNone), (std::vector<EndpointId>{0, 3, 4}));
  // Physical root (no parent): children except the sender.
  const std::vector<EndpointId> root_kids{1, 2};
  EXPECT_EQ(tree_bcast_targets(kNone, root_kids, 1), (std::vector<EndpointId>{2}));
  // From the parent: all children; a leaf sends nothing.
  EXPECT_EQ(tree_bcast_targets(0, kids, 0), (std::vector<EndpointId>{3, 4}));
  EXPECT_TRUE(tree_bcast_targets(1, std::vector<EndpointId>{}, 1).empty());
  // From a child: parent and the other children.
  EXPECT_EQ(tree_bcast_targets(0, kids, 4), (std::vector<EndpointId>{0, 3}));
  // The physical root as logical root: all its children.
  EXPECT_EQ(tree_bcast_targets(kNone, root_kids, kNone), (std::vector<EndpointId>{1, 2}));
}

// spec tree-broadcast fact 3: 4->1; 1->3 and 1->0; 0->2; 2->5 and 2->6. Six
// messages, depth 4.
TEST(TreeBcast, WorkedTrace) {
  Tree t(kExample);
  const Schedule s = build_tree_bcast(t, 0, 4, 8);
  auto got = transfers(s);
  std::sort(got.begin(), got.end());
  std::vector<Transfer> want{{4, 1, 0}, {1, 3, 1}, {1, 0, 1}, {0, 2, 2}, {2, 5, 3}, {2, 6, 3}};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  const StaticReport r = static_check(t, s);
  EXPECT_EQ(r.transfers, 6);
  EXPECT_EQ(r.phases.size(), 4u);  // completion depth
  EXPECT_EQ(r.static_time, 4 * 8);
  EXPECT_EQ(s.lower_bound, 4 * 8);
  expect_correct_under_every_order(s);
}

// spec tree-broadcast facts 1, 2 and 4 on random trees (random labels, random
// physical root) with the logical root a leaf, an interior node or the
// physical root itself.
RC_GTEST_PROP(TreeBcast, ExactlyOnceOnRandomTreesForEveryKindOfLogicalRoot, ()) {
  const int n = *rc::gen::inRange(2, 30);
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(*rc::gen::inRange(0, i + 1))]);
  std::vector<std::int32_t> parents(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i)
    parents[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] =
        order[static_cast<std::size_t>(*rc::gen::inRange(0, i))];
  const int physical = *rc::gen::inRange(0, n);
  Tree t(parents, physical);

  std::vector<int> leaves, interior;
  for (int v = 0; v < n; ++v) {
    if (v == physical) continue;
    (t.is_leaf(v) ? leaves : interior).push_back(v);
  }
  const int kind = *rc::gen::element(0, 1, 2);  // 0 leaf, 1 interior, 2 the physical root
  int logical = physical;
  if (kind == 0 && !leaves.empty()) logical = *rc::gen::elementOf(leaves);
  if (kind == 1 && !interior.empty()) logical = *rc::gen::elementOf(interior);
  RC_TAG(logical == physical ? "physical root" : t.is_leaf(logical) ? "leaf" : "interior");

  const std::uint32_t words = *rc::gen::inRange(1, 6);
  const Schedule s = build_tree_bcast(t, physical, logical, words);
  const auto dist = test::tree_distances(parents, logical);
  const int depth = *std::max_element(dist.begin(), dist.end());

  // Fact 1: every node but the logical root receives exactly once, the
  // logical root never; every transfer joins tree neighbours, and the
  // receiver is one step farther from the logical root.
  std::map<EndpointId, int> received;
  for (const Transfer& x : transfers(s)) {
    ++received[x.to];
    RC_ASSERT(t.distance(x.from, x.to) == 1);
    RC_ASSERT(dist[static_cast<std::size_t>(x.to)] == dist[static_cast<std::size_t>(x.from)] + 1);
    RC_ASSERT(static_cast<int>(x.tag) == dist[static_cast<std::size_t>(x.from)]);
  }
  RC_ASSERT(received.count(logical) == 0u);
  for (int v = 0; v < n; ++v)
    if (v != logical) RC_ASSERT(received[v] == 1);
  // Exactly N-1 link transmissions, at most one message per link per phase.
  const StaticReport r = static_check(t, s);
  RC_ASSERT(r.transfers == n - 1);
  std::int64_t link_messages = 0;
  for (const auto& p : r.phases)
    for (const auto& l : p.links) link_messages += l.messages;
  RC_ASSERT(link_messages == n - 1);
  RC_ASSERT(r.max_link_load <= 1);
  // Fact 2: completion depth = eccentricity of the logical root.
  RC_ASSERT(static_cast<int>(r.phases.size()) == depth);
  // Every node holds the message under every delivery order.
  for (auto o : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const ExecResult x = execute(s, {o, static_cast<std::uint64_t>(n)});
    RC_ASSERT(check_data(s, x.memory).pass);
    for (int v = 0; v < n; ++v)
      for (std::uint32_t i = 0; i < words; ++i)
        RC_ASSERT(x.memory[static_cast<std::size_t>(v)][i] ==
                  payload_word(static_cast<std::uint64_t>(logical), static_cast<std::uint64_t>(logical), i));
  }
}

// The rule needs parent/child only to tell the cases apart: on a tree every
// case amounts to "all neighbours except the sender" (a second formulation).
RC_GTEST_PROP(TreeBcastRule, EqualsAllNeighboursButTheSender, ()) {
  const int n = *rc::gen::inRange(1, 25);
  std::vector<std::int32_t> parents(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i) parents[static_cast<std::size_t>(i)] = *rc::gen::inRange(0, i);
  Tree t(parents, *rc::gen::inRange(0, n));
  const int v = *rc::gen::inRange(0, n);
  const auto nb = t.neighbours(v);
  std::vector<EndpointId> choices = nb;
  choices.push_back(kNone);
  const EndpointId from = *rc::gen::elementOf(choices);
  std::set<EndpointId> want(nb.begin(), nb.end());
  want.erase(from);
  const auto got = tree_bcast_targets(t, v, from);
  RC_ASSERT(std::set<EndpointId>(got.begin(), got.end()) == want);
  RC_ASSERT(got.size() == want.size());
}

TEST(TreeBcast, AlgorithmDefaultsAndRootKey) {
  const Algorithm& a = find_algorithm("tree-bcast");
  auto topo = topology::make_topology("tree:kary=2,n=7");
  // Default logical root: the lowest-numbered leaf (3).
  const Schedule s = a.build(*topo, Params{{"message_flits", "4"}});
  EXPECT_EQ(s.programs[3].front().opcode, Opcode::send);
  EXPECT_EQ(s.memory_words, 4u);
  expect_correct_under_every_order(s);
  // Another physical root: parent/child follow it; the broadcast still
  // reaches everyone exactly once.
  const Schedule r = a.build(*topo, Params{{"root", "4"}, {"logical_root", "0"}});
  EXPECT_EQ(static_check(*topo, r).transfers, 6);
  expect_correct_under_every_order(r);
  std::vector<std::string> names;
  for (const auto& k : a.keys) names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"root", "logical_root"}));
}

TEST(TreeBcast, BadInputNamesTheKey) {
  const Algorithm& a = find_algorithm("tree-bcast");
  auto tree = topology::make_topology("tree:parents=-1,0,0,1,1,2,2");
  const std::string m = config_error(a, *tree, Params{{"logical_root", "7"}});
  EXPECT_NE(m.find("logical_root"), std::string::npos) << m;
  EXPECT_NE(m.find("0 to 6"), std::string::npos) << m;
  EXPECT_NE(config_error(a, *tree, Params{{"root", "-1"}}).find("'root'"), std::string::npos);
  EXPECT_NE(config_error(a, *tree, Params{{"message_flits", "0"}}).find("message_flits"), std::string::npos);
  auto torus = topology::make_topology("torus:4x4");
  const std::string t = config_error(a, *torus, Params{});
  EXPECT_NE(t.find("topology"), std::string::npos) << t;
  EXPECT_NE(t.find("tree:"), std::string::npos) << t;
  Tree small(kExample);
  EXPECT_THROW((void)build_tree_bcast(small, 0, 9, 1), ConfigError);
  EXPECT_THROW((void)build_tree_bcast(small, 9, 0, 1), ConfigError);
}

TEST(TreeBcast, OneNodeTreeSendsNothing) {
  Tree t(std::vector<std::int32_t>{-1});
  const Schedule s = build_tree_bcast(t, 0, default_logical_root(t), 3);
  EXPECT_TRUE(transfers(s).empty());
  EXPECT_TRUE(check_data(s, execute(s).memory).pass);
}
