// The engine registry (engine_catalog.hpp): the list the build generates from
// driver/engines/, looked up by name, and the helpers the entries share.
#include "driver/engine_catalog.hpp"

#include <algorithm>

namespace collnet::driver {

const std::vector<EngineEntry>& engine_catalog() {
  static const std::vector<EngineEntry> catalog = [] {
    std::vector<EngineEntry> c = registered_engines();
    std::sort(c.begin(), c.end(), [](const EngineEntry& a, const EngineEntry& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < c.size(); ++i)
      if (c[i].name == c[i - 1].name) throw std::logic_error("engine registry: two engines named " + c[i].name);
    return c;
  }();
  return catalog;
}

const EngineEntry& engine_entry(std::string_view name) {
  for (const EngineEntry& e : engine_catalog())
    if (e.name == name) return e;
  throw std::logic_error("engine registry: no engine named '" + std::string(name) + "'");
}

const topology::Grid* grid_of(const topology::Topology& topology) {
  return dynamic_cast<const topology::Grid*>(&topology);
}

std::string not_a_grid(const std::string& block, const std::string& algorithm, const topology::Topology& topology) {
  return "key 'topology': " + block + " runs " + algorithm + " on mesh and torus grids only, not " + topology.name();
}

int largest_side(const topology::Grid& grid) {
  int largest = 0;
  for (int d = 0; d < grid.dims(); ++d) largest = std::max(largest, grid.size(d));
  return largest;
}

std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill) {
  std::array<std::uint32_t, 4> a{fill, fill, fill, fill};
  for (std::size_t d = 0; d < v.size() && d < 4; ++d) a[d] = static_cast<std::uint32_t>(v[d]);
  return a;
}

}  // namespace collnet::driver
