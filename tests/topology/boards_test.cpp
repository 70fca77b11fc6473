#include "topology/boards.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <set>

#include "tests/support/error_message.hpp"

using namespace collnet::topology;

namespace {

using B = Boards;

std::vector<NodeId> walk(const Topology& t, EndpointId src, const Route& r) {
  std::vector<NodeId> v{t.graph().endpoint_node(src)};
  for (const Hop& h : r) {
    EXPECT_EQ(t.graph().link(h.link).src, v.back());
    v.push_back(t.graph().link(h.link).dst);
  }
  return v;
}

}  // namespace

TEST(Boards, EndpointNumberingAndKinds) {
  Boards b({2, 4, 1, 2});
  EXPECT_EQ(b.boards(), 16);
  EXPECT_EQ(b.endpoint_count(), 16 * 12);
  EXPECT_EQ(b.name(), "boards:2x4x1x2");
  // Board id: W fastest (spec hd-allreduce worked example: j = w + 2x + 4y + 8z).
  EXPECT_EQ(b.board_id({1, 0, 0, 0}), 1);
  EXPECT_EQ(b.board_id({0, 1, 0, 0}), 2);
  EXPECT_EQ(b.board_id({0, 0, 0, 1}), 8);
  EXPECT_EQ(b.board_coord(11), (std::array<int, 4>{1, 1, 0, 1}));
  EXPECT_EQ(B::main_unit(3, 5), 3 * 12 + 5);
  EXPECT_EQ(B::aggregation_unit(3, 2), 3 * 12 + 10);
  for (EndpointId e = 0; e < b.endpoint_count(); ++e) {
    const auto kind = b.graph().node(b.graph().endpoint_node(e)).kind;
    EXPECT_EQ(kind, e % 12 < 8 ? NodeKind::main_unit : NodeKind::aggregation_unit);
    EXPECT_EQ(B::is_main_unit(e), e % 12 < 8);
    EXPECT_EQ(B::board_of(e), e / 12);
  }
}

// Directed links, closed form: in-board 2*8*4 per board; W: 2*4 per board if
// W > 1; X, Y, Z: 2*8 per board per dimension of size > 1 (a size-2 dimension
// has two cables between its two boards, a size-4 one four cables on a ring).
TEST(Boards, LinkCountsMatchClosedForm) {
  for (auto s : std::vector<std::array<int, 4>>{{1, 1, 1, 1}, {2, 2, 2, 2}, {4, 4, 4, 4}, {4, 1, 2, 1}, {1, 4, 4, 2}}) {
    Boards b(s);
    long per_board = 64;
    if (s[0] > 1) per_board += 8;
    for (int d = 1; d < 4; ++d)
      if (s[static_cast<std::size_t>(d)] > 1) per_board += 16;
    EXPECT_EQ(static_cast<long>(b.graph().link_count()), per_board * b.boards()) << b.name();
  }
}

TEST(Boards, WhoIsLinkedToWhom) {
  Boards b({4, 2, 4, 1});
  const Graph& g = b.graph();
  for (const Link& l : g.links()) {
    const bool src_main = B::is_main_unit(l.src);
    const bool dst_main = B::is_main_unit(l.dst);
    const int bs = B::board_of(l.src), bd = B::board_of(l.dst);
    if (src_main != dst_main) {
      EXPECT_EQ(bs, bd);  // main <-> aggregation only inside a board
      EXPECT_EQ(l.dim, -1);
    } else if (src_main) {
      // X/Y/Z: same main-unit index, neighbouring boards, never W.
      EXPECT_EQ(B::unit_index(l.src), B::unit_index(l.dst));
      EXPECT_NE(bs, bd);
      EXPECT_NE(l.dim, B::link_dim(B::W));
    } else {
      // W: same aggregation index, W neighbours only.
      EXPECT_EQ(B::unit_index(l.src), B::unit_index(l.dst));
      EXPECT_EQ(l.dim, B::link_dim(B::W));
      const auto cs = b.board_coord(bs), cd = b.board_coord(bd);
      EXPECT_EQ(cs[1], cd[1]);
      EXPECT_EQ(cs[2], cd[2]);
      EXPECT_EQ(std::abs(cs[0] - cd[0]) % 2, 1);  // ring neighbours on a size-4 ring
    }
  }
  // Complete bipartite inside a board, no main-main link inside a board.
  for (int m = 0; m < 8; ++m) {
    for (int a = 0; a < 4; ++a) {
      EXPECT_NE(g.find_link(B::main_unit(5, m), B::aggregation_unit(5, a)), kNone);
      EXPECT_NE(g.find_link(B::aggregation_unit(5, a), B::main_unit(5, m)), kNone);
    }
    for (int m2 = 0; m2 < 8; ++m2) EXPECT_EQ(g.find_link(B::main_unit(5, m), B::main_unit(5, m2)), kNone);
  }
}

