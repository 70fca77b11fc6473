// What several engines' registry entries (driver/engines/*.cpp) are built
// from, besides the loader helpers of engine_catalog.hpp: a loader made from
// a function of the loader values, the topology and the endpoint, and the
// refusal of an engine that runs on grids only.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "driver/engine_catalog.hpp"
#include "topology/grid.hpp"
#include "topology/topology.hpp"

namespace collnet::driver {

/// When a loader made by values_loader runs the checks of its writes function.
enum class Check {
  per_endpoint,    // as each endpoint's writes are made
  first_endpoint,  // also once when the loader is made (endpoint 0), so a bad value fails before any endpoint
};

/// The loader of an engine whose endpoint writes are writes(values, topology,
/// endpoint): the algorithm's loader values (`Values`) and the run's topology
/// as the class the engine runs on (`Topo`; its topology_refusal has checked
/// the class).
template <typename Values, typename Topo>
std::function<EndpointWrites(const LoadRequest&)> values_loader(
    std::vector<EngineWrite> (*writes)(const Values&, const Topo&, topology::EndpointId),
    Check check = Check::per_endpoint) {
  return [writes, check](const LoadRequest& r) -> EndpointWrites {
    const auto values = loader_values<Values>(r);
    const auto& topo = dynamic_cast<const Topo&>(*r.topology);
    if (check == Check::first_endpoint) (void)writes(values, topo, 0);
    return [writes, values, &topo](topology::EndpointId e) { return writes(values, topo, e); };
  };
}

/// The topology_refusal of an engine that runs on mesh and torus grids only:
/// on another topology, not_a_grid; on a grid, what `limits` says ("" when
/// the grid fits its registers; `block` names the engine).
inline std::function<std::string(const std::string& algorithm, const topology::Topology&)> grid_refusal(
    std::string block, std::string (*limits)(const std::string& block, const topology::Grid& grid)) {
  return [block = std::move(block), limits](const std::string& algorithm, const topology::Topology& topology) {
    const topology::Grid* grid = grid_of(topology);
    return grid == nullptr ? not_a_grid(block, algorithm, topology) : limits(block, *grid);
  };
}

}  // namespace collnet::driver
