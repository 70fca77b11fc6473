#include "collectives/algorithms/tree_collective.hpp"

#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/spine_choice.hpp"
#include "collectives/algorithms/twotree_hier.hpp"
#include "topology/leafspine.hpp"

namespace collnet::collectives {

namespace {

const topology::LeafSpine* fabric_of(const topology::Topology& topology) {
  return dynamic_cast<const topology::LeafSpine*>(&topology);
}

Placement baseline_placement(const topology::Topology& topology, const Params& params, int processes) {
  if (!read_grouped_placement(params)) return place_consecutive(topology.endpoint_count(), processes);
  const auto* fabric = fabric_of(topology);
  if (!fabric)
    throw ConfigError("key 'placement': 'grouped' needs a leaf/spine fabric (leafspine:p=P, leafspine-wiring:FILE); "
                      "accepted on '" + topology.name() + "': consecutive");
  return place_grouped(*fabric, Grouping::spine_set, processes);
}

}  // namespace

TreeCollectivePlan plan_tree_collective(const std::string& algorithm, const topology::Topology& topology,
                                        const Params& params) {
  TreeCollectivePlan plan;
  plan.algorithm = algorithm;
  if (algorithm == "twotree-hier") {
    const auto* fabric = fabric_of(topology);
    if (!fabric)
      throw ConfigError("key 'topology': twotree-hier runs on a leaf/spine fabric; accepted: leafspine:p=P, "
                        "leafspine-wiring:FILE; got '" + topology.name() + "'");
    plan.setup = read_reduction_setup(params);
    const int processes = read_processes(params, topology.endpoint_count());
    const Grouping grouping = read_grouping(params);
    HierarchicalPlan hier = plan_twotree_hier(*fabric, grouping, processes);
    plan.stages = hierarchical_stages(hier, plan.setup.collective);
    plan.placement = std::move(hier.placement);
    plan.tables = std::move(hier.tables);
    for (const auto& s : plan.stages) plan.global.push_back(s.name.rfind("global", 0) == 0);
  } else if (algorithm == "twotree-flat" || algorithm == "tree-single") {
    plan.setup = read_reduction_setup(params);
    const int processes = read_processes(params, topology.endpoint_count());
    plan.single_tree = algorithm == "tree-single";
    plan.placement = baseline_placement(topology, params, processes);
    std::vector<int> ranks(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) ranks[static_cast<std::size_t>(r)] = r;
    const TreeInstance tree{ranks, plan.single_tree ? single_tree(processes) : two_tree(processes)};
    if (plan.setup.collective != Collective::broadcast) plan.stages.push_back({StageKind::reduce, "reduce", {tree}});
    if (plan.setup.collective != Collective::reduce) plan.stages.push_back({StageKind::broadcast, "broadcast", {tree}});
    // the local tables (174/176) of the one tree; no global stage
    plan.tables = procedure_tables(processes, {tree}, TreeInstance{{0}, two_tree(1)});
    plan.global.assign(plan.stages.size(), false);
  } else {
    throw ConfigError("key 'algorithm': not a tree collective of document 002: " + algorithm +
                      "; accepted: twotree-hier, twotree-flat, tree-single");
  }
  const SpineChoice choice = read_spine_choice(params);
  plan.transfers = stage_transfers(plan.stages, plan.setup.elements, plan.setup.blocks, &plan.phases,
                                   plan.setup.stage_pipelining);
  choose_spines(topology, plan.placement, plan.transfers, choice);
  return plan;
}

Schedule tree_collective_schedule(const topology::Topology& topology, const TreeCollectivePlan& plan) {
  return tree_schedule(topology, plan.placement, plan.stages, plan.transfers, plan.setup, plan.algorithm);
}

Algorithm tree_collective_algorithm(const std::string& algorithm, std::string description, std::string topologies,
                                    const Key& own_key) {
  Algorithm a;
  a.name = algorithm;
  a.document = "002";
  a.description = std::move(description);
  a.topologies = std::move(topologies);
  a.keys = reduction_keys();
  a.keys.push_back(own_key);
  a.footprint = reduction_footprint;
  a.size = DataSize::of_key(reduction_elements_key());
  a.collective = [](const topology::Topology& topology, const Params& params) {
    return CollectiveKind{reduction_collective_name(params), read_processes(params, topology.endpoint_count())};
  };
  a.engine = "twotree";
  a.engine_params = [algorithm](const topology::Topology& topology, const Params& params) -> std::any {
    return TwotreeEngineParams{
        std::make_shared<const TreeCollectivePlan>(plan_tree_collective(algorithm, topology, params))};
  };
  a.build = [algorithm](const topology::Topology& topology, const Params& params) {
    auto plan = std::make_shared<const TreeCollectivePlan>(plan_tree_collective(algorithm, topology, params));
    Schedule s = tree_collective_schedule(topology, *plan);
    s.engine_params = TwotreeEngineParams{std::move(plan)};
    return s;
  };
  return a;
}

}  // namespace collnet::collectives
