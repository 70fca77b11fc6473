// Routing functions by name (scenario key `routing`).
//
// A topology has one default routing function (the one its route() has
// always given: dimension order on a mesh or torus, the unique path on a
// tree, ...) and may run others. Every routing function is one entry of
// routing_functions(): its name, a description, the topology kinds it runs
// on, the scenario keys it reads, the VC classes it needs for deadlock
// freedom, and one of two forms:
//
//   deterministic (`route`)    the whole source route of a packet, computed
//                              when the packet is created: every hop's link
//                              and the VC class it takes in the buffer at the
//                              link's far end (as Topology::route());
//   per hop (`next_hops`)      the outputs a head flit may take at the router
//                              it is in (port, VC class, escape or not), asked
//                              when the router routes the head. The router
//                              picks among the non-escape options the one
//                              with a free VC holding the most credits (ties:
//                              the first listed) and falls back to the first
//                              escape option (systemc/router/router.hpp). Options
//                              with a hop weight (HopOption::hops, UGAL) are
//                              weighed instead by the flits queued at their
//                              output x their weight, the least taken.
//
// VC classes: class k of a run owns a contiguous block of each input port's
// VCs; `vc_layout` gives the blocks for a number of VCs (null: the even split,
// class k owning the VCs v with v * classes / vcs == k). A routing function
// refuses fewer VCs than `min_vcs` (the run fails naming the key `vcs`).
//
// Adding a routing function: a file with a function returning its
// RoutingFunction, and one line in routing_functions() (routing.cpp).
//
// This interface is shared with the fat-tree and dragonfly routing functions:
// keep it stable (add fields at the end, with defaults).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

/// One output a per-hop routing function allows at the router a head is in.
struct HopOption {
  std::int32_t port = kNone;   // output port of the current node (index into Node::out_ports)
  std::uint8_t vc_class = 0;   // VC class the packet takes in the buffer at the far end
  bool escape = false;         // deadlock-free fallback: taken when no other option has a free VC
  /// Hop weight (0: none). When the first option of a decision has one, the
  /// router takes the option with the least (flits queued at its output, as
  /// its credits show: slots of every VC of the far-end buffer not given
  /// back) x hops, the first listed on a tie, whatever its VCs' state: UGAL's
  /// comparison of queue length x path length (routing_ugal.cpp). Every
  /// option of such a decision has a weight.
  std::uint8_t hops = 0;
};

/// The options of one routing decision, in preference order (fixed storage:
/// routers ask for it per head flit). Empty: the head is at its destination.
struct HopOptions {
  static constexpr std::size_t kMax = 8;
  std::array<HopOption, kMax> items{};
  std::uint8_t count = 0;
  void clear() { count = 0; }
  /// Throws TopologyError past kMax options.
  void add(HopOption option);
  [[nodiscard]] const HopOption* begin() const { return items.data(); }
  [[nodiscard]] const HopOption* end() const { return items.data() + count; }
};

/// What a router knows about a head flit when it routes it.
struct HopState {
  NodeId node = kNone;               // the router's graph node
  EndpointId source = kNone;
  EndpointId destination = kNone;
  std::int32_t in_port = kNone;      // graph port it arrived on; kNone when it comes from a NIC
  std::int32_t in_class = -1;        // VC class of the VC it arrived on; -1 when it comes from a NIC
  /// The packet's random word, its low 32 bits (routing functions with
  /// per_packet_random; drawn when the packet is created, as for source
  /// routes, and carried in the packet): lets every router of its path
  /// recompute a random choice made for it, such as UGAL's intermediate group.
  std::uint64_t random = 0;
};

struct RoutingFunction {
  std::string name;          // value of the key `routing`, e.g. "min-adaptive"
  std::string description;   // one line for `collnet list`
  std::vector<std::string> topologies;  // topology kinds it runs on (the spec's prefix: "torus", "mesh", ...)
  std::vector<std::string> keys;        // scenario keys it reads besides `routing` (e.g. route_direction)
  /// VC classes its routes use (1: any VC).
  int (*vc_classes)(const Topology&) = nullptr;
  /// Fewest VCs it runs deadlock-free with (at least vc_classes).
  int (*min_vcs)(const Topology&) = nullptr;
  /// [first, end) VCs of each class for `vcs` VCs; null: the even split.
  std::vector<std::pair<int, int>> (*vc_layout)(const Topology&, int vcs) = nullptr;
  /// Deterministic form: the source route. `random` is a per-packet random
  /// word drawn from the run's seed (used when `per_packet_random`).
  Route (*route)(const Topology&, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t random) = nullptr;
  /// Per-hop form: the allowed outputs at state.node (none at the destination).
  void (*next_hops)(const Topology&, const HopState& state, HopOptions& options) = nullptr;
  /// The route depends on `random` (routes differ between packets of a pair);
  /// per hop: next_hops reads HopState::random.
  bool per_packet_random = false;
  /// Its options carry hop weights (HopOption::hops), the first option being
  /// the minimal path (the router's threshold, key ugal_threshold, favours it).
  bool weighed = false;
  /// Whether a packet on an escape VC may take a non-escape option again at
  /// the next router (documentation; next_hops decides).
  bool escape_returns = false;

  [[nodiscard]] bool adaptive() const { return next_hops != nullptr; }
  [[nodiscard]] bool runs_on(const Topology& topology) const;
};

/// Every registered routing function, in `collnet list` order.
const std::vector<RoutingFunction>& routing_functions();

/// The kind of a topology: its spec's prefix ("torus" for "torus:8x8").
std::string_view topology_kind(const Topology& topology);

/// The routing function a topology runs when the key `routing` is not set.
const RoutingFunction& default_routing(const Topology& topology);

/// The routing function `name` ("" = the default) on `topology`. Throws
/// TopologyError ("key 'routing': ...") naming the topology and the accepted
/// names for an unknown name or one that does not run on it.
const RoutingFunction& find_routing(std::string_view name, const Topology& topology);

/// The VC blocks of each class for `vcs` VCs (vc_layout or the even split).
std::vector<std::pair<int, int>> class_layout(const RoutingFunction& routing, const Topology& topology, int classes,
                                              int vcs);

/// Per-packet random word of the packet `sequence` of `source` (splitmix64 of
/// seed, source and sequence): the same packets get the same words whatever
/// the order in which sources create them.
std::uint64_t packet_random(std::uint64_t seed, EndpointId source, std::uint64_t sequence);

}  // namespace collnet::topology
