// N-dimensional mesh and torus, one router (hosting one endpoint) per point.
//
// Node id = x + NX*(y + NY*z ...) (X fastest). Router ports: 2d = dimension d
// in the + direction, 2d+1 = dimension d in the - direction. A size-1
// dimension has no links; a size-2 torus dimension has two cables between the
// two nodes (one per direction), so both directions reach the same neighbour.
//
// Routing is dimension order (X, then Y, then Z, ...). On the mesh the
// destination fixes the direction. On the torus the route is minimal in every
// dimension; **tie rule**: an offset of exactly N/2 (even N) goes in the +
// direction unless the route hint says otherwise. Route hint bits [2d+1:2d]
// choose the direction in dimension d: 0 = default (minimal, ties +),
// 1 = + only, 2 = - only. `plus_only_hint()` gives + in every dimension.
// Dateline: on the torus every hop from the wrap link of a dimension onwards
// (within that dimension) is VC class 1, before it class 0.
#pragma once

#include <span>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

/// Route hint per dimension (2 bits): minimal (a half-way tie on a torus goes
/// +), plus only, minus only, or minimal with a half-way tie going - (a
/// source that splits ties at random sets minimal or minimal_tie_minus per
/// packet).
enum class Direction : std::uint8_t { minimal = 0, plus = 1, minus = 2, minimal_tie_minus = 3 };

class Grid final : public Topology {
 public:
  /// Throws TopologyError for no dimension, more than 4, or a size < 1.
  /// `bandwidth`: per dimension, its cables' flits per cycle each way
  /// (keys bandwidth_D of torus:/mesh:; absent: 1).
  Grid(std::vector<int> sizes, bool torus, std::vector<Bandwidth> bandwidth = {});

  [[nodiscard]] const std::vector<int>& sizes() const { return sizes_; }
  [[nodiscard]] int dims() const { return static_cast<int>(sizes_.size()); }
  [[nodiscard]] int size(int dim) const { return sizes_.at(static_cast<std::size_t>(dim)); }
  [[nodiscard]] bool torus() const { return torus_; }

  [[nodiscard]] std::vector<int> coord(EndpointId id) const;
  /// Id of a coordinate; every component is taken modulo its size.
  [[nodiscard]] EndpointId id(std::span<const int> coord) const;
  /// Node reached from `from` by adding `offset` (modulo sizes).
  [[nodiscard]] EndpointId shifted(EndpointId from, std::span<const int> offset) const;
  /// Outgoing link of a node in dimension d and direction +1/-1, or kNone.
  [[nodiscard]] LinkId link(EndpointId node, int dim, int dir) const;

  /// Signed number of hops the route takes in dimension d (sign = direction).
  [[nodiscard]] int hops(EndpointId src, EndpointId dst, int dim, RouteHint hint = 0) const;

  static RouteHint direction_hint(int dim, Direction d) {
    return static_cast<RouteHint>(static_cast<unsigned>(d) << (2 * dim));
  }
  static Direction hint_direction(RouteHint hint, int dim) {
    return static_cast<Direction>((hint >> (2 * dim)) & 3u);
  }
  static constexpr RouteHint plus_only_hint() { return 0x55; }

 private:
  std::vector<int> sizes_;
  bool torus_;
};

}  // namespace collnet::topology
