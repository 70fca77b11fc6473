// The fat tree's routing functions (topology/fattree.hpp describes the
// network): nca and nca-random (source routes) and nca-adaptive (per hop).
// VC class 0 everywhere: up*/down* routes are deadlock free.
//   nca          (default) up to the nearest common ancestor, then down (the
//                only path down). The up port of the j-th up hop (j = 0 at the
//                leaf) is digit j of the destination in base K,
//                (dst / K^j) mod K ("destination mod k"): a deterministic
//                route that spreads the destinations of one leaf over all
//                top switches.
//   nca-random   as nca, but the up ports are drawn at random per packet
//                (from the packet's random word, itself drawn from the run's
//                seed), as BookSim2's fattree `nca`.
//   nca-adaptive up on the output with the most free credits, per hop.
// A non-zero route hint overrides the up ports of nca and nca-random: hint - 1
// = the up port of every up hop (0..K-1).
#include <algorithm>
#include <string>

#include "topology/fattree.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {


int power(int base, int exp) {
  int v = 1;
  for (int i = 0; i < exp; ++i) v *= base;
  return v;
}

template <bool Random>
Route nca_route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) {
  const auto& ft = static_cast<const FatTree&>(t);
  const Graph& g = ft.graph();
  const int k = ft.k();
  const int n = ft.n();
  const auto e_count = ft.endpoint_count();
  if (src < 0 || src >= e_count || dst < 0 || dst >= e_count)
    throw TopologyError("fattree: endpoint out of range 0.." + std::to_string(e_count - 1));
  Route r;
  if (src == dst) return r;
  if (hint != 0 && hint > k)
    throw TopologyError("fattree route hint " + std::to_string(hint) + ": accepted 0 (routing policy) or 1.." +
                        std::to_string(k) + " (up port + 1)");
  const int top = ft.ancestor_level(src, dst);
  NodeId at = g.endpoint_node(src);
  const auto step = [&](int port) {
    const LinkId l = g.node(at).out_ports.at(static_cast<std::size_t>(port));
    r.push_back(Hop{l, 0});
    at = g.link(l).dst;
  };
  step(0);  // server -> leaf
  int digit_base = 1;
  for (int l = n - 1; l > top; --l) {
    int up = 0;
    if (hint != 0) {
      up = hint - 1;
    } else if (Random) {
      up = static_cast<int>(random % static_cast<std::uint64_t>(k));
      random /= static_cast<std::uint64_t>(k);
    } else {
      up = (dst / digit_base) % k;
    }
    digit_base *= k;
    step(k + up);
  }
  // Down: at level l the port is digit N-1-l of the destination.
  for (int l = top; l < n; ++l) step((dst / power(k, n - 1 - l)) % k);
  return r;
}

// nca-adaptive: down when the switch covers the destination (the one path
// down), else any up port (most free credits first, the router's choice),
// with nca's destination-digit port as the fallback when none has a free VC.
// Every option is an up*/down* hop, so one class stays deadlock free.
void adaptive_hops(const Topology& t, const HopState& s, HopOptions& out) {
  const auto& ft = static_cast<const FatTree&>(t);
  out.clear();
  const int k = ft.k();
  const int n = ft.n();
  const int level = ft.level(s.node);
  if (level == n) {  // a server: to its leaf, unless it is the destination
    if (t.graph().node(s.node).endpoint != s.destination) out.add({0, 0, false});
    return;
  }
  const int below = power(k, n - 1 - level);  // endpoints under one down port, / k
  const int span = below * k;                 // endpoints under this switch
  const int first = (ft.position(s.node) / below) * span;
  if (s.destination >= first && s.destination < first + span) {
    out.add({(s.destination / below) % k, 0, false});
    return;
  }
  // At most HopOptions::kMax - 1 up ports (k >= 8: the ones after nca's,
  // cyclically), nca's first.
  const int nca = (s.destination / below) % k;
  const int listed = std::min(k, static_cast<int>(HopOptions::kMax) - 1);
  for (int i = 0; i < listed; ++i) out.add({k + (nca + i) % k, 0, false});
  out.add({k + nca, 0, true});
}

RoutingFunction entry(std::string name, std::string description) {
  return routing_entry(std::move(name), std::move(description), {"fattree"}, &one_class);
}

}  // namespace

std::vector<RoutingFunction> fattree_routings() {
  RoutingFunction nca = entry("nca",
                              "fat tree: up to the nearest common ancestor on the up ports the destination's digits "
                              "name (destination mod k), then the one path down");
  nca.route = &nca_route<false>;
  RoutingFunction random = entry("nca-random",
                                 "fat tree: up to the nearest common ancestor on up ports drawn at random per packet "
                                 "(BookSim2's nca), then the one path down");
  random.route = &nca_route<true>;
  random.per_packet_random = true;
  RoutingFunction adaptive = entry("nca-adaptive",
                                   "fat tree: up to the nearest common ancestor on the up port with the most free "
                                   "credits (per hop), nca's port when none has a free VC; then the one path down");
  adaptive.next_hops = &adaptive_hops;
  return {nca, random, adaptive};
}

}  // namespace collnet::topology
