// The VC classes of the per-hop grid routing functions with dimension-order
// escape VCs (min-adaptive, dor-vc-adaptive): the escape classes first (mesh:
// class 0; torus: classes 0 and 1, the dateline classes of dimension order),
// one VC each, then the adaptive class with every VC left over.
#pragma once

#include <utility>
#include <vector>

#include "topology/grid.hpp"
#include "topology/routing.hpp"

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

/// Coordinate of endpoint `id` in dimension `dim` (no allocation: routed per head).
inline int coordinate(const Grid& g, EndpointId id, int dim) {
  for (int d = 0; d < dim; ++d) id /= g.size(d);
  return id % g.size(dim);
}

}  // namespace collnet::topology::escape
