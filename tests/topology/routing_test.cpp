// Routing functions by name (topology/routing.hpp): the registry, the errors
// of the key `routing`, and each function's routes against distances and
// directions computed here from coordinates.
#include "topology/routing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "topology/dragonfly.hpp"
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

TEST(Routing, AGraphFileDefaultsToTheRoutingItsFileGivesAndRefusesTheOther) {
  const std::string dir = std::string(COLLNET_SOURCE_DIR) + "/examples/graphs/";
  const auto updown = make_topology("graph:" + dir + "ring-8.yaml");
  const auto table = make_topology("graph:" + dir + "star-table.yaml");
  EXPECT_EQ(default_routing(*updown).name, "shortest");
  EXPECT_EQ(default_routing(*table).name, "table");
  const std::string refused = error_of("shortest", *table);
  EXPECT_NE(refused.find("'shortest' does not run on graph:"), std::string::npos) << refused;
  EXPECT_NE(refused.find("star-table.yaml: table"), std::string::npos) << refused;
}

TEST(Routing, TheKeysDocumentationListsEveryRegisteredNameWithItsKinds) {
  const std::string names = routing_names_by_kind();
  for (const auto& f : routing_functions()) EXPECT_NE(names.find(f.name), std::string::npos) << f.name;
  EXPECT_NE(names.find("dor, min-adaptive, dor-vc-adaptive or valiant on mesh, torus"), std::string::npos) << names;
  EXPECT_NE(names.find("min, valiant, ugal or ugal-booksim2 on dragonfly"), std::string::npos) << names;
  const std::string defaults = routing_defaults_by_kind();
  EXPECT_NE(defaults.find("dor (mesh, torus), unique-path (tree)"), std::string::npos) << defaults;
  EXPECT_NE(defaults.find("shortest (graph: a file without a routing table), table (graph: a file with a routing "
                          "table)"),
            std::string::npos)
      << defaults;
}

