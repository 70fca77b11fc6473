// Tests of a2a-hopgroup and a2a-hopgroup-direct against the facts of spec
// a2a-hopgroup that need no cycle timing. The expectations come from the spec
// (the phase sequence, the invariant, the link loads, the barrier counts),
// from closed forms, or from a second, label-level model of the programs.
#include "collectives/algorithms/a2a_hopgroup.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collectives/algorithms/a2a_common.hpp"
#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "topology/grid.hpp"

using namespace collnet;
using namespace collnet::collectives;
using topology::Grid;

namespace {

// ---------------------------------------------------------------------------
// Configurations and the spec's phase sequence (an oracle written from the
// spec text, independent of the generator).

struct Config {
  std::vector<int> sizes;
  bool torus = true;
  bool concurrent = false;  // mode3d
  bool both = false;        // directions
  bool descending = false;  // hop_order
  std::uint32_t m = 4;      // message_flits

  [[nodiscard]] Params params() const {
    Params p;
    p.set("message_flits", std::to_string(m));
    p.set("mode3d", concurrent ? "concurrent" : "literal");
    p.set("directions", both ? "both" : "plus");
    p.set("hop_order", descending ? "descending" : "ascending");
    return p;
  }
  [[nodiscard]] std::string name() const {
    std::string s = torus ? "torus:" : "mesh:";
    for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? "x" : "") + std::to_string(sizes[i]);
    s += concurrent ? " concurrent" : "";
    s += both ? " both" : "";
    s += descending ? " descending" : "";
    s += " M=" + std::to_string(m);
    return s;
  }
  [[nodiscard]] int pieces() const { return sizes.size() == 3 ? 3 : 1; }
};

Schedule build(const Grid& g, const Config& c) { return find_algorithm("a2a-hopgroup").build(g, c.params()); }

/// One signed offset of a step: k along `dim`, its hop count and direction.
struct SpecOffset {
  int dim = 0;
  int k = 0;
  int hops = 0;
  int dir = +1;
};

struct SpecPhase {
  int dim = 0;
  int piece = 0;
  std::vector<std::vector<SpecOffset>> steps;
};
using SpecGroup = std::vector<SpecPhase>;  // phases that run at once

// spec a2a-hopgroup: offsets of one phase, step by step.
std::vector<std::vector<SpecOffset>> spec_phase_steps(const Config& c, int dim) {
  const int n = c.sizes[static_cast<std::size_t>(dim)];
  std::vector<std::vector<SpecOffset>> steps;
  if (n == 1) return steps;
  if (!c.torus) {
    for (int h = 1; h <= n - 1; ++h) {
      steps.push_back({{dim, h, h, +1}});
      steps.push_back({{dim, -h, h, -1}});
    }
  } else if (c.both) {
    for (int h = 1; h <= n / 2; ++h) {
      if (n - h == h) steps.push_back({{dim, h, h, +1}});
      else steps.push_back({{dim, h, h, +1}, {dim, -h, h, -1}});
    }
  } else {
    for (int k = 1; k <= n - 1; ++k) steps.push_back({{dim, k, k, +1}});
  }
  if (c.descending) std::reverse(steps.begin(), steps.end());
  return steps;
}

// spec a2a-hopgroup: 2-D = phase X then phase Y; 3-D = three rounds, round r
// carries X <- piece r, Y <- piece r+1, Z <- piece r+2; literal mode runs X,
// Z, Y one after another, concurrent mode the three at once.
std::vector<SpecGroup> spec_groups(const Config& c) {
  std::vector<SpecGroup> groups;
  auto phase = [&](int dim, int piece) { return SpecPhase{dim, piece, spec_phase_steps(c, dim)}; };
  auto add = [&](SpecGroup g) {
    std::erase_if(g, [](const SpecPhase& p) { return p.steps.empty(); });
    if (!g.empty()) groups.push_back(g);
  };
  if (c.sizes.size() < 3) {
    for (int d = 0; d < static_cast<int>(c.sizes.size()); ++d) add({phase(d, 0)});
    return groups;
  }
  for (int r = 0; r < 3; ++r) {
    if (c.concurrent) add({phase(0, r), phase(1, (r + 1) % 3), phase(2, (r + 2) % 3)});
    else {
      add({phase(0, r)});
      add({phase(2, (r + 2) % 3)});
      add({phase(1, (r + 1) % 3)});
    }
  }
  return groups;
}

std::size_t group_steps(const SpecGroup& g) {
  std::size_t n = 0;
  for (const auto& p : g) n = std::max(n, p.steps.size());
  return n;
}

/// The offsets of every global step, in order.
std::vector<std::vector<SpecOffset>> spec_steps(const Config& c) {
  std::vector<std::vector<SpecOffset>> all;
  for (const auto& g : spec_groups(c))
    for (std::size_t s = 0; s < group_steps(g); ++s) {
      std::vector<SpecOffset> step;
      for (const auto& p : g)
        if (s < p.steps.size()) step.insert(step.end(), p.steps[s].begin(), p.steps[s].end());
      all.push_back(step);
    }
  return all;
}

