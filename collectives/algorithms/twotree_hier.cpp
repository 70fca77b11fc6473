#include "collectives/algorithms/twotree_hier.hpp"

#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/tree_collective.hpp"

namespace collnet::collectives {

HierarchicalPlan plan_twotree_hier(const topology::LeafSpine& fabric, Grouping grouping, int processes) {
  HierarchicalPlan plan;
  plan.placement = place_grouped(fabric, grouping, processes);
  for (const auto& ranks : plan.placement.groups)
    plan.local.push_back({ranks, two_tree(static_cast<int>(ranks.size()))});
  plan.global = {plan.placement.representatives, two_tree(static_cast<int>(plan.placement.representatives.size()))};
  plan.tables = procedure_tables(processes, plan.local, plan.global);
  return plan;
}

std::vector<Stage> hierarchical_stages(const HierarchicalPlan& plan, Collective collective) {
  const bool global = plan.global.ranks.size() > 1;  // spec: one group only -> no global stage
  const Stage local_reduce{StageKind::reduce, "local reduce", plan.local};
  const Stage global_reduce{StageKind::reduce, "global reduce", {plan.global}};
  const Stage global_broadcast{StageKind::broadcast, "global broadcast", {plan.global}};
  const Stage local_broadcast{StageKind::broadcast, "local broadcast", plan.local};
  std::vector<Stage> stages;
  if (collective != Collective::broadcast) {
    stages.push_back(local_reduce);
    if (global) stages.push_back(global_reduce);
  }
  if (collective != Collective::reduce) {
    if (global) stages.push_back(global_broadcast);
    stages.push_back(local_broadcast);
  }
  return stages;
}

Algorithm make_twotree_hier() {
  Algorithm a = tree_collective_algorithm(
      "twotree-hier",
      "hierarchical two-tree reduce/broadcast/allreduce: local two-trees per group (leaves with the same spines), "
      "a global two-tree among the representatives, pipelined blocks, 2-coloring, contention-free spine choice",
      "leafspine:p=P, leafspine-wiring:FILE", grouping_key());
  a.supports = TopologySupport::only({"leafspine", "leafspine-wiring"});
  return a;
}

}  // namespace collnet::collectives
