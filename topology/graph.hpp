// The network graph every layer shares: nodes (routers that host an endpoint,
// switches, servers, board units) with numbered ports, and directed links.
//
// A full-duplex cable is two directed links, one per direction, each from
// (source node, source port) to (target node, target port); contention is
// always counted per directed link. Endpoints (the nodes that own a NIC and
// run a descriptor program) are numbered 0..E-1 separately from graph nodes,
// so that a collective never needs to know whether its endpoints are torus
// routers, servers under a leaf switch, or main units of a board.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace collnet::topology {

using NodeId = std::int32_t;
using LinkId = std::int32_t;
using EndpointId = std::int32_t;
inline constexpr std::int32_t kNone = -1;

enum class NodeKind : std::uint8_t {
  router,            // torus/mesh router with its own endpoint (node = NIC + router)
  server,            // endpoint attached to a switch
  leaf,              // leaf switch
  spine,             // spine switch
  tree_node,         // node of a tree-shaped collective network (endpoint + switch)
  main_unit,         // board main unit (holds data)
  aggregation_unit,  // board aggregation unit (reduces)
};

const char* to_string(NodeKind kind);

struct Node {
  NodeKind kind{};
  std::int32_t label = 0;          // the documents' own number (e.g. 200 for a leaf)
  EndpointId endpoint = kNone;     // endpoint hosted by this node, if any
  std::vector<LinkId> out_ports;   // out_ports[p] = directed link leaving port p (or kNone)
  std::vector<LinkId> in_ports;    // in_ports[p]  = directed link arriving at port p
  std::string name;                // the node's own name (graph files), else empty: node_name() derives one
  std::vector<double> at;          // coordinates given for reports and plots (graph files), else empty
};

/// A link's bandwidth: the positive rational `flits` / `cycles` flits per
/// cycle, kept reduced (1/1 is every link's default). Below 1 a link
/// serializes (a flit every cycles/flits cycles on average), above 1 it is
/// wider (up to ceil(flits/cycles) flits leave its port in one cycle); the
/// cycle model's link says exactly when (systemc/link/link.hpp).
struct Bandwidth {
  std::int32_t flits = 1;
  std::int32_t cycles = 1;
  bool operator==(const Bandwidth&) const = default;
  [[nodiscard]] bool unit() const { return flits == cycles; }
  [[nodiscard]] double value() const { return static_cast<double>(flits) / static_cast<double>(cycles); }
  /// Flits its port may hand over in one cycle at most: ceil(flits / cycles).
  [[nodiscard]] int lanes() const { return (flits + cycles - 1) / cycles; }
};
/// Accepted bandwidths: from 1/kMaxBandwidthCycles to kMaxBandwidth flits per cycle.
inline constexpr std::int32_t kMaxBandwidth = 16;
inline constexpr std::int32_t kMaxBandwidthCycles = 1024;
/// Parses a bandwidth written as a fraction ("1/4"), a decimal ("0.5",
/// "2.5") or an integer ("4"); empty `error` on success, else what is wrong
/// and what is accepted.
Bandwidth parse_bandwidth(const std::string& text, std::string& error);
/// "1/4", "2", "5/2": how reports and errors write it.
std::string to_string(const Bandwidth& b);

struct Link {
  NodeId src = kNone;
  std::int32_t src_port = kNone;
  NodeId dst = kNone;
  std::int32_t dst_port = kNone;
  std::int8_t dim = -1;      // torus/mesh dimension (0 = X), -1 if not a grid link
  std::int8_t dir = 0;       // +1 or -1 along dim, 0 otherwise
  bool wrap = false;         // torus wrap-around link (crosses the dateline)
  Bandwidth bandwidth{};     // flits per cycle
  std::int32_t latency = 0;  // cycles; 0: the scenario's link latency
};

class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Graph {
 public:
  NodeId add_node(NodeKind kind, std::int32_t label = 0);
  /// Give a node its own name and coordinates (graph files).
  void describe_node(NodeId id, std::string name, std::vector<double> at = {});
  /// Make `node` host the next endpoint id; returns it.
  EndpointId attach_endpoint(NodeId node);
  /// One directed link from (src, src_port) to (dst, dst_port). Ports are
  /// created on demand; a port may carry one outgoing and one incoming link.
  LinkId add_link(NodeId src, std::int32_t src_port, NodeId dst, std::int32_t dst_port,
                  Link attributes = {});
  /// Two directed links, one each way, on the same port numbers.
  void add_duplex(NodeId a, std::int32_t a_port, NodeId b, std::int32_t b_port,
                  Link attributes_ab = {}, Link attributes_ba = {});

  [[nodiscard]] std::size_t node_count() const { return nodes_.size(); }
  [[nodiscard]] std::size_t link_count() const { return links_.size(); }
  [[nodiscard]] std::size_t endpoint_count() const { return endpoint_nodes_.size(); }
  [[nodiscard]] const Node& node(NodeId id) const { return nodes_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] const Link& link(LinkId id) const { return links_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
  [[nodiscard]] const std::vector<Link>& links() const { return links_; }
  [[nodiscard]] NodeId endpoint_node(EndpointId e) const {
    return endpoint_nodes_.at(static_cast<std::size_t>(e));
  }
  /// Directed link from a to b (first one found), or kNone.
  [[nodiscard]] LinkId find_link(NodeId a, NodeId b) const;
  /// Number of ports of a node (max of in and out).
  [[nodiscard]] std::int32_t port_count(NodeId id) const;
  /// Readable name of a directed link, e.g. "r5:x+ -> r6" or "201:3 -> 240:0".
  [[nodiscard]] std::string link_name(LinkId id) const;
  [[nodiscard]] std::string node_name(NodeId id) const;

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> endpoint_nodes_;
};

}  // namespace collnet::topology
