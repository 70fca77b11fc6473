// The fat tree's and the dragonfly's routing functions (topology/fattree.hpp,
// topology/dragonfly.hpp describe the routes): nca and nca-random on a fat
// tree (and nca-adaptive: up on the output with the most free credits, per
// hop), min and valiant on a dragonfly.
#include <algorithm>

#include "topology/dragonfly.hpp"
#include "topology/fattree.hpp"
#include "topology/routing.hpp"

namespace collnet::topology {

namespace {

int one_class(const Topology&) { return 1; }
int min_classes(const Topology&) { return Dragonfly::classes(Dragonfly::Routing::min); }
int valiant_classes(const Topology&) { return Dragonfly::classes(Dragonfly::Routing::valiant); }

template <FatTree::Routing R>
Route fattree_route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) {
  return static_cast<const FatTree&>(t).route_with(R, src, dst, hint, random);
}

template <Dragonfly::Routing R>
Route dragonfly_route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) {
  return static_cast<const Dragonfly&>(t).route_with(R, src, dst, hint, random);
}

int power(int base, int exp) {
  int v = 1;
  for (int i = 0; i < exp; ++i) v *= base;
  return v;
}

// nca-adaptive: down when the switch covers the destination (the one path
// down), else any up port (most free credits first, the router's choice),
// with nca's destination-digit port as the fallback when none has a free VC.
// Every option is an up*/down* hop, so one class stays deadlock free.
void fattree_adaptive_hops(const Topology& t, const HopState& s, HopOptions& out) {
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

RoutingFunction entry(std::string name, std::string description, std::string kind, int (*classes)(const Topology&),
                      Route (*route)(const Topology&, EndpointId, EndpointId, RouteHint, std::uint64_t),
                      bool random) {
  RoutingFunction f;
  f.name = std::move(name);
  f.description = std::move(description);
  f.topologies = {std::move(kind)};
  f.vc_classes = classes;
  f.min_vcs = classes;
  f.route = route;
  f.per_packet_random = random;
  return f;
}

}  // namespace

std::vector<RoutingFunction> fabric_routings() {
  return {
      entry("nca",
            "fat tree: up to the nearest common ancestor on the up ports the destination's digits name "
            "(destination mod k), then the one path down",
            "fattree", &one_class, &fattree_route<FatTree::Routing::nca>, false),
      entry("nca-random",
            "fat tree: up to the nearest common ancestor on up ports drawn at random per packet (BookSim2's nca), "
            "then the one path down",
            "fattree", &one_class, &fattree_route<FatTree::Routing::nca_random>, true),
      [] {
        RoutingFunction f;
        f.name = "nca-adaptive";
        f.description =
            "fat tree: up to the nearest common ancestor on the up port with the most free credits (per hop), "
            "nca's port when none has a free VC; then the one path down";
        f.topologies = {"fattree"};
        f.vc_classes = &one_class;
        f.min_vcs = &one_class;
        f.next_hops = &fattree_adaptive_hops;
        return f;
      }(),
      entry("min",
            "dragonfly: minimal (local, global, local); VC class 1 from the global cable on",
            "dragonfly", &min_classes, &dragonfly_route<Dragonfly::Routing::min>, false),
      entry("valiant",
            "dragonfly: minimally through a random intermediate group, then minimally on; a VC class per global "
            "cable",
            "dragonfly", &valiant_classes, &dragonfly_route<Dragonfly::Routing::valiant>, true),
  };
}

}  // namespace collnet::topology
