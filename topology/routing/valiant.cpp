// valiant: Valiant's randomized routing on a mesh or torus. Each packet goes
// by dimension order to an intermediate router drawn at random (uniform over
// all routers, from the packet's random word, itself drawn from the run's
// seed), then by dimension order to its destination. The two phases use
// separate VC classes (phase 2 never waits for phase 1), each split by the
// dateline on a torus: class = 2 x phase + dateline class (torus), = phase
// (mesh).
#include "topology/grid.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

const Grid& grid_of(const Topology& t) { return static_cast<const Grid&>(t); }
int classes(const Topology& t) { return grid_of(t).torus() ? 4 : 2; }

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) {
  const Grid& g = grid_of(t);
  const auto middle = static_cast<EndpointId>(random % static_cast<std::uint64_t>(g.endpoint_count()));
  Route r = g.route(src, middle, hint);
  const Route second = g.route(middle, dst, hint);
  const std::uint8_t phase2 = g.torus() ? 2 : 1;
  r.reserve(r.size() + second.size());
  for (Hop h : second) {
    h.vc_class = static_cast<std::uint8_t>(h.vc_class + phase2);
    r.push_back(h);
  }
  return r;
}

}  // namespace

RoutingFunction valiant_routing() {
  RoutingFunction f = source_routing("valiant",
                                     "Valiant: dimension order to a random intermediate router, then dimension "
                                     "order to the destination; a VC class per phase (times the dateline classes "
                                     "on a torus)",
                                     {"mesh", "torus"}, &classes, &route);
  f.keys = {"route_direction", "dateline", "dateline_class"};  // the phases are dimension order's
  f.per_packet_random = true;
  return f;
}

}  // namespace collnet::topology
