// Aggregation trees (topology/aggregation.hpp) against the fabrics' own
// geometry: every endpoint contributes exactly once in every tree, every
// tree edge is a physical link one hop nearer the root, the roots are the
// spines (leaf/spine), the top switches (fat tree: every endpoint pair's
// nearest common ancestor) or the center (tree network), and switches that
// cannot aggregate are refused.
#include "topology/aggregation.hpp"

#include <gtest/gtest.h>

#include <set>

#include "topology/fattree.hpp"
#include "topology/leafspine.hpp"
#include "topology/tree.hpp"

using namespace collnet::topology;

namespace {

/// Checks what every aggregation tree must satisfy.
void expect_spanning(const Topology& topology, const AggregationTree& t) {
  const Graph& g = topology.graph();
  std::multiset<EndpointId> seen;
  std::set<NodeId> members(t.switches.begin(), t.switches.end());
  ASSERT_EQ(members.size(), t.switches.size());
  EXPECT_EQ(t.switches.front(), t.root);
  for (const NodeId v : t.switches) {
    EXPECT_TRUE(aggregates(g.node(v).kind)) << g.node_name(v);
    EXPECT_LE(t.children[static_cast<std::size_t>(v)].size(), static_cast<std::size_t>(kMaxAggregationChildren));
    EXPECT_FALSE(t.children[static_cast<std::size_t>(v)].empty()) << g.node_name(v) << " has nothing below it";
    if (v != t.root) {
      const NodeId p = t.parent[static_cast<std::size_t>(v)];
      ASSERT_TRUE(members.count(p)) << g.node_name(v);
      const Link& up = g.link(t.up_link[static_cast<std::size_t>(v)]);
      EXPECT_EQ(up.src, v);
      EXPECT_EQ(up.dst, p);
    }
    for (const AggregationChild& c : t.children[static_cast<std::size_t>(v)]) {
      if (c.endpoint != kNone) {
        seen.insert(c.endpoint);
        const NodeId en = g.endpoint_node(c.endpoint);
        if (en == v) {
          EXPECT_EQ(c.up, kNone);
        } else {
          EXPECT_EQ(g.link(c.up).src, en);
          EXPECT_EQ(g.link(c.up).dst, v);
          EXPECT_EQ(g.link(c.down).src, v);
          EXPECT_EQ(g.link(c.down).dst, en);
        }
      } else {
        EXPECT_EQ(t.parent[static_cast<std::size_t>(c.node)], v);
        EXPECT_EQ(g.link(c.down).src, v);
        EXPECT_EQ(g.link(c.down).dst, c.node);
      }
    }
  }
  for (EndpointId e = 0; e < topology.endpoint_count(); ++e) EXPECT_EQ(seen.count(e), 1u) << "endpoint " << e;
}

}  // namespace

TEST(AggregationTrees, LeafSpineOneSpinePerTreeOverTheFullMesh) {
  const auto ls = LeafSpine::full_mesh(6);
  const std::vector<NodeId> roots = aggregation_roots(*ls);
  ASSERT_EQ(roots.size(), 6u);  // p(p+2)/8 spines
  for (int s = 0; s < 6; ++s) EXPECT_EQ(roots[static_cast<std::size_t>(s)], ls->spine_node(s));
  std::set<std::set<NodeId>> relays;
  for (int t = 0; t < 6; ++t) {
    const AggregationTree tree = aggregation_tree(*ls, t);
    SCOPED_TRACE(t);
    expect_spanning(*ls, tree);
    EXPECT_EQ(tree.root, ls->spine_node(t));
    // The root spine's children: the leaves of its column pair, all 3 layers.
    const auto& top = tree.children[static_cast<std::size_t>(tree.root)];
    ASSERT_EQ(top.size(), 6u);
    std::set<int> columns;
    for (const AggregationChild& c : top) {
      const Node& n = ls->graph().node(c.node);
      EXPECT_EQ(n.kind, NodeKind::leaf);
      for (int leaf = 0; leaf < ls->leaf_count(); ++leaf)
        if (ls->leaf_node(leaf) == c.node) columns.insert(ls->column(leaf));
    }
    EXPECT_EQ(columns.size(), 2u);
    // The other two columns climb through relay spines, each shared by a
    // root column (its parent leaf's) and another column (its children's):
    // levels spine, leaf, spine, leaf; every leaf holds its 3 servers.
    EXPECT_EQ(tree.levels, 4);
    const auto column_of = [&](NodeId node) {
      for (int leaf = 0; leaf < ls->leaf_count(); ++leaf)
        if (ls->leaf_node(leaf) == node) return ls->column(leaf);
      return -1;
    };
    std::set<NodeId> tree_relays;
    for (const NodeId v : tree.switches) {
      const auto& below = tree.children[static_cast<std::size_t>(v)];
      if (v != tree.root && ls->graph().node(v).kind == NodeKind::spine) {
        tree_relays.insert(v);
        EXPECT_TRUE(columns.count(column_of(tree.parent[static_cast<std::size_t>(v)])));
        for (const AggregationChild& c : below) EXPECT_FALSE(columns.count(column_of(c.node)));
      }
      if (ls->graph().node(v).kind != NodeKind::leaf) continue;
      int servers = 0;
      for (const AggregationChild& c : below) servers += c.endpoint != kNone;
      EXPECT_EQ(servers, 3);
    }
    EXPECT_GE(tree_relays.size(), 2u);
    EXPECT_LE(tree_relays.size(), 4u);
    relays.insert(tree_relays);
  }
  EXPECT_GT(relays.size(), 1u) << "every tree relays through the same spines";
}

