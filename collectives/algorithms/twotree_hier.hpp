// twotree-hier (document 002, spec twotree-leafspine): the hierarchical
// two-tree reduce / broadcast / allreduce on a leaf/spine fabric.
//
// Processes are placed by group (leafspine_placement.hpp); each group runs a
// local two-tree rooted at its representative (smallest rank; positions =
// the group's ranks in order, so group b's tree is group a's plus 8 for
// P = 32 on p = 6), and the representatives run a global two-tree rooted at
// rank 0 (positions = representatives in rank order; the shift of T2 maps
// each representative to the next one, the largest to the smallest non-root
// one). Composition (spec: Composition):
//   reduce    = local reduce (all groups at once), then global reduce
//   broadcast = global broadcast, then local broadcast
//   allreduce = local reduce, global reduce, global broadcast, local broadcast
// With one group there is no global stage. The reduce result lands at rank
// 0, a broadcast starts from rank 0. Phases, memory, fixed-order combining:
// tree_pipeline.hpp; spine per transfer: spine_choice.hpp.
//
// Contention (spec facts 3, 4): inside a column a phase's cross-leaf
// transfers have degree <= p/2 at every leaf, so the edge coloring uses no
// directed link twice; between groups only one representative per leaf
// takes part. Every directed link carries <= 1 message per phase.
#pragma once

#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/leafspine_placement.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "collectives/algorithms/twotree_tables.hpp"
#include "topology/leafspine.hpp"

namespace collnet::collectives {

struct HierarchicalPlan {
  Placement placement;
  std::vector<TreeInstance> local;  // one two-tree per group, rooted at its representative
  TreeInstance global;              // the two-tree among the representatives, rooted at rank 0
  ProcedureTables tables;           // tables 174-177
};

/// Placement, trees and tables; ConfigError naming `processes` when P does
/// not fit the fabric.
HierarchicalPlan plan_twotree_hier(const topology::LeafSpine& fabric, Grouping grouping, int processes);

/// The stages of a collective (see the composition above).
std::vector<Stage> hierarchical_stages(const HierarchicalPlan& plan, Collective collective);

Algorithm make_twotree_hier();

}  // namespace collnet::collectives
