// Which spine each cross-leaf transfer of a tree schedule crosses (document
// 002, spec twotree-leafspine: Contention), written into the SEND's route
// hint. Key `spine_choice`:
//
//   coloring (default)  per phase, the transfers between two different leaves
//       form a bipartite multigraph (source leaf uplinks | destination leaf
//       downlinks); its edges are colored with spines so that no directed
//       leaf->spine or spine->leaf link carries two transfers. Transfers are
//       handled by class (same set of spines the two leaves share; classes
//       with fewer choices first); inside a class Koenig's alternating-path
//       method (swap two colors along an a/b path) colors any multigraph of
//       degree <= the number of shared spines, so every phase of the
//       hierarchical scheme (degree <= p/2 inside a column, one transfer per
//       representative between columns) is contention-free. Where the
//       theorem does not apply (a path through an earlier class or more
//       transfers than spines) the least-loaded shared spine is taken. The
//       hint is the chosen uplink index + 1.
//   sender_port    hint = LeafSpine::kHintSenderPort (spine = the sender's port)
//   receiver_port  hint = LeafSpine::kHintReceiverPort (destination-based)
//
// On a topology that is not a leaf/spine fabric every hint stays 0.
#pragma once

#include <string>
#include <vector>

#include "collectives/algorithms/leafspine_placement.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

enum class SpineChoice { coloring, sender_port, receiver_port };

/// Sets the route hint of every transfer.
void choose_spines(const topology::Topology& topology, const Placement& placement, std::vector<Transfer>& transfers,
                   SpineChoice choice);

}  // namespace collnet::collectives