int active_dims(const std::vector<int>& sizes) {
  return static_cast<int>(std::count_if(sizes.begin(), sizes.end(), [](int n) { return n > 1; }));
}

/// Address of piece `p` of area `label` in bank `bank` (layout documented in a2a_hopgroup.hpp).
std::uint32_t piece_address(std::uint32_t bank, int nodes, int label, std::uint32_t m, int pieces, int p) {
  return (bank * static_cast<std::uint32_t>(nodes) + static_cast<std::uint32_t>(label)) * m +
         hopgroup_piece_offset(m, pieces, p);
}

/// Words of the result region that differ from D(O->T) (area O of node T).
std::int64_t misdelivered(int nodes, std::uint32_t m, std::uint32_t result_bank,
                          const std::vector<std::vector<Word>>& memory) {
  std::int64_t bad = 0;
  for (int t = 0; t < nodes; ++t)
    for (int o = 0; o < nodes; ++o)
      for (std::uint32_t i = 0; i < m; ++i) {
        const std::uint32_t a = (result_bank * static_cast<std::uint32_t>(nodes) + static_cast<std::uint32_t>(o)) * m + i;
        if (memory[static_cast<std::size_t>(t)][a] !=
            payload_word(static_cast<std::uint64_t>(o), static_cast<std::uint64_t>(t), i))
          ++bad;
      }
  return bad;
}

/// The programs cut after barrier number `step` (the end of step `step`).
Schedule prefix_through_step(const Schedule& s, std::uint32_t step) {
  Schedule p = s;
  for (auto& prog : p.programs) {
    const auto it = std::find_if(prog.begin(), prog.end(), [&](const Descriptor& d) {
      return d.opcode == Opcode::barrier && d.tag == step;
    });
    if (it == prog.end()) continue;  // the last step: the whole program
    prog.erase(it + 1, prog.end());
    prog.push_back(Descriptor::end());
  }
  return p;
}

std::vector<Config> fact1_configs() {
  std::vector<Config> v;
  for (bool torus : {true, false}) {
    for (auto s : std::vector<std::vector<int>>{{4, 4}, {5, 3}, {2, 2}, {1, 5}, {3, 1}, {6}})
      v.push_back(Config{s, torus, false, false, false, 4});  // {6}: the 1-D ring / line
    for (auto s : std::vector<std::vector<int>>{{4, 4, 4}, {3, 4, 5}})
      for (bool conc : {false, true}) v.push_back(Config{s, torus, conc, false, false, 5});
  }
  // Two-direction mode and descending hop order on the torus.
  v.push_back(Config{{4, 4}, true, false, true, false, 4});
  v.push_back(Config{{5, 3}, true, false, true, true, 4});
  v.push_back(Config{{3, 4, 5}, true, true, true, false, 3});
  v.push_back(Config{{4, 4, 4}, true, false, false, true, 4});
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------
// Fact 1: area O of node T holds D(O->T), under every delivery order.

TEST(A2aHopgroup, Fact1DeliversUnderEveryOrder) {
  for (const Config& c : fact1_configs()) {
    SCOPED_TRACE(c.name());
    const Grid g(c.sizes, c.torus);
    const Schedule s = build(g, c);
    const auto result_bank = static_cast<std::uint32_t>(active_dims(c.sizes) % 2);
    for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
      const ExecResult r = execute(s, {order, 11});
      const DataCheck dc = check_data(s, r.memory);
      EXPECT_TRUE(dc.pass) << (dc.first_errors.empty() ? "" : dc.first_errors.front());
      EXPECT_EQ(misdelivered(g.endpoint_count(), c.m, result_bank, r.memory), 0);
    }
  }
}

