#include "topology/grid.hpp"

#include <array>
#include <cstdlib>
#include <string>

namespace collnet::topology {

namespace {
std::string grid_name(const std::vector<int>& sizes, bool torus, const std::vector<Bandwidth>& bandwidth) {
  std::string s = torus ? "torus:" : "mesh:";
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (d) s += 'x';
    s += std::to_string(sizes[d]);
  }
  for (std::size_t d = 0; d < bandwidth.size(); ++d)
    if (!bandwidth[d].unit()) s += ",bandwidth_" + std::to_string(d) + "=" + to_string(bandwidth[d]);
  return s;
}
int mod(int a, int n) { return ((a % n) + n) % n; }
}  // namespace

Grid::Grid(std::vector<int> sizes, bool torus, std::vector<Bandwidth> bandwidth)
    : Topology(grid_name(sizes, torus, bandwidth)), sizes_(std::move(sizes)), torus_(torus) {
  bandwidth.resize(sizes_.size());
  if (sizes_.empty() || sizes_.size() > 4)
    throw TopologyError("topology: a mesh or torus needs 1 to 4 dimensions, got " +
                        std::to_string(sizes_.size()));
  long total = 1;
  for (int s : sizes_) {
    if (s < 1) throw TopologyError("topology: every size must be >= 1, got " + std::to_string(s));
    total *= s;
    if (total > (1 << 16)) throw TopologyError("topology: at most 65536 nodes are supported");
  }
  for (long i = 0; i < total; ++i) graph_.attach_endpoint(graph_.add_node(NodeKind::router, static_cast<int>(i)));
  for (long i = 0; i < total; ++i) {
    const auto c = coord(static_cast<EndpointId>(i));
    for (int d = 0; d < dims(); ++d) {
      const int n = size(d);
      if (n == 1) continue;
      const bool last = c[static_cast<std::size_t>(d)] == n - 1;
      if (last && !torus_) continue;
      auto next = c;
      next[static_cast<std::size_t>(d)] = mod(c[static_cast<std::size_t>(d)] + 1, n);
      const EndpointId j = id(next);
      Link plus{};
      plus.dim = static_cast<std::int8_t>(d);
      plus.dir = +1;
      plus.wrap = last;
      plus.bandwidth = bandwidth[static_cast<std::size_t>(d)];
      Link minus = plus;
      minus.dir = -1;
      // The + cable of i is the - cable of its + neighbour.
      graph_.add_duplex(static_cast<NodeId>(i), 2 * d, static_cast<NodeId>(j), 2 * d + 1, plus, minus);
    }
  }
}

std::vector<int> Grid::coord(EndpointId id) const {
  std::vector<int> c(sizes_.size());
  for (std::size_t d = 0; d < sizes_.size(); ++d) {
    c[d] = id % sizes_[d];
    id /= sizes_[d];
  }
  return c;
}

EndpointId Grid::id(std::span<const int> coord) const {
  if (coord.size() != sizes_.size()) throw TopologyError("coordinate has the wrong number of dimensions");
  EndpointId id = 0;
  for (std::size_t d = sizes_.size(); d-- > 0;) id = id * sizes_[d] + mod(coord[d], sizes_[d]);
  return id;
}

EndpointId Grid::shifted(EndpointId from, std::span<const int> offset) const {
  auto c = coord(from);
  for (std::size_t d = 0; d < c.size(); ++d) c[d] += offset[d];
  return id(c);
}

LinkId Grid::link(EndpointId node, int dim, int dir) const {
  const auto& ports = graph_.node(graph_.endpoint_node(node)).out_ports;
  const auto port = static_cast<std::size_t>(2 * dim + (dir > 0 ? 0 : 1));
  return port < ports.size() ? ports[port] : kNone;
}

int Grid::hops(EndpointId src, EndpointId dst, int dim, RouteHint hint) const {
  const int n = size(dim);
  // Component `dim` of the coordinates (as coord() computes them), without
  // building the vectors: routes are computed per packet.
  for (int d = 0; d < dim; ++d) {
    src /= sizes_[static_cast<std::size_t>(d)];
    dst /= sizes_[static_cast<std::size_t>(d)];
  }
  const int a = src % n;
  const int b = dst % n;
  const Direction want = hint_direction(hint, dim);
  if (!torus_) {
    const int delta = b - a;
    if ((want == Direction::plus && delta < 0) || (want == Direction::minus && delta > 0))
      throw TopologyError("route hint: a mesh cannot route " + std::string(delta < 0 ? "+" : "-") +
                          " from " + std::to_string(a) + " to " + std::to_string(b) + " in dimension " +
                          std::to_string(dim));
    return delta;
  }
  const int up = mod(b - a, n);
  if (up == 0) return 0;
  const int down = n - up;
  switch (want) {
    case Direction::plus: return up;
    case Direction::minus: return -down;
    case Direction::minimal_tie_minus: return up < down ? up : -down;  // tie: - direction
    default: return up <= down ? up : -down;  // tie (up == down == N/2): + direction
  }
}

}  // namespace collnet::topology
