// A tree-shaped collective network (spec tree-broadcast, document 003).
//
// Every tree node is both an endpoint (a compute node with its NIC) and a
// switch of the collective network: node id = endpoint id = 0..N-1, kind
// NodeKind::tree_node, label = id. The shape is a set of undirected edges;
// one node is the **physical root**, and parent, child and leaf are defined
// by it (a leaf = a node without children; the root of a one-node tree is a
// leaf too). The same shape may be built with any node as physical root.
//
// Ports: port 0 = the link to the parent (absent at the physical root),
// port 1+i = the link to the i-th child, children in ascending id order.
// Every edge is a full-duplex cable: two directed links on the same port
// numbers.
//
// Routing: the unique tree path (up to the lowest common ancestor, then down).
// A tree offers no choice, so the route hint is ignored; the network is
// deadlock free without virtual-channel classes (class 0 everywhere).
//
// Factory forms (topology/factory.cpp):
//   tree:parents=P0,P1,...,P(N-1)[,root=R]   parent list, exactly one -1
//   tree:kary=K,n=N[,root=R]                 complete K-ary tree, parent(i) = (i-1)/K
//   tree:random=N[,seed=S][,root=R]          random recursive tree: parent(i) uniform in 0..i-1
// The list value of `parents` runs over commas up to the next `key=`. Without
// `root`, the physical root is the node whose parent is -1 (node 0 for the
// generated forms).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "topology/topology.hpp"

namespace collnet::topology {

class Tree final : public Topology {
 public:
  /// Largest tree: the descriptor's destination field has 16 bits.
  static constexpr std::int32_t kMaxNodes = 65536;

  /// `parents[v]` = parent of v in the list's own rooting, -1 for exactly one
  /// node. `physical_root` = kNone keeps that node as physical root; another
  /// node re-roots the same shape there. Throws TopologyError for an empty or
  /// oversized list, a parent out of range, no or several -1 entries, a cycle
  /// or a root out of range. `name` defaults to the canonical parents form.
  explicit Tree(const std::vector<std::int32_t>& parents, EndpointId physical_root = kNone,
                std::string name = {});

  /// Parent list of the complete k-ary tree with n nodes (k >= 1, n >= 1).
  static std::vector<std::int32_t> complete_kary_parents(std::int32_t k, std::int32_t n);
  /// Parent list of a random recursive tree with n nodes: parent(i) drawn
  /// uniformly from 0..i-1 by a seeded hash, the same on every platform.
  static std::vector<std::int32_t> random_parents(std::int32_t n, std::uint64_t seed);

  [[nodiscard]] std::int32_t size() const { return endpoint_count(); }
  [[nodiscard]] EndpointId physical_root() const { return root_; }
  /// Parent by the physical root, kNone at the physical root.
  [[nodiscard]] EndpointId parent(EndpointId v) const { return parent_.at(index(v)); }
  /// Children by the physical root, ascending.
  [[nodiscard]] const std::vector<EndpointId>& children(EndpointId v) const { return children_.at(index(v)); }
  /// Parent (if any) first, then the children.
  [[nodiscard]] std::vector<EndpointId> neighbours(EndpointId v) const;
  [[nodiscard]] bool is_leaf(EndpointId v) const { return children(v).empty(); }
  /// Distance from the physical root.
  [[nodiscard]] std::int32_t depth(EndpointId v) const { return depth_.at(index(v)); }
  /// Tree distance (number of edges on the path).
  [[nodiscard]] std::int32_t distance(EndpointId a, EndpointId b) const;
  /// Largest tree distance from v to any node.
  [[nodiscard]] std::int32_t eccentricity(EndpointId v) const;
  /// Parent list of the same shape rooted at `root` (-1 at `root`).
  [[nodiscard]] std::vector<std::int32_t> parents_rooted_at(EndpointId root) const;
  /// The directed link from a to its tree neighbour b; throws if not adjacent.
  [[nodiscard]] LinkId link_between(EndpointId a, EndpointId b) const;


 private:
  [[nodiscard]] std::size_t index(EndpointId v) const;

  EndpointId root_ = 0;
  std::vector<EndpointId> parent_;
  std::vector<std::vector<EndpointId>> children_;
  std::vector<std::int32_t> depth_;
};

/// Builds a tree from a `tree:...` spec string (forms above). Throws
/// TopologyError naming the accepted forms on bad input.
std::unique_ptr<Tree> make_tree(std::string_view spec);

}  // namespace collnet::topology
