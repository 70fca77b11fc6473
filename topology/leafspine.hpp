// Two-level leaf/spine fabrics (document 002, spec twotree-leafspine):
// servers under leaf switches, leaves joined by spine switches. Servers are
// the endpoints (NodeKind::server, endpoint id in ascending label order),
// leaves and spines are switches. Links are full duplex (two directed links).
//
// Multi-layer full mesh, `leafspine:p=P` (P even, 6..64). L = p/2 layers,
// K = p/2 + 1 leaf columns per layer, one spine per pair of columns shared by
// every layer. Each leaf has p/2 servers and p/2 uplinks; each spine has two
// leaves per layer, p ports. Servers p^2 (p+2)/8, leaves p(p+2)/4, spines
// p(p+2)/8 (p=6: 36 / 12 / 6).
//   Labels (the document's numbering for p = 6, generalised): C = the
//   smallest power of ten >= (p/2)^2, M = the smallest power of ten
//   > C*K + spines. server = M + C*col + (p/2)*layer + port,
//   leaf = 2M + C*col + layer, spine = 2M + C*K + pair, where pair numbers
//   the column pairs (a,b) lexicographically: (0,1) (0,2) .. (0,K-1) (1,2) ..
//   p = 6: C = 10, M = 100: servers 100 + 10col + 3layer + port, leaves
//   200 + 10col + layer, spines 240..245 = (a,b) (a,c) (a,d) (b,c) (b,d) (c,d).
//   p = 8: C = 100, M = 1000: servers 1000.., leaves 2000.., spines 2500..
//
// Two-level fabric from a wiring list, `leafspine-wiring:FILE`. One statement
// per line, `#` starts a comment, labels are integers:
//     server 11 leaf 21      server 11 hangs under leaf 21
//     uplink 21 25           leaf 21 has an uplink to spine 25
//     leaf 21 / spine 28     declare a switch (optional)
//     policy sender_port     default static spine policy (optional)
//   The document's first embodiment: servers 11..18 two per leaf on 21..24,
//   uplinks 21,22 -> {25,26} and 23,24 -> {26,27}. Every two leaves that hold
//   servers must share a spine (a two-level fabric). Errors name the line.
//
// Ports. Server: port 0 to its leaf. Leaf: ports 0..s-1 = its servers in
// ascending label order (s = p/2 on the full mesh), ports s.. = its uplinks in
// ascending spine label order ("uplink index" i = port s + i). Spine: full
// mesh port 2*layer + side (side 0 = the lower column of its pair); wiring:
// its leaves in ascending label order.
//
// Routing: server -> leaf -> (spine ->) leaf -> server; a route inside one
// leaf uses no spine. Between two leaves the spine comes from the route hint:
//   0            the fabric's default static policy
//   1..252       uplink index + 1 of the source leaf; it must name a spine
//                that the destination leaf shares (else TopologyError)
//   0xFD / 0xFE / 0xFF  the policy sender_port / receiver_port / destination_mod
// A static policy picks shared[key mod |shared|], where `shared` = the spines
// both leaves reach, in the source leaf's uplink order, and key = the sender's
// port on its leaf (sender_port), the receiver's port (receiver_port, i.e.
// destination-based routing) or the destination endpoint id (destination_mod,
// "destination mod k"). On the full mesh two leaves of one column share all
// p/2 spines in the same order (so sender_port = uplink index of the sender's
// port), leaves of different columns exactly one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

enum class SpinePolicy : std::uint8_t { destination_mod, sender_port, receiver_port };

const char* to_string(SpinePolicy policy);
/// "destination_mod", "sender_port" or "receiver_port"; TopologyError otherwise.
SpinePolicy parse_spine_policy(std::string_view text);

class LeafSpine final : public Topology {
 public:
  /// The multi-layer full mesh for switch radix p; TopologyError naming `p`
  /// and the accepted values for odd p, p < 6 or p > 64.
  /// `uplink`: the bandwidth of every leaf-spine cable, flits per cycle each
  /// way (key uplink_bandwidth; server cables 1).
  static std::unique_ptr<LeafSpine> full_mesh(int p, SpinePolicy policy = SpinePolicy::destination_mod,
                                              Bandwidth uplink = {});
  /// A two-level fabric from wiring text (format above); `source` names the text in error
  /// messages, `name` ("leafspine-wiring:NAME": its kind picks the routing) the topology.
  static std::unique_ptr<LeafSpine> from_wiring(std::string_view text, const std::string& source, std::string name);
  /// Reads FILE; the topology is named "leafspine-wiring:FILE".
  static std::unique_ptr<LeafSpine> from_wiring_file(const std::string& path);