TEST(AggregationTrees, FatTreeRootsAreTheTopSwitches) {
  for (const auto& [k, n] : {std::pair{4, 2}, std::pair{4, 3}, std::pair{2, 4}}) {
    const auto ft = make_topology("fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n));
    const auto& f = static_cast<const FatTree&>(*ft);
    const std::vector<NodeId> roots = aggregation_roots(f);
    ASSERT_EQ(roots.size(), static_cast<std::size_t>(f.switches_per_level()));
    for (const NodeId r : roots) EXPECT_EQ(f.level(r), 0);
    for (int t = 0; t < static_cast<int>(roots.size()); ++t) {
      SCOPED_TRACE(f.name() + " tree " + std::to_string(t));
      const AggregationTree tree = aggregation_tree(f, t);
      expect_spanning(f, tree);
      EXPECT_EQ(tree.levels, n);
      // the down-tree of a top switch: every switch has its k down ports
      // as children, and each switch's parent is one level up
      std::size_t switches = 0;
      for (std::size_t level = 0, width = 1; level < static_cast<std::size_t>(n); ++level, width *= static_cast<std::size_t>(k))
        switches += width;
      EXPECT_EQ(tree.switches.size(), switches);
      for (const NodeId v : tree.switches) {
        EXPECT_EQ(tree.children[static_cast<std::size_t>(v)].size(), static_cast<std::size_t>(k));
        if (v != tree.root) {
          EXPECT_EQ(f.level(tree.parent[static_cast<std::size_t>(v)]), f.level(v) - 1);
        }
      }
    }
  }
}

TEST(AggregationTrees, TreeNetworkIsItsOwnAggregationTree) {
  const auto topology = make_topology("tree:kary=2,n=7");
  const auto& tree = static_cast<const Tree&>(*topology);
  ASSERT_EQ(aggregation_roots(tree), std::vector<NodeId>{tree.graph().endpoint_node(0)});
  const AggregationTree t = aggregation_tree(tree, 0);
  expect_spanning(tree, t);
  EXPECT_EQ(t.levels, 3);
  for (EndpointId v = 0; v < 7; ++v) {
    const NodeId node = tree.graph().endpoint_node(v);
    // its own endpoint first, then its tree children
    const auto& children = t.children[static_cast<std::size_t>(node)];
    ASSERT_EQ(children.size(), 1 + tree.children(v).size()) << v;
    EXPECT_EQ(children[0].endpoint, v);
    for (std::size_t i = 0; i < tree.children(v).size(); ++i)
      EXPECT_EQ(children[1 + i].node, tree.graph().endpoint_node(tree.children(v)[i]));
  }
}

TEST(AggregationTrees, SwitchesThatCannotAggregateAreRefused) {
  for (const char* spec : {"torus:4x4", "mesh:3x3", "dragonfly:p=1,a=2,h=1"}) {
    const auto topology = make_topology(spec);
    const std::string problem = aggregation_problem(*topology);
    EXPECT_NE(problem.find("cannot aggregate"), std::string::npos) << spec << ": " << problem;
    EXPECT_TRUE(aggregation_roots(*topology).empty());
    EXPECT_THROW((void)aggregation_tree(*topology, 0), TopologyError) << spec;
  }
  // leafspine:p=10: a root spine has 2 columns x 5 layers = 10 children, more
  // than the engine's 8 child ports
  const auto wide = LeafSpine::full_mesh(10);
  EXPECT_TRUE(aggregation_problem(*wide).empty());
  try {
    (void)aggregation_tree(*wide, 0);
    ADD_FAILURE() << "a switch of 10 children was accepted";
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find("10 children"), std::string::npos) << e.what();
  }
}
