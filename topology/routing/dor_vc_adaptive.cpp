// dor-vc-adaptive: dimension-order hops on a mesh or torus whose VC class is
// chosen per hop: the adaptive class (no dateline restriction) or the
// dimension-order escape classes, Duato's construction with the
// dimension-order hop as the only adaptive output.
//
// VC classes as min-adaptive's (escape.hpp): escape classes
// first (mesh: class 0; torus: classes 0 and 1, the dateline classes), the
// adaptive class last with every VC left over.
//
// At every router a packet that is not on an escape VC is offered its
// dimension-order hop (lowest unfinished dimension, minimal direction) twice:
// on the adaptive class and on its escape class; a packet on an escape VC
// stays on the escape VCs to its destination. On a torus a half-way tie
// (offset exactly half the ring) goes the direction the packet's random word
// picks for that dimension, for both options, so a packet keeps one direction
// through a dimension. The escape class is min-adaptive's: class 1 while the
// run of the dimension from the current router still crosses the wrap link.
//
// This is the routing BookSim2's min_adapt_torus and min_adapt_mesh perform:
// they add one adaptive output per productive dimension, all at one priority,
// to a route set that keeps a single output per priority, so only the lowest
// dimension's survives (docs/validation.md).
#include "topology/routing/escape.hpp"

namespace collnet::topology {

namespace {

using namespace escape;

void next_hops(const Topology& t, const HopState& s, HopOptions& out) {
  const auto [g, at] = start(t, s, out);
  int dim = 0;
  while (dim < g.dims() && coordinate(g, at, dim) == coordinate(g, s.destination, dim)) ++dim;
  if (dim == g.dims()) return;  // at the destination
  const int a = coordinate(g, at, dim);
  const int b = coordinate(g, s.destination, dim);
  bool plus = b > a;
  std::uint8_t cls = 0;
  if (g.torus()) {
    const int k = g.size(dim);
    const int forward = ((b - a) % k + k) % k;  // hops in the + direction
    plus = 2 * forward == k ? ((s.random >> dim) & 1U) != 0 : 2 * forward < k;
    cls = (plus && b < a) || (!plus && b > a) ? 1 : 0;  // the run still wraps
  }
  const int port = 2 * dim + (plus ? 0 : 1);
  const int escape = escape_classes(t);
  const bool on_escape = s.in_class >= 0 && s.in_class < escape;
  if (!on_escape) out.add({port, static_cast<std::uint8_t>(escape), false});
  out.add({port, cls, true});
}

}  // namespace

RoutingFunction dor_vc_adaptive_routing() {
  RoutingFunction f = escape::routing(
      "dor-vc-adaptive",
      "dimension-order hops on the adaptive VC class or the dimension-order escape VCs (dateline classes on a "
      "torus), whichever the router's output selection takes; a packet on an escape VC stays on them; half-way "
      "ties by the packet's random word (BookSim2's min_adapt on a mesh or torus)",
      &next_hops);
  f.per_packet_random = true;
  return f;
}

}  // namespace collnet::topology
