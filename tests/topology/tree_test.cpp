#include "topology/tree.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "tests/support/tree_distances.hpp"

using namespace collnet::topology;

namespace {

// The tree of spec tree-broadcast fact 3: 0->{1,2}, 1->{3,4}, 2->{5,6}.
const std::vector<std::int32_t> kExample{-1, 0, 0, 1, 1, 2, 2};

// A random tree shape with shuffled labels (so that parents are not always
// smaller than their children), from RapidCheck.
std::vector<std::int32_t> random_shape(int n) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  auto perm = order;
  for (int i = n - 1; i > 0; --i)
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(*rc::gen::inRange(0, i + 1))]);
  std::vector<std::int32_t> parents(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i) {
    const int p = *rc::gen::inRange(0, i);
    parents[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = perm[static_cast<std::size_t>(p)];
  }
  return parents;
}

}  // namespace

TEST(Tree, ParentListGivesParentsChildrenLeavesAndDepths) {
  Tree t(kExample);
  EXPECT_EQ(t.size(), 7);
  EXPECT_EQ(t.physical_root(), 0);
  EXPECT_EQ(t.parent(0), kNone);
  EXPECT_EQ(t.parent(4), 1);
  EXPECT_EQ(t.children(0), (std::vector<EndpointId>{1, 2}));
  EXPECT_EQ(t.children(2), (std::vector<EndpointId>{5, 6}));
  for (EndpointId v : {3, 4, 5, 6}) EXPECT_TRUE(t.is_leaf(v));
  for (EndpointId v : {0, 1, 2}) EXPECT_FALSE(t.is_leaf(v));
  EXPECT_EQ(t.depth(6), 2);
  EXPECT_EQ(t.neighbours(1), (std::vector<EndpointId>{0, 3, 4}));
  EXPECT_EQ(t.distance(4, 6), 4);
  EXPECT_EQ(t.eccentricity(4), 4);
  EXPECT_EQ(t.eccentricity(0), 2);
  EXPECT_EQ(t.name(), "tree:parents=-1,0,0,1,1,2,2");
  for (EndpointId v = 0; v < 7; ++v) {
    EXPECT_EQ(t.graph().node(v).kind, NodeKind::tree_node);
    EXPECT_EQ(t.graph().endpoint_node(v), v);
  }
}

// Port 0 = uplink to the parent, port 1+i = i-th child; one cable per edge.
TEST(Tree, PortsAreUplinkThenChildrenAndEveryEdgeIsACable) {
  Tree t(kExample);
  EXPECT_EQ(t.graph().link_count(), 2u * 6u);
  const Graph& g = t.graph();
  const Link& up = g.link(g.node(4).out_ports.at(0));
  EXPECT_EQ(up.dst, 1);
  const Link& second_child = g.link(g.node(1).out_ports.at(2));
  EXPECT_EQ(second_child.dst, 4);
  EXPECT_EQ(second_child.dst_port, 0);
  EXPECT_EQ(g.node(0).out_ports.at(0), kNone);  // the physical root has no uplink
}

TEST(Tree, RouteIsTheUniquePath) {
  Tree t(kExample);
  const Route r = t.route(3, 6);
  std::vector<NodeId> visited{3};
  for (const Hop& h : r) {
    EXPECT_EQ(t.graph().link(h.link).src, visited.back());
    visited.push_back(t.graph().link(h.link).dst);
    EXPECT_EQ(h.vc_class, 0);
  }
  EXPECT_EQ(visited, (std::vector<NodeId>{3, 1, 0, 2, 6}));
  EXPECT_TRUE(t.route(5, 5).empty());
  EXPECT_EQ(t.route(2, 0).size(), 1u);
}

TEST(Tree, RerootingKeepsTheShapeAndMovesTheRoles) {
  Tree t(kExample, 4);
  EXPECT_EQ(t.physical_root(), 4);
  EXPECT_EQ(t.parent(4), kNone);
  EXPECT_EQ(t.parent(1), 4);
  EXPECT_EQ(t.parent(0), 1);
  EXPECT_EQ(t.children(1), (std::vector<EndpointId>{0, 3}));
  EXPECT_TRUE(t.is_leaf(3));
  EXPECT_FALSE(t.is_leaf(0));
  EXPECT_EQ(t.depth(6), 4);
  EXPECT_EQ(t.parents_rooted_at(0), kExample);
  EXPECT_EQ(t.name(), "tree:parents=-1,0,0,1,1,2,2,root=4");
}

