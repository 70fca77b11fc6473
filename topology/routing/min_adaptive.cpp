// min-adaptive: minimal adaptive routing on a mesh or torus with
// dimension-order escape VCs (Duato's construction).
//
// VC classes: the escape classes come first (mesh: class 0; torus: classes 0
// and 1, the dateline classes of dimension order), the adaptive class last.
// Each escape class owns one VC, the adaptive class every other one (vcs 2 on
// a mesh, 3 on a torus at least).
//
// At every router a packet that is not on an escape VC may take any
// productive direction (every dimension whose offset is not 0; on a torus
// both directions when the offset is exactly half the ring) on the adaptive
// class, lowest dimension first on a tie, and the dimension-order hop on the
// escape class. A packet on an escape VC stays on the escape VCs to its
// destination (dimension order from there on): the escape VCs form the
// dimension-order network, whose channel dependencies are acyclic, and no
// escape channel ever waits for an adaptive one.
//
// Torus escape classes without memory of the path: a hop takes class 1 when
// the dimension-order run of its dimension from the current router still
// crosses the wrap link (that link included), class 0 otherwise. The class-1
// chain of a ring ends at its wrap link and the class-0 channels never hold
// a packet that crosses it, so neither class closes a cycle.
#include <cstdlib>

#include "topology/routing/escape.hpp"

namespace collnet::topology {

namespace {

using namespace escape;

void next_hops(const Topology& t, const HopState& s, HopOptions& out) {
  const auto [g, at] = start(t, s, out);
  const int escape = escape_classes(t);
  const bool on_escape = s.in_class >= 0 && s.in_class < escape;
  const auto adaptive = static_cast<std::uint8_t>(escape);
  int escape_dim = -1;
  int escape_hops = 0;
  for (int d = 0; d < g.dims(); ++d) {
    const int h = g.hops(at, s.destination, d);  // minimal, a half-way tie +
    if (h == 0) continue;
    if (escape_dim < 0) {
      escape_dim = d;
      escape_hops = h;
    }
    if (on_escape) break;
    out.add({2 * d + (h > 0 ? 0 : 1), adaptive, false});
    if (g.torus() && 2 * std::abs(h) == g.size(d)) out.add({2 * d + 1, adaptive, false});  // tie: - too
  }
  if (escape_dim < 0) return;  // at the destination
  std::uint8_t cls = 0;
  if (g.torus()) {
    const int a = coordinate(g, at, escape_dim);
    const int b = coordinate(g, s.destination, escape_dim);
    cls = (escape_hops > 0 && b < a) || (escape_hops < 0 && b > a) ? 1 : 0;  // the run still wraps
  }
  out.add({2 * escape_dim + (escape_hops > 0 ? 0 : 1), cls, true});
}

}  // namespace

RoutingFunction min_adaptive_routing() {
  return escape::routing("min-adaptive",
                         "minimal adaptive over the productive dimensions (most credits first), dimension-order "
                         "escape VCs (dateline classes on a torus); a packet on an escape VC stays on them",
                         &next_hops);
}

}  // namespace collnet::topology
