// Engine "hopgroup": schedule_engine_hopgroup (hls/schedule_engine_hopgroup.hpp,
// rtl/schedule_engine_hopgroup.sv) runs a2a-hopgroup and a2a-hopgroup-direct
// on grids of 1 to 4 dimensions. Its topology limits, its loader and its
// registry entry.
#include "driver/engine_entry.hpp"

#include "collectives/algorithms/a2a_hopgroup.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "topology/grid.hpp"

namespace collnet::driver {

namespace {

std::string hopgroup_limits(const std::string& block, const topology::Grid& grid) {
  namespace R = hls::hopgroup_engine_reg;
  if (largest_side(grid) > static_cast<int>(R::max_size))
    return "key 'topology': " + block + " holds sides of at most " + std::to_string(R::max_size) +
           " nodes (SIZE0..3, coordinate tables of " + std::to_string(R::max_size) + " entries), " +
           grid.name() + " has " + std::to_string(largest_side(grid));
  return "";
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
  return hls::hopgroup_engine_writes(code, p.message_words, options, slack, static_cast<std::uint32_t>(grid.dims()),
                                     padded(grid.sizes(), 1), padded(grid.coord(self), 0));
}

}  // namespace

namespace engines {

EngineEntry hopgroup() {
  return {"hopgroup", "sides up to " + std::to_string(hls::hopgroup_engine_reg::max_size) + ", 1-D to 3-D or 4-D",
          false, grid_refusal("schedule_engine_hopgroup", &hopgroup_limits),
          [](const LoadRequest& r) -> EndpointWrites {
            const auto p = loader_values<collectives::HopgroupEngineParams>(r);
            const auto& grid = dynamic_cast<const topology::Grid&>(*r.topology);
            const std::string algorithm = r.algorithm->name;
            return [p, &grid, algorithm](topology::EndpointId e) { return hopgroup_writes(p, algorithm, grid, e); };
          },
          make_hls_engine_of<hls::HopgroupScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
