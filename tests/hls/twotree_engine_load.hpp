// What software loads into the two-tree schedule engine
// (hls/schedule_engine_twotree.hpp) for each endpoint of a twotree-hier,
// twotree-flat or tree-single schedule, from the procedure tables (tables
// 174-177), the trees' heights and slots, the stage phases and the spine
// choice; with the reference schedule built the way the registered
// algorithm builds it. Shared by tests/hls/schedule_engine_twotree_test.cpp
// and testbench/verilator/schedule_engine_twotree_bench.cpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/params.hpp"
#include "collectives/spine_choice.hpp"
#include "collectives/tree_pipeline.hpp"
#include "collectives/twotree_hier.hpp"
#include "collectives/twotree_tables.hpp"
#include "hls/schedule_engine_twotree.hpp"
#include "topology/leafspine.hpp"
#include "topology/topology.hpp"

namespace collnet::testing {

namespace cc = collnet::collectives;
using collnet::hls::TwotreeEngineStage;

// A child's slot at its parent: its index among the parent's children of the
// stage, T1 children first (tree_pipeline.hpp memory layout).
inline std::uint32_t slot_at_parent(const cc::PipelinedTrees& shape, int t, int v) {
  const int parent = shape.trees[static_cast<std::size_t>(t)].parent[static_cast<std::size_t>(v)];
  std::uint32_t index = 0;
  for (int u = 0; u < static_cast<int>(shape.trees.size()); ++u)
    for (int c : shape.trees[static_cast<std::size_t>(u)].children[static_cast<std::size_t>(parent)]) {
      if (u == t && c == v) return index;
      ++index;
    }
  throw std::logic_error("twotree engine load: child not found at its parent");
}

inline int position_of(const cc::TreeInstance& inst, int rank) {
  for (std::size_t i = 0; i < inst.ranks.size(); ++i)
    if (inst.ranks[i] == rank) return static_cast<int>(i);
  return -1;
}

/// What software loads into one rank's engine, from the tables of each stage.
struct Load {
  std::vector<TwotreeEngineStage> stages;
  std::vector<std::uint8_t> hints;
};

inline Load load_for(int rank, const std::vector<cc::Stage>& stages, const std::vector<cc::StagePhases>& phases,
              const std::vector<const cc::ProcedureTables*>& tables, const std::vector<bool>& global,
              const cc::Placement& placement, const std::vector<cc::Transfer>& transfers) {
  Load load;
  std::uint32_t reduce_index = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const cc::Stage& stage = stages[s];
    TwotreeEngineStage st;
    st.broadcast = stage.kind == cc::StageKind::broadcast;
    st.reduce_index = reduce_index;
    st.base_phase = phases[s].first;
    if (!st.broadcast) ++reduce_index;
    const cc::TreeInstance* inst = nullptr;
    int v = -1;
    for (const auto& i : stage.instances)
      if ((v = position_of(i, rank)) >= 0) {
        inst = &i;
        break;
      }
    if (inst != nullptr && inst->shape.ranks >= 2) {
      const auto& shape = inst->shape;
      const auto& send = global[s] ? tables[s]->global_send : tables[s]->local_send;
      const auto& recv = global[s] ? tables[s]->global_receive : tables[s]->local_receive;
      for (int c = 0; c < 2; ++c) {
        const cc::ProcedureEntry up = send[static_cast<std::size_t>(rank)][static_cast<std::size_t>(c)];
        const cc::ProcedureEntry down = recv[static_cast<std::size_t>(rank)][static_cast<std::size_t>(c)];
        // reduce: send up (174/175), receive from children (176/177);
        // broadcast: the roles swap
        const cc::ProcedureEntry out = st.broadcast ? down : up;
        const cc::ProcedureEntry in = st.broadcast ? up : down;
        auto height = [&](int t, int pos) {
          return static_cast<std::uint32_t>(shape.trees[static_cast<std::size_t>(t)].height[static_cast<std::size_t>(pos)]);
        };
        auto level = [&](int t, int pos) {  // of the node whose edge to its parent carries the block
          return st.broadcast ? static_cast<std::uint32_t>(shape.depth - 1) - height(t, pos) : height(t, pos);
        };
        if (out.partner >= 0) {
          auto& e = st.entries[static_cast<std::size_t>(c)];
          const int child = st.broadcast ? position_of(*inst, out.partner) : v;
          e = {true, static_cast<std::uint32_t>(out.tree), st.broadcast ? 0u : slot_at_parent(shape, out.tree, v),
               level(out.tree, child), static_cast<std::uint32_t>(placement.endpoint(out.partner))};
        }
        if (in.partner >= 0) {
          auto& e = st.entries[static_cast<std::size_t>(2 + c)];
          const int child = st.broadcast ? v : position_of(*inst, in.partner);
          e = {true, static_cast<std::uint32_t>(in.tree), st.broadcast ? 0u : slot_at_parent(shape, in.tree, child),
               level(in.tree, child), static_cast<std::uint32_t>(placement.endpoint(in.partner))};
        }
      }
    }
    load.stages.push_back(st);
  }
  // The spine choice of every SEND of this rank, in phase order.
  for (const auto& x : transfers)
    if (x.sender == rank) load.hints.push_back(x.route_hint);
  return load;
}

