#include "collectives/algorithms/a2a_optimal.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "collectives/algorithms/a2a_common.hpp"
#include "collectives/algorithms/a2a_grouped.hpp"

namespace collnet::collectives {

namespace {

using Groups = std::vector<OffsetGroup>;

OffsetGroup flatten(const Groups& groups) {
  OffsetGroup all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  return all;
}

// spec a2a-optimal: Core(S) as printed.
//   Step1: [(i,0),(0,i)] [(-i,0),(0,-i)]           time i each
//   Step2: [(i,j),(-j,-i)] [(i,-j),(-j,i)]         time i+j each
void core_printed(Groups& g, int s) {
  for (int i = 1; i <= s; ++i) {
    g.push_back({{i, 0}, {0, i}});
    g.push_back({{-i, 0}, {0, -i}});
  }
  for (int i = 1; i <= s; ++i)
    for (int j = 1; j <= s; ++j) {
      g.push_back({{i, j}, {-j, -i}});
      g.push_back({{i, -j}, {-j, i}});
    }
}

// spec a2a-optimal, torus NCT 4: Step1's two brackets sent together, and
// Step2's iterations (i, j) and (j, i) merged so that every group of four
// loads each of +x, -x, +y, -y with i+j messages (the printed order puts 2i
// on +x and 2j on -x in one group and misses the bound by 10-25%).
void core_reordered(Groups& g, int s) {
  for (int i = 1; i <= s; ++i) g.push_back({{i, 0}, {0, i}, {-i, 0}, {0, -i}});
  for (int i = 1; i <= s; ++i)
    for (int j = i; j <= s; ++j) {
      if (i == j) {
        g.push_back({{i, i}, {-i, -i}, {i, -i}, {-i, i}});
      } else {
        g.push_back({{i, j}, {-j, -i}, {j, i}, {-i, -j}});
        g.push_back({{i, -j}, {-j, i}, {j, -i}, {-i, j}});
      }
    }
}

// The printed steps after Core(S), for nx >= ny, as the spec's brackets.
Groups steps_after_core(int nx, int ny) {
  Groups g;
  if (nx == ny && nx % 2 == 0) {
    // Step3 (square, N even).
    const int h = nx / 2;
    for (int i = 1; i <= h - 1; ++i) {
      g.push_back({{h, i}, {-i, h}});
      g.push_back({{h, -i}, {i, h}});
    }
    g.push_back({{h, 0}, {0, h}});
    g.push_back({{h, h}});
    return g;
  }
  const int s2 = (nx - 1) / 2;
  if (ny % 2 == 1) {
    // Step3_Odd, Step4_Odd (a square of odd N has S2 = S1: nothing here).
    const int s1 = (ny - 1) / 2;
    for (int i = s1 + 1; i <= s2; ++i) {
      for (int j = 1; j <= s1; ++j) {
        g.push_back({{i, j}, {-i, -j}});
        g.push_back({{i, -j}, {-i, j}});
      }
      g.push_back({{i, 0}, {-i, 0}});
    }
    if (nx % 2 == 0) {
      const int half = nx / 2;
      for (int i = 1; i <= s1; ++i) g.push_back({{half, i}, {half, -i}});
      g.push_back({{half, 0}});
    }
    return g;
  }
  // Step3_Even, Step4_Even, Step5 (ny even, nx > ny).
  const int h = ny / 2;
  for (int i = 1; i <= h - 1; ++i) {
    g.push_back({{h, i}, {-i, h}});
    g.push_back({{h, -i}, {i, -h}});
  }
  g.push_back({{h, 0}, {0, h}});
  g.push_back({{h, h}, {-h, h}});
  // spec erratum: the paper's bound floor(Nx/2-1) misses a column for odd Nx.
  for (int i = h + 1; i <= s2; ++i) {
    for (int j = 1; j <= h - 1; ++j) {
      g.push_back({{i, j}, {-i, -j}});
      g.push_back({{i, -j}, {-i, j}});
    }
    g.push_back({{i, 0}, {-i, 0}});
    g.push_back({{i, h}, {-i, h}});
  }
  if (nx % 2 == 0) {
    const int half = nx / 2;
    for (int i = 1; i <= h - 1; ++i) g.push_back({{half, i}, {half, -i}});
    g.push_back({{half, 0}, {half, h}});
  }
  for (int i = 1; i <= h - 1; ++i) g.push_back({{-h, i}, {-h, -i}});
  g.push_back({{-h, 0}});
  return g;
}

// spec a2a-optimal: Step3_T for the even square torus, h = N/2. The paper
// starts the loop at i = 0, which would send (h,0) and (0,h) twice: from 1.
void step3_torus(Groups& g, int h) {
  for (int i = 1; i <= h - 1; ++i) g.push_back({{h, i}, {-i, -h}, {-h, -i}, {i, h}});
  g.push_back({{h, 0}, {0, h}, {-h, -h}});
}

// The order's own groups for nx >= ny.
Groups natural_groups(int nx, int ny, bool torus, A2atOrder order) {
  const int s = (ny - 1) / 2;  // Core size: (N-1)/2, h-1, S1 alike
  Groups g;
  if (order == A2atOrder::printed) {
    core_printed(g, s);
    const Groups rest = steps_after_core(nx, ny);
    g.insert(g.end(), rest.begin(), rest.end());
    return g;
  }
  core_reordered(g, s);
  if (torus && nx == ny && nx % 2 == 0) {
    step3_torus(g, nx / 2);
    return g;
  }
  const Groups rest = consecutive_groups(flatten(steps_after_core(nx, ny)), 4);
  g.insert(g.end(), rest.begin(), rest.end());
  return g;
}

}  // namespace

int a2at_natural_nct(A2atOrder order) { return order == A2atOrder::printed ? 2 : 4; }

std::vector<OffsetGroup> a2at_offset_groups(int nx, int ny, bool torus, int nct, A2atOrder order) {
  if (nx < 1 || ny < 1)
    throw ConfigError(fmt::format("key 'topology': a2a-optimal needs sizes >= 1, got {}x{}", nx, ny));
  if (nct < 1) throw ConfigError(fmt::format("key 'nct': expected at least 1, got {}", nct));
  const bool transposed = nx < ny;
  Groups g = transposed ? natural_groups(ny, nx, torus, order) : natural_groups(nx, ny, torus, order);
  if (nct != a2at_natural_nct(order)) g = consecutive_groups(flatten(g), nct);
  if (transposed)
    for (auto& group : g)
      for (auto& o : group) std::swap(o.dx, o.dy);
  return g;
}

topology::RouteHint a2at_route_hint(Offset2 offset, int nx, int ny, bool torus) {
  if (!torus) return 0;
  topology::RouteHint hint = 0;
  const auto tie = [&](int dim, int component, int size) {
    if (component != 0 && 2 * std::abs(component) == size)
      hint |= topology::Grid::direction_hint(dim, component > 0 ? topology::Direction::plus
                                                                 : topology::Direction::minus);
  };
  tie(0, offset.dx, nx);
  tie(1, offset.dy, ny);
  return hint;
}

Algorithm make_a2a_optimal() {
  Algorithm a;
  a.name = "a2a-optimal";
  a.document = "001";
  a.description =
      "A2AT: every node sends the same signed offsets in groups of nct concurrent sends that load every link "
      "direction evenly; no barrier; optimal on every mesh (nct 2) and on odd x odd and even square tori (nct 4)";
  a.topologies = "2-D mesh or torus of any sizes (mesh:NXxNY, torus:NXxNY; 1xN and Nx1 included)";
  static const Key group_order = Key::choice(
      "group_order",
      "a2a-optimal: order of the offset groups; 'reordered' merges iterations (i,j) and (j,i) so that each "
      "group of four loads +x, -x, +y, -y evenly (spec torus NCT 4); 'printed' is the paper's order",
      "reordered", {"printed", "reordered"});
  const auto read_order = [](const Params& params) {
    return group_order.choice(params) == "printed" ? A2atOrder::printed : A2atOrder::reordered;
  };
  a.keys = {nct_key(), group_order, group_barriers_key()};
  a.nic = {Dispatch::next_idle, "nct"};
  a.engine = EngineKind::a2at;
  a.engine_params = [read_order](const topology::Topology& topology, const Params& params) -> EngineParams {
    const topology::Grid& grid = require_grid(topology, "a2a-optimal", 2, 2);
    return A2atEngineParams{read_nct(params, grid), read_order(params),
                            message_words(params, 2 * static_cast<std::uint64_t>(grid.endpoint_count())),
                            read_group_barriers(params)};
  };
  a.build = [read_order](const topology::Topology& topology, const Params& params) {
    const topology::Grid& grid = require_grid(topology, "a2a-optimal", 2, 2);
    const int nct = read_nct(params, grid);
    const A2atOrder order = read_order(params);
    const std::uint32_t m = message_words(params, 2 * static_cast<std::uint64_t>(grid.endpoint_count()));
    const int nx = grid.size(0);
    const int ny = grid.size(1);
    const bool torus = grid.torus();
    const auto offsets = a2at_offset_groups(nx, ny, torus, nct, order);
    return a2a_grouped_schedule(grid, "a2a-optimal", nct, m, read_group_barriers(params), [&](EndpointId e) {
      std::vector<SendGroup> groups;
      groups.reserve(offsets.size());
      for (const auto& og : offsets) {
        SendGroup g;
        for (const Offset2& o : og) {
          const int shift[2] = {o.dx, o.dy};
          g.push_back({grid.shifted(e, shift), a2at_route_hint(o, nx, ny, torus)});
        }
        groups.push_back(std::move(g));
      }
      return groups;
    });
  };
  return a;
}

}  // namespace collnet::collectives
