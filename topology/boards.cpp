#include "topology/boards.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>

namespace collnet::topology {

namespace {

std::string boards_name(const std::array<int, Boards::kDims>& s) {
  return "boards:" + std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]) + "x" +
         std::to_string(s[3]);
}

int mod(int a, int n) { return ((a % n) + n) % n; }

}  // namespace

Boards::Boards(std::array<int, kDims> sizes) : Topology(boards_name(sizes)), sizes_(sizes) {
  for (int d = 0; d < kDims; ++d) {
    const int n = sizes_[static_cast<std::size_t>(d)];
    if (n != 1 && n != 2 && n != 4)
      throw TopologyError(std::string("topology '") + name_ + "': board size " + std::to_string(n) +
                          " in dimension " + dim_letter(d) + " is not accepted; accepted sizes: 1, 2, 4");
    boards_ *= n;
  }
  for (int b = 0; b < boards_; ++b) {
    for (int m = 0; m < kMainUnits; ++m)
      graph_.attach_endpoint(graph_.add_node(NodeKind::main_unit, main_unit(b, m)));
    for (int a = 0; a < kAggregationUnits; ++a)
      graph_.attach_endpoint(graph_.add_node(NodeKind::aggregation_unit, aggregation_unit(b, a)));
  }
  // spec hd-allreduce: every main unit has a link to every aggregation unit
  // of its board; main units of a board are not linked to each other.
  for (int b = 0; b < boards_; ++b)
    for (int m = 0; m < kMainUnits; ++m)
      for (int a = 0; a < kAggregationUnits; ++a) graph_.add_duplex(main_unit(b, m), a, aggregation_unit(b, a), m);
  for (int b = 0; b < boards_; ++b) {
    const auto c = board_coord(b);
    for (int d = 0; d < kDims; ++d) {
      const int n = size(d);
      if (n == 1) continue;
      auto next = c;
      next[static_cast<std::size_t>(d)] = mod(c[static_cast<std::size_t>(d)] + 1, n);
      const int b2 = board_id(next);
      Link plus{};
      plus.dim = link_dim(d);
      plus.dir = +1;
      plus.wrap = c[static_cast<std::size_t>(d)] == n - 1;
      Link minus = plus;
      minus.dir = -1;
      // The + cable of a board is the - cable of its + neighbour; on a
      // size-2 ring the two boards are therefore joined by two cables.
      if (d == W) {
        for (int a = 0; a < kAggregationUnits; ++a)
          graph_.add_duplex(aggregation_unit(b, a), ring_port(d, +1), aggregation_unit(b2, a), ring_port(d, -1),
                            plus, minus);
      } else {
        for (int m = 0; m < kMainUnits; ++m)
          graph_.add_duplex(main_unit(b, m), ring_port(d, +1), main_unit(b2, m), ring_port(d, -1), plus, minus);
      }
    }
  }
}

std::array<int, Boards::kDims> Boards::board_coord(int board) const {
  std::array<int, kDims> c{};
  for (std::size_t d = 0; d < kDims; ++d) {
    c[d] = board % sizes_[d];
    board /= sizes_[d];
  }
  return c;
}

int Boards::board_id(const std::array<int, kDims>& coord) const {
  int id = 0;
  for (std::size_t d = kDims; d-- > 0;) id = id * sizes_[d] + mod(coord[d], sizes_[d]);
  return id;
}

int Boards::hops(int from, int to, int dim, RouteHint hint) const {
  const int n = size(dim);
  const int a = board_coord(from)[static_cast<std::size_t>(dim)];
  const int b = board_coord(to)[static_cast<std::size_t>(dim)];
  const auto want = static_cast<unsigned>((hint >> (2 * dim)) & 3u);
  if (want == 3) throw TopologyError("route hint: direction code 3 is not defined (boards)");
  const int up = mod(b - a, n);
  if (up == 0) return 0;
  const int down = n - up;
  if (want == static_cast<unsigned>(Direction::plus)) return up;
  if (want == static_cast<unsigned>(Direction::minus)) return -down;
  if (up != down) return up < down ? up : -down;
  return a % 2 == 0 ? up : -down;  // spec hd-allreduce: even coordinates route +, odd route -
}

}  // namespace collnet::topology

namespace collnet::topology {

std::unique_ptr<Boards> make_boards(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  auto form_error = [&](const std::string& what) {
    return TopologyError("topology '" + std::string(spec) + "': " + what +
                         "; accepted form: boards:WxXxYxZ with each size 1, 2 or 4, e.g. boards:4x4x4x4");
  };
  const std::vector<int> given =
      parse_size_list(rest, [&](std::string_view part) { return form_error("cannot read the size '" + std::string(part) + "'"); });
  constexpr auto dims = static_cast<std::size_t>(Boards::kDims);
  if (given.size() > dims) throw form_error("more than four sizes");
  if (given.size() != dims) throw form_error("expected four sizes, got " + std::to_string(given.size()));
  std::array<int, Boards::kDims> sizes{};
  std::copy(given.begin(), given.end(), sizes.begin());
  return std::make_unique<Boards>(sizes);
}

}  // namespace collnet::topology
