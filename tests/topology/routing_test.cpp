// Routing functions by name (topology/routing.hpp): the registry, the errors
// of the key `routing`, and each function's routes against distances and
// directions computed here from coordinates.
#include "topology/routing.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "topology/grid.hpp"

using namespace collnet::topology;

namespace {

// Minimal hops between two points of a ring of n (mesh: the plain distance).
int ring_distance(int a, int b, int n, bool torus) {
  const int d = std::abs(a - b);
  return torus ? std::min(d, n - d) : d;
}

int minimal_hops(const Grid& g, EndpointId a, EndpointId b) {
  const auto ca = g.coord(a);
  const auto cb = g.coord(b);
  int h = 0;
  for (int d = 0; d < g.dims(); ++d)
    h += ring_distance(ca[static_cast<std::size_t>(d)], cb[static_cast<std::size_t>(d)], g.size(d), g.torus());
  return h;
}

std::string error_of(std::string_view name, const Topology& t) {
  try {
    (void)find_routing(name, t);
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Routing, EveryTopologyDefaultsToItsOwnRoute) {
  EXPECT_EQ(default_routing(*make_topology("torus:4x4")).name, "dor");
  EXPECT_EQ(default_routing(*make_topology("mesh:4x4")).name, "dor");
  EXPECT_EQ(default_routing(*make_topology("tree:kary=2,n=3")).name, "unique-path");
  EXPECT_EQ(default_routing(*make_topology("boards:2x1x1x1")).name, "board-relay");
  EXPECT_EQ(default_routing(*make_topology("leafspine:p=6")).name, "spine-policy");
  EXPECT_EQ(&find_routing("", *make_topology("torus:4x4")), &default_routing(*make_topology("torus:4x4")));
}

TEST(Routing, UnknownOrForeignNamesAreRefusedNamingKeyTopologyAndAcceptedNames) {
  const auto torus = make_topology("torus:4x4");
  const std::string unknown = error_of("zigzag", *torus);
  EXPECT_NE(unknown.find("key 'routing'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'zigzag'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("torus:4x4: dor, min-adaptive, valiant"), std::string::npos) << unknown;
  const auto tree = make_topology("tree:kary=2,n=3");
  const std::string foreign = error_of("min-adaptive", *tree);
  EXPECT_NE(foreign.find("'min-adaptive' does not run on tree"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find(": unique-path"), std::string::npos) << foreign;
  EXPECT_EQ(error_of("valiant", *make_topology("mesh:3x5")), "");
}

TEST(Routing, DorIsTheGridsOwnRoute) {
  const Grid g({4, 4}, true);
  const RoutingFunction& dor = find_routing("dor", g);
  for (EndpointId a = 0; a < g.endpoint_count(); ++a)
    for (EndpointId b = 0; b < g.endpoint_count(); ++b)
      for (RouteHint hint : {RouteHint{0}, Grid::plus_only_hint()}) EXPECT_EQ(dor.route(g, a, b, hint, 7), g.route(a, b, hint));
}

TEST(Routing, MinAdaptiveOffersEveryProductiveDirectionAndTheDimensionOrderEscape) {
  const Grid g({8, 8}, true);
  const RoutingFunction& f = find_routing("min-adaptive", g);
  ASSERT_TRUE(f.adaptive());
  EXPECT_EQ(f.vc_classes(g), 3);
  HopOptions o;
  auto at = [&](int x, int y) { return g.graph().endpoint_node(g.id(std::vector<int>{x, y})); };
  auto id = [&](int x, int y) { return g.id(std::vector<int>{x, y}); };
  // (1,1) -> (3,6): x +2, y -3 (through the wrap): x+ and y- adaptive (class
  // 2), escape x+ (no wrap in x: class 0).
  f.next_hops(g, HopState{at(1, 1), id(1, 1), id(3, 6), kNone, -1}, o);
  ASSERT_EQ(o.count, 3);
  EXPECT_EQ(o.items[0].port, 0);
  EXPECT_EQ(o.items[1].port, 3);
  EXPECT_EQ(o.items[0].vc_class, 2);
  EXPECT_FALSE(o.items[1].escape);
  EXPECT_EQ(o.items[2].port, 0);
  EXPECT_EQ(o.items[2].vc_class, 0);
  EXPECT_TRUE(o.items[2].escape);
  // (6,0) -> (1,0): + through the wrap: escape class 1.
  f.next_hops(g, HopState{at(6, 0), id(6, 0), id(1, 0), 1, 2}, o);
  ASSERT_EQ(o.count, 2);
  EXPECT_EQ(o.items[1].port, 0);
  EXPECT_EQ(o.items[1].vc_class, 1);
  // Half-way tie (0,0) -> (4,0): both x directions adaptive.
  f.next_hops(g, HopState{at(0, 0), id(0, 0), id(4, 0), kNone, -1}, o);
  ASSERT_EQ(o.count, 3);
  EXPECT_EQ(o.items[0].port, 0);
  EXPECT_EQ(o.items[1].port, 1);
  // A packet that arrived on an escape VC (class 0 or 1) keeps to the escape.
  f.next_hops(g, HopState{at(1, 1), id(0, 0), id(3, 6), 1, 0}, o);
  ASSERT_EQ(o.count, 1);
  EXPECT_TRUE(o.items[0].escape);
  // At the destination: no option (the router ejects).
  f.next_hops(g, HopState{at(3, 6), id(0, 0), id(3, 6), 0, 2}, o);
  EXPECT_EQ(o.count, 0);
}

// Any choice among the options reaches the destination in the minimal number
// of hops (mesh and torus, every pair, always the last non-escape option).
TEST(Routing, MinAdaptiveRoutesAreMinimalWhateverOptionIsTaken) {
  for (bool torus : {false, true}) {
    const Grid g({5, 4}, torus);
    const RoutingFunction& f = find_routing("min-adaptive", g);
    for (EndpointId a = 0; a < g.endpoint_count(); ++a)
      for (EndpointId b = 0; b < g.endpoint_count(); ++b) {
        for (bool take_escape : {false, true}) {
          NodeId node = g.graph().endpoint_node(a);
          int in_class = -1;
          int hops = 0;
          HopOptions o;
          for (f.next_hops(g, HopState{node, a, b, kNone, in_class}, o); o.count > 0;
               f.next_hops(g, HopState{node, a, b, 0, in_class}, o)) {
            const HopOption& pick = take_escape ? o.items[o.count - 1] : o.items[o.count > 1 ? o.count - 2 : 0];
            ASSERT_EQ(pick.escape, take_escape || o.count == 1);
            node = g.graph().link(g.graph().node(node).out_ports[static_cast<std::size_t>(pick.port)]).dst;
            in_class = pick.vc_class;
            ASSERT_LE(++hops, 20);
          }
          EXPECT_EQ(g.graph().node(node).endpoint, b);
          EXPECT_EQ(hops, minimal_hops(g, a, b)) << g.name() << " " << a << " -> " << b;
        }
      }
  }
}

TEST(Routing, ValiantGoesThroughARandomIntermediateWithAClassPerPhase) {
  for (bool torus : {false, true}) {
    const Grid g({4, 4}, torus);
    const RoutingFunction& f = find_routing("valiant", g);
    EXPECT_EQ(f.vc_classes(g), torus ? 4 : 2);
    std::set<std::size_t> lengths;
    for (std::uint64_t random = 0; random < 16; ++random) {
      const EndpointId middle = static_cast<EndpointId>(random);
      const Route r = f.route(g, 0, 5, 0, random);
      ASSERT_EQ(static_cast<int>(r.size()), minimal_hops(g, 0, middle) + minimal_hops(g, middle, 5));
      NodeId at = g.graph().endpoint_node(0);
      for (std::size_t i = 0; i < r.size(); ++i) {
        const Link& l = g.graph().link(r[i].link);
        ASSERT_EQ(l.src, at);
        at = l.dst;
        const bool second_phase = static_cast<int>(i) >= minimal_hops(g, 0, middle);
        EXPECT_EQ(r[i].vc_class >= (torus ? 2 : 1), second_phase);
      }
      EXPECT_EQ(at, g.graph().endpoint_node(5));
      lengths.insert(r.size());
    }
    EXPECT_GT(lengths.size(), 2u);  // the intermediate changes the route
  }
}

TEST(Routing, ClassLayoutsGiveEachClassItsVcs) {
  const auto torus = make_topology("torus:4x4");
  using Blocks = std::vector<std::pair<int, int>>;
  EXPECT_EQ(class_layout(find_routing("dor", *torus), *torus, 2, 4), (Blocks{{0, 2}, {2, 4}}));
  EXPECT_EQ(class_layout(find_routing("min-adaptive", *torus), *torus, 3, 4), (Blocks{{0, 1}, {1, 2}, {2, 4}}));
  EXPECT_EQ(class_layout(find_routing("min-adaptive", *torus), *torus, 3, 3), (Blocks{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(class_layout(find_routing("valiant", *torus), *torus, 4, 5),
            (Blocks{{0, 2}, {2, 3}, {3, 4}, {4, 5}}));
}

TEST(Routing, PacketRandomWordsDependOnSeedSourceAndSequenceOnly) {
  EXPECT_EQ(packet_random(1, 3, 9), packet_random(1, 3, 9));
  EXPECT_NE(packet_random(1, 3, 9), packet_random(2, 3, 9));
  EXPECT_NE(packet_random(1, 3, 9), packet_random(1, 4, 9));
  EXPECT_NE(packet_random(1, 3, 9), packet_random(1, 3, 10));
}
