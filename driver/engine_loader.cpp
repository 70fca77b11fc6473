#include "driver/engine_loader.hpp"

#include <array>
#include <stdexcept>

#include "collectives/a2a_common.hpp"
#include "collectives/a2a_grouped.hpp"
#include "collectives/a2a_optimal.hpp"
#include "collectives/tree_collective.hpp"
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

/// Every engine lays out 2N areas of m words (a2a_grouped.hpp): the
/// algorithm's own reader checks the descriptor's address width.
std::uint32_t words_of(const Params& params, const topology::Grid& grid) {
  return collectives::message_words(params, 2u * static_cast<std::uint64_t>(grid.endpoint_count()));
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
      const int max_dims = algorithm == "a2a-hopgroup" ? 3 : 4;
      if (grid->dims() > max_dims)
        return "key 'topology': " + block + " runs " + algorithm + " on 1 to " + std::to_string(max_dims) +
               " dimensions, " + name + " has " + std::to_string(grid->dims());
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

std::vector<EngineWrite> a2a_writes(const std::string& algorithm, const topology::Grid& grid, const Params& params,
                                    topology::EndpointId self) {
  namespace R = hls::a2a_engine_reg;
  const std::uint8_t code = algorithm == "a2a-nd" ? R::algorithm_nd : R::algorithm_spread;
  const auto nct = static_cast<std::uint32_t>(collectives::read_nct(params, grid));  // 1..4 = NCT register
  return hls::a2a_engine_writes(code, nct, words_of(params, grid), padded(grid.sizes(), 1),
                                padded(grid.coord(self), 0), collectives::read_group_barriers(params));
}

/// Configuration, the offset table from collectives::a2at_offset_groups (the
/// same groups the reference sends), CONTROL last.
std::vector<EngineWrite> a2at_writes(const topology::Grid& grid, const Params& params, topology::EndpointId self) {
  namespace R = hls::a2at_engine_reg;
  if (collectives::read_a2at_pacing(params) != collectives::A2atPacing::off)
    throw ConfigError("key 'group_pacing': schedule_engine_a2at emits its SENDs without a pacing gap; accepted with "
                      "the engine: off (the reference programs carry the gaps: schedule_engine auto or reference)");
  if (params.choice("self_copy", "last", {"last", "extra"}) != "last")
    throw ConfigError("key 'self_copy': schedule_engine_a2at emits the self copy on controller 0 after the last "
                      "group; accepted with the engine: last (schedule_engine auto or reference run the reference "
                      "programs)");
  const int nct = collectives::read_nct(params, grid);
  const auto order = params.choice("group_order", "reordered", {"printed", "reordered"}) == "printed"
                         ? collectives::A2atOrder::printed
                         : collectives::A2atOrder::reordered;
  const std::vector<int> c = grid.coord(self);
  std::vector<EngineWrite> w{{R::message_words, words_of(params, grid)},
                             {R::size_x, static_cast<std::uint32_t>(grid.size(0))},
                             {R::size_y, static_cast<std::uint32_t>(grid.size(1))},
                             {R::coord_x, static_cast<std::uint32_t>(c[0])},
                             {R::coord_y, static_cast<std::uint32_t>(c[1])},
                             {R::torus, grid.torus() ? 1u : 0u},
                             {R::group_barriers, collectives::read_group_barriers(params) ? 1u : 0u},
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

/// The options the reference reads (collectives/a2a_hopgroup.cpp), same keys
/// and defaults, as OPTIONS bits.
std::vector<EngineWrite> hopgroup_writes(const std::string& algorithm, const topology::Grid& grid,
                                         const Params& params, topology::EndpointId self) {
  namespace R = hls::hopgroup_engine_reg;
  std::uint32_t options = grid.torus() ? R::opt_torus : 0u;
  if (params.boolean("pacing", true)) options |= R::opt_pacing;
  if (algorithm == "a2a-hopgroup") {
    if (params.choice("hop_order", "ascending", {"ascending", "descending"}) == "descending")
      options |= R::opt_descending;
    if (params.choice("directions", "plus", {"plus", "both"}) == "both") options |= R::opt_both;
    if (params.choice("mode3d", "literal", {"literal", "concurrent"}) == "concurrent") options |= R::opt_concurrent;
  } else if (params.boolean("barriers", true)) {
    options |= R::opt_barriers;
  }
  const auto slack = static_cast<std::uint32_t>(params.integer("gap_slack", 0, 0, 255));  // GAP_SLACK [7:0]
  const std::uint8_t code = algorithm == "a2a-hopgroup" ? R::algorithm_hopgroup : R::algorithm_direct;
  return hls::hopgroup_engine_writes(code, words_of(params, grid), options, slack,
                                     static_cast<std::uint32_t>(grid.dims()), padded(grid.sizes(), 1),
                                     padded(grid.coord(self), 0));
}

/// The keys and defaults the reference reads (collectives/hd_allreduce.cpp),
/// as the engine's registers; UNIT and COORD from the endpoint.
std::vector<EngineWrite> hd_writes(const std::string& algorithm, const topology::Boards& boards, const Params& params,
                                   topology::EndpointId self) {
  namespace R = hls::hd_engine_reg;
  const auto agg_units = static_cast<std::uint32_t>(std::stoi(params.choice("aggregation_units", "4", {"1", "2", "4"})));
  const std::string op = params.choice("op", "sum", {"sum", "product", "max", "min", "average"});
  const std::uint32_t op_code = op == "sum"       ? R::op_sum
                                : op == "product" ? R::op_product
                                : op == "max"     ? R::op_max
                                : op == "min"     ? R::op_min
                                                  : R::op_average;
  const bool float64 = params.choice("dtype", "int64", {"int64", "float64"}) == "float64";
  const bool bandwidth = params.choice("dim_order", "wxyz", {"wxyz", "bandwidth"}) == "bandwidth";
  const std::int64_t per_plane = std::int64_t{agg_units} * boards.boards();
  // ELEMENTS [19:0]
  const std::int64_t elements = params.integer("elements", 4 * per_plane, 1, (std::int64_t{1} << 20) - 1);
  if (elements % per_plane != 0)
    throw ConfigError("key 'elements': schedule_engine_hd needs a multiple of aggregation_units x boards = " +
                      std::to_string(per_plane) + ", got " + std::to_string(elements));
  std::array<std::uint32_t, 4> sizes{}, coord{};
  const auto board = boards.board_coord(topology::Boards::board_of(self));
  for (int d = 0; d < 4; ++d) {
    sizes[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(boards.size(d));
    coord[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(board[static_cast<std::size_t>(d)]);
  }
  return hls::hd_engine_writes(algorithm == "hd-allreduce-conventional", bandwidth, op_code, float64,
                               static_cast<std::uint32_t>(self % topology::Boards::kUnitsPerBoard),
                               static_cast<std::uint32_t>(elements), agg_units, sizes, coord);
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

std::string engine_block(EngineKind kind) { return "schedule_engine_" + engine_short_name(kind); }

std::string engine_short_name(EngineKind kind) {
  switch (kind) {
    case EngineKind::a2a: return "a2a";
    case EngineKind::a2at: return "a2at";
    case EngineKind::hopgroup: return "hopgroup";
    case EngineKind::hd: return "hd";
    case EngineKind::twotree: return "twotree";
  }
  return "?";
}

std::optional<EngineKind> engine_for_algorithm(const std::string& algorithm) {
  if (algorithm == "a2a-spread" || algorithm == "a2a-nd") return EngineKind::a2a;
  if (algorithm == "a2a-optimal") return EngineKind::a2at;
  if (algorithm == "a2a-hopgroup" || algorithm == "a2a-hopgroup-direct") return EngineKind::hopgroup;
  if (algorithm == "hd-allreduce" || algorithm == "hd-allreduce-conventional") return EngineKind::hd;
  if (algorithm == "twotree-hier" || algorithm == "twotree-flat" || algorithm == "tree-single")
    return EngineKind::twotree;
  return std::nullopt;
}

std::string covered_algorithms() {
  return "a2a-spread and a2a-nd (schedule_engine_a2a: grids of 1 to 4 dimensions, nct 1..4, up to 65536 nodes), "
         "a2a-optimal (schedule_engine_a2at: 2-D grids, sides up to 64, at most 257 nodes), a2a-hopgroup (1-D to "
         "3-D) and a2a-hopgroup-direct (1-D to 4-D) (schedule_engine_hopgroup: sides up to 64), hd-allreduce and "
         "hd-allreduce-conventional (schedule_engine_hd: boards), twotree-hier, twotree-flat and tree-single "
         "(schedule_engine_twotree: up to 65536 endpoints, 1024 SENDs per rank)";
}

std::string engine_refusal(const std::string& algorithm, const topology::Topology& topology, const Params& params) {
  const std::optional<EngineKind> kind = engine_for_algorithm(algorithm);
  if (!kind) return "key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " + covered_algorithms();
  std::string why = topology_refusal(*kind, algorithm, topology);
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
  return engine_for_algorithm(algorithm);
}

std::vector<EngineWrite> engine_writes(const std::string& algorithm, const topology::Topology& topology,
                                       const Params& params, topology::EndpointId endpoint) {
  const std::optional<EngineKind> kind = engine_for_algorithm(algorithm);
  if (!kind) throw ConfigError("key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " +
                               covered_algorithms());
  const std::string why = topology_refusal(*kind, algorithm, topology);
  if (!why.empty()) throw ConfigError(why);
  if (endpoint < 0 || endpoint >= topology.endpoint_count())
    throw ConfigError("endpoint " + std::to_string(endpoint) + " is not a node of " + topology.name());
  if (*kind == EngineKind::hd)
    return hd_writes(algorithm, dynamic_cast<const topology::Boards&>(topology), params, endpoint);
  if (*kind == EngineKind::twotree) {
    const collectives::TreeCollectivePlan plan = collectives::plan_tree_collective(algorithm, topology, params);
    check_twotree_plan(plan);
    return twotree_writes(plan, endpoint);
  }
  const auto& grid = dynamic_cast<const topology::Grid&>(topology);
  switch (*kind) {
    case EngineKind::a2a: return a2a_writes(algorithm, grid, params, endpoint);
    case EngineKind::a2at: return a2at_writes(grid, params, endpoint);
    case EngineKind::hopgroup: return hopgroup_writes(algorithm, grid, params, endpoint);
    case EngineKind::hd:
    case EngineKind::twotree: break;
  }
  return {};
}

std::vector<std::vector<EngineWrite>> engine_writes_all(const std::string& algorithm,
                                                        const topology::Topology& topology, const Params& params) {
  std::vector<std::vector<EngineWrite>> all;
  if (engine_for_algorithm(algorithm) == EngineKind::twotree) {
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