TEST(Routing, UnknownOrForeignNamesAreRefusedNamingKeyTopologyAndAcceptedNames) {
  const auto torus = make_topology("torus:4x4");
  const std::string unknown = error_of("zigzag", *torus);
  EXPECT_NE(unknown.find("key 'routing'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'zigzag'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("torus:4x4: dor, min-adaptive, dor-vc-adaptive, valiant"), std::string::npos) << unknown;
  const auto tree = make_topology("tree:kary=2,n=3");
  const std::string foreign = error_of("min-adaptive", *tree);
  EXPECT_NE(foreign.find("'min-adaptive' does not run on tree"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find(": unique-path"), std::string::npos) << foreign;
  EXPECT_EQ(error_of("valiant", *make_topology("mesh:3x5")), "");
}

TEST(Routing, DorIsTheGridsOwnRouteInDimensionOrder) {
  const Grid g({4, 4}, true);
  const RoutingFunction& dor = find_routing("dor", g);
  for (EndpointId a = 0; a < g.endpoint_count(); ++a)
    for (EndpointId b = 0; b < g.endpoint_count(); ++b) {
      const auto ca = g.coord(a);
      const auto cb = g.coord(b);
      int plus_hops = 0;  // the + direction only: (b - a) mod 4 per dimension
      for (std::size_t d = 0; d < 2; ++d) plus_hops += ((cb[d] - ca[d]) % 4 + 4) % 4;
      for (RouteHint hint : {RouteHint{0}, Grid::plus_only_hint()}) {
        const Route r = dor.route(g, a, b, hint, 7);
        EXPECT_EQ(r, g.route(a, b, hint));  // the topology's route is its default's
        EXPECT_EQ(static_cast<int>(r.size()), hint == 0 ? minimal_hops(g, a, b) : plus_hops);
        NodeId at = g.graph().endpoint_node(a);
        int dim = 0;
        std::uint8_t cls = 0;
        for (const Hop& h : r) {
          const Link& l = g.graph().link(h.link);
          EXPECT_EQ(l.src, at);
          EXPECT_GE(l.dim, dim);  // X before Y
          if (l.dim != dim) cls = 0;
          dim = l.dim;
          if (l.wrap) cls = 1;
          EXPECT_EQ(h.vc_class, cls);  // dateline class from the wrap link of the dimension on
          at = l.dst;
        }
        EXPECT_EQ(at, g.graph().endpoint_node(b));
      }
    }
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

TEST(Routing, DorVcAdaptiveOffersTheDimensionOrderHopOnTheAdaptiveAndTheEscapeClass) {
  const Grid g({8, 8}, true);
  const RoutingFunction& f = find_routing("dor-vc-adaptive", g);
  ASSERT_TRUE(f.adaptive());
  EXPECT_TRUE(f.per_packet_random);
  EXPECT_EQ(f.vc_classes(g), 3);
  EXPECT_EQ(f.min_vcs(g), 3);
  HopOptions o;
  auto at = [&](int x, int y) { return g.graph().endpoint_node(g.id(std::vector<int>{x, y})); };
  auto id = [&](int x, int y) { return g.id(std::vector<int>{x, y}); };
  // (1,1) -> (3,6): x first, + (2 hops, no wrap): x+ on the adaptive class 2
  // and on escape class 0; y is not offered although it is productive.
  f.next_hops(g, HopState{at(1, 1), id(1, 1), id(3, 6), kNone, -1}, o);
  ASSERT_EQ(o.count, 2);
  EXPECT_EQ(o.items[0].port, 0);
  EXPECT_EQ(o.items[0].vc_class, 2);
  EXPECT_FALSE(o.items[0].escape);
  EXPECT_EQ(o.items[1].port, 0);
  EXPECT_EQ(o.items[1].vc_class, 0);
  EXPECT_TRUE(o.items[1].escape);
  // (3,1) -> (3,6): x done, y- through the wrap: escape class 1.
  f.next_hops(g, HopState{at(3, 1), id(1, 1), id(3, 6), 0, 2}, o);
  ASSERT_EQ(o.count, 2);
  EXPECT_EQ(o.items[0].port, 3);
  EXPECT_EQ(o.items[1].port, 3);
  EXPECT_EQ(o.items[1].vc_class, 1);
  // A packet on an escape VC keeps to it.
  f.next_hops(g, HopState{at(2, 1), id(1, 1), id(3, 6), 1, 0}, o);
  ASSERT_EQ(o.count, 1);
  EXPECT_TRUE(o.items[0].escape);
  EXPECT_EQ(o.items[0].port, 0);
  // Half-way tie (0,0) -> (4,0): the packet's random word picks the direction
  // for both options; - crosses the wrap (class 1), + does not (class 0).
  f.next_hops(g, HopState{at(0, 0), id(0, 0), id(4, 0), kNone, -1, 0}, o);
  ASSERT_EQ(o.count, 2);
  EXPECT_EQ(o.items[0].port, 1);
  EXPECT_EQ(o.items[1].port, 1);
  EXPECT_EQ(o.items[1].vc_class, 1);
  f.next_hops(g, HopState{at(0, 0), id(0, 0), id(4, 0), kNone, -1, 1}, o);
  ASSERT_EQ(o.count, 2);
  EXPECT_EQ(o.items[0].port, 0);
  EXPECT_EQ(o.items[1].vc_class, 0);
  f.next_hops(g, HopState{at(3, 6), id(0, 0), id(3, 6), 0, 2}, o);
  EXPECT_EQ(o.count, 0);
}

// Any choice among the options reaches the destination in the minimal number
// of hops (mesh and torus, every pair, always the last non-escape option);
// dor-vc-adaptive's hops are in dimension order.
TEST(Routing, MinAdaptiveRoutesAreMinimalWhateverOptionIsTaken) {
  for (bool torus : {false, true})
    for (const char* name : {"min-adaptive", "dor-vc-adaptive"}) {
      const Grid g({5, 4}, torus);
      const RoutingFunction& f = find_routing(name, g);
      for (EndpointId a = 0; a < g.endpoint_count(); ++a)
        for (EndpointId b = 0; b < g.endpoint_count(); ++b) {
          for (bool take_escape : {false, true}) {
            NodeId node = g.graph().endpoint_node(a);
            int in_class = -1;
            int hops = 0;
            int dim = 0;
            HopOptions o;
            for (f.next_hops(g, HopState{node, a, b, kNone, in_class}, o); o.count > 0;
                 f.next_hops(g, HopState{node, a, b, 0, in_class}, o)) {
              const HopOption& pick = take_escape ? o.items[o.count - 1] : o.items[o.count > 1 ? o.count - 2 : 0];
              ASSERT_EQ(pick.escape, take_escape || o.count == 1);
              if (std::string(name) == "dor-vc-adaptive") {  // dimension order whichever class it takes
                ASSERT_GE(pick.port / 2, dim) << g.name() << " " << a << " -> " << b;
                dim = pick.port / 2;
              }
              node = g.graph().link(g.graph().node(node).out_ports[static_cast<std::size_t>(pick.port)]).dst;
              in_class = pick.vc_class;
              ASSERT_LE(++hops, 20);
            }
            EXPECT_EQ(g.graph().node(node).endpoint, b);
            EXPECT_EQ(hops, minimal_hops(g, a, b)) << name << " " << g.name() << " " << a << " -> " << b;
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

namespace {

// One packet's walk under ugal, taking at the source router the option
// `pick` and elsewhere the only option (an endpoint cable's, any class).
struct UgalWalk {
  int weight = 0;                  // the picked option's hop weight
  int router_hops = 0;             // cables between two routers
  int global_hops = 0;
  std::vector<int> groups;         // group of every router, in order
  std::vector<int> classes;        // class of every router-to-router hop
  std::vector<int> globals_after;  // global cables still ahead after each of those hops
  bool delivered = false;
};

UgalWalk walk_ugal(const Dragonfly& d, EndpointId src, EndpointId dst, std::uint64_t random, std::size_t pick) {
  const RoutingFunction& f = find_routing("ugal", d);
  const Graph& g = d.graph();
  UgalWalk w;
  HopState s{g.endpoint_node(src), src, dst, kNone, -1, random};
  std::vector<bool> global;
  for (int step = 0; step < 20; ++step) {
    HopOptions o;
    f.next_hops(d, s, o);
    if (o.count == 0) {
      w.delivered = s.node == g.endpoint_node(dst);
      break;
    }
    const bool router = d.group(s.node) >= 0;
    std::size_t k = 0;
    if (o.count == 2) {  // the source router's choice
      EXPECT_NE(o.items[0].hops, 0);
      k = pick;
      w.weight = o.items[k].hops;
    } else {
      for (const HopOption& h : o) EXPECT_EQ(h.port, o.items[0].port);  // one cable (classes: any)
    }
    const Link& l = g.link(g.node(s.node).out_ports.at(static_cast<std::size_t>(o.items[k].port)));
    if (router) w.groups.push_back(d.group(s.node));
    if (router && d.group(l.dst) >= 0) {
      ++w.router_hops;
      const bool is_global = d.group(l.dst) != d.group(s.node);
      w.global_hops += is_global ? 1 : 0;
      global.push_back(is_global);
      w.classes.push_back(o.items[k].vc_class);
    }
    s = HopState{l.dst, src, dst, l.dst_port, o.items[k].vc_class, random};
  }
  for (std::size_t i = 0; i < global.size(); ++i)
    w.globals_after.push_back(static_cast<int>(std::count(global.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                                          global.end(), true)));
  return w;
}

}  // namespace

TEST(Routing, UgalChoosesAtTheSourceBetweenTheMinimalAndAValiantPathThenFollowsIt) {
  const auto topo = make_topology("dragonfly:p=2");
  const auto& d = dynamic_cast<const Dragonfly&>(*topo);
  const RoutingFunction& f = find_routing("ugal", d);
  EXPECT_EQ(f.vc_classes(d), 3);
  EXPECT_EQ(f.min_vcs(d), 3);
  std::set<int> intermediates;
  for (EndpointId src = 0; src < d.endpoint_count(); src += 7)
    for (EndpointId dst = 0; dst < d.endpoint_count(); ++dst) {
      if (src == dst) continue;
      const int from = d.group_of(src);
      const int to = d.group_of(dst);
      for (std::uint64_t random = 0; random < 3; ++random)
        for (std::size_t pick : {std::size_t{0}, std::size_t{1}}) {
          if (from == to && pick == 1) continue;
          const UgalWalk w = walk_ugal(d, src, dst, random * 977 + static_cast<std::uint64_t>(dst), pick);
          ASSERT_TRUE(w.delivered) << src << " -> " << dst;
          // Minimal: at most local, global, local; Valiant: two global
          // cables through a third group.
          EXPECT_EQ(w.global_hops, from == to ? 0 : static_cast<int>(pick) + 1) << src << " -> " << dst;
          EXPECT_LE(w.router_hops, from == to ? 1 : pick == 0 ? 3 : 5);
          if (from != to) {
            EXPECT_EQ(w.weight, w.router_hops) << src << " -> " << dst;  // the option's weight
          }
          if (pick == 1) {
            std::set<int> visited(w.groups.begin(), w.groups.end());
            ASSERT_EQ(visited.size(), 3u);
            visited.erase(from);
            visited.erase(to);
            intermediates.insert(*visited.begin());
          }
          // Class: 2 - global cables still ahead (never decreasing).
          for (std::size_t i = 0; i < w.classes.size(); ++i) EXPECT_EQ(w.classes[i], 2 - w.globals_after[i]);
        }
    }
  EXPECT_EQ(intermediates.size(), 9u);  // every group serves as an intermediate
}

namespace {

// Every path a per-hop dragonfly routing can give: from one endpoint of
// every router to every endpoint, for every draw of the packet's random
// word below `draws`, taking each option at every router that offers more
// than one cable. Returns the channels (directed router-to-router link,
// VC class) of each path, and whether every path reached its destination.
struct DragonflyPaths {
  std::vector<std::vector<std::pair<LinkId, int>>> channels;
  std::vector<std::vector<NodeId>> routers;
  bool all_delivered = true;
};

void walk_all(const Dragonfly& d, const RoutingFunction& f, HopState s, std::vector<std::pair<LinkId, int>>& path,
              std::vector<NodeId>& routers, DragonflyPaths& out, int depth) {
  const Graph& g = d.graph();
  HopOptions o;
  f.next_hops(d, s, o);
  if (o.count == 0 || depth > 12) {
    out.all_delivered = out.all_delivered && s.node == g.endpoint_node(s.destination);
    out.channels.push_back(path);
    out.routers.push_back(routers);
    return;
  }
  std::set<int> ports;
  for (const HopOption& h : o) {
    // An endpoint cable offers every class: one walk (nothing waits on it).
    const Link& l = g.link(g.node(s.node).out_ports.at(static_cast<std::size_t>(h.port)));
    const bool between_routers = d.group(s.node) >= 0 && d.group(l.dst) >= 0;
    if (!between_routers && !ports.insert(h.port).second) continue;
    if (between_routers) path.emplace_back(g.node(s.node).out_ports.at(static_cast<std::size_t>(h.port)), h.vc_class);
    if (d.group(l.dst) >= 0) routers.push_back(l.dst);
    walk_all(d, f, HopState{l.dst, s.source, s.destination, l.dst_port, h.vc_class, s.random}, path, routers, out,
             depth + 1);
    if (d.group(l.dst) >= 0) routers.pop_back();
    if (between_routers) path.pop_back();
  }
}

DragonflyPaths dragonfly_paths(const Dragonfly& d, const RoutingFunction& f, std::uint64_t draws) {
  DragonflyPaths out;
  const Graph& g = d.graph();
  const int p = d.shape().p;
  for (EndpointId src = 0; src < d.endpoint_count(); src += p)
    for (EndpointId dst = 0; dst < d.endpoint_count(); ++dst)
      for (std::uint64_t random = 0; random < draws; ++random) {
        if (src == dst) continue;
        std::vector<std::pair<LinkId, int>> path;
        std::vector<NodeId> routers;
        walk_all(d, f, HopState{g.endpoint_node(src), src, dst, kNone, -1, random}, path, routers, out, 0);
      }
  return out;
}

// Whether the channel dependency graph of `paths` (an edge from each
// channel of a path to the next) has a cycle: Dally and Seitz's condition,
// a routing whose dependency graph is acyclic cannot deadlock.
bool dependency_cycle(const DragonflyPaths& paths) {
  std::map<std::pair<LinkId, int>, std::set<std::pair<LinkId, int>>> next;
  for (const auto& path : paths.channels)
    for (std::size_t i = 0; i + 1 < path.size(); ++i) next[path[i]].insert(path[i + 1]);
  std::map<std::pair<LinkId, int>, int> state;  // 1 on the stack, 2 done
  std::function<bool(const std::pair<LinkId, int>&)> visit = [&](const std::pair<LinkId, int>& c) {
    state[c] = 1;
    for (const auto& n : next[c]) {
      if (state[n] == 1) return true;
      if (state[n] == 0 && visit(n)) return true;
    }
    state[c] = 2;
    return false;
  };
  for (const auto& [c, unused] : next)
    if (state[c] == 0 && visit(c)) return true;
  return false;
}

}  // namespace

// ugal-booksim2 takes BookSim2's ugal_dragonflynew paths: the drawn
// intermediate is a router of the whole network, every draw occurs, a
// non-minimal path visits the drawn router (in the destination group too),
// a draw in the source group leaves the minimal path only; and its 4
// classes keep the channel dependency graph acyclic, as ugal's 3 keep its own.
TEST(Routing, UgalBookSim2TakesBookSim2sPathsWithAnAcyclicChannelDependencyGraph) {
  const auto topo = make_topology("dragonfly:p=1,a=4,h=1,g=5");
  const auto& d = dynamic_cast<const Dragonfly&>(*topo);
  const RoutingFunction& f = find_routing("ugal-booksim2", d);
  EXPECT_EQ(f.vc_classes(d), 4);
  EXPECT_EQ(f.min_vcs(d), 4);
  const auto routers = static_cast<std::uint64_t>(d.shape().g * d.shape().a);
  const DragonflyPaths paths = dragonfly_paths(d, f, routers);
  EXPECT_TRUE(paths.all_delivered);
  std::size_t through_drawn = 0;
  for (std::size_t i = 0; i < paths.routers.size(); ++i) {
    const auto& visited = paths.routers[i];
    ASSERT_FALSE(visited.empty());
    EXPECT_LE(paths.channels[i].size(), 6u);  // local, global, local, local, global, local at most
    std::set<int> groups;
    for (const NodeId r : visited) groups.insert(d.group(r));
    EXPECT_LE(groups.size(), 3u);
    through_drawn += groups.size() == 3 ? 1 : 0;
  }
  EXPECT_GT(through_drawn, 0u);
  EXPECT_FALSE(dependency_cycle(paths));
  EXPECT_FALSE(dependency_cycle(dragonfly_paths(d, find_routing("ugal", d), routers)));
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
