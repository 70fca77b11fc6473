// Routing functions by name (scenario key `routing`): the one registry.
//
// Every routing function is one entry of routing_functions(), declared in a
// file of topology/routing/ (one per function or family) beside the topology
// kinds it runs on: its name, a description, those kinds, the scenario keys
// it reads, the VC classes it needs for deadlock freedom, the selection rule
// its per-hop options need, and one of two forms:
//
//   deterministic (`route`)    the whole source route of a packet, computed
//                              when the packet is created: every hop's link
//                              and the VC class it takes in the buffer at the
//                              link's far end;
//   per hop (`next_hops`)      the outputs a head flit may take at the router
//                              it is in (port, VC class, escape or not), asked
//                              when the router routes the head. The router
//                              picks among them with a selection rule
//                              (topology/routing/selection.hpp): the one the
//                              function names, else the key output_selection's.
//
// A topology runs the first registered function of its kind (that accepts
// it) when the key `routing` is not set: its default, whose routes are
// Topology::route()'s. The topology classes keep only geometry (ports,
// groups, levels, coordinates), which routing functions query.
//
// VC classes: class k of a run owns a contiguous block of each input port's
// VCs; `vc_layout` gives the blocks for a number of VCs (null: the even split,
// class k owning the VCs v with v * classes / vcs == k). A routing function
// refuses fewer VCs than `min_vcs` (the run fails naming the key `vcs`).
//
// Adding a routing function: a file in topology/routing/ with a function
// returning its RoutingFunction, and one line in routing_functions()
// (topology/routing/registry.cpp); docs/develop/routing.md walks through one.
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
  /// Hop weight (0: none), read by the selection rule queued-x-hops: the
  /// router-to-router hops of the path this option starts (UGAL,
  /// topology/routing/ugal.cpp). Every option of such a decision has one.
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
  /// Narrower than its kinds (null: every topology of them): whether it runs
  /// on `topology`; `accepts_when` says what it needs ("a file without a
  /// routing table"), for `collnet list` and error messages.
  bool (*accepts)(const Topology& topology) = nullptr;
  std::string accepts_when;
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
  /// Per hop: the selection rule its options need (selection.hpp, e.g.
  /// "queued-x-hops" for options with hop weights); empty: the key
  /// output_selection's.
  std::string selection;
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

/// The functions that run on topologies of `kind`, in registry order (the
/// default first), for `collnet list` and the key's documentation.
std::vector<const RoutingFunction*> routings_of_kind(std::string_view kind);

/// The key `routing`'s documentation from the registry: every name with the
/// kinds it runs on ("dor, valiant on mesh, torus; ..."), and each kind's
/// default ("dor (mesh, torus), ...").
std::string routing_names_by_kind();
std::string routing_defaults_by_kind();

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
