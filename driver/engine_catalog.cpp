// The engine catalog (engine_catalog.hpp): one entry per engine. Each
// engine's part is together below: its topology limits (from the constants
// rendered from hls/engine_registers.yaml), its loader (the registry's
// loader values or plan turned into configuration-port writes) and its
// entry in the table at the end.
#include "driver/engine_catalog.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithms/tree_collective.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "hls/schedule_engine_programmable.hpp"
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

/// The grid engines run on mesh and torus grids only.
const topology::Grid* grid_of(const topology::Topology& topology) {
  return dynamic_cast<const topology::Grid*>(&topology);
}

std::string not_a_grid(const std::string& block, const std::string& algorithm, const topology::Topology& topology) {
  return "key 'topology': " + block + " runs " + algorithm + " on mesh and torus grids only, not " + topology.name();
}

/// The loader values the algorithm's registry entry reads from the scenario,
/// or those the schedule's builder computed on the way.
collectives::EngineParams engine_params(const LoadRequest& r) {
  if (r.schedule != nullptr && r.schedule->engine_params) return *r.schedule->engine_params;
  if (r.algorithm == nullptr || !r.algorithm->engine_params)
    throw std::logic_error("engine catalog: no loader values for this schedule");
  return r.algorithm->engine_params(*r.topology, *r.params);
}

// ---- schedule_engine_a2a -------------------------------------------------

std::string a2a_refusal(const std::string& algorithm, const topology::Topology& topology) {
  const std::string block = "schedule_engine_a2a";
  const auto* grid = grid_of(topology);
  if (grid == nullptr) return not_a_grid(block, algorithm, topology);
  // SIZE/COORD registers are 16 bits, node counts 17 (hls/schedule_engine_a2a.hpp).
  if (grid->endpoint_count() > 65536)
    return "key 'topology': " + block + " holds at most 65536 nodes, " + topology.name() + " has " +
           std::to_string(grid->endpoint_count());
  return "";
}

// ---- schedule_engine_a2at ------------------------------------------------

std::string a2at_refusal(const std::string& algorithm, const topology::Topology& topology) {
  namespace R = hls::a2at_engine_reg;
  const std::string block = "schedule_engine_a2at";
  const auto* grid = grid_of(topology);
  if (grid == nullptr) return not_a_grid(block, algorithm, topology);
  const std::string name = topology.name();
  if (grid->dims() != 2) return "key 'topology': " + block + " runs 2-D grids only, " + name + " is not";
  if (largest_side(*grid) > static_cast<int>(R::max_size))
    return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
           " nodes (SIZE_X, SIZE_Y), " + name + " has " + std::to_string(largest_side(*grid));
  if (grid->endpoint_count() - 1 > static_cast<int>(R::table_entries))
    return "key 'topology': " + block + " holds at most " + std::to_string(R::table_entries) +
           " offsets (N - 1), " + name + " needs " + std::to_string(grid->endpoint_count() - 1);
  return "";
}

// ---- schedule_engine_hopgroup --------------------------------------------

std::string hopgroup_refusal(const std::string& algorithm, const topology::Topology& topology) {
  namespace R = hls::hopgroup_engine_reg;
  const std::string block = "schedule_engine_hopgroup";
  const auto* grid = grid_of(topology);
  if (grid == nullptr) return not_a_grid(block, algorithm, topology);
  if (largest_side(*grid) > static_cast<int>(R::max_size))
    return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
           " nodes (SIZE0..3, coordinate tables of " + std::to_string(R::max_size) + " entries), " +
           topology.name() + " has " + std::to_string(largest_side(*grid));
  return "";
}

// ---- schedule_engine_hd --------------------------------------------------

std::string hd_refusal(const std::string& algorithm, const topology::Topology& topology) {
  // SIZE0..3 hold 1, 2 or 4: every boards:WxXxYxZ topology (topology/boards.hpp).
  if (dynamic_cast<const topology::Boards*>(&topology) == nullptr)
    return "key 'topology': schedule_engine_hd runs " + algorithm + " on boards:WxXxYxZ only, not " +
           topology.name();
  return "";
}

// ---- schedule_engine_twotree ---------------------------------------------

std::string twotree_refusal(const std::string& /*algorithm*/, const topology::Topology& topology) {
  // SELF and the entries' partners are 16-bit endpoint ids.
  if (topology.endpoint_count() > 65536)
    return "key 'topology': schedule_engine_twotree holds endpoint ids of 16 bits, " + topology.name() + " has " +
           std::to_string(topology.endpoint_count()) + " endpoints";
  return "";
}

// ---- schedule_engine_programmable ----------------------------------------

/// The programmable engine replays every endpoint's program of the run's
/// schedule (built here when the run has none yet); each must fit the
/// descriptor memory the scenario gives it (key program_depth).
EndpointWrites programmable_loader(const LoadRequest& r) {
  std::shared_ptr<const collectives::Schedule> schedule;
  if (r.schedule != nullptr) {
    schedule = std::shared_ptr<const collectives::Schedule>(r.schedule, [](const collectives::Schedule*) {});
  } else {
    if (r.algorithm == nullptr) throw std::logic_error("programmable engine: neither a schedule nor an algorithm");
    schedule = std::make_shared<const collectives::Schedule>(r.algorithm->build(*r.topology, *r.params));
  }
  const auto depth = static_cast<std::size_t>(program_depth_key().integer(*r.params));
  for (std::size_t e = 0; e < schedule->programs.size(); ++e) {
    const collectives::Program& program = schedule->programs[e];
    if (program.size() > depth)
      throw ConfigError("key 'program_depth': schedule_engine_programmable holds " + std::to_string(depth) +
                        " descriptors (program_depth), endpoint " + std::to_string(e) + "'s program of " +
                        schedule->algorithm + " has " + std::to_string(program.size()) +
                        "; accepted: program_depth up to " +
                        std::to_string(hls::programmable_engine_reg::program_entries) +
                        " (the engine's descriptor memory), or schedule_engine: reference");
    if (program.empty() || program.back().opcode != Opcode::end)
      throw std::logic_error("programmable engine: endpoint " + std::to_string(e) + "'s program does not end with END");
  }
  return [schedule](topology::EndpointId e) {
    std::vector<DescriptorWord> words;
    for (const Descriptor& d : schedule->programs.at(static_cast<std::size_t>(e))) words.push_back(d.pack());
    return hls::programmable_engine_writes(words);
  };
}

