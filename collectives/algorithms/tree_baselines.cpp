#include "collectives/algorithms/tree_baselines.hpp"

#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/tree_collective.hpp"

namespace collnet::collectives {

namespace {

Schedule build_flat(const topology::Topology& topology, const Params& params, const char* name) {
  return tree_collective_schedule(topology, plan_tree_collective(name, topology, params));
}

Algorithm baseline(const char* name, const char* description) {
  Algorithm a;
  a.name = name;
  a.document = "002";
  a.description = description;
  a.topologies = "any (placement=grouped: leafspine:p=P, leafspine-wiring:FILE)";
  a.keys = reduction_keys();
  a.keys.push_back(placement_key());
  a.footprint = reduction_footprint;
  a.engine = EngineKind::twotree;
  a.engine_params = [](const topology::Topology&, const Params&) -> EngineParams { return TwotreeEngineParams{}; };
  a.build = [name](const topology::Topology& t, const Params& p) { return build_flat(t, p, name); };
  return a;
}

}  // namespace

Algorithm make_twotree_flat() {
  return baseline("twotree-flat",
                  "baseline of document 002: one two-tree over all ranks, no groups (collides on a leaf/spine fabric)");
}

Algorithm make_tree_single() {
  return baseline("tree-single",
                  "baseline of document 002 (background): one pipelined in-order binary tree, left then right phases");
}

}  // namespace collnet::collectives