struct Case {
  std::string algorithm;  // twotree-hier, twotree-flat, tree-single
  int p;
  int processes;
  std::uint32_t elements;
  int blocks;
  cc::Collective collective;
  std::string placement = "consecutive";  // baselines
};

inline std::string describe(const Case& c) {
  return c.algorithm + " p " + std::to_string(c.p) + " P " + std::to_string(c.processes) + " L " +
         std::to_string(c.elements) + " B " + std::to_string(c.blocks) + " collective " +
         std::to_string(static_cast<int>(c.collective)) + " " + c.placement;
}


struct TwotreeCaseBuild {
  cc::Schedule reference;   // tree_schedule of the reconstruction
  cc::Schedule registered;  // the registered algorithm's schedule
  /// Per endpoint: the configuration writes (CONTROL last).
  std::vector<std::vector<collnet::hls::TwotreeEngineWrite>> writes;
};

/// Builds the case as the registered algorithm does, and every endpoint's
/// engine load.
inline TwotreeCaseBuild build_twotree_case(const Case& c, collnet::ReceiveOp op, collnet::DataType dtype) {
  const auto topo = collnet::topology::make_topology("leafspine:p=" + std::to_string(c.p));
  const auto& fabric = dynamic_cast<const collnet::topology::LeafSpine&>(*topo);
  cc::ReductionSetup setup;
  setup.collective = c.collective;
  setup.op = op;
  setup.dtype = dtype;
  setup.elements = c.elements;
  setup.blocks = c.blocks;
  const bool single = c.algorithm == "tree-single";

  cc::Placement placement;
  std::vector<cc::Stage> stages;
  cc::ProcedureTables flat_tables;
  cc::HierarchicalPlan plan;
  std::vector<const cc::ProcedureTables*> tables;
  std::vector<bool> global;
  if (c.algorithm == "twotree-hier") {
    plan = cc::plan_twotree_hier(fabric, cc::Grouping::spine_set, c.processes);
    placement = plan.placement;
    stages = cc::hierarchical_stages(plan, c.collective);
    for (const auto& s : stages) {
      tables.push_back(&plan.tables);
      global.push_back(s.name.rfind("global", 0) == 0);
    }
  } else {
    placement = c.placement == "grouped" ? cc::place_grouped(fabric, cc::Grouping::spine_set, c.processes)
                                         : cc::place_consecutive(topo->endpoint_count(), c.processes);
    std::vector<int> ranks(static_cast<std::size_t>(c.processes));
    for (int r = 0; r < c.processes; ++r) ranks[static_cast<std::size_t>(r)] = r;
    const cc::TreeInstance tree{ranks, single ? cc::single_tree(c.processes) : cc::two_tree(c.processes)};
    if (c.collective != cc::Collective::broadcast) stages.push_back({cc::StageKind::reduce, "reduce", {tree}});
    if (c.collective != cc::Collective::reduce) stages.push_back({cc::StageKind::broadcast, "broadcast", {tree}});
    // tables 174/176 of the one tree (no global stage)
    flat_tables = cc::procedure_tables(c.processes, {tree}, cc::TreeInstance{{0}, cc::two_tree(1)});
    for (std::size_t s = 0; s < stages.size(); ++s) {
      tables.push_back(&flat_tables);
      global.push_back(false);
    }
  }
  std::vector<cc::StagePhases> phases;
  auto transfers = cc::stage_transfers(stages, setup.elements, setup.blocks, &phases);
  cc::choose_spines(*topo, placement, transfers, cc::SpineChoice::coloring);
  auto reference = cc::tree_schedule(*topo, placement, stages, transfers, setup, c.algorithm);

  // The reconstruction above is the registered algorithm.
  const char* collective = c.collective == cc::Collective::reduce      ? "reduce"
                           : c.collective == cc::Collective::broadcast ? "broadcast"
                                                                       : "allreduce";
  collnet::Params params{{"processes", std::to_string(c.processes)},
                         {"elements", std::to_string(c.elements)},
                         {"blocks", std::to_string(c.blocks)},
                         {"collective", collective},
                         {"op", op == collnet::ReceiveOp::sum ? "sum" : op == collnet::ReceiveOp::max ? "max"
                                : op == collnet::ReceiveOp::min ? "min" : "product"},
                         {"dtype", dtype == collnet::DataType::float64 ? "float64" : "int64"}};
  if (c.algorithm != "twotree-hier") params.set("placement", c.placement);
  auto registered = cc::find_algorithm(c.algorithm).build(*topo, params);

  TwotreeCaseBuild out{std::move(reference), std::move(registered), {}};
  for (collnet::topology::EndpointId e = 0; e < topo->endpoint_count(); ++e) {
    const int rank = placement.rank(e);
    const Load load = rank >= 0 ? load_for(rank, stages, phases, tables, global, placement, transfers) : Load{};
    out.writes.push_back(collnet::hls::twotree_engine_writes(
        setup.dtype == collnet::DataType::float64, static_cast<std::uint32_t>(setup.op), single,
        static_cast<std::uint32_t>(e), setup.elements, static_cast<std::uint32_t>(setup.blocks), load.stages,
        load.hints));
  }
  return out;
}

}  // namespace collnet::testing
