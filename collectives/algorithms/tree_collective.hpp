// The pipelined tree collectives of document 002 (twotree-hier, twotree-flat,
// tree-single) as one plan: placement, stages, phases, the transfers with
// their spines chosen, and the procedure tables (tables 174-177) of the
// trees. The registered algorithms build their schedules from it
// (tree_schedule), and the two-tree schedule engine's loader
// (driver/engine_loader.cpp) loads each rank's tables from the same plan, so
// the engine is loaded from exactly what the reference sends.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/leafspine_placement.hpp"
#include "collectives/params.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "collectives/algorithms/twotree_tables.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

struct TreeCollectivePlan {
  std::string algorithm;  // twotree-hier, twotree-flat, tree-single
  ReductionSetup setup;
  Placement placement;
  std::vector<Stage> stages;
  std::vector<StagePhases> phases;  // per stage
  std::vector<Transfer> transfers;  // route hints set by the spine choice
  /// Tables of the stages' trees: the local two-trees and the global one
  /// (twotree-hier), or the one tree over all ranks (the baselines).
  ProcedureTables tables;
  std::vector<bool> global;  // per stage: reads the global tables 175/177
  bool single_tree = false;  // tree-single: one in-order binary tree
};

/// The plan of `algorithm` (one of the three) from its keys; throws
/// ConfigError naming the key as the registered algorithm does.
TreeCollectivePlan plan_tree_collective(const std::string& algorithm, const topology::Topology& topology,
                                        const Params& params);

/// The schedule of the plan (tree_schedule with the plan's parts).
Schedule tree_collective_schedule(const topology::Topology& topology, const TreeCollectivePlan& plan);

/// The registry entry of `algorithm` (one of the three): document 002, the
/// reduction keys and `own_key` (grouping or placement), the schedule of its
/// plan, its footprint, and the two-tree engine (loaded from the same plan).
Algorithm tree_collective_algorithm(const std::string& algorithm, std::string description, std::string topologies,
                                    const Key& own_key);

/// What twotree-hier, twotree-flat and tree-single load their schedule engine
/// with (engine "twotree", driver/engines/twotree.cpp): the plan the reference
/// schedule is built from; the builder hands it over with the schedule
/// (Schedule::engine_params), so a run builds it once.
struct TwotreeEngineParams {
  std::shared_ptr<const TreeCollectivePlan> plan;
};

}  // namespace collnet::collectives
