// Engine "twotree": schedule_engine_twotree (hls/schedule_engine_twotree.hpp,
// rtl/schedule_engine_twotree.sv) runs twotree-hier, twotree-flat and
// tree-single from the procedure tables of the plan the reference schedule is
// built from (collectives/algorithms/tree_collective.hpp). Its topology
// limits, its loader and its registry entry.
#include "driver/engine_catalog.hpp"

#include "collectives/algorithms/tree_collective.hpp"
#include "hls/schedule_engine_twotree.hpp"

namespace collnet::driver {

namespace {

std::string twotree_refusal(const std::string& /*algorithm*/, const topology::Topology& topology) {
  // SELF and the entries' partners are 16-bit endpoint ids.
  if (topology.endpoint_count() > 65536)
    return "key 'topology': schedule_engine_twotree holds endpoint ids of 16 bits, " + topology.name() + " has " +
           std::to_string(topology.endpoint_count()) + " endpoints";
  return "";
}

/// A child's slot at its parent: its index among the parent's children of
/// the stage, T1 children first (tree_pipeline.hpp memory layout).
std::uint32_t slot_at_parent(const collectives::PipelinedTrees& shape, int t, int v) {
  const int parent = shape.trees[static_cast<std::size_t>(t)].parent[static_cast<std::size_t>(v)];
  std::uint32_t index = 0;
  for (int u = 0; u < static_cast<int>(shape.trees.size()); ++u)
    for (int c : shape.trees[static_cast<std::size_t>(u)].children[static_cast<std::size_t>(parent)]) {
      if (u == t && c == v) return index;
      ++index;
    }
  throw std::logic_error("two-tree engine loader: child not found at its parent");
}

int position_of(const collectives::TreeInstance& inst, int rank) {
  for (std::size_t i = 0; i < inst.ranks.size(); ++i)
    if (inst.ranks[i] == rank) return static_cast<int>(i);
  return -1;
}

/// One rank's stages as the engine reads them (hls/schedule_engine_twotree.hpp:
/// a reduce stage sends up by table 174/175 and receives by 176/177; a
/// broadcast stage swaps the roles).
std::vector<hls::TwotreeEngineStage> twotree_stages(const collectives::TreeCollectivePlan& plan, int rank) {
  namespace cc = collectives;
  std::vector<hls::TwotreeEngineStage> out;
  std::uint32_t reduce_index = 0;
  for (std::size_t s = 0; s < plan.stages.size(); ++s) {
    const cc::Stage& stage = plan.stages[s];
    hls::TwotreeEngineStage st;
    st.broadcast = stage.kind == cc::StageKind::broadcast;
    st.reduce_index = reduce_index;
    st.base_phase = plan.phases[s].first;
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
      const auto& send = plan.global[s] ? plan.tables.global_send : plan.tables.local_send;
      const auto& recv = plan.global[s] ? plan.tables.global_receive : plan.tables.local_receive;
      auto height = [&](int t, int pos) {
        return static_cast<std::uint32_t>(shape.trees[static_cast<std::size_t>(t)].height[static_cast<std::size_t>(pos)]);
      };
      // level of the node whose edge to its parent carries the block
      auto level = [&](int t, int pos) {
        return st.broadcast ? static_cast<std::uint32_t>(shape.depth - 1) - height(t, pos) : height(t, pos);
      };
      for (std::size_t c = 0; c < 2; ++c) {
        const cc::ProcedureEntry up = send[static_cast<std::size_t>(rank)][c];
        const cc::ProcedureEntry down = recv[static_cast<std::size_t>(rank)][c];
        const cc::ProcedureEntry out_entry = st.broadcast ? down : up;
        const cc::ProcedureEntry in_entry = st.broadcast ? up : down;
        if (out_entry.partner >= 0) {
          const int child = st.broadcast ? position_of(*inst, out_entry.partner) : v;
          st.entries[c] = {true, static_cast<std::uint32_t>(out_entry.tree),
                           st.broadcast ? 0u : slot_at_parent(shape, out_entry.tree, v), level(out_entry.tree, child),
                           static_cast<std::uint32_t>(plan.placement.endpoint(out_entry.partner))};
        }
        if (in_entry.partner >= 0) {
          const int child = st.broadcast ? v : position_of(*inst, in_entry.partner);
          st.entries[2 + c] = {true, static_cast<std::uint32_t>(in_entry.tree),
                               st.broadcast ? 0u : slot_at_parent(shape, in_entry.tree, child),
                               level(in_entry.tree, child),
                               static_cast<std::uint32_t>(plan.placement.endpoint(in_entry.partner))};
        }
      }
    }
    out.push_back(st);
  }
  return out;
}

/// The plan fits the engine: every rank's SENDs fit the route hint table.
/// (tree_schedule checks the memory and phase limits.)
void check_twotree_plan(const collectives::TreeCollectivePlan& plan) {
  std::vector<std::size_t> sends;
  for (const auto& x : plan.transfers) {
    if (x.sender >= static_cast<int>(sends.size())) sends.resize(static_cast<std::size_t>(x.sender) + 1, 0);
    ++sends[static_cast<std::size_t>(x.sender)];
  }
  for (std::size_t rank = 0; rank < sends.size(); ++rank)
    if (sends[rank] > hls::TwotreeScheduleEngine::hint_entries)
      throw ConfigError("key 'blocks': schedule_engine_twotree holds " +
                        std::to_string(hls::TwotreeScheduleEngine::hint_entries) +
                        " route hints (one per SEND), rank " + std::to_string(rank) + " sends " +
                        std::to_string(sends[rank]) + "; use fewer blocks (an allreduce sends up to 8 per block)");
}

/// `endpoint`'s writes: its rank's stages and the spine hint of each of its
/// SENDs in program order (an endpoint without a rank runs END only).
std::vector<EngineWrite> twotree_writes(const collectives::TreeCollectivePlan& plan, topology::EndpointId endpoint) {
  if (plan.setup.phase_barriers)
    throw ConfigError("key 'phase_barriers': schedule_engine_twotree emits the phases without barriers; accepted "
                      "with the engine: false (the reference programs carry the barriers: schedule_engine auto or "
                      "reference)");
  if (plan.setup.stage_pipelining)
    throw ConfigError("key 'stage_pipelining': schedule_engine_twotree runs the stages one after another; accepted "
                      "with the engine: false (the reference programs overlap the stages: schedule_engine auto or "
                      "reference)");
  const int rank = plan.placement.rank(endpoint);
  std::vector<hls::TwotreeEngineStage> stages;
  std::vector<std::uint8_t> hints;
  if (rank >= 0) {
    stages = twotree_stages(plan, rank);
    for (const auto& x : plan.transfers)
      if (x.sender == rank) hints.push_back(x.route_hint);
  }
  return hls::twotree_engine_writes(plan.setup.dtype == DataType::float64, static_cast<std::uint32_t>(plan.setup.op),
                                    plan.single_tree, static_cast<std::uint32_t>(endpoint), plan.setup.elements,
                                    static_cast<std::uint32_t>(plan.setup.blocks), stages, hints);
}

}  // namespace

namespace engines {

EngineEntry twotree() {
  return {"twotree",
          "up to 65536 endpoints, " + std::to_string(hls::TwotreeScheduleEngine::hint_entries) + " SENDs per rank",
          false, twotree_refusal,
          [](const LoadRequest& r) -> EndpointWrites {
            const auto p = loader_values<collectives::TwotreeEngineParams>(r);
            check_twotree_plan(*p.plan);
            if (p.plan->setup.phase_barriers || p.plan->setup.stage_pipelining)
              (void)twotree_writes(*p.plan, 0);  // throws naming the key
            return [p](topology::EndpointId e) { return twotree_writes(*p.plan, e); };
          },
          make_hls_engine_of<hls::TwotreeScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