TEST(Boards, SizeTwoDimensionHasTwoCables) {
  Boards b({1, 2, 1, 1});
  const Graph& g = b.graph();
  int cables = 0;
  for (const Link& l : g.links())
    if (l.src == B::main_unit(0, 3) && l.dst == B::main_unit(1, 3)) ++cables;
  EXPECT_EQ(cables, 2);
  // Both directions reach the same board, on different directed links.
  const auto plus = b.route(B::main_unit(0, 3), B::main_unit(1, 3), B::direction_hint(B::X, Direction::plus));
  const auto minus = b.route(B::main_unit(0, 3), B::main_unit(1, 3), B::direction_hint(B::X, Direction::minus));
  ASSERT_EQ(plus.size(), 1u);
  ASSERT_EQ(minus.size(), 1u);
  EXPECT_NE(plus[0].link, minus[0].link);
  EXPECT_EQ(g.link(plus[0].link).dir, +1);
  EXPECT_EQ(g.link(minus[0].link).dir, -1);
}

TEST(Boards, BoardSizeThreeIsRejectedNamingTheAcceptedSizes) {
  const std::string m = collnet::test::error_message<TopologyError>([] { (void)make_topology("boards:4x3x4x4"); });
  EXPECT_NE(m.find("size 3"), std::string::npos) << m;
  EXPECT_NE(m.find("dimension X"), std::string::npos) << m;
  EXPECT_NE(m.find("1, 2, 4"), std::string::npos) << m;
  EXPECT_THROW((void)make_topology("boards:8x1x1x1"), TopologyError);
  EXPECT_THROW((void)make_topology("boards:4x4x4"), TopologyError);
  EXPECT_THROW((void)make_topology("boards:4x4x4x4x4"), TopologyError);
  EXPECT_THROW((void)make_topology("boards:4xx4x4"), TopologyError);
  EXPECT_EQ(make_topology("boards:4x4x4x4")->endpoint_count(), 256 * 12);
}

// spec hd-allreduce: relay. Plane a uses main unit 2a in the + direction and
// 2a+1 in the - direction.
TEST(Boards, AggregationTrafficInXRelaysThroughMainUnitsOfItsPlane) {
  Boards b({1, 4, 1, 1});
  const int a = 2;
  const auto plus = walk(b, B::aggregation_unit(0, a), b.route(B::aggregation_unit(0, a), B::aggregation_unit(1, a)));
  EXPECT_EQ(plus, (std::vector<NodeId>{B::aggregation_unit(0, a), B::main_unit(0, 4), B::main_unit(1, 4),
                                       B::aggregation_unit(1, a)}));
  const auto minus = walk(b, B::aggregation_unit(0, a), b.route(B::aggregation_unit(0, a), B::aggregation_unit(3, a)));
  EXPECT_EQ(minus, (std::vector<NodeId>{B::aggregation_unit(0, a), B::main_unit(0, 5), B::main_unit(3, 5),
                                        B::aggregation_unit(3, a)}));
}

// spec hd-allreduce: ring routing. Offset n/2: even coordinates go +, odd go -.
TEST(Boards, SizeFourTieRuleByCoordinateParity) {
  Boards b({4, 4, 1, 1});
  EXPECT_EQ(b.hops(b.board_id({0, 0, 0, 0}), b.board_id({2, 0, 0, 0}), B::W), 2);
  EXPECT_EQ(b.hops(b.board_id({2, 0, 0, 0}), b.board_id({0, 0, 0, 0}), B::W), 2);
  EXPECT_EQ(b.hops(b.board_id({1, 0, 0, 0}), b.board_id({3, 0, 0, 0}), B::W), -2);
  EXPECT_EQ(b.hops(b.board_id({3, 0, 0, 0}), b.board_id({1, 0, 0, 0}), B::W), -2);
  EXPECT_EQ(b.hops(b.board_id({0, 1, 0, 0}), b.board_id({0, 3, 0, 0}), B::X), -2);
  EXPECT_EQ(b.hops(b.board_id({0, 3, 0, 0}), b.board_id({0, 0, 0, 0}), B::X), 1);
  EXPECT_EQ(b.hops(b.board_id({0, 0, 0, 0}), b.board_id({0, 3, 0, 0}), B::X), -1);
  EXPECT_EQ(b.hops(b.board_id({1, 0, 0, 0}), b.board_id({3, 0, 0, 0}), B::W, B::direction_hint(B::W, Direction::plus)), 2);
  EXPECT_THROW((void)b.hops(0, 1, B::W, 3), TopologyError);
  // The four pairs of a distance-2 step load every directed W link once.
  std::set<LinkId> used;
  for (int w = 0; w < 4; ++w) {
    const auto r = b.route(B::aggregation_unit(w, 1), B::aggregation_unit((w + 2) % 4, 1));
    EXPECT_EQ(r.size(), 2u);
    for (const Hop& h : r) EXPECT_TRUE(used.insert(h.link).second);
  }
  EXPECT_EQ(used.size(), 8u);
}