// Fact 1: the invariant after every phase. For each dimension already
// crossed, holder_d = target_d and label_d = origin_d; for the others
// holder_d = origin_d and label_d = target_d. Checked on the real memory of
// the programs cut at each phase boundary.
TEST(A2aHopgroup, Fact1InvariantHoldsAfterEveryPhase) {
  for (const Config& c : fact1_configs()) {
    SCOPED_TRACE(c.name());
    const Grid g(c.sizes, c.torus);
    const Schedule s = build(g, c);
    const int n = g.endpoint_count();
    const int dims = g.dims();
    const int pieces = c.pieces();
    std::vector<std::vector<bool>> crossed(static_cast<std::size_t>(pieces), std::vector<bool>(static_cast<std::size_t>(dims)));
    std::vector<std::uint32_t> bank(static_cast<std::size_t>(pieces), 0);
    std::uint32_t step = 0;
    for (const auto& group : spec_groups(c)) {
      step += static_cast<std::uint32_t>(group_steps(group));
      for (const auto& p : group) {
        crossed[static_cast<std::size_t>(p.piece)][static_cast<std::size_t>(p.dim)] = true;
        bank[static_cast<std::size_t>(p.piece)] ^= 1u;
      }
      const Schedule prefix = prefix_through_step(s, step - 1);
      for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager}) {
        const ExecResult r = execute(prefix, {order, 3});
        std::int64_t bad = 0;
        for (int h = 0; h < n; ++h) {
          const auto hc = g.coord(h);
          for (int l = 0; l < n; ++l) {
            const auto lc = g.coord(l);
            for (int p = 0; p < pieces; ++p) {
              std::vector<int> oc(static_cast<std::size_t>(dims)), tc(static_cast<std::size_t>(dims));
              for (std::size_t d = 0; d < static_cast<std::size_t>(dims); ++d) {
                const bool x = crossed[static_cast<std::size_t>(p)][d];
                oc[d] = x ? lc[d] : hc[d];
                tc[d] = x ? hc[d] : lc[d];
              }
              const auto o = static_cast<std::uint64_t>(g.id(oc)), t = static_cast<std::uint64_t>(g.id(tc));
              const std::uint32_t base = piece_address(bank[static_cast<std::size_t>(p)], n, l, c.m, pieces, p);
              const std::uint32_t off = hopgroup_piece_offset(c.m, pieces, p);
              for (std::uint32_t i = 0; i < hopgroup_piece_words(c.m, pieces, p); ++i)
                if (r.memory[static_cast<std::size_t>(h)][base + i] != payload_word(o, t, off + i)) ++bad;
            }
          }
        }
        EXPECT_EQ(bad, 0) << "after step " << step - 1;
      }
    }
    // Every piece has crossed every dimension of size > 1 once.
    for (int p = 0; p < pieces; ++p)
      for (int d = 0; d < dims; ++d)
        EXPECT_EQ(crossed[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)], c.sizes[static_cast<std::size_t>(d)] > 1);
  }
}

// spec a2a-hopgroup: buffer hazard. A deliberately single-buffered variant
// (every bank-1 address folded onto bank 0, so areas are stored in place)
// must be caught by the executor: on 2x2 the only hazard lies inside a step
// (offset 1 = N/2: a node's area is overwritten before it leaves), which eager
// delivery exposes and lazy delivery hides; on 4x4 the areas stored at hop 1
// still have to leave at hop 3, so every order fails. The double-buffered
// schedule passes everywhere (Fact1DeliversUnderEveryOrder).
TEST(A2aHopgroup, SingleBufferedVariantFailsUnderSomeOrder) {
  auto single_buffered = [](const Grid& g, std::uint32_t m) {
    Schedule s = build(g, Config{g.sizes(), true, false, false, false, m});
    const std::uint32_t bank_words = static_cast<std::uint32_t>(g.endpoint_count()) * m;
    for (auto& prog : s.programs)
      prog.update([&](Descriptor& d) {
        if (d.opcode == Opcode::send) {
          d.src_offset %= bank_words;
          d.dst_offset %= bank_words;
        }
      });
    const std::int32_t n = g.endpoint_count();
    s.expected = [n, m](EndpointId e) { return a2a_expected(e, 0, n, m); };
    return s;
  };
  const Grid g2({2, 2}, true);
  const Schedule s2 = single_buffered(g2, 3);
  EXPECT_TRUE(check_data(s2, execute(s2, {DeliveryOrder::lazy, 1}).memory).pass);
  EXPECT_FALSE(check_data(s2, execute(s2, {DeliveryOrder::eager, 1}).memory).pass);

  const Grid g4({4, 4}, true);
  const Schedule s4 = single_buffered(g4, 3);
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random})
    EXPECT_FALSE(check_data(s4, execute(s4, {order, 5}).memory).pass);
}

// ---------------------------------------------------------------------------
// Fact 2: during step (d, k) only +d links carry traffic, each exactly k
// flows (distinct source/destination pairs), and every transfer has route
// length k. Two-direction mode: the + and - links of d carry h flows each.
// Mesh: the flows of a link follow from which senders' n_d + k exists.

namespace {

struct StepTraffic {
  // per directed link: distinct (src, dst) pairs
  std::map<topology::LinkId, std::set<std::pair<EndpointId, EndpointId>>> flows;
  std::vector<std::tuple<EndpointId, EndpointId, Descriptor>> transfers;
};

std::map<std::uint32_t, StepTraffic> traffic_by_step(const Schedule& s) {
  std::map<std::uint32_t, StepTraffic> by;
  for (std::size_t e = 0; e < s.endpoints(); ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send && d.dest != e)
        by[d.tag].transfers.emplace_back(static_cast<EndpointId>(e), static_cast<EndpointId>(d.dest), d);
  return by;
}

}  // namespace

