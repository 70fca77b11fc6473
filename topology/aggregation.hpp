// Aggregation trees over a fabric: where the switches' aggregation engines
// (hls/switch_aggregator.hpp) reduce the endpoints' packets on the way up and
// replicate the result on the way down (the in-network collectives,
// collectives/algorithms/innet.cpp).
//
// Which nodes aggregate: the switches of leaf/spine fabrics and fat trees
// (NodeKind leaf, spine) and the nodes of a tree-shaped collective network
// (NodeKind tree_node, switch and endpoint in one). Torus and mesh routers,
// dragonfly routers, board units and graph-file routers do not: an
// in-network collective there is refused (aggregation_problem).
//
// Every endpoint contributes through one switch, its *attachment*: the
// switch it hangs under (a server's one cable), or its own node when that
// node aggregates (a tree node).
//
// A tree is rooted at a switch; its engine loops its up port into its down
// port. The roots are the aggregating switches of the topmost kind present
// (spine, else leaf, else tree node) whose largest distance (in switch hops)
// to any attachment is the smallest: on a leaf/spine fabric the spines, on a
// fat tree the top switches, which are every endpoint pair's nearest common
// ancestors, on a tree-shaped network its center. Tree t is rooted at root
// t mod |roots|, so that several trees stripe the blocks of a collective over
// the roots. Each tree is the breadth-first tree from its root over the links
// between aggregating switches, pruned to the switches with attachments below
// them: every switch's parent is one hop closer to the root, so a packet
// takes the shortest way up. Where a switch has several such neighbours, tree
// t takes the ((t + node) mod count)-th in node order, which spreads the
// relays of different trees over different switches (on the multi-layer
// leaf/spine full mesh a spine reaches two leaf columns only: the leaves of
// the other columns climb through a spine they share with a root column and a
// leaf of that column).
//
// A switch's children are numbered 0.. (its engine's CHILD_MASK bits): first
// the endpoints attached to it in endpoint order, then its child switches in
// node order. The engine has kMaxChildren child ports: a switch with more
// children is refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

/// Child ports of a switch's aggregation engine (hls/switch_aggregator.hpp: CHILD_MASK).
inline constexpr int kMaxAggregationChildren = 8;

/// One child of a switch in an aggregation tree.
struct AggregationChild {
  EndpointId endpoint = kNone;  // an endpoint attached to the switch, or kNone
  NodeId node = kNone;          // a child switch, or kNone
  LinkId up = kNone;            // the link it sends its packets up on (kNone: the endpoint is on the switch's node)
  LinkId down = kNone;          // the link the result comes down on to it (kNone likewise)
};

struct AggregationTree {
  NodeId root = kNone;
  /// The tree's switches, root first, every parent before its children.
  std::vector<NodeId> switches;
  /// Per graph node: its parent switch (kNone at the root and outside the tree).
  std::vector<NodeId> parent;
  /// Per graph node: the link to its parent (kNone at the root and outside).
  std::vector<LinkId> up_link;
  /// Per graph node: its children (empty outside the tree).
  std::vector<std::vector<AggregationChild>> children;
  /// Switch levels: 1 for a tree of the root alone, the root's distance to
  /// its farthest switch + 1 otherwise.
  int levels = 0;

  [[nodiscard]] bool contains(NodeId node) const {
    return node == root || parent.at(static_cast<std::size_t>(node)) != kNone;
  }
};

/// Whether `kind` carries an aggregation engine.
[[nodiscard]] bool aggregates(NodeKind kind);
/// The switch endpoint `e` contributes through (its attachment), or kNone
/// when it has none.
[[nodiscard]] NodeId aggregation_attachment(const Topology& topology, EndpointId e);
/// Why `topology`'s switches cannot run an in-network collective (a message
/// saying what is missing, for the caller to prefix with its key), or empty.
[[nodiscard]] std::string aggregation_problem(const Topology& topology);
/// The roots of the aggregation trees, in node order (see above). Empty when
/// aggregation_problem() is not.
[[nodiscard]] std::vector<NodeId> aggregation_roots(const Topology& topology);
/// Tree `index` (rooted at aggregation_roots()[index mod |roots|]). Throws
/// TopologyError with aggregation_problem()'s message when there is one.
[[nodiscard]] AggregationTree aggregation_tree(const Topology& topology, int index);

}  // namespace collnet::topology