TEST(Boards, WRoutesStayOnAggregationUnits) {
  Boards b({4, 2, 2, 2});
  const auto v = walk(b, B::aggregation_unit(0, 3), b.route(B::aggregation_unit(0, 3), B::aggregation_unit(3, 3)));
  EXPECT_EQ(v, (std::vector<NodeId>{B::aggregation_unit(0, 3), B::aggregation_unit(3, 3)}));
  // Dateline: the - hop from w = 0 to w = 3 is the wrap link.
  const auto r = b.route(B::aggregation_unit(0, 3), B::aggregation_unit(3, 3));
  EXPECT_TRUE(b.graph().link(r[0].link).wrap);
  EXPECT_EQ(r[0].vc_class, 1);
}

TEST(Boards, InBoardRoutes) {
  Boards b({1, 1, 1, 1});
  EXPECT_EQ(b.route(B::main_unit(0, 6), B::aggregation_unit(0, 1)).size(), 1u);
  EXPECT_EQ(b.route(B::aggregation_unit(0, 1), B::main_unit(0, 6)).size(), 1u);
  EXPECT_EQ(walk(b, B::main_unit(0, 6), b.route(B::main_unit(0, 6), B::main_unit(0, 1))),
            (std::vector<NodeId>{B::main_unit(0, 6), B::aggregation_unit(0, 3), B::main_unit(0, 1)}));
  EXPECT_EQ(walk(b, B::aggregation_unit(0, 1), b.route(B::aggregation_unit(0, 1), B::aggregation_unit(0, 3))),
            (std::vector<NodeId>{B::aggregation_unit(0, 1), B::main_unit(0, 2), B::aggregation_unit(0, 3)}));
}

// Any pair, any direction hint: the route is a chain of links from the
// source to the destination, its ring hops are |hops| per dimension, and
// aggregation-to-aggregation routes of one plane touch only that plane's
// units (aggregation unit a, main units 2a and 2a+1).
RC_GTEST_PROP(Boards, RoutesAreChainsAndPlanesStaySeparate, ()) {
  const std::array<int, 4> sizes{*rc::gen::element(1, 2, 4), *rc::gen::element(1, 2, 4), *rc::gen::element(1, 2, 4),
                                 *rc::gen::element(1, 2, 4)};
  Boards b(sizes);
  const int n = b.endpoint_count();
  const EndpointId src = *rc::gen::inRange(0, n);
  const EndpointId dst = *rc::gen::inRange(0, n);
  RouteHint hint = 0;
  for (int d = 0; d < 4; ++d) hint |= B::direction_hint(d, static_cast<Direction>(*rc::gen::inRange(0, 3)));
  const Route r = b.route(src, dst, hint);
  NodeId at = src;
  int ring_hops[4] = {0, 0, 0, 0};
  for (const Hop& h : r) {
    const Link& l = b.graph().link(h.link);
    RC_ASSERT(l.src == at);
    at = l.dst;
    if (l.dim >= 0) {
      const int d = l.dim == 3 ? 0 : l.dim + 1;
      ring_hops[d] += l.dir;
    }
  }
  RC_ASSERT(at == dst);
  for (int d = 0; d < 4; ++d)
    RC_ASSERT(ring_hops[d] == b.hops(B::board_of(src), B::board_of(dst), d, hint));
  if (!B::is_main_unit(src) && !B::is_main_unit(dst) && B::unit_index(src) == B::unit_index(dst)) {
    const int a = B::unit_index(src);
    for (const Hop& h : r)
      for (NodeId v : {b.graph().link(h.link).src, b.graph().link(h.link).dst}) {
        if (B::is_main_unit(v)) RC_ASSERT(B::unit_index(v) / 2 == a);
        else RC_ASSERT(B::unit_index(v) == a);
      }
  }
}
