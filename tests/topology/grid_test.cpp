#include "topology/grid.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <set>

using namespace collnet::topology;

TEST(Grid, CoordinatesRoundTripXFastest) {
  Grid g({4, 3, 5}, true);
  EXPECT_EQ(g.endpoint_count(), 60);
  EXPECT_EQ(g.coord(0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(g.coord(1), (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(g.coord(4), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(g.coord(12), (std::vector<int>{0, 0, 1}));
  for (EndpointId i = 0; i < 60; ++i) EXPECT_EQ(g.id(g.coord(i)), i);
  const std::vector<int> wrapped{-1, 3, 5};
  EXPECT_EQ(g.id(wrapped), g.id(std::vector<int>{3, 0, 0}));
}

// Directed links: a mesh dimension of size n has 2(n-1) per line, a torus
// dimension n >= 2 has 2n (for n = 2 two cables join the same pair).
TEST(Grid, LinkCountsMatchClosedForm) {
  auto expected = [](const std::vector<int>& s, bool torus) {
    long total = 1;
    for (int n : s) total *= n;
    long links = 0;
    for (int n : s) {
      if (n == 1) continue;
      links += 2L * (torus ? n : n - 1) * (total / n);
    }
    return links;
  };
  for (bool torus : {false, true})
    for (auto s : std::vector<std::vector<int>>{{8, 8}, {2, 2}, {1, 5}, {3, 1}, {4, 4, 4}, {3, 4, 5}, {2, 3, 1, 2}}) {
      Grid g(s, torus);
      EXPECT_EQ(static_cast<long>(g.graph().link_count()), expected(s, torus)) << g.name();
    }
}

TEST(Grid, MeshRoutesAreDimensionOrder) {
  Grid g({4, 4}, false);
  const auto r = g.route(g.id(std::vector<int>{3, 0}), g.id(std::vector<int>{1, 2}));
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(g.graph().link(r[0].link).dim, 0);
  EXPECT_EQ(g.graph().link(r[0].link).dir, -1);
  EXPECT_EQ(g.graph().link(r[1].link).dim, 0);
  EXPECT_EQ(g.graph().link(r[2].link).dim, 1);
  EXPECT_EQ(g.graph().link(r[3].link).dir, +1);
  EXPECT_EQ(g.graph().link(r.back().link).dst, g.graph().endpoint_node(g.id(std::vector<int>{1, 2})));
  for (const auto& h : r) EXPECT_EQ(h.vc_class, 0);
}

TEST(Grid, TorusTieRuleGoesPlusUnlessHinted) {
  Grid g({8}, true);
  EXPECT_EQ(g.hops(0, 4, 0), 4);
  EXPECT_EQ(g.hops(0, 4, 0, Grid::direction_hint(0, Direction::minus)), -4);
  EXPECT_EQ(g.hops(0, 5, 0), -3);
  EXPECT_EQ(g.hops(0, 3, 0), 3);
  EXPECT_EQ(g.hops(0, 7, 0, Grid::plus_only_hint()), 7);
}

TEST(Grid, DatelineClassStartsAtTheWrapLink) {
  Grid g({6}, true);
  const auto r = g.route(4, 1, Grid::plus_only_hint());  // 4 -> 5 -> 0 (wrap) -> 1
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].vc_class, 0);
  EXPECT_TRUE(g.graph().link(r[1].link).wrap);
  EXPECT_EQ(r[1].vc_class, 1);
  EXPECT_EQ(r[2].vc_class, 1);
}

TEST(Grid, MeshRejectsAHintAgainstTheOnlyDirection) {
  Grid g({4}, false);
  EXPECT_THROW((void)g.route(2, 1, Grid::plus_only_hint()), TopologyError);
}

TEST(Grid, BadSizesAreRejected) {
  EXPECT_THROW(make_topology("torus:0x4"), TopologyError);
  EXPECT_THROW(make_topology("torus:4x"), TopologyError);
  EXPECT_THROW(make_topology("ring:4"), TopologyError);
  EXPECT_THROW(make_topology("mesh:2x2x2x2x2"), TopologyError);
  EXPECT_EQ(make_topology("mesh:4x4x4")->endpoint_count(), 64);
}

// Property: every route is a connected walk from source to destination whose
// length is the sum of the per-dimension hop counts (minimal on the torus).
RC_GTEST_PROP(Grid, RoutesAreConnectedAndMinimal, ()) {
  const int dims = *rc::gen::inRange(1, 4);
  std::vector<int> sizes;
  for (int d = 0; d < dims; ++d) sizes.push_back(*rc::gen::inRange(1, 9));
  const bool torus = *rc::gen::arbitrary<bool>();
  Grid g(sizes, torus);
  const auto a = *rc::gen::inRange(0, g.endpoint_count());
  const auto b = *rc::gen::inRange(0, g.endpoint_count());
  const auto r = g.route(a, b);
  NodeId at = g.graph().endpoint_node(a);
  int expected_len = 0;
  for (int d = 0; d < dims; ++d) {
    const int delta = std::abs(g.coord(b)[d] - g.coord(a)[d]);
    expected_len += torus ? std::min(delta, sizes[d] - delta) : delta;
  }
  RC_ASSERT(static_cast<int>(r.size()) == expected_len);
  for (const auto& h : r) {
    RC_ASSERT(g.graph().link(h.link).src == at);
    at = g.graph().link(h.link).dst;
  }
  RC_ASSERT(at == g.graph().endpoint_node(b));
}
