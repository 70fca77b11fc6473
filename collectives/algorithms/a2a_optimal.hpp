// A2AT, the optimal all-to-all on a 2-D mesh or torus (document 001, spec
// a2a-optimal). Every node sends the same list of signed offsets in the same
// order, as groups of concurrent sends that load every link direction
// evenly; no barrier.
//
// Offsets are cyclic: (i, j) sent by (x, y) goes to ((x+i) mod Nx, (y+j) mod
// Ny). On the mesh the route is dimension order to that node (a "+i" that
// wraps travels Nx-i hops in -x: the mesh routing does it by itself, route
// hint 0). On the torus every offset is minimal (|i| <= Nx/2, |j| <= Ny/2)
// and its sign fixes the direction; for |i| = Nx/2 exactly the route hint
// says so (a2at_route_hint), otherwise the minimal route already agrees.
//
// The generator works on Nx >= Ny as the spec does; for Nx < Ny it generates
// the offsets of the transposed grid (Ny x Nx) and swaps the components back.
// Transposing changes no group's maximum link load: X-then-Y routes on the
// real grid are the transposed Y-then-X routes, and every row (column) sends
// the same pattern, so each directed link keeps its load.
//
// Orders (key `group_order`):
//   printed    the spec's schedule as the paper prints it: Core(S) with
//              S = floor((Ny-1)/2), then by shape
//                square N odd:   nothing more
//                square N even:  Step3
//                Ny odd:         Step3_Odd, Step4_Odd (Nx even)
//                Ny even:        Step3_Even, Step4_Even (loop up to
//                                S2 = floor((Nx-1)/2), spec erratum), Step5
//              groups = the spec's brackets (at most 2 sends): natural NCT 2.
//   reordered  Core(S) with iterations (i, j) and (j, i) merged into groups of
//              four that load +x, -x, +y, -y with i+j messages each; then on
//              an even square torus Step3_T (loop from i = 1, spec erratum);
//              on every other shape the printed steps after the core, four
//              at a time (consecutive groups of 4: the paper's "mesh
//              algorithm with NCT 4" for odd x odd tori). Natural NCT 4.
//   With an nct other than the order's natural NCT, the ordered offset list
//   is regrouped into consecutive groups of nct (the last may be shorter).
//
// Optimality (static check, DOR routes, sum of group maxima = bisection
// bound): every mesh in either order at nct 2; odd x odd and even square
// tori in the reordered order at nct 4. Rectangular tori other than odd x odd
// run the mesh steps (correct, not proven optimal; the spec leaves them open).
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/algorithm.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {

enum class A2atOrder { printed, reordered };

/// The values a2a-optimal loads its schedule engine with (engine "a2at",
/// driver/engines/a2at.cpp), read from the scenario with its own keys.
struct A2atEngineParams {
  int nct = 4;
  A2atOrder order = A2atOrder::reordered;
  std::uint32_t message_words = 0;
  bool group_barriers = false;
};

/// A signed 2-D offset: destination ((x + dx) mod Nx, (y + dy) mod Ny).
struct Offset2 {
  int dx = 0;
  int dy = 0;
  constexpr bool operator==(const Offset2&) const = default;
};
using OffsetGroup = std::vector<Offset2>;

/// Controllers the order's own groups fill: 2 (printed), 4 (reordered).
int a2at_natural_nct(A2atOrder order);

/// The ordered groups of offsets every node sends, for an Nx x Ny grid
/// (any sizes >= 1, either orientation) and nct >= 1. Throws ConfigError for
/// a size < 1 or nct < 1.
std::vector<OffsetGroup> a2at_offset_groups(int nx, int ny, bool torus, int nct,
                                            A2atOrder order = A2atOrder::reordered);

/// The route hint of an offset: on the torus, for a component of exactly
/// half the ring, the direction of its sign; 0 (default routing) otherwise.
topology::RouteHint a2at_route_hint(Offset2 offset, int nx, int ny, bool torus);

/// Key `group_pacing` (default off): every SEND of group g carries gap =
/// (the group's largest hop count, or its largest directed-link load over all
/// nodes) - 1 packet times, so that every message of a group runs at the
/// group's fair share of a link (document 000's pacer on document 001's
/// groups; README "A2AT in a packet network").
enum class A2atPacing { off, hops, load };
/// The pacing keys of a2a-optimal, declared once.
struct A2atPacingKeys {
  Key group_pacing;
  Key gap_slack;
  Key pacing_lead;
  Key self_copy;
};
const A2atPacingKeys& a2at_pacing_keys();
A2atPacing read_a2at_pacing(const Params& params);

/// Gap of every group under `pacing` (0 for off).
std::vector<int> a2at_group_gaps(const topology::Grid& grid, const std::vector<OffsetGroup>& groups,
                                 A2atPacing pacing);

Algorithm make_a2a_optimal();

}  // namespace collnet::collectives