TEST(A2aHopgroup, Fact2StepsUseOneDirectionAndKFlowsPerLink) {
  std::vector<Config> configs;
  for (auto s : std::vector<std::vector<int>>{{4, 4}, {5, 3}, {2, 2}, {1, 5}, {3, 1}, {8, 8}, {6, 7}})
    for (bool both : {false, true}) configs.push_back(Config{s, true, false, both, false, 2});
  for (auto s : std::vector<std::vector<int>>{{4, 4, 4}, {3, 4, 5}})
    for (bool conc : {false, true}) configs.push_back(Config{s, true, conc, false, conc, 3});
  for (auto s : std::vector<std::vector<int>>{{4, 4}, {5, 3}, {1, 5}, {3, 4, 2}})
    configs.push_back(Config{s, false, false, false, false, s.size() == 3 ? 3u : 2u});  // no empty piece

  for (const Config& c : configs) {
    SCOPED_TRACE(c.name());
    const Grid g(c.sizes, c.torus);
    const Schedule s = build(g, c);
    const auto steps = spec_steps(c);
    auto by = traffic_by_step(s);
    ASSERT_LE(by.size(), steps.size());
    for (std::uint32_t tag = 0; tag < steps.size(); ++tag) {
      SCOPED_TRACE("step " + std::to_string(tag));
      const auto& offsets = steps[tag];
      StepTraffic& st = by[tag];
      std::map<const SpecOffset*, std::set<int>> gaps;  // per offset of the step
      for (const auto& [src, dst, d] : st.transfers) {
        const auto route = g.route(src, dst, d.route_hint);
        // The transfer belongs to the one offset of this step that maps src to dst.
        const SpecOffset* match = nullptr;
        for (const auto& off : offsets) {
          std::vector<int> shift(c.sizes.size(), 0);
          shift[static_cast<std::size_t>(off.dim)] = off.k;
          if (g.shifted(src, shift) != dst) continue;
          // On a mesh n_d + k must exist (no wrap).
          if (!c.torus) {
            const int to = g.coord(src)[static_cast<std::size_t>(off.dim)] + off.k;
            if (to < 0 || to >= c.sizes[static_cast<std::size_t>(off.dim)]) continue;
          }
          match = &off;
        }
        ASSERT_NE(match, nullptr) << src << " -> " << dst << " is not an offset of this step";
        EXPECT_EQ(static_cast<int>(route.size()), match->hops);
        EXPECT_EQ(d.controller, match->dim);
        gaps[match].insert(d.gap);
        for (const auto& hop : route) {
          const auto& link = g.graph().link(hop.link);
          EXPECT_EQ(link.dim, match->dim);
          EXPECT_EQ(link.dir, match->dir);
          st.flows[hop.link].insert({src, dst});
        }
      }
      // Expected flows on every directed link of the step's dimensions.
      for (const auto& off : offsets) {
        const int n = c.sizes[static_cast<std::size_t>(off.dim)];
        int most = 0;  // most flows of this offset on one link
        for (EndpointId node = 0; node < g.endpoint_count(); ++node) {
          const topology::LinkId l = g.link(node, off.dim, off.dir);
          if (l == topology::kNone) continue;
          int expected = off.hops;
          if (!c.torus) {
            // Link i -> i+dir is crossed by senders s with s+k inside the line
            // whose path covers it: s in [i+1-k, i] (+) or [i, i+k-1] (-).
            const int i = g.coord(node)[static_cast<std::size_t>(off.dim)];
            int lo = 0, hi = 0;
            if (off.dir > 0) {
              lo = std::max(0, i + 1 - off.hops);
              hi = std::min(i, n - 1 - off.hops);
            } else {
              lo = std::max(i, off.hops);
              hi = std::min(n - 1, i + off.hops - 1);
            }
            expected = std::max(0, hi - lo + 1);
          }
          most = std::max(most, expected);
          const auto it = st.flows.find(l);
          EXPECT_EQ(it == st.flows.end() ? 0 : static_cast<int>(it->second.size()), expected)
              << "link of node " << node << " dim " << off.dim << " dir " << off.dir;
        }
        // spec a2a-hopgroup, pacing: when `most` flows share a link in turn,
        // gap = most - 1 fills it (k on a torus; fewer on a mesh, where only
        // the senders whose n_d + k exists send).
        if (most > 0) {
          EXPECT_EQ(gaps[&off], std::set<int>{most - 1}) << "offset " << off.k << " dim " << off.dim;
        }
      }
      // Nothing else is loaded: the flows counted above are all the step's.
      std::size_t expected_links = 0;
      for (const auto& off : offsets)
        for (EndpointId node = 0; node < g.endpoint_count(); ++node) {
          const topology::LinkId l = g.link(node, off.dim, off.dir);
          if (l != topology::kNone && st.flows.count(l)) ++expected_links;
        }
      EXPECT_EQ(st.flows.size(), expected_links);
    }
  }
}

