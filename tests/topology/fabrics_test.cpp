// Fat trees and dragonflies (topology/fattree.hpp, topology/dragonfly.hpp):
// node and cable counts from the closed forms of the networks' definitions,
// routes against shortest paths searched in the graph here (breadth first
// for hops, Dijkstra for cable latency), and the routing rules' own
// properties (up then down; one global cable, or two through a third group).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>
#include <cstdint>
#include <set>

#include "topology/dragonfly.hpp"
#include "topology/fattree.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"

using namespace collnet::topology;

namespace {

/// Cheapest cost from `from` to every node, each directed link costing cost(link).
template <typename Cost>
std::vector<long> shortest(const Graph& g, NodeId from, Cost cost) {
  std::vector<long> dist(g.node_count(), -1);
  using Item = std::pair<long, NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  queue.push({0, from});
  while (!queue.empty()) {
    const auto [d, n] = queue.top();
    queue.pop();
    if (dist[static_cast<std::size_t>(n)] >= 0) continue;
    dist[static_cast<std::size_t>(n)] = d;
    for (LinkId l : g.node(n).out_ports)
      if (l != kNone && dist[static_cast<std::size_t>(g.link(l).dst)] < 0) queue.push({d + cost(l), g.link(l).dst});
  }
  return dist;
}

void expect_connected(const Topology& t, const Route& r, EndpointId src, EndpointId dst) {
  const Graph& g = t.graph();
  NodeId at = g.endpoint_node(src);
  for (const Hop& h : r) {
    ASSERT_EQ(g.link(h.link).src, at);
    at = g.link(h.link).dst;
  }
  EXPECT_EQ(at, g.endpoint_node(dst));
}

std::size_t degree(const Graph& g, NodeId n) {
  return static_cast<std::size_t>(std::count_if(g.node(n).out_ports.begin(), g.node(n).out_ports.end(),
                                                 [](LinkId l) { return l != kNone; }));
}

}  // namespace

