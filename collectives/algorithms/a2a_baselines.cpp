// The baselines document 001 compares A2AT with (spec a2a-optimal,
// "Baselines"), on any mesh or torus of 1 to 4 dimensions:
//
//   a2a-spread (A2A, MPICH-style): for i = 1..N-1: send((rank + i) mod N),
//     rank = the endpoint id = x + Nx*(y + Ny*z ...).
//   a2a-nd (A2AND): every non-zero offset (dx, dy, ...) with 0 <= d_k < N_k,
//     destination (x+dx mod Nx, y+dy mod Ny, ...), in the spec's loop nest:
//     dx outermost, then dy, ..., the last dimension innermost (varies
//     fastest). The paper prints the condition "x != 0 and y != 0", which
//     would skip the axes; the spec's "not both 0" is what an all-to-all needs.
//
//   a2a-random (the all-to-all of BlueGene/L that document 001 names as the
//     alternative to A2AT: randomized destinations, which "needs adaptive
//     routing"): every node sends to every other node once, in its own
//     random order (a Fisher-Yates shuffle of rank+1, rank+2, ... driven by
//     a 64-bit Mersenne Twister seeded with (order_seed, rank), so that the
//     order is the same on every platform), nct at a time, every controller
//     taking the next send as soon as it is idle, without barriers. Run it
//     with `routing: min-adaptive` for the comparison the document makes.
//
// All three issue their list in consecutive groups of nct sends (controller =
// position in the group, tag = group index; a2a_grouped.hpp) with default
// routing (route hint 0: dimension order, torus minimal, ties +).
#include <limits>
#include <random>
#include <string>

#include "collectives/algorithms/a2a_baselines.hpp"
#include "collectives/algorithms/a2a_common.hpp"
#include "collectives/algorithms/a2a_grouped.hpp"
#include "collectives/algorithm.hpp"

namespace collnet::collectives {

namespace {

const char* const kGridTopologies = "mesh or torus of 1 to 4 dimensions (mesh:NX[xNY[xNZ[xNW]]], torus:...)";

using SendList = std::vector<GroupedSend> (*)(const topology::Grid& grid, EndpointId self);

/// a2a-spread: rank+1, rank+2, ... mod N.
std::vector<GroupedSend> spread_sends(const topology::Grid& grid, EndpointId rank) {
  const EndpointId n = grid.endpoint_count();
  std::vector<GroupedSend> sends;
  for (EndpointId i = 1; i < n; ++i) sends.push_back({(rank + i) % n, 0});
  return sends;
}

/// a2a-nd: every non-zero offset, last dimension fastest.
std::vector<GroupedSend> nd_sends(const topology::Grid& grid, EndpointId self) {
  std::vector<GroupedSend> sends;
  std::vector<int> offset(static_cast<std::size_t>(grid.dims()), 0);
  // Odometer over the offsets, last dimension fastest; (0, ..., 0) is the
  // first value and is skipped.
  for (;;) {
    int d = grid.dims() - 1;
    while (d >= 0 && ++offset[static_cast<std::size_t>(d)] == grid.size(d)) offset[static_cast<std::size_t>(d--)] = 0;
    if (d < 0) break;
    sends.push_back({grid.shifted(self, offset), 0});
  }
  return sends;
}

/// The entry of a2a-spread (nd false) or a2a-nd: the node's send list in
/// consecutive groups of nct, run by schedule_engine_a2a.
Algorithm baseline(const char* name, const char* description, bool nd, SendList list) {
  Algorithm a = a2a_algorithm(name, "001", description, kGridTopologies);
  a.supports = TopologySupport::grid(1, 4);
  a.keys = {nct_key(), group_barriers_key()};
  a.build = [name, list](const topology::Topology& topology, const Params& params) {
    const topology::Grid& grid = require_grid(topology, name, 1, 4);
    const int nct = read_nct(params, grid);
    const std::uint32_t m = message_words(params, 2 * static_cast<std::uint64_t>(grid.endpoint_count()));
    return a2a_grouped_schedule(grid, name, nct, m, read_group_barriers(params),
                                [&](EndpointId e) { return consecutive_groups(list(grid, e), nct); });
  };
  a.nic = {Dispatch::next_idle, "nct"};
  a.engine = "a2a";
  a.engine_params = [nd, name](const topology::Topology& topology, const Params& params) -> std::any {
    const topology::Grid& grid = require_grid(topology, name, 1, 4);
    return A2aEngineParams{nd, read_nct(params, grid),
                           message_words(params, 2 * static_cast<std::uint64_t>(grid.endpoint_count())),
                           read_group_barriers(params)};
  };
  return a;
}

const Key& order_seed_key() {
  static const Key key = Key::integer(
      "order_seed", "seed of every node's random destination order (a2a-random); the same seed gives the same run",
      1, 0, 0x7fffffffffffffffLL);
  return key;
}

/// a2a-random: node `rank`'s destinations in its seeded random order.
std::vector<GroupedSend> random_sends(EndpointId n, EndpointId rank, std::uint64_t seed) {
  std::vector<GroupedSend> sends;
  for (EndpointId i = 1; i < n; ++i) sends.push_back({(rank + i) % n, 0});
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(rank));
  // Fisher-Yates with an unbiased draw by rejection (std::shuffle and
  // std::uniform_int_distribution are not specified bit for bit).
  for (std::size_t i = sends.size(); i > 1; --i) {
    const std::uint64_t bound = i;
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t draw = rng();
    while (draw >= limit) draw = rng();
    std::swap(sends[i - 1], sends[static_cast<std::size_t>(draw % bound)]);
  }
  return sends;
}

}  // namespace

Algorithm make_a2a_random() {
  const char* const name = "a2a-random";
  Algorithm a = a2a_algorithm(name, "001",
                              "randomized all-to-all (BlueGene/L's, named by document 001 as the alternative to A2AT): "
                              "every node sends to the others in its own seeded random order, nct at a time, every "
                              "controller busy, no barriers; meant for adaptive routing",
                              kGridTopologies);
  a.keys = {nct_key(), order_seed_key()};
  a.build = [name](const topology::Topology& topology, const Params& params) {
    const topology::Grid& grid = require_grid(topology, name, 1, 4);
    const int nct = read_nct(params, grid);
    const std::uint32_t m = message_words(params, 2 * static_cast<std::uint64_t>(grid.endpoint_count()));
    const auto seed = static_cast<std::uint64_t>(order_seed_key().integer(params));
    return a2a_grouped_schedule(grid, name, nct, m, false, [&](EndpointId e) {
      return consecutive_groups(random_sends(grid.endpoint_count(), e, seed), nct);
    });
  };
  a.nic = {Dispatch::next_idle, "nct"};
  return a;
}

Algorithm make_a2a_spread() {
  return baseline("a2a-spread",
                  "A2A (MPICH-style baseline of document 001): node r sends to r+1, r+2, ... mod N, nct at a time",
                  false, spread_sends);
}

Algorithm make_a2a_nd() {
  return baseline("a2a-nd",
                  "A2AND (baseline of document 001): every coordinate offset in lexicographic order (dx outermost), "
                  "nct at a time",
                  true, nd_sends);
}

}  // namespace collnet::collectives
