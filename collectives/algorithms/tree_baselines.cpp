#include "collectives/algorithms/tree_baselines.hpp"

#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/tree_collective.hpp"

namespace collnet::collectives {

namespace {

Algorithm baseline(const char* name, const char* description) {
  return tree_collective_algorithm(name, description, "any (placement=grouped: leafspine:p=P, leafspine-wiring:FILE)",
                                   placement_key());
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