TEST(A2aHopgroup, PacingKeysSetGapAndSlack) {
  const Grid g({5, 4}, true);
  Params p{{"message_flits", "2"}, {"gap_slack", "7"}};
  const Schedule paced = find_algorithm("a2a-hopgroup").build(g, p);
  for (const Descriptor& d : paced.programs[3])
    if (d.opcode == Opcode::send && d.dest != 3) {
      EXPECT_EQ(d.slack, 7);
      EXPECT_EQ(static_cast<int>(g.route(3, static_cast<EndpointId>(d.dest), d.route_hint).size()), d.gap + 1);
    }
  p.set("pacing", "false");
  const Schedule unpaced = find_algorithm("a2a-hopgroup").build(g, p);
  for (const Descriptor& d : unpaced.programs[3]) {
    EXPECT_EQ(d.gap, 0);
    EXPECT_EQ(d.slack, 0);
  }
}

// ---------------------------------------------------------------------------
// Fact 3: barrier counts. 2-D: (NX-1) + (NY-2) = NX+NY-3 (13 for 8x8);
// baseline: one per offset (N-1).

TEST(A2aHopgroup, Fact3BarrierCounts) {
  auto barriers = [](const Grid& g, const Params& p, const char* algorithm) {
    const Schedule s = find_algorithm(algorithm).build(g, p);
    const StaticReport r = static_check(g, s);
    const ExecResult e = execute(s);
    EXPECT_EQ(r.barriers, e.barriers);
    EXPECT_TRUE(check_data(s, e.memory).pass);
    return e.barriers;
  };
  const Params small{{"message_flits", "1"}};
  EXPECT_EQ(barriers(Grid({8, 8}, true), small, "a2a-hopgroup"), 13);
  EXPECT_EQ(barriers(Grid({8, 8}, true), small, "a2a-hopgroup-direct"), 63);
  for (int nx = 2; nx <= 6; ++nx)
    for (int ny = 2; ny <= 6; ++ny) {
      EXPECT_EQ(barriers(Grid({nx, ny}, true), small, "a2a-hopgroup"), nx + ny - 3);
      EXPECT_EQ(barriers(Grid({nx, ny}, true), small, "a2a-hopgroup-direct"), nx * ny - 1);
    }
  // Size-1 dimensions have no phase: barriers = steps - 1.
  EXPECT_EQ(barriers(Grid({1, 5}, true), small, "a2a-hopgroup"), 3);
  EXPECT_EQ(barriers(Grid({3, 1}, true), small, "a2a-hopgroup"), 1);
  EXPECT_EQ(barriers(Grid({1, 1}, true), small, "a2a-hopgroup"), 0);
  // 3-D: literal = a step per hop value of each of the 9 phases; concurrent =
  // 3 rounds of max_d(N_d - 1) steps.
  EXPECT_EQ(barriers(Grid({4, 4, 4}, true), small, "a2a-hopgroup"), 3 * 9 - 1);
  EXPECT_EQ(barriers(Grid({3, 4, 5}, true), Params{{"message_flits", "1"}, {"mode3d", "concurrent"}}, "a2a-hopgroup"),
            3 * 4 - 1);
  EXPECT_EQ(barriers(Grid({3, 4, 5}, true), small, "a2a-hopgroup"), 3 * (2 + 3 + 4) - 1);
  // Mesh: one step per signed offset.
  EXPECT_EQ(barriers(Grid({4, 3}, false), small, "a2a-hopgroup"), 2 * 3 + 2 * 2 - 1);
  // The second baseline has none.
  EXPECT_EQ(barriers(Grid({8, 8}, true), Params{{"message_flits", "1"}, {"barriers", "false"}, {"pacing", "false"}},
                     "a2a-hopgroup-direct"),
            0);
}

// ---------------------------------------------------------------------------
// Coverage, with a second, label-level model of the programs: every datum
// (origin, target, piece) lives at exactly one address; a step first reads
// (and so removes) what it sends, then stores what arrives. A read of an
// empty address, a store onto live data, or an address read and written in
// the same step fails. At the end every datum sits in area O of node T, and
// it has crossed each dimension in which O and T differ exactly once, in its
// piece's route order.

