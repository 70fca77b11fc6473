// Scenario keys of the tree reductions of document 002 (twotree-hier,
// twotree-flat, tree-single), documented once here. Names are a contract.
//   collective    reduce | broadcast | allreduce (default allreduce); root = rank 0
//   op            sum (default) | min | max | product
//   dtype         int64 (default) | float64
//   elements      L, data elements (words) per rank, default 15
//   blocks        B, pipeline blocks per tree, default 4
//   processes     P, default every server (endpoint)
//   spine_choice  coloring (default) | sender_port | receiver_port
//   grouping      twotree-hier: spine_set (default) | leaf
//   placement     baselines: consecutive (default) | grouped
//   phase_barriers, stage_pipelining  false (default) | true
#pragma once

#include <limits>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/keys.hpp"
#include "collectives/algorithms/leafspine_placement.hpp"
#include "collectives/params.hpp"
#include "collectives/algorithms/spine_choice.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"

namespace collnet::collectives {

ReductionSetup read_reduction_setup(const Params& params);
/// The key `collective`'s value: reduce, broadcast or allreduce.
std::string reduction_collective_name(const Params& params);
/// `processes`, 1..endpoints, default endpoints.
int read_processes(const Params& params, int endpoints);
SpineChoice read_spine_choice(const Params& params);
Grouping read_grouping(const Params& params);

/// `placement: grouped` (baselines).
bool read_grouped_placement(const Params& params);

/// The keys of collective, op, dtype, elements, blocks, processes,
/// spine_choice, phase_barriers, stage_pipelining.
std::vector<Key> reduction_keys();
const Key& grouping_key();
/// A rank's memory and program size for the size check: at least its own
/// `elements` words (a lower estimate; slots and blocks add to it).
Footprint reduction_footprint(const topology::Topology& topology, const Params& params);
const Key& placement_key();
/// The declarations of `op`, `dtype` and `elements`, for the other
/// reductions that read them (the standard collectives).
const Key& reduction_op_key();
const Key& reduction_dtype_key();
const Key& reduction_elements_key();

}  // namespace collnet::collectives