  static constexpr int kMinRadix = 6;
  static constexpr int kMaxRadix = 64;  // p^2(p+2)/8 servers must fit the 16-bit descriptor destination
  static constexpr int kMaxUplinks = 0xFC;
  static constexpr RouteHint kHintSenderPort = 0xFD;
  static constexpr RouteHint kHintReceiverPort = 0xFE;
  static constexpr RouteHint kHintDestinationMod = 0xFF;
  /// The hint that selects uplink `index` of the source leaf.
  static RouteHint uplink_hint(int index);
  /// The hint that selects a static policy.
  static RouteHint policy_hint(SpinePolicy policy);

  /// Switch radix p of a full mesh, 0 for a fabric from a wiring list.
  [[nodiscard]] int radix() const { return radix_; }
  [[nodiscard]] int leaf_count() const { return static_cast<int>(leaves_.size()); }
  [[nodiscard]] int spine_count() const { return static_cast<int>(spines_.size()); }
  [[nodiscard]] NodeId leaf_node(int leaf) const { return leaves_.at(static_cast<std::size_t>(leaf)); }
  [[nodiscard]] NodeId spine_node(int spine) const { return spines_.at(static_cast<std::size_t>(spine)); }
  /// Leaf index (0..leaf_count-1, ascending label) of a server.
  [[nodiscard]] int leaf_of(EndpointId server) const { return server_leaf_.at(static_cast<std::size_t>(server)); }
  /// The server's port on its leaf.
  [[nodiscard]] int port_of(EndpointId server) const { return server_port_.at(static_cast<std::size_t>(server)); }
  /// Servers of a leaf in port order.
  [[nodiscard]] const std::vector<EndpointId>& servers(int leaf) const {
    return leaf_servers_.at(static_cast<std::size_t>(leaf));
  }
  /// Spine indices of a leaf's uplinks in uplink order (ascending label).
  [[nodiscard]] const std::vector<int>& uplinks(int leaf) const { return leaf_uplinks_.at(static_cast<std::size_t>(leaf)); }
  /// Uplink index of `spine` at `leaf`, or -1.
  [[nodiscard]] int uplink_index(int leaf, int spine) const;
  /// Spines both leaves reach, in `from`'s uplink order.
  [[nodiscard]] std::vector<int> shared_spines(int from, int to) const;
  /// Full mesh only: the column (0..K-1) and layer (0..L-1) of a leaf.
  [[nodiscard]] int column(int leaf) const;
  [[nodiscard]] int layer(int leaf) const;
  [[nodiscard]] SpinePolicy default_policy() const { return default_policy_; }

  /// The spine index a route between two servers crosses, or -1 when both
  /// hang under one leaf. Throws TopologyError for a hint that names no
  /// uplink or a spine the destination leaf does not reach.
  [[nodiscard]] int route_spine(EndpointId src, EndpointId dst, RouteHint hint = 0) const;
  /// The directed link from a spine down to a leaf (kNone when not wired).
  [[nodiscard]] LinkId down_link(int spine, int leaf) const {
    return down_link_.at(static_cast<std::size_t>(spine)).at(static_cast<std::size_t>(leaf));
  }

 private:
  explicit LeafSpine(std::string name) : Topology(std::move(name)) {}
  /// Builds the per-leaf and per-spine tables once every link exists.
  void index_fabric();
  [[nodiscard]] int policy_spine(SpinePolicy policy, EndpointId src, EndpointId dst) const;

  int radix_ = 0;
  SpinePolicy default_policy_ = SpinePolicy::destination_mod;
  std::vector<NodeId> leaves_;
  std::vector<NodeId> spines_;
  std::vector<int> server_leaf_;
  std::vector<int> server_port_;
  std::vector<std::vector<EndpointId>> leaf_servers_;
  std::vector<std::vector<int>> leaf_uplinks_;
  std::vector<std::vector<int>> uplink_of_;     // [leaf][spine] -> uplink index or -1
  std::vector<std::vector<LinkId>> down_link_;  // [spine][leaf] -> directed link spine -> leaf
  std::vector<int> leaf_column_;
  std::vector<int> leaf_layer_;
};

/// The factory forms "leafspine:p=P[,policy=NAME]" and "leafspine-wiring:FILE";
/// TopologyError naming the key (`p`, `policy`) and the accepted values.
std::unique_ptr<LeafSpine> make_leafspine(std::string_view spec);

}  // namespace collnet::topology
