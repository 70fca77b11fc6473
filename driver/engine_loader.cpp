#include "driver/engine_loader.hpp"

#include <array>
#include <stdexcept>

#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithm.hpp"
#include "collectives/algorithms/tree_collective.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "hls/schedule_engine_twotree.hpp"
#include "topology/boards.hpp"
#include "topology/grid.hpp"

namespace collnet::driver {

namespace {

std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill) {
  std::array<std::uint32_t, 4> a{fill, fill, fill, fill};
  for (std::size_t d = 0; d < v.size() && d < 4; ++d) a[d] = static_cast<std::uint32_t>(v[d]);
  return a;
}

int largest_side(const topology::Grid& grid) {
  int largest = 0;
  for (int d = 0; d < grid.dims(); ++d) largest = std::max(largest, grid.size(d));
  return largest;
}

/// The algorithm's entry; ConfigError naming the key `algorithm` when no
/// engine runs it.
const collectives::Algorithm& engine_algorithm(const std::string& algorithm) {
  const collectives::Algorithm& a = collectives::find_algorithm(algorithm);
  if (!a.engine)
    throw ConfigError("key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " +
                      covered_algorithms());
  return a;
}

std::string topology_refusal(EngineKind kind, const std::string& algorithm, const topology::Topology& topology) {
  const std::string block = engine_block(kind);
  if (kind == EngineKind::twotree) {
    // SELF and the entries' partners are 16-bit endpoint ids.
    if (topology.endpoint_count() > 65536)
      return "key 'topology': " + block + " holds endpoint ids of 16 bits, " + topology.name() + " has " +
             std::to_string(topology.endpoint_count()) + " endpoints";
    return "";
  }
  if (kind == EngineKind::hd) {
    // SIZE0..3 hold 1, 2 or 4: every boards:WxXxYxZ topology (topology/boards.hpp).
    if (dynamic_cast<const topology::Boards*>(&topology) == nullptr)
      return "key 'topology': " + block + " runs " + algorithm + " on boards:WxXxYxZ only, not " + topology.name();
    return "";
  }
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  if (grid == nullptr)
    return "key 'topology': " + block + " runs " + algorithm + " on mesh and torus grids only, not " + topology.name();
  const std::string name = topology.name();
  switch (kind) {
    case EngineKind::a2a:
      // SIZE/COORD registers are 16 bits, node counts 17 (hls/schedule_engine_a2a.hpp).
      if (grid->endpoint_count() > 65536)
        return "key 'topology': " + block + " holds at most 65536 nodes, " + name + " has " +
               std::to_string(grid->endpoint_count());
      return "";
    case EngineKind::a2at: {
      namespace R = hls::a2at_engine_reg;
      if (grid->dims() != 2) return "key 'topology': " + block + " runs 2-D grids only, " + name + " is not";
      if (largest_side(*grid) > static_cast<int>(R::max_size))
        return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
               " nodes (SIZE_X, SIZE_Y), " + name + " has " + std::to_string(largest_side(*grid));
      if (grid->endpoint_count() - 1 > static_cast<int>(R::table_entries))
        return "key 'topology': " + block + " holds at most " + std::to_string(R::table_entries) +
               " offsets (N - 1), " + name + " needs " + std::to_string(grid->endpoint_count() - 1);
      return "";
    }
    case EngineKind::hopgroup: {
      namespace R = hls::hopgroup_engine_reg;
      if (largest_side(*grid) > static_cast<int>(R::max_size))
        return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
               " nodes (SIZE0..3, coordinate tables of " + std::to_string(R::max_size) + " entries), " + name +
               " has " + std::to_string(largest_side(*grid));
      return "";
    }
    case EngineKind::hd:
    case EngineKind::twotree: return "";
  }
  return "";
}

std::vector<EngineWrite> a2a_writes(const collectives::A2aEngineParams& p, const topology::Grid& grid,
                                    topology::EndpointId self) {
  namespace R = hls::a2a_engine_reg;
  const std::uint8_t code = p.nd ? R::algorithm_nd : R::algorithm_spread;
  const auto nct = static_cast<std::uint32_t>(p.nct);  // 1..4 = NCT register
  std::vector<EngineWrite> w;
  for (const auto& x : hls::a2a_engine_writes(code, nct, p.message_words, padded(grid.sizes(), 1),
                                              padded(grid.coord(self), 0), p.group_barriers))
    w.push_back({x.addr, x.data});
  return w;
}

/// Configuration, the offset table from collectives::a2at_offset_groups (the
/// same groups the reference sends), CONTROL last.
std::vector<EngineWrite> a2at_writes(const collectives::A2atEngineParams& p, const topology::Grid& grid,
                                     topology::EndpointId self) {
  namespace R = hls::a2at_engine_reg;
  const int nct = p.nct;
  const auto order = p.order;
  const std::vector<int> c = grid.coord(self);
  std::vector<EngineWrite> w{{R::message_words, p.message_words},
                             {R::size_x, static_cast<std::uint32_t>(grid.size(0))},
                             {R::size_y, static_cast<std::uint32_t>(grid.size(1))},
                             {R::coord_x, static_cast<std::uint32_t>(c[0])},
                             {R::coord_y, static_cast<std::uint32_t>(c[1])},
                             {R::torus, grid.torus() ? 1u : 0u},
                             {R::group_barriers, p.group_barriers ? 1u : 0u},
                             {R::table_addr, 0}};
  std::uint32_t count = 0;
  for (const auto& group : collectives::a2at_offset_groups(grid.size(0), grid.size(1), grid.torus(), nct, order))
    for (std::size_t k = 0; k < group.size(); ++k, ++count)
      w.push_back({R::table_data, R::table_word(group[k].dx, group[k].dy, k + 1 == group.size())});
  if (count > R::table_entries)  // N - 1 offsets; engine_refusal checked N, this guards the table itself
    throw ConfigError("key 'topology': schedule_engine_a2at holds at most " + std::to_string(R::table_entries) +
                      " offsets, " + grid.name() + " needs " + std::to_string(count));
  w.push_back({R::table_count, count});
  w.push_back({R::control, 1});
  return w;
}

/// The options the reference reads (collectives/algorithms/a2a_hopgroup.cpp, the same
/// key declarations), as OPTIONS bits.
std::vector<EngineWrite> hopgroup_writes(const collectives::HopgroupEngineParams& p, const std::string& algorithm,
                                         const topology::Grid& grid, topology::EndpointId self) {
  namespace R = hls::hopgroup_engine_reg;
  if (grid.dims() > p.max_dims)
    throw ConfigError("key 'topology': " + engine_block(EngineKind::hopgroup) + " runs " + algorithm + " on 1 to " +
                      std::to_string(p.max_dims) + " dimensions, " + grid.name() + " has " +
                      std::to_string(grid.dims()));
  std::uint32_t options = grid.torus() ? R::opt_torus : 0u;
  if (p.pacing) options |= R::opt_pacing;
  if (!p.direct) {
    if (p.descending) options |= R::opt_descending;
    if (p.both) options |= R::opt_both;
    if (p.concurrent) options |= R::opt_concurrent;
  } else if (p.barriers) {
    options |= R::opt_barriers;
  }
  const std::uint32_t slack = p.slack;  // GAP_SLACK [7:0]
  const std::uint8_t code = p.direct ? R::algorithm_direct : R::algorithm_hopgroup;
  std::vector<EngineWrite> w;
  for (const auto& x : hls::hopgroup_engine_writes(code, p.message_words, options, slack,
                                                   static_cast<std::uint32_t>(grid.dims()), padded(grid.sizes(), 1),
                                                   padded(grid.coord(self), 0)))
    w.push_back({x.addr, x.data});
  return w;
}

/// The values the reference reads (collectives/algorithms/hd_allreduce.cpp, the same key
/// declarations), as the engine's registers; UNIT and COORD from the endpoint.
std::vector<EngineWrite> hd_writes(const collectives::HdEngineParams& p, const topology::Boards& boards,
                                   topology::EndpointId self) {
  namespace R = hls::hd_engine_reg;
  using collectives::HdOp;
  const auto agg_units = static_cast<std::uint32_t>(p.aggregation_units);
  const std::uint32_t op_code = p.op == HdOp::sum       ? R::op_sum
                                : p.op == HdOp::product ? R::op_product
                                : p.op == HdOp::max     ? R::op_max
                                : p.op == HdOp::min     ? R::op_min
                                                        : R::op_average;
  const bool float64 = p.dtype == DataType::float64;
  const bool bandwidth = p.bandwidth_order;
  const std::int64_t per_plane = std::int64_t{agg_units} * boards.boards();
  // ELEMENTS [19:0]
  const std::int64_t elements = p.elements;
  if (elements < 1 || elements >= (std::int64_t{1} << 20))
    throw ConfigError("key 'elements': schedule_engine_hd holds 1 to 2^20-1 elements (ELEMENTS [19:0]), got " +
                      std::to_string(elements));
  if (elements % per_plane != 0)
    throw ConfigError("key 'elements': schedule_engine_hd needs a multiple of aggregation_units x boards = " +
                      std::to_string(per_plane) + ", got " + std::to_string(elements));
  std::array<std::uint32_t, 4> sizes{}, coord{};
  const auto board = boards.board_coord(topology::Boards::board_of(self));
  for (int d = 0; d < 4; ++d) {
    sizes[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(boards.size(d));
    coord[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(board[static_cast<std::size_t>(d)]);
  }
  std::vector<EngineWrite> w;
  for (const auto& x : hls::hd_engine_writes(p.conventional, bandwidth, op_code, float64,
                                             static_cast<std::uint32_t>(self % topology::Boards::kUnitsPerBoard),
                                             static_cast<std::uint32_t>(elements), agg_units, sizes, coord))
    w.push_back({x.addr, x.data});
  return w;
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
  std::vector<EngineWrite> w;
  for (const auto& x : hls::twotree_engine_writes(plan.setup.dtype == DataType::float64,
                                                  static_cast<std::uint32_t>(plan.setup.op), plan.single_tree,
                                                  static_cast<std::uint32_t>(endpoint), plan.setup.elements,
                                                  static_cast<std::uint32_t>(plan.setup.blocks), stages, hints))
    w.push_back({x.addr, x.data});
  return w;
}

}  // namespace

std::string engine_block(EngineKind kind) { return "schedule_engine_" + engine_short_name(kind); }

std::string covered_algorithms() {
  return collectives::engine_coverage() +
         " (limits: schedule_engine_a2a grids of 1 to 4 dimensions, nct 1..4, up to 65536 nodes; schedule_engine_a2at "
         "2-D grids, sides up to 64, at most 257 nodes; schedule_engine_hopgroup sides up to 64, "
         "1-D to 3-D or 4-D; schedule_engine_hd boards; schedule_engine_twotree up to 65536 endpoints, 1024 SENDs per rank)";
}

std::string engine_refusal(const std::string& algorithm, const topology::Topology& topology, const Params& params) {
  const collectives::Algorithm* a = collectives::lookup_algorithm(algorithm);
  if (a == nullptr || !a->engine)
    return "key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " + covered_algorithms();
  std::string why = topology_refusal(*a->engine, algorithm, topology);
  if (!why.empty()) return why;
  // The keys the writes read, with the algorithm's own range checks.
  try {
    (void)engine_writes(algorithm, topology, params, 0);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::optional<EngineKind> engine_covering(const std::string& algorithm, const topology::Topology& topology,
                                          const Params& params) {
  if (!engine_refusal(algorithm, topology, params).empty()) return std::nullopt;
  return collectives::find_algorithm(algorithm).engine;
}

std::vector<EngineWrite> engine_writes(const std::string& algorithm, const topology::Topology& topology,
                                       const Params& params, topology::EndpointId endpoint) {
  const collectives::Algorithm& a = engine_algorithm(algorithm);
  const EngineKind kind = *a.engine;
  const std::string why = topology_refusal(kind, algorithm, topology);
  if (!why.empty()) throw ConfigError(why);
  if (endpoint < 0 || endpoint >= topology.endpoint_count())
    throw ConfigError("endpoint " + std::to_string(endpoint) + " is not a node of " + topology.name());
  if (kind == EngineKind::twotree) {
    const collectives::TreeCollectivePlan plan = collectives::plan_tree_collective(algorithm, topology, params);
    check_twotree_plan(plan);
    return twotree_writes(plan, endpoint);
  }
  const collectives::EngineParams p = a.engine_params(topology, params);
  if (kind == EngineKind::hd)
    return hd_writes(std::get<collectives::HdEngineParams>(p), dynamic_cast<const topology::Boards&>(topology),
                     endpoint);
  const auto& grid = dynamic_cast<const topology::Grid&>(topology);
  switch (kind) {
    case EngineKind::a2a: return a2a_writes(std::get<collectives::A2aEngineParams>(p), grid, endpoint);
    case EngineKind::a2at: return a2at_writes(std::get<collectives::A2atEngineParams>(p), grid, endpoint);
    case EngineKind::hopgroup:
      return hopgroup_writes(std::get<collectives::HopgroupEngineParams>(p), algorithm, grid, endpoint);
    case EngineKind::hd:
    case EngineKind::twotree: break;
  }
  return {};
}

std::vector<std::vector<EngineWrite>> engine_writes_all(const std::string& algorithm,
                                                        const topology::Topology& topology, const Params& params) {
  std::vector<std::vector<EngineWrite>> all;
  if (engine_algorithm(algorithm).engine == EngineKind::twotree) {
    const std::string why = topology_refusal(EngineKind::twotree, algorithm, topology);
    if (!why.empty()) throw ConfigError(why);
    const collectives::TreeCollectivePlan plan = collectives::plan_tree_collective(algorithm, topology, params);
    check_twotree_plan(plan);
    for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) all.push_back(twotree_writes(plan, e));
    return all;
  }
  for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e)
    all.push_back(engine_writes(algorithm, topology, params, e));
  return all;
}

}  // namespace collnet::driver
