// Engine "a2at": schedule_engine_a2at (hls/schedule_engine_a2at.hpp,
// rtl/schedule_engine_a2at.sv) runs a2a-optimal (A2AT) on 2-D grids from an
// offset table. Its topology limits, its loader and its registry entry.
#include "driver/engine_entry.hpp"

#include "collectives/algorithms/a2a_optimal.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "topology/grid.hpp"

namespace collnet::driver {

namespace {

std::string a2at_limits(const std::string& block, const topology::Grid& grid) {
  namespace R = hls::a2at_engine_reg;
  const std::string name = grid.name();
  if (grid.dims() != 2) return "key 'topology': " + block + " runs 2-D grids only, " + name + " is not";
  if (largest_side(grid) > static_cast<int>(R::max_size))
    return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
           " nodes (SIZE_X, SIZE_Y), " + name + " has " + std::to_string(largest_side(grid));
  if (grid.endpoint_count() - 1 > static_cast<int>(R::table_entries))
    return "key 'topology': " + block + " holds at most " + std::to_string(R::table_entries) +
           " offsets (N - 1), " + name + " needs " + std::to_string(grid.endpoint_count() - 1);
  return "";
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

}  // namespace

namespace engines {

EngineEntry a2at() {
  return {"a2at",
          "2-D grids, sides up to " + std::to_string(hls::a2at_engine_reg::max_size) + ", at most " +
              std::to_string(hls::a2at_engine_reg::table_entries + 1) + " nodes",
          false, grid_refusal("schedule_engine_a2at", &a2at_limits),
          values_loader(&a2at_writes), make_hls_engine_of<hls::A2atScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
