// Boards on a 4-D torus with main units and aggregation units (spec
// hd-allreduce, document 004).
//
// Boards: W x X x Y x Z, each size 1, 2 or 4. Board id = w + W*(x + X*(y + Y*z))
// (W fastest, as the spec's worked example numbers units j = w + 2x + 4y + 8z).
// Each board has 8 main units (hold the data) and 4 aggregation units (do the
// reduction); all are endpoints:
//   main unit m of board b        = endpoint 12*b + m      (m = 0..7, NodeKind::main_unit)
//   aggregation unit a of board b = endpoint 12*b + 8 + a  (a = 0..3, NodeKind::aggregation_unit)
// Graph node id = endpoint id; node label = endpoint id.
//
// Links (every cable is full duplex: two directed links on the same ports):
//   in-board: complete bipartite main <-> aggregation.
//     main unit port a (0..3) <-> aggregation unit port m (0..7).
//   X, Y, Z: main unit m <-> main unit m of the neighbouring board, 2 ports per
//     dimension on the main unit: X+ 4, X- 5, Y+ 6, Y- 7, Z+ 8, Z- 9.
//   W: aggregation unit a <-> aggregation unit a of the W neighbour (so the A
//     aggregation units form A independent planes): W+ port 8, W- port 9.
// A size-1 dimension has no links. A size-2 dimension has two cables between
// the two boards (the + cable of each board is the - cable of the other),
// so both ring directions reach the same board: twice the bandwidth.
// Link::dim follows the graph's letters (0 = x, 1 = y, 2 = z, 3 = w); the
// dimension numbers of this class are W = 0, X = 1, Y = 2, Z = 3.
//
// Routing (dimension order W, X, Y, Z; spec hd-allreduce: relay):
//   - W hops travel on aggregation units of one plane p, X/Y/Z hops on main
//     units of one index q (main units of a board are not linked to each
//     other, so a route only changes unit through an in-board link).
//   - Plane p: the source's aggregation index if the source is an
//     aggregation unit, else the destination's, else (main unit m to main
//     unit) m / 2.
//   - Relay for aggregation traffic in X/Y/Z: aggregation unit a -> main unit
//     2a if the first X/Y/Z dimension is travelled in the + direction, 2a+1
//     if in the - direction -> main units across the torus (store and forward
//     through main-unit memory by DMA; modelled as the route's hops) -> the
//     destination board's main unit -> the destination aggregation unit. So
//     the planes never share a link. Traffic that starts at a main unit and
//     does not move in W stays on that main unit's index.
//   - In-board, or to finish a route: main <-> aggregation is one direct
//     link; main unit m -> main unit m' goes through aggregation unit m / 2;
//     aggregation unit a -> aggregation unit a' through main unit 2a.
//
// Route hint (8 bits): bits [2d+1:2d] choose the direction in dimension d
// (W = 0, X = 1, Y = 2, Z = 3): 0 = default, 1 = + only, 2 = - only, 3 is
// not defined. Default = the shorter way; an offset of exactly n/2 (a size-2
// ring, or 2 on a size-4 ring) goes + from an even coordinate and - from an
// odd one, so that each directed ring link carries one message of a halving
// or doubling step (spec hd-allreduce: ring routing). A size-2 ring may split
// a message over both directions: two SENDs with the + and - hints.
//
// Virtual-channel classes: dateline per dimension as on the torus (class 1
// from the wrap link of a dimension on, within that dimension; in-board hops
// class 0).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "topology/grid.hpp"
#include "topology/topology.hpp"

namespace collnet::topology {

class Boards final : public Topology {
 public:
  static constexpr int kDims = 4;
  static constexpr int kMainUnits = 8;          // M in the spec
  static constexpr int kAggregationUnits = 4;   // A in the spec
  static constexpr int kUnitsPerBoard = kMainUnits + kAggregationUnits;
  enum Dim : int { W = 0, X = 1, Y = 2, Z = 3 };

  /// Sizes in the order W, X, Y, Z; each must be 1, 2 or 4 (TopologyError
  /// naming the size and the accepted values otherwise).
  explicit Boards(std::array<int, kDims> sizes);

  [[nodiscard]] const std::array<int, kDims>& sizes() const { return sizes_; }
  [[nodiscard]] int size(int dim) const { return sizes_.at(static_cast<std::size_t>(dim)); }
  [[nodiscard]] int boards() const { return boards_; }
  [[nodiscard]] std::array<int, kDims> board_coord(int board) const;
  /// Board id of a coordinate; components are taken modulo the sizes.
  [[nodiscard]] int board_id(const std::array<int, kDims>& coord) const;

  [[nodiscard]] static EndpointId main_unit(int board, int m) { return board * kUnitsPerBoard + m; }
  [[nodiscard]] static EndpointId aggregation_unit(int board, int a) {
    return board * kUnitsPerBoard + kMainUnits + a;
  }
  [[nodiscard]] static int board_of(EndpointId e) { return e / kUnitsPerBoard; }
  [[nodiscard]] static bool is_main_unit(EndpointId e) { return e % kUnitsPerBoard < kMainUnits; }
  /// m for a main unit, a for an aggregation unit.
  [[nodiscard]] static int unit_index(EndpointId e) {
    return is_main_unit(e) ? e % kUnitsPerBoard : e % kUnitsPerBoard - kMainUnits;
  }
  /// The letter of a dimension: 'W', 'X', 'Y', 'Z'.
  [[nodiscard]] static char dim_letter(int dim) { return "WXYZ"[dim]; }
  /// Link::dim value (graph letters, 0 = x) of a board dimension.
  [[nodiscard]] static std::int8_t link_dim(int dim) { return static_cast<std::int8_t>(dim == W ? 3 : dim - 1); }

  /// Signed hops (sign = direction) a route takes in dimension `dim` from
  /// board `from` to board `to` under `hint` (tie rule above).
  [[nodiscard]] int hops(int from, int to, int dim, RouteHint hint = 0) const;
  /// Port of a unit's ring link in dimension `dim`, direction +1/-1: W on
  /// aggregation units (ports 8, 9 after the eight in-board ports), X/Y/Z on
  /// main units (ports 4.. after the four in-board ports).
  static std::int32_t ring_port(int dim, int dir) {
    const std::int32_t minus = dir < 0 ? 1 : 0;
    if (dim == W) return kMainUnits + minus;
    return kAggregationUnits + 2 * (dim - 1) + minus;
  }

  static RouteHint direction_hint(int dim, Direction d) {
    return static_cast<RouteHint>(static_cast<unsigned>(d) << (2 * dim));
  }

 private:
  std::array<int, kDims> sizes_{};
  int boards_ = 1;
};

/// Builds boards from a `boards:WxXxYxZ` spec string (exactly four sizes).
std::unique_ptr<Boards> make_boards(std::string_view spec);

}  // namespace collnet::topology