namespace {

struct Datum {
  int origin = 0, target = 0, piece = 0;
  auto operator<=>(const Datum&) const = default;
};

void check_coverage(const Config& c) {
  SCOPED_TRACE(c.name());
  const Grid g(c.sizes, c.torus);
  const Schedule s = build(g, c);
  const int n = g.endpoint_count();
  const int pieces = c.pieces();
  using Place = std::pair<int, std::uint32_t>;  // node, address
  std::map<Place, Datum> at;
  for (int node = 0; node < n; ++node)
    for (int l = 0; l < n; ++l)
      for (int p = 0; p < pieces; ++p)
        if (hopgroup_piece_words(c.m, pieces, p) > 0)
          at[{node, piece_address(0, n, l, c.m, pieces, p)}] = Datum{node, l, p};
  const std::size_t data = at.size();

  // Split every program at its barriers.
  std::vector<std::vector<std::vector<Descriptor>>> steps(static_cast<std::size_t>(n));
  for (int node = 0; node < n; ++node) {
    auto& mine = steps[static_cast<std::size_t>(node)];
    mine.emplace_back();
    for (const Descriptor& d : s.programs[static_cast<std::size_t>(node)]) {
      if (d.opcode == Opcode::barrier) mine.emplace_back();
      else if (d.opcode == Opcode::send) mine.back().push_back(d);
    }
    ASSERT_EQ(mine.size(), steps[0].size());
  }
  std::map<Datum, std::vector<int>> crossings;  // dimensions crossed, in order
  for (std::size_t st = 0; st < steps[0].size(); ++st) {
    std::vector<std::pair<Place, Datum>> arriving;
    std::set<Place> read;
    for (int node = 0; node < n; ++node)
      for (const Descriptor& d : steps[static_cast<std::size_t>(node)][st]) {
        const auto it = at.find({node, d.src_offset});
        ASSERT_NE(it, at.end()) << "step " << st << ": node " << node << " sends an empty address " << d.src_offset;
        const Datum datum = it->second;
        EXPECT_EQ(d.length, hopgroup_piece_words(c.m, pieces, datum.piece));
        at.erase(it);
        read.insert({node, d.src_offset});
        if (d.dest != static_cast<std::uint32_t>(node)) {
          int moved = -1, differing = 0;
          const auto a = g.coord(node), b = g.coord(static_cast<EndpointId>(d.dest));
          for (std::size_t k = 0; k < a.size(); ++k)
            if (a[k] != b[k]) {
              moved = static_cast<int>(k);
              ++differing;
            }
          EXPECT_EQ(differing, 1) << "a transfer moves along one dimension";
          crossings[datum].push_back(moved);
        }
        arriving.push_back({{static_cast<int>(d.dest), d.dst_offset}, datum});
      }
    for (const auto& [place, datum] : arriving) {
      EXPECT_FALSE(read.count(place)) << "step " << st << ": address read and written in one step";
      EXPECT_TRUE(at.emplace(place, datum).second) << "step " << st << ": store onto live data at node "
                                                   << place.first << " address " << place.second;
    }
  }
  ASSERT_EQ(at.size(), data);
  const auto result_bank = static_cast<std::uint32_t>(active_dims(c.sizes) % 2);
  for (const auto& [place, datum] : at) {
    EXPECT_EQ(place.first, datum.target);
    EXPECT_EQ(place.second, piece_address(result_bank, n, datum.origin, c.m, pieces, datum.piece));
    const auto o = g.coord(datum.origin), t = g.coord(datum.target);
    std::vector<int> expected;
    for (int d = 0; d < g.dims(); ++d)
      if (o[static_cast<std::size_t>(d)] != t[static_cast<std::size_t>(d)]) expected.push_back(d);
    if (pieces == 3) {
      // Piece p crosses dimension d in round (p - d) mod 3: a = X, Z, Y;
      // b = Y, X, Z; c = Z, Y, X.
      std::sort(expected.begin(), expected.end(),
                [piece = datum.piece](int x, int y) { return (piece - x + 3) % 3 < (piece - y + 3) % 3; });
    }
    const auto it = crossings.find(datum);
    EXPECT_EQ(it == crossings.end() ? std::vector<int>{} : it->second, expected)
        << "datum " << datum.origin << "->" << datum.target << " piece " << datum.piece;
  }
}

}  // namespace

TEST(A2aHopgroup, CoverageEveryPairOnceAlongItsRoute) {
  for (const Config& c : fact1_configs()) check_coverage(c);
  // Uneven and empty pieces (M not divisible by 3, M < 3).
  check_coverage(Config{{3, 2, 4}, true, false, false, false, 1});
  check_coverage(Config{{3, 2, 4}, false, true, false, false, 2});
}

TEST(A2aHopgroup, PiecesDifferByAtMostOneWord) {
  for (std::uint32_t m = 0; m <= 20; ++m) {
    std::uint32_t total = 0, lo = m, hi = 0;
    for (int p = 0; p < 3; ++p) {
      const std::uint32_t w = hopgroup_piece_words(m, 3, p);
      EXPECT_EQ(hopgroup_piece_offset(m, 3, p), total);
      total += w;
      lo = std::min(lo, w);
      hi = std::max(hi, w);
    }
    EXPECT_EQ(total, m);
    EXPECT_LE(hi - lo, 1u);
    EXPECT_EQ(hopgroup_piece_words(m, 1, 0), m);
  }
}

TEST(A2aHopgroup, ControllersAndLowerBound) {
  const Grid g2({8, 8}, true), g3({4, 4, 4}, true);
  const Schedule s2 = build(g2, Config{{8, 8}, true, false, false, false, 16});
  const Schedule s3 = build(g3, Config{{4, 4, 4}, true, true, false, false, 16});
  EXPECT_EQ(s2.controllers, 2);
  EXPECT_EQ(s3.controllers, 3);
  // Bisection of an N x N torus: N^3/8 messages (N even).
  EXPECT_EQ(s2.lower_bound, 8 * 8 * 8 / 8 * 16);
  // 4x4x4 torus: cut of one dimension, (2*2*16)/2 = 32 messages.
  EXPECT_EQ(s3.lower_bound, 32 * 16);
  // Concurrent mode: a step really runs the three controllers.
  std::set<int> used;
  for (const Descriptor& d : s3.programs[0])
    if (d.opcode == Opcode::send && d.tag == 0) used.insert(d.controller);
  EXPECT_EQ(used, (std::set<int>{0, 1, 2}));
}

