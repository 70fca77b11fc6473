// tree-bcast: broadcast from a logical root on a tree network whose physical
// root is another node (spec tree-broadcast, document 003).
//
// The forwarding rule is a pure function of what a node knows locally: its
// parent and children (by the physical root) and the neighbour the message
// came from. The HLS schedule engine mirrors `tree_bcast_targets`.
//
// Descriptor programs (one message of `message_flits` words at offset 0 of
// every node's memory; the logical root holds it at the start):
//   logical root:  SEND to every target of the rule (tag 0), END
//   other node v:  WAIT(tag d(v)-1, 1 message), SEND to its targets (tag d(v)), END
// where d(v) = tree distance from the logical root. So the static checker's
// phase t = the sends made by the nodes at distance t, and the number of
// phases is the logical root's eccentricity (the completion depth).
#pragma once

#include <span>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/schedule.hpp"
#include "topology/tree.hpp"

namespace collnet::collectives {

/// spec tree-broadcast: the rule a node applies. `parent` = its parent by
/// the physical root (topology::kNone at the physical root), `children` its
/// children, `from` = the neighbour the message came from, or kNone when the
/// node is the logical root. Returns the neighbours to send to, parent first,
/// then children in the given order.
std::vector<EndpointId> tree_bcast_targets(EndpointId parent, std::span<const EndpointId> children,
                                           EndpointId from);
/// The same rule with the local view taken from a tree.
std::vector<EndpointId> tree_bcast_targets(const topology::Tree& tree, EndpointId node, EndpointId from);

/// The schedule for a tree, physical root (may differ from the tree's own:
/// the rule is then applied with parent/child taken from `physical_root`),
/// logical root and message length in words. Throws ConfigError naming
/// `root` or `logical_root` when out of range.
Schedule build_tree_bcast(const topology::Tree& tree, EndpointId physical_root, EndpointId logical_root,
                          std::uint32_t message_words);

/// What each node's NIC is loaded with to run the same broadcast with its
/// forwarding-rule block instead of programs (Algorithm::forwarding_rule):
/// the node's parent and child ports by `physical_root`, numbered as the
/// topology numbers the node's links (topology/tree.hpp), and whether it is
/// the logical root. Same ConfigErrors as build_tree_bcast.
std::vector<ForwardingNode> tree_bcast_forwarding(const topology::Tree& tree, EndpointId physical_root,
                                                  EndpointId logical_root, std::uint32_t message_words);

/// Default logical root: the lowest-numbered leaf that is not the physical
/// root (the physical root itself on a one-node tree).
EndpointId default_logical_root(const topology::Tree& tree);

Algorithm make_tree_bcast();

}  // namespace collnet::collectives
