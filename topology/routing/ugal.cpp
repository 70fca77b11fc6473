// ugal: UGAL-L on a dragonfly (Kim, Dally, Scott and Abts, ISCA 2008:
// universal globally-adaptive load-balanced routing with local queue
// information), per hop.
//
// At its source router a packet bound for another group weighs two paths:
// the minimal one (local, global, local) and a Valiant one through an
// intermediate group drawn from the packet's random word as `valiant` draws
// it (neither the source's group nor the destination's). It takes the path
// whose first output has the least
//     flits queued at that output x router-to-router hops of the path,
// the minimal one on a tie; the flits queued at an output are what its
// router sees through credits: buffer slots of every VC of the cable's far
// end not yet given back (flits in the buffer, on the cable, or whose credit
// is still on its way). The router evaluates that rule (HopOption::hops,
// systemc/router/router.hpp) until the head leaves, and the VC class the packet
// leaves on commits it to the path: every later router reads the decision
// from the class the packet arrived on.
//
// VC classes (3, one VC each at least): a hop's class is 2 minus the global
// cables still ahead of the packet once it has crossed the hop.
//   class 0  Valiant path in the source group (two global cables ahead);
//   class 1  minimal path in the source group, Valiant path in the
//            intermediate group (one ahead);
//   class 2  the destination group (none ahead), and a route within a group.
// A router learns from the class the packet arrived on which group it is
// heading for: class 0, the intermediate group (recomputed from the random
// word); class 1 or 2, the destination's. Classes only increase along a path
// (a global cable takes the packet one class up) and within a class a local
// hop is always followed by a global one or by the destination's terminal,
// so the channel dependency graph has no cycle: deadlock free with one VC
// per class. As Valiant's, the path through the intermediate group lands on
// the router its cable arrives at, and takes the local hop to the router
// holding the cable on only when they differ.
//
// The endpoint cables (into the source router, out of the destination
// router) take any VC: the router is offered each class and picks the one
// with a free VC holding the most credits (as `min` and `valiant` give them
// the class kAnyVcClass; nothing waits on them in a cycle).
#include <algorithm>

#include "topology/dragonfly.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

constexpr int kClasses = 3;

const Dragonfly& fly(const Topology& t) { return static_cast<const Dragonfly&>(t); }
int classes(const Topology&) { return kClasses; }

/// Router (group, index) the global cable from `from` to group `to` leaves
/// from, and its port (as Dragonfly's wiring, dragonfly.hpp).
struct Gateway {
  int index;
  int port;
};
Gateway gateway(const Dragonfly::Shape& s, int from, int to) {
  const int t = to < from ? to : to - 1;
  return {t / s.h, s.p + s.a - 1 + t % s.h};
}

/// Port of router index `i` on the local cable to router index `j` of its group.
int local_port(const Dragonfly::Shape& s, int i, int j) { return s.p + (j < i ? j : j - 1); }

/// The packet's intermediate group: `random` over the groups other than
/// `from` and `to` (valiant's draw, topology/dragonfly.cpp).
int intermediate(const Dragonfly::Shape& s, int from, int to, std::uint64_t random) {
  int via = static_cast<int>(random % static_cast<std::uint64_t>(s.g - 2));
  for (const int skip : {std::min(from, to), std::max(from, to)})
    if (via >= skip) ++via;
  return via;
}

/// Every class on `port` (an endpoint cable: any VC).
void any_class(HopOptions& out, int port) {
  for (int c = 0; c < kClasses; ++c) out.add({port, static_cast<std::uint8_t>(c), false});
}

/// Next hop of router (group, index) towards group `to` (another group):
/// the local cable to the gateway, or the gateway's global cable. `cls` is
/// the class of the hop if it is local; a global hop is one class up.
HopOption toward_group(const Dragonfly::Shape& s, int group, int index, int to, int cls, std::uint8_t hops = 0) {
  const Gateway gw = gateway(s, group, to);
  if (gw.index != index) return {local_port(s, index, gw.index), static_cast<std::uint8_t>(cls), false, hops};
  return {gw.port, static_cast<std::uint8_t>(cls + 1), false, hops};
}

/// Router-to-router hops from router (group, index) to router (to, index_to)
/// in another group, minimally: to the gateway, the global cable, from the
/// router it lands on.
int group_hops(const Dragonfly::Shape& s, int group, int index, int to, int index_to) {
  return (gateway(s, group, to).index != index ? 1 : 0) + 1 + (gateway(s, to, group).index != index_to ? 1 : 0);
}

void next_hops(const Topology& t, const HopState& st, HopOptions& out) {
  const Dragonfly& d = fly(t);
  const Dragonfly::Shape& s = d.shape();
  out.clear();
  const int group = d.group(st.node);
  if (group < 0) {  // a server: to its router, unless it is the destination
    if (t.graph().node(st.node).endpoint != st.destination) any_class(out, 0);
    return;
  }
  const int index = d.index(st.node);
  const int to = d.group_of(st.destination);
  const int to_index = (st.destination / s.p) % s.a;
  if (group == to) {  // the destination group: local hop to the router, then the terminal
    if (index == to_index) any_class(out, st.destination % s.p);
    else out.add({local_port(s, index, to_index), 2, false});
    return;
  }
  const bool at_source = st.in_port < s.p;  // arrived on a terminal port (or from a NIC)
  if (!at_source) {
    // Committed: class 0 heads for the intermediate group, 1 and 2 for the
    // destination's (2 never arrives outside the destination group).
    if (st.in_class == 0) {
      const int via = intermediate(s, d.group_of(st.source), to, st.random);
      out.add(toward_group(s, group, index, via, 0));
    } else {
      out.add(toward_group(s, group, index, to, 1));
    }
    return;
  }
  // The source router: minimal first (the tie goes to it), then Valiant.
  const int min_hops = group_hops(s, group, index, to, to_index);
  if (s.g <= 2) {  // no third group: minimal
    out.add(toward_group(s, group, index, to, 1));
    return;
  }
  const int via = intermediate(s, group, to, st.random);
  const int landing = gateway(s, via, group).index;
  const int val_hops = group_hops(s, group, index, via, landing) + group_hops(s, via, landing, to, to_index);
  out.add(toward_group(s, group, index, to, 1, static_cast<std::uint8_t>(min_hops)));
  out.add(toward_group(s, group, index, via, 0, static_cast<std::uint8_t>(val_hops)));
}

}  // namespace

RoutingFunction ugal_routing() {
  RoutingFunction f = routing_entry(
      "ugal",
      "dragonfly: UGAL-L, at the source router the minimal path or a Valiant path through a random intermediate "
      "group, whichever output has the fewer queued flits x path hops; VC class 2 - global cables still ahead",
      {"dragonfly"}, &classes);
  f.next_hops = &next_hops;
  f.selection = "queued-x-hops";
  f.per_packet_random = true;
  return f;
}

}  // namespace collnet::topology