// ---- the loaders' writes -------------------------------------------------

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
    throw ConfigError("key 'topology': " + std::string("schedule_engine_hopgroup") + " runs " + algorithm + " on 1 to " +
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

// ---- the catalog ---------------------------------------------------------

std::vector<EngineEntry> make_catalog() {
  std::vector<EngineEntry> c;
  c.push_back({EngineKind::a2a, "a2a", "grids of 1 to 4 dimensions, nct 1..4, up to 65536 nodes", false,
               a2a_refusal,
               [](const LoadRequest& r) -> EndpointWrites {
                 const auto p = std::get<collectives::A2aEngineParams>(engine_params(r));
                 const auto& grid = dynamic_cast<const topology::Grid&>(*r.topology);
                 return [p, &grid](topology::EndpointId e) { return a2a_writes(p, grid, e); };
               },
               make_hls_engine_of<hls::A2aScheduleEngine>});
  c.push_back({EngineKind::a2at, "a2at",
               "2-D grids, sides up to " + std::to_string(hls::a2at_engine_reg::max_size) + ", at most " +
                   std::to_string(hls::a2at_engine_reg::table_entries + 1) + " nodes",
               false, a2at_refusal,
               [](const LoadRequest& r) -> EndpointWrites {
                 const auto p = std::get<collectives::A2atEngineParams>(engine_params(r));
                 const auto& grid = dynamic_cast<const topology::Grid&>(*r.topology);
                 return [p, &grid](topology::EndpointId e) { return a2at_writes(p, grid, e); };
               },
               make_hls_engine_of<hls::A2atScheduleEngine>});
  c.push_back({EngineKind::hopgroup, "hopgroup",
               "sides up to " + std::to_string(hls::hopgroup_engine_reg::max_size) + ", 1-D to 3-D or 4-D", false,
               hopgroup_refusal,
               [](const LoadRequest& r) -> EndpointWrites {
                 const auto p = std::get<collectives::HopgroupEngineParams>(engine_params(r));
                 const auto& grid = dynamic_cast<const topology::Grid&>(*r.topology);
                 const std::string algorithm = r.algorithm->name;
                 return [p, &grid, algorithm](topology::EndpointId e) { return hopgroup_writes(p, algorithm, grid, e); };
               },
               make_hls_engine_of<hls::HopgroupScheduleEngine>});
  c.push_back({EngineKind::hd, "hd", "boards", false, hd_refusal,
               [](const LoadRequest& r) -> EndpointWrites {
                 const auto p = std::get<collectives::HdEngineParams>(engine_params(r));
                 const auto& boards = dynamic_cast<const topology::Boards&>(*r.topology);
                 (void)hd_writes(p, boards, 0);  // the values' checks, before any endpoint is asked
                 return [p, &boards](topology::EndpointId e) { return hd_writes(p, boards, e); };
               },
               make_hls_engine_of<hls::HdScheduleEngine>});
  c.push_back({EngineKind::twotree, "twotree",
               "up to 65536 endpoints, " + std::to_string(hls::TwotreeScheduleEngine::hint_entries) +
                   " SENDs per rank",
               false, twotree_refusal,
               [](const LoadRequest& r) -> EndpointWrites {
                 const auto p = std::get<collectives::TwotreeEngineParams>(engine_params(r));
                 check_twotree_plan(*p.plan);
                 if (p.plan->setup.phase_barriers || p.plan->setup.stage_pipelining)
                   (void)twotree_writes(*p.plan, 0);  // throws naming the key
                 return [p](topology::EndpointId e) { return twotree_writes(*p.plan, e); };
               },
               make_hls_engine_of<hls::TwotreeScheduleEngine>});
  c.push_back({EngineKind::programmable, "programmable",
               "programs of up to " + std::to_string(hls::programmable_engine_reg::program_entries) +
                   " descriptors (program_depth)",
               true, [](const std::string&, const topology::Topology&) { return std::string(); },
               programmable_loader, make_hls_engine_of<hls::ProgrammableScheduleEngine>});
  for (std::size_t i = 0; i < c.size(); ++i)
    if (static_cast<std::size_t>(c[i].kind) != i) throw std::logic_error("engine catalog: entries out of order");
  return c;
}

}  // namespace

const Key& program_depth_key() {
  static const Key key =
      Key::integer("program_depth",
                   "schedule_engine programmable: descriptors the NIC's programmable engine holds (its descriptor "
                   "memory); a longer program is refused",
                   hls::programmable_engine_reg::program_entries, 1, hls::programmable_engine_reg::program_entries,
                   "descriptors");
  return key;
}

const std::vector<EngineEntry>& engine_catalog() {
  static const std::vector<EngineEntry> catalog = make_catalog();
  return catalog;
}

const EngineEntry& engine_entry(EngineKind kind) {
  const auto& c = engine_catalog();
  const auto i = static_cast<std::size_t>(kind);
  if (i >= c.size()) throw std::logic_error("engine catalog: no entry for engine " + std::to_string(i));
  return c[i];
}

}  // namespace collnet::driver