TEST(FatTree, CountsAndDegreesOfTheKaryNTree) {
  for (const auto& [k, n] : std::vector<std::pair<int, int>>{{2, 1}, {2, 3}, {4, 2}, {4, 3}, {3, 3}}) {
    const auto t = make_topology("fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n));
    const auto* ft = dynamic_cast<const FatTree*>(t.get());
    ASSERT_NE(ft, nullptr);
    int endpoints = 1;
    for (int i = 0; i < n; ++i) endpoints *= k;
    const int per_level = endpoints / k;
    EXPECT_EQ(t->endpoint_count(), endpoints);
    EXPECT_EQ(t->graph().node_count(), static_cast<std::size_t>(endpoints + n * per_level));
    // A cable per server and k^n cables between each two adjacent levels, two directed links each.
    EXPECT_EQ(t->graph().link_count(), static_cast<std::size_t>(2 * (endpoints + (n - 1) * endpoints)));
    for (int l = 0; l < n; ++l)
      for (int w = 0; w < per_level; ++w) {
        const NodeId s = ft->switch_node(l, w);
        EXPECT_EQ(degree(t->graph(), s), static_cast<std::size_t>(l == 0 ? k : 2 * k));
        EXPECT_EQ(ft->level(s), l);
        EXPECT_EQ(ft->position(s), w);
      }
  }
}

TEST(FatTree, NcaRoutesAreShortestUpThenDown) {
  std::uint64_t word = 12345;
  for (const std::string spec : {"fattree:k=4,n=3", "fattree:k=2,n=4", "fattree:k=3,n=3"}) {
    const auto t = make_topology(spec);
    const RoutingFunction& routing = find_routing(spec == "fattree:k=3,n=3" ? "nca-random" : "nca", *t);
    const auto& ft = dynamic_cast<const FatTree&>(*t);
    const Graph& g = t->graph();
    for (EndpointId s = 0; s < t->endpoint_count(); ++s) {
      const auto hops = shortest(g, g.endpoint_node(s), [](LinkId) { return 1L; });
      for (EndpointId d = 0; d < t->endpoint_count(); ++d) {
        word = word * 6364136223846793005ull + 1442695040888963407ull;
        const Route r = routing.route(*t, s, d, 0, word >> 11);
        expect_connected(*t, r, s, d);
        EXPECT_EQ(static_cast<long>(r.size()), hops[static_cast<std::size_t>(g.endpoint_node(d))]) << spec;
        // Levels fall (towards the top) and then rise, turning once.
        bool down = false;
        for (std::size_t i = 1; i < r.size(); ++i) {
          const int from = ft.level(g.link(r[i].link).src);
          const int to = ft.level(g.link(r[i].link).dst);
          if (to > from) down = true;
          EXPECT_FALSE(down && to < from) << spec << " " << s << "->" << d;
          EXPECT_EQ(r[i].vc_class, 0);
        }
      }
    }
  }
}

TEST(FatTree, NcaUpPortsFollowTheDestination) {
  // 4-ary 2-tree: every route to one destination climbs to the same top
  // switch, and the four destinations of one leaf use four different ones.
  const auto t = make_topology("fattree:k=4,n=2");
  const auto& ft = dynamic_cast<const FatTree&>(*t);
  const Graph& g = t->graph();
  for (int leaf = 0; leaf < 4; ++leaf) {
    std::set<NodeId> tops_of_leaf;
    for (EndpointId d = 4 * leaf; d < 4 * leaf + 4; ++d) {
      std::set<NodeId> tops;
      for (EndpointId s = 0; s < 16; ++s)
        for (const Hop& h : t->route(s, d))
          if (ft.level(g.link(h.link).dst) == 0) tops.insert(g.link(h.link).dst);
      EXPECT_EQ(tops.size(), 1u) << "destination " << d;
      tops_of_leaf.insert(tops.begin(), tops.end());
    }
    EXPECT_EQ(tops_of_leaf.size(), 4u);
  }
  // nca-random spreads one pair's packets over every top switch, by the packet's random word.
  std::set<NodeId> tops;
  for (std::uint64_t word = 0; word < 8; ++word)
    tops.insert(g.link(find_routing("nca-random", *t).route(*t, 0, 15, 0, word)[1].link).dst);
  EXPECT_EQ(tops.size(), 4u);
}

TEST(FatTree, LinkNamesCarryLevelAndPosition) {
  const auto t = make_topology("fattree:k=4,n=3");
  const auto& ft = dynamic_cast<const FatTree&>(*t);
  const Graph& g = t->graph();
  const NodeId leaf5 = ft.switch_node(2, 5);
  EXPECT_EQ(g.node_name(leaf5), "305");
  EXPECT_EQ(g.link_name(g.node(leaf5).out_ports[5]), "305:5->205");
  EXPECT_EQ(g.link_name(g.node(g.endpoint_node(21)).out_ports[0]), "21:0->305");
}

TEST(FatTree, BadSpecsNameTheKeyAndTheAcceptedValues) {
  const auto message = [](const std::string& spec) {
    try {
      (void)make_topology(spec);
    } catch (const TopologyError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("fattree:k=1,n=3").find("key 'k' must be an integer from 2"), std::string::npos);
  EXPECT_NE(message("fattree:k=4").find("needs k=K and n=N"), std::string::npos);
  EXPECT_NE(message("fattree:k=4,n=3,levels=2").find("unknown key 'levels'"), std::string::npos);
  EXPECT_NE(message("fattree:k=4,n=3,routing=nca").find("unknown key 'routing' (keys: k, n, bandwidth_0, "),
            std::string::npos);
  EXPECT_NE(message("fattree:k=4,n=3,bandwidth_3=2").find("key 'bandwidth_3': no level 3 with n=3; accepted: "
                                                           "bandwidth_0 .. bandwidth_2"),
            std::string::npos);
  EXPECT_NE(message("fattree:k=16,n=5").find("more than 65536 endpoints"), std::string::npos);
  EXPECT_NE(message("fattree:k=4,n=3,k=2").find("given twice"), std::string::npos);
  EXPECT_THROW((void)make_topology("fattree:k=4,n=2")->route(0, 1, 5), TopologyError);
}

TEST(Dragonfly, BalancedShapeCountsAndOneGlobalCablePerGroupPair) {
  for (const int p : {1, 2, 3}) {
    const auto t = make_topology("dragonfly:p=" + std::to_string(p));
    const auto& fly = dynamic_cast<const Dragonfly&>(*t);
    const int a = 2 * p, h = p, g = a * h + 1;
    EXPECT_EQ(t->endpoint_count(), p * a * g);
    EXPECT_EQ(fly.router_count(), a * g);
    const Graph& gr = t->graph();
    std::map<std::pair<int, int>, int> cables;
    int local = 0;
    for (LinkId l = 0; l < static_cast<LinkId>(gr.link_count()); ++l) {
      const Link& lk = gr.link(l);
      const int gs = fly.group(lk.src), gd = fly.group(lk.dst);
      if (gs < 0 || gd < 0) {
        EXPECT_EQ(lk.latency, 0);  // server cables: the scenario's link latency
      } else if (gs != gd) {
        EXPECT_TRUE(fly.is_global(l));
        EXPECT_EQ(lk.latency, 100);
        ++cables[{gs, gd}];
      } else {
        EXPECT_EQ(lk.latency, 10);
        ++local;
      }
    }
    EXPECT_EQ(cables.size(), static_cast<std::size_t>(g * (g - 1)));  // every ordered pair of groups
    for (const auto& [pair, count] : cables) EXPECT_EQ(count, 1);
    EXPECT_EQ(local, g * a * (a - 1));
    for (int grp = 0; grp < g; ++grp)
      for (int i = 0; i < a; ++i)
        EXPECT_EQ(degree(gr, fly.router_node(grp, i)), static_cast<std::size_t>(p + (a - 1) + h));
  }
}

TEST(Dragonfly, MinRoutesTakeTheLeastLatencyPathAndChangeClassAtTheGlobalCable) {
  for (const std::string spec : {"dragonfly:p=2", "dragonfly:p=1,a=3,h=2,g=5,local_latency=3,global_latency=7"}) {
    const auto t = make_topology(spec);
    const auto& fly = dynamic_cast<const Dragonfly&>(*t);
    const Graph& g = t->graph();
    EXPECT_EQ(default_routing(*t).name, "min");
    EXPECT_EQ(default_routing(*t).vc_classes(*t), 2);
    for (EndpointId s = 0; s < t->endpoint_count(); ++s) {
      const auto cost = shortest(g, g.endpoint_node(s), [&](LinkId l) { return long{std::max(g.link(l).latency, 1)}; });
      for (EndpointId d = 0; d < t->endpoint_count(); ++d) {
        const Route r = t->route(s, d);
        expect_connected(*t, r, s, d);
        long total = 0;
        int globals = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
          const Hop& h = r[i];
          total += std::max(g.link(h.link).latency, 1);
          if (fly.is_global(h.link)) ++globals;
          // The endpoint cables take any VC; the router-to-router hops the class.
          const bool endpoint_cable = i == 0 || i + 1 == r.size();
          EXPECT_EQ(h.vc_class, endpoint_cable ? Dragonfly::kAnyVcClass : globals) << spec << " " << s << "->" << d;
        }
        if (s != d) {
          EXPECT_EQ(total, cost[static_cast<std::size_t>(g.endpoint_node(d))]) << spec << " " << s << "->" << d;
        }
        EXPECT_EQ(globals, fly.group_of(s) == fly.group_of(d) ? 0 : 1);
      }
    }
  }
}

TEST(Dragonfly, ValiantPassesThroughAnotherGroup) {
  const auto t = make_topology("dragonfly:p=2");
  const auto& fly = dynamic_cast<const Dragonfly&>(*t);
  const Graph& g = t->graph();
  const RoutingFunction& valiant = find_routing("valiant", *t);
  EXPECT_EQ(valiant.vc_classes(*t), 3);
  const auto route_with = [&](EndpointId s, EndpointId d, RouteHint hint, std::uint64_t word) {
    return valiant.route(*t, s, d, hint, word);
  };
  std::set<int> via_groups;
  for (std::uint64_t word = 0; word < 7; ++word) {
    const EndpointId s = 1, d = 70;  // groups 0 and 8
    const Route r = route_with(s, d, 0, word);
    expect_connected(*t, r, s, d);
    int globals = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const Hop& h = r[k];
      if (fly.is_global(h.link)) {
        ++globals;
        if (globals == 1) via_groups.insert(fly.group(g.link(h.link).dst));
      }
      EXPECT_EQ(h.vc_class, k == 0 || k + 1 == r.size() ? Dragonfly::kAnyVcClass : globals);
    }
    EXPECT_EQ(globals, 2);
  }
  // Every group but the source's and the destination's.
  EXPECT_EQ(via_groups, (std::set<int>{1, 2, 3, 4, 5, 6, 7}));
  // The route hint fixes the intermediate group (hint - 1).
  const Route hinted = route_with(1, 70, 5, 0);
  EXPECT_EQ(fly.group(g.link(std::find_if(hinted.begin(), hinted.end(),
                                          [&](const Hop& h) { return fly.is_global(h.link); })
                              ->link)
                          .dst),
            4);
  EXPECT_THROW((void)route_with(1, 70, 1, 0), TopologyError);   // group 0: the source's own
  EXPECT_THROW((void)route_with(1, 70, 10, 0), TopologyError);  // no group 9
  // Within one group: minimal.
  EXPECT_EQ(route_with(0, 7, 0, 3).size(), 3u);
  EXPECT_THROW((void)t->route(1, 70, 5), TopologyError);  // min takes no hint
}

TEST(Dragonfly, BadSpecsNameTheKeyAndTheAcceptedValues) {
  const auto message = [](const std::string& spec) {
    try {
      (void)make_topology(spec);
    } catch (const TopologyError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("dragonfly:a=4").find("needs p=P"), std::string::npos);
  EXPECT_NE(message("dragonfly:p=2,g=10").find("accepted g: 1..9"), std::string::npos);
  EXPECT_NE(message("dragonfly:p=2,routing=valiant").find("unknown key 'routing'"), std::string::npos);
  EXPECT_NE(message("dragonfly:p=2,global_latency=0").find("key 'global_latency' must be an integer from 1"),
            std::string::npos);
  EXPECT_NE(message("dragonfly:p=2,q=1").find("unknown key 'q'"), std::string::npos);
  EXPECT_NE(message("dragonfly:p=1,a=200,h=1,g=200").find("cables; at most 500000"), std::string::npos);
  EXPECT_EQ(make_topology("dragonfly:p=2,a=4,h=2,g=9")->name(), "dragonfly:p=2");
  EXPECT_EQ(make_topology("dragonfly:p=2,g=5")->name(), "dragonfly:p=2,a=4,h=2,g=5");
}
