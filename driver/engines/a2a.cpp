// Engine "a2a": schedule_engine_a2a (hls/schedule_engine_a2a.hpp,
// rtl/schedule_engine_a2a.sv) runs a2a-spread and a2a-nd on grids of 1 to 4
// dimensions. Its topology limits, its loader (the algorithm's loader values
// turned into configuration writes) and its registry entry.
#include "driver/engine_entry.hpp"

#include "collectives/algorithms/a2a_baselines.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "topology/grid.hpp"

namespace collnet::driver {

namespace {

std::string a2a_limits(const std::string& block, const topology::Grid& grid) {
  // SIZE/COORD registers are 16 bits, node counts 17 (hls/schedule_engine_a2a.hpp).
  if (grid.endpoint_count() > 65536)
    return "key 'topology': " + block + " holds at most 65536 nodes, " + grid.name() + " has " +
           std::to_string(grid.endpoint_count());
  return "";
}

std::vector<EngineWrite> a2a_writes(const collectives::A2aEngineParams& p, const topology::Grid& grid,
                                    topology::EndpointId self) {
  namespace R = hls::a2a_engine_reg;
  const std::uint8_t code = p.nd ? R::algorithm_nd : R::algorithm_spread;
  const auto nct = static_cast<std::uint32_t>(p.nct);  // 1..4 = NCT register
  return hls::a2a_engine_writes(code, nct, p.message_words, padded(grid.sizes(), 1), padded(grid.coord(self), 0),
                                p.group_barriers);
}

}  // namespace

namespace engines {

EngineEntry a2a() {
  return {"a2a", "grids of 1 to 4 dimensions, nct 1..4, up to 65536 nodes", false,
          grid_refusal("schedule_engine_a2a", &a2a_limits),
          values_loader(&a2a_writes), make_hls_engine_of<hls::A2aScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
