// The VC classes of the per-hop grid routing functions with dimension-order
// escape VCs (min-adaptive, dor-vc-adaptive): the escape classes first (mesh:
// class 0; torus: classes 0 and 1, the dateline classes of dimension order),
// one VC each, then the adaptive class with every VC left over.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "topology/grid.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology::escape {

inline const Grid& grid_of(const Topology& t) { return static_cast<const Grid&>(t); }
inline int escape_classes(const Topology& t) { return grid_of(t).torus() ? 2 : 1; }
/// The escape classes and the adaptive one (RoutingFunction::vc_classes, min_vcs).
inline int classes(const Topology& t) { return escape_classes(t) + 1; }

/// RoutingFunction::vc_layout: one VC per escape class, the rest adaptive.
inline std::vector<std::pair<int, int>> layout(const Topology& t, int vcs) {
  const int escape = escape_classes(t);
  std::vector<std::pair<int, int>> blocks;
  for (int c = 0; c < escape; ++c) blocks.emplace_back(c, c + 1);
  blocks.emplace_back(escape, vcs);
  return blocks;
}

/// The entry of a per-hop grid function with these classes (mesh, torus).
inline RoutingFunction routing(std::string name, std::string description,
                               void (*next_hops)(const Topology&, const HopState&, HopOptions&)) {
  RoutingFunction f = routing_entry(std::move(name), std::move(description), {"mesh", "torus"}, &classes);
  f.vc_layout = &layout;
  f.next_hops = next_hops;
  return f;
}

/// Where a decision starts: the grid and the endpoint of the router the head
/// is in; `out` emptied (no option: at the destination).
struct Here {
  const Grid& grid;
  EndpointId at;
};
inline Here start(const Topology& t, const HopState& s, HopOptions& out) {
  out.clear();
  const Grid& g = grid_of(t);
  return {g, g.graph().node(s.node).endpoint};
}

/// Coordinate of endpoint `id` in dimension `dim` (no allocation: routed per head).
inline int coordinate(const Grid& g, EndpointId id, int dim) {
  for (int d = 0; d < dim; ++d) id /= g.size(d);
  return id % g.size(dim);
}

}  // namespace collnet::topology::escape