TEST(A2aHopgroup, KeysAreDocumented) {
  auto names = [](const Algorithm& a) {
    std::set<std::string> s;
    for (const auto& k : a.keys) {
      EXPECT_FALSE(k.meaning.empty());
      EXPECT_FALSE(k.default_value.empty());
      EXPECT_FALSE(k.accepted.empty());
      s.insert(k.name);
    }
    return s;
  };
  EXPECT_EQ(names(find_algorithm("a2a-hopgroup")),
            (std::set<std::string>{"hop_order", "gap_slack", "pacing", "directions", "mode3d"}));
  EXPECT_EQ(names(find_algorithm("a2a-hopgroup-direct")), (std::set<std::string>{"barriers", "pacing", "gap_slack"}));
  EXPECT_EQ(find_algorithm("a2a-hopgroup").document, "000");
}

// ---------------------------------------------------------------------------
// The comparative baseline.

TEST(A2aHopgroupDirect, EveryNodeSendsToEveryOtherOnceOneOffsetPerStep) {
  for (bool torus : {true, false})
    for (auto sizes : std::vector<std::vector<int>>{{4, 4}, {5, 3}, {1, 5}, {3, 2, 4}, {2, 2, 1, 2}})
      for (bool barriers : {true, false}) {
        const Grid g(sizes, torus);
        SCOPED_TRACE(g.name() + (barriers ? " barriers" : " no barriers"));
        const Params p{{"message_flits", "3"}, {"barriers", barriers ? "true" : "false"}};
        const Schedule s = find_algorithm("a2a-hopgroup-direct").build(g, p);
        const int n = g.endpoint_count();
        for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
          const ExecResult r = execute(s, {order, 9});
          EXPECT_TRUE(check_data(s, r.memory).pass);
          EXPECT_EQ(misdelivered(n, 3, 1, r.memory), 0);
          EXPECT_EQ(r.messages, static_cast<std::int64_t>(n) * (n - 1));
          EXPECT_EQ(r.barriers, barriers ? n - 1 : 0);
        }
        // Step t: one offset, the same for every node, each destination once.
        std::map<std::uint32_t, std::set<std::vector<int>>> offsets;
        std::map<std::uint32_t, std::set<std::uint32_t>> dests;
        std::set<std::pair<int, std::uint32_t>> pairs;
        for (int e = 0; e < n; ++e)
          for (const Descriptor& d : s.programs[static_cast<std::size_t>(e)]) {
            if (d.opcode != Opcode::send || d.dest == static_cast<std::uint32_t>(e)) continue;
            const auto a = g.coord(e), b = g.coord(static_cast<EndpointId>(d.dest));
            std::vector<int> off(a.size());
            for (std::size_t k = 0; k < a.size(); ++k) off[k] = ((b[k] - a[k]) % sizes[k] + sizes[k]) % sizes[k];
            offsets[d.tag].insert(off);
            dests[d.tag].insert(d.dest);
            EXPECT_TRUE(pairs.insert({e, d.dest}).second);
            // spec: dimension-order routing; pacing gap = hops - 1.
            EXPECT_EQ(d.route_hint, 0);
            EXPECT_EQ(d.gap + 1u, g.route(e, static_cast<EndpointId>(d.dest)).size());
          }
        EXPECT_EQ(offsets.size(), static_cast<std::size_t>(n - 1));
        for (const auto& [tag, o] : offsets) EXPECT_EQ(o.size(), 1u) << "step " << tag;
        for (const auto& [tag, d] : dests) EXPECT_EQ(d.size(), static_cast<std::size_t>(n)) << "step " << tag;
        EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n) * static_cast<std::size_t>(n - 1));
      }
}

TEST(A2aHopgroupDirect, SecondBaselineHasNoPacing) {
  const Grid g({6, 5}, true);
  const Schedule s = find_algorithm("a2a-hopgroup-direct")
                         .build(g, Params{{"message_flits", "2"}, {"barriers", "false"}, {"pacing", "false"}});
  for (const auto& prog : s.programs)
    for (const Descriptor& d : prog) {
      EXPECT_NE(d.opcode, Opcode::barrier);
      EXPECT_EQ(d.gap, 0);
      EXPECT_EQ(d.slack, 0);
    }
}

// ---------------------------------------------------------------------------
// Property: over random sizes, modes and orders the executor delivers
// D(O->T) to area O of node T.

