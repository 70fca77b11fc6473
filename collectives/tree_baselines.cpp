#include "collectives/tree_baselines.hpp"

#include "collectives/leafspine_placement.hpp"
#include "collectives/reduction_keys.hpp"
#include "collectives/spine_choice.hpp"
#include "collectives/tree_pipeline.hpp"

namespace collnet::collectives {

namespace {

Placement baseline_placement(const topology::Topology& topology, const Params& params, int processes) {
  const auto how = params.choice("placement", "consecutive", {"consecutive", "grouped"});
  if (how == "consecutive") return place_consecutive(topology.endpoint_count(), processes);
  const auto* fabric = dynamic_cast<const topology::LeafSpine*>(&topology);
  if (!fabric)
    throw ConfigError("key 'placement': 'grouped' needs a leaf/spine fabric (leafspine:p=P, leafspine-wiring:FILE); "
                      "accepted on '" + topology.name() + "': consecutive");
  return place_grouped(*fabric, Grouping::spine_set, processes);
}

Schedule build_flat(const topology::Topology& topology, const Params& params, bool two, const char* name) {
  const ReductionSetup setup = read_reduction_setup(params);
  const int processes = read_processes(params, topology.endpoint_count());
  const SpineChoice choice = read_spine_choice(params);
  const Placement placement = baseline_placement(topology, params, processes);
  std::vector<int> ranks(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) ranks[static_cast<std::size_t>(r)] = r;
  const TreeInstance tree{ranks, two ? two_tree(processes) : single_tree(processes)};
  std::vector<Stage> stages;
  if (setup.collective != Collective::broadcast) stages.push_back({StageKind::reduce, "reduce", {tree}});
  if (setup.collective != Collective::reduce) stages.push_back({StageKind::broadcast, "broadcast", {tree}});
  auto transfers = stage_transfers(stages, setup.elements, setup.blocks);
  choose_spines(topology, placement, transfers, choice);
  return tree_schedule(topology, placement, stages, transfers, setup, name);
}

Algorithm baseline(const char* name, const char* description, bool two) {
  Algorithm a;
  a.name = name;
  a.document = "002";
  a.description = description;
  a.topologies = "any (placement=grouped: leafspine:p=P, leafspine-wiring:FILE)";
  a.keys = reduction_key_docs();
  a.keys.push_back(placement_key_doc());
  a.build = [two, name](const topology::Topology& t, const Params& p) { return build_flat(t, p, two, name); };
  return a;
}

}  // namespace

Algorithm make_twotree_flat() {
  return baseline("twotree-flat",
                  "baseline of document 002: one two-tree over all ranks, no groups (collides on a leaf/spine fabric)",
                  true);
}

Algorithm make_tree_single() {
  return baseline("tree-single",
                  "baseline of document 002 (background): one pipelined in-order binary tree, left then right phases",
                  false);
}

}  // namespace collnet::collectives
