// The dragonfly's source-routed functions (topology/dragonfly.hpp describes
// the network; ugal, per hop, is in ugal.cpp):
//   min      (default) local hop to the router holding the cable to the
//            destination group, the global cable, local hop to the
//            destination router. VC class 0 before the global cable, 1 from
//            it on (2 classes); the endpoint cables at both ends take any VC
//            (Dragonfly::kAnyVcClass), as BookSim2's injection channels do.
//   valiant  a packet between two groups first goes minimally to a random
//            intermediate group (neither source nor destination group; drawn
//            per packet from the packet's random word, itself drawn from the
//            run's seed, or hint - 1 when the route hint is not 0), then
//            minimally on. Classes 0, 1 from the first global cable, 2 from
//            the second (3 classes). Within one group the route is minimal.
// The classes only ever increase along a route, so routes are deadlock free
// when each class has a VC of its own (vcs >= the class count).
#include <algorithm>
#include <string>

#include "topology/dragonfly.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

int min_classes(const Topology&) { return 2; }
int valiant_classes(const Topology&) { return 3; }

/// Appends the minimal hops from router node `at` to router (group, index),
/// classes from `cls` (one class up at the global cable).
void go(const Dragonfly& d, Route& r, NodeId& at, int grp, int idx, std::uint8_t& cls) {
  const Graph& g = d.graph();
  const Dragonfly::Shape& s = d.shape();
  const auto step = [&](int port) {
    const LinkId l = g.node(at).out_ports.at(static_cast<std::size_t>(port));
    r.push_back(Hop{l, cls});
    at = g.link(l).dst;
  };
  const auto local_to = [&](int j) {
    const int i = d.index(at);
    if (i != j) step(s.p + (j < i ? j : j - 1));
  };
  const int here = d.group(at);
  if (here != grp) {
    const auto [gw, port] = d.gateway(here, grp);
    local_to(gw);
    ++cls;  // the buffer at the far end of the global cable is the next class
    step(port);
  }
  local_to(idx);
}

template <bool Valiant>
Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) {
  const Dragonfly& d = static_cast<const Dragonfly&>(t);
  const Graph& g = d.graph();
  const int endpoints = d.endpoint_count();
  if (src < 0 || src >= endpoints || dst < 0 || dst >= endpoints)
    throw TopologyError("dragonfly: endpoint out of range 0.." + std::to_string(endpoints - 1));
  Route r;
  if (src == dst) return r;
  const Dragonfly::Shape& s = d.shape();
  if (hint != 0 && !Valiant)
    throw TopologyError("dragonfly route hint " + std::to_string(hint) +
                        " (a Valiant intermediate group) needs routing valiant; accepted with routing min: 0");
  NodeId at = g.endpoint_node(src);
  std::uint8_t cls = 0;
  // The endpoint's cable into its router and the router's cable to the
  // destination endpoint take any VC (as BookSim2's injection channels): no
  // buffer waits on them in a cycle.
  r.push_back(Hop{g.node(at).out_ports.at(0), Dragonfly::kAnyVcClass});  // server -> router
  at = g.link(r.back().link).dst;
  const int from = d.group_of(src);
  const int to = d.group_of(dst);
  if (Valiant && from != to && s.g > 2) {
    int via = 0;
    if (hint != 0) {
      via = hint - 1;
      if (via >= s.g || via == from || via == to)
        throw TopologyError("dragonfly route hint " + std::to_string(hint) + ": intermediate group " +
                            std::to_string(via) + " must be a group (0.." + std::to_string(s.g - 1) +
                            ") other than the source's " + std::to_string(from) + " and the destination's " +
                            std::to_string(to));
    } else {
      via = static_cast<int>(random % static_cast<std::uint64_t>(s.g - 2));
      for (const int skip : {std::min(from, to), std::max(from, to)})
        if (via >= skip) ++via;
    }
    go(d, r, at, via, d.gateway(via, from).first, cls);  // to the router the cable lands on
  }
  const int router = dst / s.p;
  go(d, r, at, to, router % s.a, cls);
  r.push_back(Hop{g.node(at).out_ports.at(static_cast<std::size_t>(dst % s.p)), Dragonfly::kAnyVcClass});
  return r;
}

RoutingFunction entry(std::string name, std::string description, int (*classes)(const Topology&)) {
  return routing_entry(std::move(name), std::move(description), {"dragonfly"}, classes);
}

}  // namespace

std::vector<RoutingFunction> dragonfly_routings() {
  RoutingFunction min = entry("min", "dragonfly: minimal (local, global, local); VC class 1 from the global cable on",
                              &min_classes);
  min.route = &route<false>;
  RoutingFunction valiant = entry("valiant",
                                  "dragonfly: minimally through a random intermediate group, then minimally on; a VC "
                                  "class per global cable",
                                  &valiant_classes);
  valiant.route = &route<true>;
  valiant.per_packet_random = true;
  return {min, valiant};
}

}  // namespace collnet::topology
