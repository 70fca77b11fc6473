// Any network from a YAML file: `graph:FILE.yaml` (format in
// docs/reference/topologies.md, examples in examples/graphs/).
//
// The file lists endpoints (nodes with a NIC; they route too, like a mesh
// router), routers (switches without a NIC) and links (a full-duplex cable or
// one direction only) with an optional latency in cycles and optional ports.
// Endpoint ids are 0..E-1 in the file's order; graph node ids are the
// endpoints first, then the routers, in the file's order. Every node keeps
// its name (Node::name: link and waveform names, the link trace) and its
// optional coordinates (Node::at).
//
// Routing (key `routing` of the file; the routing functions shortest and
// table of topology/routing/graph.cpp follow the tables the file gives):
//   shortest  up*/down*: a breadth-first spanning tree from a root (key
//             `root`; default: a centre of the graph, the node whose largest
//             distance to any node is smallest, first in file order among
//             equals) orders the nodes by (distance from the root, file
//             order); a link toward a smaller node goes up, toward a larger
//             one down. A route never takes an up link after a down link
//             (deadlock free with one VC class); among those routes it takes
//             a shortest one, and at each hop among the equally short
//             continuations the link listed first in the file.
//   table     the file's table: per node, destination endpoint -> next node
//             (`"*"`: every destination without its own entry). Checked when
//             the file is read: every route from an endpoint reaches its
//             destination without a loop or a dead end, and the routes'
//             link dependencies have no cycle (no deadlock).
// Both give VC class 0 on every hop; the route hint is ignored.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

class GraphNetwork final : public Topology {
 public:
  /// Limits: nodes (endpoints + routers) and directed links.
  static constexpr std::int32_t kMaxNodes = 4096;
  static constexpr std::int32_t kMaxLinks = 65536;
  static constexpr std::int32_t kMaxLatency = 100000;
  static constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;

  /// Reads the YAML text of a graph file; `source` names it in error
  /// messages ("graph file 'SOURCE' line N: ..."). Throws TopologyError for
  /// bad input, naming the line.
  static std::unique_ptr<GraphNetwork> from_text(std::string_view text, const std::string& source, std::string name);
  /// Reads FILE; the topology is named "graph:FILE".
  static std::unique_ptr<GraphNetwork> from_file(const std::string& path);

  /// Whether the file gives its routing table (routing table), else the
  /// up*/down* order routes (routing shortest).
  [[nodiscard]] bool has_table() const { return table_; }
  /// The up*/down* root (routing shortest), kNone for a table.
  [[nodiscard]] NodeId root() const { return root_; }
  /// Graph node of a name from the file, kNone if none.
  [[nodiscard]] NodeId node_named(std::string_view name) const;
  /// Routing shortest: whether a link goes up (toward the root's end of the order).
  [[nodiscard]] bool goes_up(LinkId link) const;
  /// The link a route toward endpoint `dst` takes at node `at` (phase 1:
  /// after a down link of an up*/down* route; 0 for a table), kNone at dst.
  [[nodiscard]] LinkId next_link(NodeId at, int phase, EndpointId dst) const;

 private:
  explicit GraphNetwork(std::string name) : Topology(std::move(name)) {}
  friend struct GraphFileReader;

  bool table_ = false;
  NodeId root_ = kNone;
  std::vector<std::int32_t> order_;   // node -> rank in the up*/down* order
  // next_[(phase * nodes + node) * endpoints + dst]: the link a route toward
  // endpoint dst takes at node (phase 1: after a down link), kNone at dst.
  std::vector<LinkId> next_;
};

/// The factory form "graph:FILE".
std::unique_ptr<GraphNetwork> make_graph_file(std::string_view spec);

}  // namespace collnet::topology
