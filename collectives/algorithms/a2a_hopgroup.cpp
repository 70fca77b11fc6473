#include "collectives/algorithms/a2a_hopgroup.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "collectives/algorithms/a2a_common.hpp"

namespace collnet::collectives {

using topology::Direction;
using topology::Grid;

std::uint32_t hopgroup_piece_words(std::uint32_t message_words, int pieces, int piece) {
  const auto n = static_cast<std::uint32_t>(pieces);
  const auto p = static_cast<std::uint32_t>(piece);
  return message_words / n + (p < message_words % n ? 1u : 0u);
}

std::uint32_t hopgroup_piece_offset(std::uint32_t message_words, int pieces, int piece) {
  std::uint32_t offset = 0;
  for (int q = 0; q < piece; ++q) offset += hopgroup_piece_words(message_words, pieces, q);
  return offset;
}

namespace {

constexpr const char* kHopgroup = "a2a-hopgroup";
constexpr const char* kDirect = "a2a-hopgroup-direct";
constexpr std::uint32_t kMaxTags = descriptor_layout::tag.max() + 1;

/// One offset of a phase step: signed offset k along the dimension, the hop
/// count it travels and the direction it takes.
struct Offset {
  int k = 0;
  int hops = 0;
  Direction direction = Direction::plus;
  int flows = 0;  // most flows of the step on one link: the pacing gap is flows - 1
};
using PhaseStep = std::vector<Offset>;

/// The steps of one phase in dimension of size n (spec a2a-hopgroup: hop
/// groups; mesh variant; two-direction mode).
std::vector<PhaseStep> phase_steps(int n, bool torus, bool both, bool descending) {
  std::vector<PhaseStep> steps;
  if (!torus) {
    // Mesh: signed offsets, one step each; only senders whose n_d + k exists,
    // so a link carries min(h, n - h) flows of offset +-h (the n - h senders
    // that have a destination, at most h of them behind any one link).
    for (int h = 1; h < n; ++h) {
      const int flows = std::min(h, n - h);
      steps.push_back({Offset{h, h, Direction::plus, flows}});
      steps.push_back({Offset{-h, h, Direction::minus, flows}});
    }
  } else if (both) {
    // Offsets k and n-k share the hop count h and run in the same step, each
    // the short way; the offset n/2 of an even size goes + (the torus tie rule).
    for (int h = 1; 2 * h <= n; ++h) {
      PhaseStep s{Offset{h, h, Direction::plus, h}};
      if (2 * h != n) s.push_back(Offset{-h, h, Direction::minus, h});
      steps.push_back(std::move(s));
    }
  } else {
    // + direction only: the hop count of offset k is k.
    for (int k = 1; k < n; ++k) steps.push_back({Offset{k, k, Direction::plus, k}});
  }
  if (descending) std::reverse(steps.begin(), steps.end());
  return steps;
}

/// A phase: every hop of one dimension, carrying one piece.
struct Phase {
  int dim = 0;
  int piece = 0;
  std::vector<PhaseStep> steps;
};
/// Phases that run at once (their step s together); groups run one after another.
using PhaseGroup = std::vector<Phase>;

struct HopgroupOptions {
  bool descending = false;
  bool pacing = true;
  std::uint8_t slack = 0;
  bool both = false;
  bool concurrent = false;
};

// The keys of the two algorithms of document 000, declared once.
struct HopgroupKeys {
  Key hop_order = Key::choice("hop_order", "order of the hop counts inside a phase", "ascending",
                              {"ascending", "descending"});
  Key slack = Key::integer("gap_slack", "extra idle cycles added to every pacing gap (router pipeline overhead)", 0,
                           0, descriptor_layout::slack.max(), "cycles");
  Key pacing = Key::boolean("pacing",
                            "packet pacing: gap = hops - 1 packet times between packets (false: gap 0, slack 0)", true);
  Key directions = Key::choice("directions",
                               "torus: + only (hop count k), or both (offsets k and N-k in one step, each the short "
                               "way); ignored on a mesh, whose offsets have a sign",
                               "plus", {"plus", "both"});
  Key mode3d = Key::choice("mode3d",
                           "3-D: dimension phases of a round one after another (X, Z, Y) or at once on three "
                           "controllers",
                           "literal", {"literal", "concurrent"});
  Key barriers = Key::boolean("barriers", "a barrier after each offset (N-1 barriers)", true);
};

const HopgroupKeys& keys() { return declared<HopgroupKeys>(); }

HopgroupOptions read_hopgroup_options(const Params& params) {
  HopgroupOptions o;
  o.descending = keys().hop_order.choice(params) == "descending";
  o.slack = static_cast<std::uint8_t>(keys().slack.integer(params));
  o.pacing = keys().pacing.boolean(params);
  o.both = keys().directions.choice(params) == "both";
  o.concurrent = keys().mode3d.choice(params) == "concurrent";
  return o;
}

std::vector<PhaseGroup> plan_phases(const Grid& grid, const HopgroupOptions& o, int pieces) {
  auto phase = [&](int dim, int piece) {
    return Phase{dim, piece, phase_steps(grid.size(dim), grid.torus(), o.both, o.descending)};
  };
  std::vector<PhaseGroup> groups;
  auto add = [&](PhaseGroup g) {
    // A dimension of size 1 has nothing to cross: no phase, no step.
    std::erase_if(g, [&](const Phase& p) { return grid.size(p.dim) == 1; });
    if (!g.empty()) groups.push_back(std::move(g));
  };
  if (pieces == 1) {
    for (int d = 0; d < grid.dims(); ++d) add({phase(d, 0)});
    return groups;
  }
  // spec a2a-hopgroup, 3-D: round r carries X <- piece r, Y <- r+1, Z <- r+2.
  for (int r = 0; r < 3; ++r) {
    const Phase x = phase(0, r % 3), y = phase(1, (r + 1) % 3), z = phase(2, (r + 2) % 3);
    if (o.concurrent) add({x, y, z});
    else {
      // Literal mode: the document runs X, then Z, then Y.
      add({x});
      add({z});
      add({y});
    }
  }
  return groups;
}

std::size_t group_steps(const PhaseGroup& g) {
  std::size_t n = 0;
  for (const auto& p : g) n = std::max(n, p.steps.size());
  return n;
}

/// gap = flows - 1 (spec a2a-hopgroup, pacing: k flows in turn, each one
/// packet every k packet times). `flows`: the hop count on a torus and for
/// the direct baseline; min(k, N_d - k) in a mesh step.
std::uint8_t checked_gap(int flows, bool pacing, const Grid& grid, const char* algorithm) {
  if (!pacing) return 0;
  if (flows - 1 > static_cast<int>(descriptor_layout::gap.max()))
    throw ConfigError(fmt::format("key 'pacing': algorithm '{}' on '{}' needs a gap of {} packet times, more than "
                                  "the descriptor's gap field holds ({}); accepted values: false, or true on a "
                                  "topology whose transfers take at most {} hops",
                                  algorithm, grid.name(), flows - 1, descriptor_layout::gap.max(),
                                  descriptor_layout::gap.max() + 1));
  return static_cast<std::uint8_t>(flows - 1);
}

Schedule finish_schedule(const char* name, const Grid& grid, std::uint32_t m, std::uint32_t result_bank) {
  Schedule s;
  s.algorithm = name;
  const std::int32_t n = grid.endpoint_count();
  s.programs.resize(static_cast<std::size_t>(n));
  s.memory_words = 2u * static_cast<std::uint32_t>(n) * m;
  s.lower_bound = a2a_bisection_bound(grid, m);
  s.initial = [n, m](EndpointId e, std::uint32_t address) { return a2a_initial_word(e, address, 0, n, m); };
  const std::uint32_t result_base = result_bank * static_cast<std::uint32_t>(n) * m;
  s.expected = [n, m, result_base](EndpointId e) { return a2a_expected(e, result_base, n, m); };
  return s;
}

Schedule build_hopgroup(const topology::Topology& topology, const Params& params) {
  const Grid& grid = require_grid(topology, kHopgroup, 1, 3);
  const HopgroupOptions o = read_hopgroup_options(params);
  const std::int32_t n = grid.endpoint_count();
  const std::uint32_t m = message_words(params, 2u * static_cast<std::uint64_t>(n));
  const int pieces = grid.dims() == 3 ? 3 : 1;

  const auto groups = plan_phases(grid, o, pieces);
  std::size_t total_steps = 0;
  for (const auto& g : groups) total_steps += group_steps(g);
  if (total_steps > kMaxTags)
    throw ConfigError(fmt::format("key 'topology': '{}' needs {} steps, more than the {} tags a descriptor numbers",
                                  grid.name(), total_steps, kMaxTags));
  int active_dims = 0;
  for (int d = 0; d < grid.dims(); ++d) active_dims += grid.size(d) > 1 ? 1 : 0;

  Schedule s = finish_schedule(kHopgroup, grid, m, static_cast<std::uint32_t>(active_dims % 2));
  s.controllers = grid.dims();

  // Labels by coordinate: labels[d][v] = every area label L with L_d = v.
  std::vector<std::vector<int>> coords(static_cast<std::size_t>(n));
  for (EndpointId e = 0; e < n; ++e) coords[static_cast<std::size_t>(e)] = grid.coord(e);
  std::vector<std::vector<std::vector<EndpointId>>> labels(static_cast<std::size_t>(grid.dims()));
  for (int d = 0; d < grid.dims(); ++d) {
    labels[static_cast<std::size_t>(d)].resize(static_cast<std::size_t>(grid.size(d)));
    for (EndpointId l = 0; l < n; ++l)
      labels[static_cast<std::size_t>(d)][static_cast<std::size_t>(coords[static_cast<std::size_t>(l)][static_cast<std::size_t>(d)])]
          .push_back(l);
  }

  // Check every gap before emitting anything.
  for (const auto& g : groups)
    for (const auto& p : g)
      for (const auto& st : p.steps)
        for (const auto& off : st) (void)checked_gap(off.flows, o.pacing, grid, kHopgroup);

  std::vector<std::uint32_t> bank(static_cast<std::size_t>(pieces), 0);  // current bank of each piece
  auto address = [&](std::uint32_t b, EndpointId label, int piece) {
    return (b * static_cast<std::uint32_t>(n) + static_cast<std::uint32_t>(label)) * m +
           hopgroup_piece_offset(m, pieces, piece);
  };

  std::uint32_t tag = 0;
  for (const auto& g : groups) {
    const std::size_t steps = group_steps(g);
    for (std::size_t st = 0; st < steps; ++st, ++tag) {
      for (EndpointId node = 0; node < n; ++node) {
        Program& prog = s.programs[static_cast<std::size_t>(node)];
        const auto& c = coords[static_cast<std::size_t>(node)];
        for (const Phase& p : g) {
          if (st >= p.steps.size()) continue;
          const std::uint32_t words = hopgroup_piece_words(m, pieces, p.piece);
          if (words == 0) continue;
          const std::uint32_t from = bank[static_cast<std::size_t>(p.piece)], to = 1 - from;
          const int nd = grid.size(p.dim);
          const int cd = c[static_cast<std::size_t>(p.dim)];
          const auto& by_coord = labels[static_cast<std::size_t>(p.dim)];
          if (st == 0) {
            // spec a2a-hopgroup: buffer hazard. Areas that stay in this phase
            // (L_d == n_d) move to the new bank by a local copy.
            for (EndpointId l : by_coord[static_cast<std::size_t>(cd)]) {
              Descriptor d = Descriptor::send(static_cast<std::uint32_t>(node), address(from, l, p.piece),
                                              address(to, l, p.piece), words, tag);
              d.controller = static_cast<std::uint8_t>(p.dim);
              prog.push_back(d);
            }
          }
          for (const Offset& off : p.steps[st]) {
            // General rule: send every area with L_d = n_d + k to n + k e_d,
            // stored under L with L_d replaced by n_d.
            int ld = cd + off.k;
            if (grid.torus()) ld = ((ld % nd) + nd) % nd;
            else if (ld < 0 || ld >= nd) continue;  // mesh: n_d + k does not exist
            std::vector<int> shift(static_cast<std::size_t>(grid.dims()), 0);
            shift[static_cast<std::size_t>(p.dim)] = off.k;
            const EndpointId dest = grid.shifted(node, shift);
            for (EndpointId l : by_coord[static_cast<std::size_t>(ld)]) {
              auto stored = coords[static_cast<std::size_t>(l)];
              stored[static_cast<std::size_t>(p.dim)] = cd;
              Descriptor d = Descriptor::send(static_cast<std::uint32_t>(dest), address(from, l, p.piece),
                                              address(to, grid.id(stored), p.piece), words, tag);
              d.controller = static_cast<std::uint8_t>(p.dim);
              d.route_hint = Grid::direction_hint(p.dim, off.direction);
              d.gap = checked_gap(off.flows, o.pacing, grid, kHopgroup);
              d.slack = o.pacing ? o.slack : 0;
              prog.push_back(d);
            }
          }
        }
        // A barrier after every step but the last of the collective.
        if (tag + 1 < total_steps) prog.push_back(Descriptor::barrier(tag));
      }
    }
    for (const Phase& p : g) bank[static_cast<std::size_t>(p.piece)] ^= 1u;
  }
  for (auto& prog : s.programs) prog.push_back(Descriptor::end());
  return s;
}

Schedule build_direct(const topology::Topology& topology, const Params& params) {
  const Grid& grid = require_grid(topology, kDirect, 1, 4);
  const bool barriers = keys().barriers.boolean(params);
  const bool pacing = keys().pacing.boolean(params);
  const auto slack = static_cast<std::uint8_t>(keys().slack.integer(params));
  const std::int32_t n = grid.endpoint_count();
  const std::uint32_t m = message_words(params, 2u * static_cast<std::uint64_t>(n));
  if (static_cast<std::uint32_t>(n) > kMaxTags)
    throw ConfigError(fmt::format("key 'topology': '{}' has {} offsets, more than the {} tags a descriptor numbers",
                                  grid.name(), n - 1, kMaxTags));

  // Send region = bank 0, result region = bank 1 (no hazard: nothing is
  // stored where something still has to leave).
  Schedule s = finish_schedule(kDirect, grid, m, 1);
  s.controllers = 1;
  const auto area = [&](std::uint32_t b, EndpointId label) {
    return (b * static_cast<std::uint32_t>(n) + static_cast<std::uint32_t>(label)) * m;
  };

  // Offsets in descending order, last dimension fastest (document FIG. 9).
  std::vector<std::vector<int>> offsets;
  for (std::int32_t j = n - 1; j >= 1; --j) {
    std::vector<int> off(static_cast<std::size_t>(grid.dims()));
    std::int32_t rest = j;
    for (int d = grid.dims() - 1; d >= 0; --d) {
      off[static_cast<std::size_t>(d)] = rest % grid.size(d);
      rest /= grid.size(d);
    }
    offsets.push_back(std::move(off));
  }

  for (EndpointId node = 0; node < n; ++node) {
    Program& prog = s.programs[static_cast<std::size_t>(node)];
    prog.push_back(Descriptor::send(static_cast<std::uint32_t>(node), area(0, node), area(1, node), m, 0));
    for (std::size_t t = 0; t < offsets.size(); ++t) {
      const EndpointId dest = grid.shifted(node, offsets[t]);
      int hops = 0;
      for (int d = 0; d < grid.dims(); ++d) hops += std::abs(grid.hops(node, dest, d));
      Descriptor d = Descriptor::send(static_cast<std::uint32_t>(dest), area(0, dest), area(1, node), m,
                                      static_cast<std::uint32_t>(t));
      // spec a2a-hopgroup, pacing: gap = hops - 1 of the whole route ([0044]).
      d.gap = checked_gap(hops, pacing, grid, kDirect);
      d.slack = pacing ? slack : 0;
      prog.push_back(d);
      if (barriers) prog.push_back(Descriptor::barrier(static_cast<std::uint32_t>(t)));
    }
    prog.push_back(Descriptor::end());
  }
  return s;
}

/// a2a-hopgroup (direct false) or its comparative example; schedule_engine_hopgroup
/// runs both (a2a-hopgroup on 1 to 3 dimensions, the direct baseline on 1 to 4).
Algorithm hopgroup_algorithm(bool direct) {
  Algorithm a = a2a_algorithm(
      direct ? kDirect : kHopgroup, "000",
      direct ? "comparative example of document 000: every node sends straight to n + offset, one offset at a time, "
               "dimension-order routing, a barrier after each offset (barriers=false pacing=false: the second baseline)"
             : "all-to-all grouped by direction and hop count: one phase per dimension, one step per hop with gap = "
               "hops-1, a barrier between steps, double-buffered areas; 3-D splits every area in pieces a, b, c",
      direct ? "torus:... and mesh:... with 1 to 4 dimensions"
             : "torus:N, torus:NXxNY, torus:NXxNYxNZ and the same as mesh:... (signed offsets)");
  a.supports = TopologySupport::grid(1, direct ? 4 : 3);
  if (direct) {
    a.keys = {keys().barriers, keys().pacing, keys().slack};
    a.build = build_direct;
  } else {
    a.keys = {keys().hop_order, keys().slack, keys().pacing, keys().directions, keys().mode3d};
    a.build = build_hopgroup;
    a.nic.controllers = "one per dimension";
  }
  a.engine = "hopgroup";
  a.engine_params = [direct, name = a.name](const topology::Topology& topology, const Params& params) -> std::any {
    const HopgroupOptions o = read_hopgroup_options(params);
    HopgroupEngineParams e;
    e.direct = direct;
    e.max_dims = direct ? 4 : 3;
    e.pacing = o.pacing;
    e.descending = o.descending;
    e.both = o.both;
    e.concurrent = o.concurrent;
    e.barriers = keys().barriers.boolean(params);
    e.slack = o.slack;
    const topology::Grid& grid = require_grid(topology, name, 1, 4);
    e.message_words = message_words(params, 2u * static_cast<std::uint64_t>(grid.endpoint_count()));
    return e;
  };
  return a;
}

}  // namespace

Algorithm make_a2a_hopgroup() { return hopgroup_algorithm(false); }
Algorithm make_a2a_hopgroup_direct() { return hopgroup_algorithm(true); }

}  // namespace collnet::collectives