TEST(Tree, CompleteKaryMatchesTheClosedForm) {
  EXPECT_EQ(Tree::complete_kary_parents(2, 7), kExample);
  const auto p = Tree::complete_kary_parents(3, 13);
  Tree t(p);
  EXPECT_EQ(t.children(0), (std::vector<EndpointId>{1, 2, 3}));
  EXPECT_EQ(t.children(3), (std::vector<EndpointId>{10, 11, 12}));
  EXPECT_TRUE(t.is_leaf(4));
  EXPECT_EQ(t.depth(12), 2);
}

TEST(Tree, RandomFormIsDeterministicAndAValidTree) {
  const auto a = Tree::random_parents(50, 7);
  EXPECT_EQ(a, Tree::random_parents(50, 7));
  EXPECT_NE(a, Tree::random_parents(50, 8));
  EXPECT_EQ(a[0], -1);
  for (std::size_t i = 1; i < a.size(); ++i) {
    EXPECT_GE(a[i], 0);
    EXPECT_LT(a[i], static_cast<std::int32_t>(i));
  }
  EXPECT_NO_THROW(Tree{a});
}

TEST(Tree, FactoryForms) {
  auto a = make_topology("tree:parents=-1,0,0,1,1,2,2");
  EXPECT_EQ(a->name(), "tree:parents=-1,0,0,1,1,2,2");
  EXPECT_EQ(a->endpoint_count(), 7);
  auto b = make_topology("tree:kary=2,n=7");
  const auto& tb = dynamic_cast<const Tree&>(*b);
  EXPECT_EQ(tb.parents_rooted_at(0), kExample);
  auto c = make_topology("tree:random=20,seed=3,root=5");
  const auto& tc = dynamic_cast<const Tree&>(*c);
  EXPECT_EQ(tc.physical_root(), 5);
  EXPECT_EQ(tc.parents_rooted_at(0), Tree::random_parents(20, 3));
  EXPECT_EQ(c->name(), "tree:random=20,seed=3,root=5");
  auto d = make_topology("tree:parents=-1,0,0,1,1,2,2,root=4");
  EXPECT_EQ(dynamic_cast<const Tree&>(*d).physical_root(), 4);
  EXPECT_EQ(make_topology("tree:random=5")->name(), "tree:random=5,seed=1");
}

TEST(Tree, BadInputNamesTheProblem) {
  auto message = [](const std::string& spec) {
    try {
      (void)make_topology(spec);
    } catch (const TopologyError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("tree:parents=-1,0,-1").find("two roots"), std::string::npos);
  EXPECT_NE(message("tree:parents=1,0,0").find("no root"), std::string::npos);
  EXPECT_NE(message("tree:parents=1,0,-1").find("cycle"), std::string::npos);
  EXPECT_NE(message("tree:parents=-1,7").find("parent 7"), std::string::npos);
  EXPECT_NE(message("tree:parents=-1,0,root=2").find("root"), std::string::npos);
  EXPECT_NE(message("tree:kary=2").find("n=N"), std::string::npos);
  EXPECT_NE(message("tree:kary=2,n=7,parents=-1").find("exactly one"), std::string::npos);
  EXPECT_NE(message("tree:depth=3").find("unknown key 'depth'"), std::string::npos);
  EXPECT_NE(message("tree:kary=x,n=3").find("accepted forms"), std::string::npos);
  EXPECT_NE(message("tree:random=0").find("random"), std::string::npos);
}

RC_GTEST_PROP(Tree, RoutesFollowTreeEdgesAndHaveTreeDistanceLength, ()) {
  const int n = *rc::gen::inRange(1, 40);
  const auto parents = random_shape(n);
  const int root = *rc::gen::inRange(0, n);
  Tree t(parents, root);
  const int src = *rc::gen::inRange(0, n);
  const int dst = *rc::gen::inRange(0, n);
  const auto dist = collnet::test::tree_distances(parents, src);
  const Route r = t.route(src, dst);
  RC_ASSERT(static_cast<int>(r.size()) == dist[static_cast<std::size_t>(dst)]);
  RC_ASSERT(t.distance(src, dst) == dist[static_cast<std::size_t>(dst)]);
  NodeId at = src;
  std::set<NodeId> seen{at};
  for (const Hop& h : r) {
    const Link& l = t.graph().link(h.link);
    RC_ASSERT(l.src == at);
    // Every hop joins a node and its parent by the physical root.
    RC_ASSERT(t.parent(l.src) == l.dst || t.parent(l.dst) == l.src);
    at = l.dst;
    RC_ASSERT(seen.insert(at).second);  // a simple path
  }
  RC_ASSERT(at == dst);
  RC_ASSERT(t.eccentricity(src) == *std::max_element(dist.begin(), dist.end()));
}
