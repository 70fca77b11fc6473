// dor: dimension-order routing on a mesh or torus, every topology of those
// kinds' default (topology/grid.hpp describes the network and its route
// hint). X first, then Y, ...; minimal in every dimension, the direction
// from the route hint (key route_direction). On a torus a hop takes dateline
// VC class 1 from the wrap link of its dimension on, class 0 before it.
#include <array>
#include <cstdlib>

#include "topology/grid.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

int classes(const Topology& t) { return static_cast<const Grid&>(t).torus() ? 2 : 1; }

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t /*random*/) {
  const Grid& g = static_cast<const Grid&>(t);
  // The hops per dimension first, so that the route is allocated once.
  std::array<int, 4> per_dim{};  // at most 4 dimensions (Grid's constructor)
  std::size_t total = 0;
  for (int d = 0; d < g.dims(); ++d) {
    per_dim[static_cast<std::size_t>(d)] = g.hops(src, dst, d, hint);
    total += static_cast<std::size_t>(std::abs(per_dim[static_cast<std::size_t>(d)]));
  }
  Route r;
  r.reserve(total);
  EndpointId at = src;
  for (int d = 0; d < g.dims(); ++d) {
    const int h = per_dim[static_cast<std::size_t>(d)];
    const int dir = h > 0 ? +1 : -1;
    std::uint8_t vc = 0;
    for (int step = 0; step < std::abs(h); ++step) {
      const LinkId l = g.link(at, d, dir);
      const Link& lk = g.graph().link(l);
      if (lk.wrap) vc = 1;
      r.push_back(Hop{l, vc});
      at = g.graph().node(lk.dst).endpoint;
    }
  }
  return r;
}

}  // namespace

RoutingFunction dor_routing() {
  RoutingFunction f = source_routing("dor",
                                     "dimension order (X, then Y, ...), minimal in every dimension, direction from "
                                     "the route hint (key route_direction); torus: dateline VC classes",
                                     {"mesh", "torus"}, &classes, &route);
  f.keys = {"route_direction", "dateline", "dateline_class"};
  return f;
}

}  // namespace collnet::topology
