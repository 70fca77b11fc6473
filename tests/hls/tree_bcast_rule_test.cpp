// The tree-bcast forwarding rule block (hls/tree_bcast_rule.hpp) against the
// software reference `tree_bcast_targets` (collectives/algorithms/tree_bcast.cpp): on
// every node of random trees up to 64 nodes, for every physical root, every
// arrival port and the logical-root case, with the node's links placed on
// random ports; and a whole broadcast driven by the block from every logical
// root equals the reference program's SENDs node by node.
#include "hls/tree_bcast_rule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "collectives/algorithms/tree_bcast.hpp"
#include "topology/tree.hpp"

namespace collnet::hls {

using topology::EndpointId;
using topology::kNone;
using topology::Tree;

namespace {

/// A node's links on random distinct ports 0..63 (a switch need not wire
/// its parent to port 0).
struct PortMap {
  std::map<EndpointId, std::uint8_t> port_of;  // neighbour -> port
  std::map<std::uint8_t, EndpointId> node_at;  // port -> neighbour
};

PortMap random_ports(const Tree& tree, EndpointId v, std::mt19937_64& rng) {
  std::vector<std::uint8_t> ports(64);
  for (std::uint8_t p = 0; p < 64; ++p) ports[p] = p;
  std::shuffle(ports.begin(), ports.end(), rng);
  PortMap m;
  std::size_t i = 0;
  for (EndpointId n : tree.neighbours(v)) {
    m.port_of[n] = ports[i];
    m.node_at[ports[i]] = n;
    ++i;
  }
  return m;
}

TreeBcastRuleConfig config_of(const Tree& tree, EndpointId v, const PortMap& m) {
  TreeBcastRuleConfig c;
  c.is_root = tree.parent(v) == kNone;
  if (!c.is_root) c.parent_port = m.port_of.at(tree.parent(v));
  for (EndpointId ch : tree.children(v)) c.child_mask |= std::uint64_t{1} << m.port_of.at(ch);
  return c;
}

/// One request through the clocked block (consumer always ready): the
/// answer appears one cycle later.
std::uint64_t ask(TreeBcastRule& rule, bool from_none, std::uint8_t from_port) {
  const auto first = rule.step({true, from_none, from_port, true});
  EXPECT_TRUE(first.in_ready);
  const auto second = rule.step({false, false, 0, true});
  EXPECT_TRUE(second.out_valid);
  return second.out_mask;
}

std::set<EndpointId> to_nodes(std::uint64_t mask, const PortMap& m) {
  std::set<EndpointId> out;
  for (unsigned p = 0; p < 64; ++p)
    if ((mask >> p) & 1u) {
      auto it = m.node_at.find(static_cast<std::uint8_t>(p));
      EXPECT_NE(it, m.node_at.end()) << "mask names unused port " << p;
      if (it != m.node_at.end()) out.insert(it->second);
    }
  return out;
}

}  // namespace

TEST(TreeBcastRule, EqualsReferenceOnEveryNodeRootAndArrivalPort) {
  std::mt19937_64 rng(6);
  std::int64_t cases = 0;
  for (std::int32_t n : {1, 2, 3, 5, 8, 13, 21, 33, 64}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto parents = Tree::random_parents(n, seed);
      for (EndpointId root = 0; root < n; ++root) {
        const Tree tree(parents, root);
        for (EndpointId v = 0; v < n; ++v) {
          const PortMap m = random_ports(tree, v, rng);
          TreeBcastRule rule(config_of(tree, v, m));
          std::vector<EndpointId> froms{kNone};
          for (EndpointId nb : tree.neighbours(v)) froms.push_back(nb);
          for (EndpointId from : froms) {
            const std::uint64_t mask = ask(rule, from == kNone, from == kNone ? 0 : m.port_of.at(from));
            const auto expected = collectives::tree_bcast_targets(tree, v, from);
            ASSERT_EQ(static_cast<std::size_t>(std::popcount(mask)), expected.size())
                << "n " << n << " root " << root << " node " << v << " from " << from;
            EXPECT_EQ(to_nodes(mask, m), std::set<EndpointId>(expected.begin(), expected.end()))
                << "n " << n << " root " << root << " node " << v << " from " << from;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 10000);
}

// A whole broadcast run by the blocks (one per node, each answering on
// receipt) from every logical root sends exactly the reference program's
// SENDs at every node, and reaches every node once.
TEST(TreeBcastRule, BroadcastDrivenByTheBlockEqualsReferencePrograms) {
  std::mt19937_64 rng(7);
  for (std::int32_t n : {2, 7, 40, 64}) {
    const Tree tree(Tree::random_parents(n, static_cast<std::uint64_t>(n)));
    std::vector<PortMap> maps;
    std::vector<TreeBcastRule> rules;
    for (EndpointId v = 0; v < n; ++v) {
      maps.push_back(random_ports(tree, v, rng));
      rules.emplace_back(config_of(tree, v, maps.back()));
    }
    for (EndpointId logical = 0; logical < n; ++logical) {
      const auto s = collectives::build_tree_bcast(tree, tree.physical_root(), logical, 4);
      std::vector<std::multiset<EndpointId>> sent(static_cast<std::size_t>(n));
      std::vector<int> received(static_cast<std::size_t>(n), 0);
      std::deque<std::pair<EndpointId, EndpointId>> pending{{logical, kNone}};
      received[static_cast<std::size_t>(logical)] = 1;
      while (!pending.empty()) {
        const auto [v, from] = pending.front();
        pending.pop_front();
        const PortMap& m = maps[static_cast<std::size_t>(v)];
        const auto mask = ask(rules[static_cast<std::size_t>(v)], from == kNone, from == kNone ? 0 : m.port_of.at(from));
        for (EndpointId t : to_nodes(mask, m)) {
          sent[static_cast<std::size_t>(v)].insert(t);
          ++received[static_cast<std::size_t>(t)];
          pending.emplace_back(t, v);
        }
      }
      for (EndpointId v = 0; v < n; ++v) {
        EXPECT_EQ(received[static_cast<std::size_t>(v)], 1) << "node " << v << " logical root " << logical;
        std::multiset<EndpointId> ref;
        for (const auto& d : s.programs[static_cast<std::size_t>(v)])
          if (d.opcode == Opcode::send) ref.insert(static_cast<EndpointId>(d.dest));
        EXPECT_EQ(sent[static_cast<std::size_t>(v)], ref) << "node " << v << " logical root " << logical;
      }
    }
  }
}

// Handshake: the answer stays stable while the consumer is not ready, and no
// new request is accepted until it is taken.
TEST(TreeBcastRule, HoldsAnswerUnderBackPressure) {
  TreeBcastRuleConfig c;
  c.parent_port = 3;
  c.child_mask = (1u << 0) | (1u << 5);
  TreeBcastRule rule(c);
  EXPECT_TRUE(rule.step({true, false, 5, false}).in_ready);
  for (int i = 0; i < 3; ++i) {
    const auto out = rule.step({true, false, 0, false});
    EXPECT_TRUE(out.out_valid);
    EXPECT_FALSE(out.in_ready);
    EXPECT_EQ(out.out_mask, (1u << 0) | (1u << 3));
  }
  const auto taken = rule.step({true, false, 0, true});  // taken; request from port 0 accepted
  EXPECT_TRUE(taken.in_ready);
  EXPECT_EQ(taken.out_mask, (1u << 0) | (1u << 3));
  const auto next = rule.step({false, false, 0, true});
  EXPECT_TRUE(next.out_valid);
  EXPECT_EQ(next.out_mask, (1u << 3) | (1u << 5));
  EXPECT_FALSE(rule.step({false, false, 0, true}).out_valid);
}

}  // namespace collnet::hls
