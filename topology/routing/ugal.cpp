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

/// Every one of `classes` classes on `port` (an endpoint cable: any VC).
void every_class(HopOptions& out, int port, int classes) {
  for (int c = 0; c < classes; ++c) out.add({port, static_cast<std::uint8_t>(c), false});
}
void any_class(HopOptions& out, int port) { every_class(out, port, kClasses); }

/// A router's place and the packet's destination router: group and index.
struct Where {
  int group, index, to, to_index;
};
Where where(const Dragonfly& d, const HopState& st) {
  const Dragonfly::Shape& s = d.shape();
  return {d.group(st.node), d.index(st.node), d.group_of(st.destination), (st.destination / s.p) % s.a};
}

/// A server's hop (to its router, unless it is the destination): true when
/// st.node is a server and `out` holds its options.
bool server_hop(const Dragonfly& d, const HopState& st, HopOptions& out, int classes) {
  out.clear();
  if (d.group(st.node) >= 0) return false;
  if (d.graph().node(st.node).endpoint != st.destination) every_class(out, 0, classes);
  return true;
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
  if (server_hop(d, st, out, kClasses)) return;
  const auto [group, index, to, to_index] = where(d, st);
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

// ugal-booksim2: the paths of BookSim2's ugal_dragonflynew
// (src/networks/dragonfly.cpp, commit 28f43299): the intermediate is a
// router drawn at random over the whole network (BookSim2 draws a node;
// every router holds p of them), not a group other than both ends.
//   - intermediate in the source group: the minimal path, no choice;
//   - in the destination group: the non-minimal path crosses the minimal
//     path's global cable, goes on to the intermediate router, then to the
//     destination router;
//   - elsewhere: to the group, on to the intermediate router (one local hop
//     past the landing router when they differ), then minimally on.
// The weighing at the source router is ugal's (keys ugal_rule,
// ugal_threshold). BookSim2 runs these paths on 3 VCs (VC 0 up to the
// intermediate router, 1 from it, 2 past the second global cable), which
// lets a local cable carry class 0 both as a source group's first hop and
// as an intermediate group's hop to the drawn router: the channel
// dependencies can close a cycle through three groups. Here a hop's class
// orders every path instead (4 classes; within a class a local hop comes
// before a global one, and classes never fall along a path):
//   class 0  the non-minimal path up to its first global cable, included;
//   class 1  the landing router to the intermediate router;
//   class 2  from the intermediate router to the next global cable
//            (included) or to the destination router, and the minimal
//            path in the source group with its global cable;
//   class 3  the destination group's local hop after a class-2 global
//            cable, and a route within one group.
// A router reads the packet's phase from the class and the kind of port it
// arrived on, and recomputes the drawn router from the packet's random word.
namespace booksim2 {

constexpr int kClasses = 4;

int classes(const Topology&) { return kClasses; }

void any_class(HopOptions& out, int port) { every_class(out, port, kClasses); }

/// The next hop from router (group, index) towards group `to` (another
/// group): the local cable to the gateway, or the gateway's global cable,
/// both in class `cls`.
HopOption toward_group(const Dragonfly::Shape& s, int group, int index, int to, int cls, std::uint8_t hops = 0) {
  const Gateway gw = gateway(s, group, to);
  const int port = gw.index != index ? local_port(s, index, gw.index) : gw.port;
  return {port, static_cast<std::uint8_t>(cls), false, hops};
}

/// Router-to-router hops within a group from index i to index j.
int local_hops(int i, int j) { return i != j ? 1 : 0; }

/// From the intermediate router (group, index), in phase 2: minimally to
/// the destination router, in class 2.
void from_intermediate(const Dragonfly::Shape& s, int group, int index, int to, int to_index, int destination,
                       HopOptions& out) {
  if (group != to) out.add(toward_group(s, group, index, to, 2));
  else if (index != to_index) out.add({local_port(s, index, to_index), 2, false});
  else any_class(out, destination % s.p);
}

void next_hops(const Topology& t, const HopState& st, HopOptions& out) {
  const Dragonfly& d = fly(t);
  const Dragonfly::Shape& s = d.shape();
  if (server_hop(d, st, out, kClasses)) return;
  const auto [group, index, to, to_index] = where(d, st);
  const auto drawn = static_cast<int>(st.random % static_cast<std::uint64_t>(s.g * s.a));
  const int via = drawn / s.a;
  const int via_index = drawn % s.a;
  const bool at_source = st.in_port < s.p;  // arrived on a terminal port (or from a NIC)
  const bool by_global = st.in_port >= s.p + s.a - 1;
  if (at_source) {
    if (group == to) {  // within one group: the local hop, then the terminal
      if (index == to_index) any_class(out, st.destination % s.p);
      else out.add({local_port(s, index, to_index), 3, false});
      return;
    }
    const auto min_hops = static_cast<std::uint8_t>(group_hops(s, group, index, to, to_index));
    out.add(toward_group(s, group, index, to, 2, min_hops));
    if (via == group) return;  // drawn in the source group: minimal
    const int landing = gateway(s, via, group).index;
    const int rest = via == to ? local_hops(via_index, to_index)
                               : group_hops(s, via, via_index, to, to_index);
    const auto val_hops =
        static_cast<std::uint8_t>(group_hops(s, group, index, via, landing) + local_hops(landing, via_index) + rest);
    out.add(toward_group(s, group, index, via, 0, val_hops));
    return;
  }
  switch (st.in_class) {
    case 0:
      if (!by_global) {  // the source group's gateway: its global cable
        out.add(toward_group(s, group, index, via, 0));
      } else if (index != via_index) {  // landed in the drawn router's group
        out.add({local_port(s, index, via_index), 1, false});
      } else {
        from_intermediate(s, group, index, to, to_index, st.destination, out);
      }
      return;
    case 1:  // at the drawn router
      from_intermediate(s, group, index, to, to_index, st.destination, out);
      return;
    case 2:
      if (group != to) {  // a gateway: its global cable to the destination group
        out.add(toward_group(s, group, index, to, 2));
      } else if (index != to_index) {  // landed in the destination group
        out.add({local_port(s, index, to_index), 3, false});
      } else {
        any_class(out, st.destination % s.p);
      }
      return;
    default:  // class 3: at the destination router
      any_class(out, st.destination % s.p);
      return;
  }
}

}  // namespace booksim2

}  // namespace

RoutingFunction ugal_booksim2_routing() {
  RoutingFunction f = routing_entry(
      "ugal-booksim2",
      "dragonfly: UGAL-L on the paths of BookSim2's ugal_dragonflynew: the intermediate a random router of the "
      "whole network (in the source group: minimal; in the destination group: past it), 4 VC classes",
      {"dragonfly"}, &booksim2::classes);
  f.next_hops = &booksim2::next_hops;
  f.selection = "queued-x-hops";
  f.per_packet_random = true;
  return f;
}

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
