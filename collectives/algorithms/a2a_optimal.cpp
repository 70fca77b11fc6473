#include "collectives/algorithms/a2a_optimal.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
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

// The route hints and destinations of one group as sent by endpoint e.
SendGroup group_sends(const topology::Grid& grid, EndpointId e, const OffsetGroup& og) {
  SendGroup g;
  for (const Offset2& o : og) {
    const int shift[2] = {o.dx, o.dy};
    g.push_back({grid.shifted(e, shift), a2at_route_hint(o, grid.size(0), grid.size(1), grid.torus())});
  }
  return g;
}

}  // namespace

const A2atPacingKeys& a2at_pacing_keys() {
  static const A2atPacingKeys keys{
      Key::choice("group_pacing",
                  "a2a-optimal: every SEND of a group paced at the group's fair share of a link (document 000's "
                  "pacer on document 001's groups): gap = the group's largest hop count - 1 ('hops') or its largest "
                  "directed-link load over all nodes - 1 ('load') packet times, plus gap_slack cycles; 'off' sends "
                  "at full rate",
                  "off", {"off", "hops", "load"}),
      Key::integer("gap_slack", "extra idle cycles added to every pacing gap (router pipeline overhead)", 0, 0,
                   descriptor_layout::slack.max(), "cycles"),
      Key::integer("pacing_lead",
                   "a2a-optimal with group_pacing: cycles taken off every pacing hold (a flow slightly above its "
                   "fair share catches up after a collision)",
                   0, 0, 255, "cycles"),
      Key::choice("self_copy",
                  "a2a-optimal: the node's own block (a local DMA copy of message_flits words) after the network "
                  "sends on controller 0 ('last'), or on a controller of its own, number nct ('extra': needs "
                  "controllers = nct + 1 and dispatch named), where it runs beside the first group instead of after "
                  "the last",
                  "last", {"last", "extra"})};
  return keys;
}

A2atPacing read_a2at_pacing(const Params& params) {
  const std::string v = a2at_pacing_keys().group_pacing.choice(params);
  return v == "hops" ? A2atPacing::hops : v == "load" ? A2atPacing::load : A2atPacing::off;
}

std::vector<int> a2at_group_gaps(const topology::Grid& grid, const std::vector<OffsetGroup>& groups,
                                 A2atPacing pacing) {
  std::vector<int> gaps(groups.size(), 0);
  if (pacing == A2atPacing::off) return gaps;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    int most = 0;
    if (pacing == A2atPacing::hops) {
      // Every node sends the same offsets: the hop count does not depend on the sender.
      for (const Offset2& o : groups[g]) {
        const SendGroup sends = group_sends(grid, 0, {o});
        most = std::max(most, static_cast<int>(grid.route(0, sends[0].dest, sends[0].route_hint).size()));
      }
    } else {
      std::map<topology::LinkId, int> load;
      for (EndpointId e = 0; e < grid.endpoint_count(); ++e)
        for (const GroupedSend& s : group_sends(grid, e, groups[g]))
          for (const topology::Hop& h : grid.route(e, s.dest, s.route_hint)) most = std::max(most, ++load[h.link]);
    }
    gaps[g] = std::max(0, most - 1);
  }
  return gaps;
}

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
  Algorithm a = a2a_algorithm(
      "a2a-optimal", "001",
      "A2AT: every node sends the same signed offsets in groups of nct concurrent sends that load every link "
      "direction evenly; no barrier; optimal on every mesh (nct 2) and on odd x odd and even square tori (nct 4)",
      "2-D mesh or torus of any sizes (mesh:NXxNY, torus:NXxNY; 1xN and Nx1 included)");
  a.supports = TopologySupport::grid(2, 2);
  static const Key group_order = Key::choice(
      "group_order",
      "a2a-optimal: order of the offset groups; 'reordered' merges iterations (i,j) and (j,i) so that each "
      "group of four loads +x, -x, +y, -y evenly (spec torus NCT 4); 'printed' is the paper's order",
      "reordered", {"printed", "reordered"});
  const auto read_order = [](const Params& params) {
    return group_order.choice(params) == "printed" ? A2atOrder::printed : A2atOrder::reordered;
  };
  a.keys = {nct_key(), group_order, group_barriers_key(), a2at_pacing_keys().group_pacing,
            a2at_pacing_keys().gap_slack, a2at_pacing_keys().pacing_lead, a2at_pacing_keys().self_copy};
  a.nic = {Dispatch::next_idle, "nct"};
  a.engine = "a2at";
  a.engine_params = [read_order](const topology::Topology& topology, const Params& params) -> std::any {
    const topology::Grid& grid = require_grid(topology, "a2a-optimal", 2, 2);
    // The engine emits neither pacing gaps nor the extra self-copy controller.
    if (read_a2at_pacing(params) != A2atPacing::off)
      throw ConfigError("key 'group_pacing': schedule_engine_a2at emits its SENDs without a pacing gap; accepted with "
                        "the engine: off (the reference programs carry the gaps: schedule_engine auto or reference)");
    if (a2at_pacing_keys().self_copy.choice(params) != "last")
      throw ConfigError("key 'self_copy': schedule_engine_a2at emits the self copy on controller 0 after the last "
                        "group; accepted with the engine: last (schedule_engine auto or reference run the reference "
                        "programs)");
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
    const A2atPacing pacing = read_a2at_pacing(params);
    const auto slack = static_cast<std::uint8_t>(a2at_pacing_keys().gap_slack.integer(params));
    const std::vector<int> gaps = a2at_group_gaps(grid, offsets, pacing);
    for (int gap : gaps)
      if (gap > static_cast<int>(descriptor_layout::gap.max()))
        throw ConfigError(fmt::format("key 'group_pacing': a2a-optimal on '{}' needs a gap of {} packet times, more "
                                      "than the descriptor's gap field holds ({}); accepted values here: off",
                                      grid.name(), gap, descriptor_layout::gap.max()));
    Schedule s = a2a_grouped_schedule(grid, "a2a-optimal", nct, m, read_group_barriers(params), [&](EndpointId e) {
      std::vector<SendGroup> groups;
      groups.reserve(offsets.size());
      for (const auto& og : offsets) groups.push_back(group_sends(grid, e, og));
      return groups;
    });
    if (a2at_pacing_keys().self_copy.choice(params) == "extra") {
      s.controllers = nct + 1;
      for (Program& prog : s.programs)
        prog.update([&](Descriptor& d) {
          if (d.opcode == Opcode::send && d.tag == offsets.size()) d.controller = static_cast<std::uint8_t>(nct);
        });
    }
    if (pacing != A2atPacing::off) {
      // The hold after a full packet of P flits is gap x P + slack cycles.
      // pacing_lead shortens it by that many cycles (sending a little above
      // the fair share, so that a flow delayed by a collision catches up).
      const auto p = static_cast<int>(packet_flits_key().integer(params));
      const auto lead = static_cast<int>(a2at_pacing_keys().pacing_lead.integer(params));
      for (Program& prog : s.programs)
        prog.update([&](Descriptor& d) {
          if (d.opcode == Opcode::send && d.tag < gaps.size()) {
            const int hold = std::max(0, gaps[d.tag] * p + slack - lead);
            d.gap = static_cast<std::uint8_t>(std::min(hold / p, static_cast<int>(descriptor_layout::gap.max())));
            d.slack = static_cast<std::uint8_t>(std::min(hold - d.gap * p, static_cast<int>(descriptor_layout::slack.max())));
          }
        });
    }
    return s;
  };
  return a;
}

}  // namespace collnet::collectives