RC_GTEST_PROP(A2aHopgroup, DeliversOverRandomSizes, ()) {
  const bool three = *rc::gen::arbitrary<bool>();
  Config c;
  const int hi = three ? 4 : 7;
  // Uniform sizes (inRange would scale them down in the early runs).
  std::vector<int> choices(static_cast<std::size_t>(hi));
  for (int i = 0; i < hi; ++i) choices[static_cast<std::size_t>(i)] = i + 1;
  for (int d = 0; d < (three ? 3 : 2); ++d) c.sizes.push_back(*rc::gen::elementOf(choices));
  c.torus = *rc::gen::arbitrary<bool>();
  c.concurrent = *rc::gen::arbitrary<bool>();
  c.both = *rc::gen::arbitrary<bool>();
  c.descending = *rc::gen::arbitrary<bool>();
  c.m = static_cast<std::uint32_t>(*rc::gen::inRange(1, 7));
  const auto order = *rc::gen::element(DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random);
  const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1000);
  const Grid g(c.sizes, c.torus);
  RC_CLASSIFY(g.endpoint_count() >= 16, "16+ nodes");
  const Schedule s = build(g, c);
  const ExecResult r = execute(s, {order, seed});
  RC_ASSERT(check_data(s, r.memory).pass);
  RC_ASSERT(misdelivered(g.endpoint_count(), c.m, static_cast<std::uint32_t>(active_dims(c.sizes) % 2), r.memory) ==
            0);
  // Each ordered pair's data crosses the network in one transfer per dimension in which they differ.
  std::int64_t expected_messages = 0;
  const int pieces_sent = c.pieces() == 3 ? static_cast<int>(std::min<std::uint32_t>(c.m, 3)) : 1;
  for (int d = 0; d < g.dims(); ++d) {
    const int nd = c.sizes[static_cast<std::size_t>(d)];
    expected_messages += static_cast<std::int64_t>(g.endpoint_count()) * g.endpoint_count() / nd * (nd - 1);
  }
  RC_ASSERT(r.messages == expected_messages * pieces_sent);
}

// ---------------------------------------------------------------------------
// Bad input.

namespace {

class NotAGrid final : public topology::Topology {
 public:
  NotAGrid() : Topology("tree:2") {}
};

void expect_config_error(const std::function<void()>& f, const std::vector<std::string>& mentions) {
  try {
    f();
    ADD_FAILURE() << "no ConfigError";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    for (const auto& m : mentions) EXPECT_NE(msg.find(m), std::string::npos) << "'" << m << "' not in: " << msg;
  }
}

}  // namespace

TEST(A2aHopgroup, BadInputThrowsConfigErrorNamingTheKey) {
  const auto& hg = find_algorithm("a2a-hopgroup");
  const auto& direct = find_algorithm("a2a-hopgroup-direct");
  const Grid g({4, 4}, true);
  expect_config_error([&] { (void)hg.build(Grid({2, 2, 2, 2}, true), Params{}); }, {"topology", "a2a-hopgroup"});
  expect_config_error([&] { (void)hg.build(NotAGrid(), Params{}); }, {"topology", "mesh or torus"});
  expect_config_error([&] { (void)direct.build(NotAGrid(), Params{}); }, {"topology"});
  expect_config_error([&] { (void)hg.build(g, Params{{"hop_order", "sideways"}}); },
                      {"hop_order", "ascending, descending"});
  expect_config_error([&] { (void)hg.build(g, Params{{"gap_slack", "256"}}); }, {"gap_slack", "0 to 255"});
  expect_config_error([&] { (void)hg.build(g, Params{{"gap_slack", "-1"}}); }, {"gap_slack"});
  expect_config_error([&] { (void)hg.build(g, Params{{"pacing", "maybe"}}); }, {"pacing", "true/false", "maybe"});
  expect_config_error([&] { (void)hg.build(g, Params{{"directions", "up"}}); }, {"directions", "plus, both"});
  expect_config_error([&] { (void)hg.build(g, Params{{"mode3d", "fast"}}); }, {"mode3d", "literal, concurrent"});
  expect_config_error([&] { (void)direct.build(g, Params{{"barriers", "sometimes"}}); }, {"barriers"});
  expect_config_error([&] { (void)hg.build(g, Params{{"message_flits", "0"}}); }, {"message_flits"});
  // 2 banks x 256 areas x 4096 words exceed the 20-bit descriptor address.
  expect_config_error([&] { (void)hg.build(Grid({16, 16}, true), Params{{"message_flits", "4096"}}); },
                      {"message_flits"});
  expect_config_error([&] { (void)direct.build(Grid({16, 16}, true), Params{{"message_flits", "4096"}}); },
                      {"message_flits"});
  // A 300-node ring needs gaps of up to 298 packet times: more than 8 bits.
  expect_config_error([&] { (void)hg.build(Grid({300}, true), Params{{"message_flits", "1"}}); }, {"pacing", "false"});
  EXPECT_NO_THROW((void)hg.build(Grid({300}, true), Params{{"message_flits", "1"}, {"pacing", "false"}}));
}
