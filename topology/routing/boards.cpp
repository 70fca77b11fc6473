// board-relay: the routes of the boards of the halving/doubling design
// (topology/boards.hpp): through the board torus, W on the aggregation units'
// ring, X, Y, Z relayed through main units; in-board hops between units.
// Dateline VC classes on the board links (class 1 from a ring's wrap link
// on), so the default needs 2 VCs with dateline.
#include <array>
#include <cstdlib>
#include <string>

#include "topology/boards.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

int classes(const Topology&) { return 2; }

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t /*random*/) {
  using B = Boards;
  const Boards& boards = static_cast<const Boards&>(t);
  const Graph& graph = t.graph();
  const auto count = static_cast<EndpointId>(t.endpoint_count());
  if (src < 0 || src >= count || dst < 0 || dst >= count)
    throw TopologyError("boards route: endpoint out of range 0.." + std::to_string(count - 1));
  Route r;
  if (src == dst) return r;
  const int bs = B::board_of(src);
  const int bd = B::board_of(dst);
  std::array<int, B::kDims> h{};
  for (int d = 0; d < B::kDims; ++d) h[static_cast<std::size_t>(d)] = boards.hops(bs, bd, d, hint);
  const int plane = !B::is_main_unit(src)   ? B::unit_index(src)
                    : !B::is_main_unit(dst) ? B::unit_index(dst)
                                            : B::unit_index(src) / 2;

  NodeId cur = src;  // node id = endpoint id
  auto in_board = [&](NodeId next) {
    r.push_back(Hop{graph.find_link(cur, next), 0});
    cur = next;
  };
  auto ring = [&](int d) {
    const int n = h[static_cast<std::size_t>(d)];
    const int dir = n > 0 ? +1 : -1;
    std::uint8_t vc = 0;
    for (int i = 0; i < std::abs(n); ++i) {
      const LinkId l = graph.node(cur).out_ports.at(static_cast<std::size_t>(B::ring_port(d, dir)));
      if (graph.link(l).wrap) vc = 1;
      r.push_back(Hop{l, vc});
      cur = graph.link(l).dst;
    }
  };

  if (h[B::W] != 0) {
    if (B::is_main_unit(cur)) in_board(B::aggregation_unit(bs, plane));
    ring(B::W);
  }
  int first = -1;
  for (int d = B::X; d <= B::Z && first < 0; ++d)
    if (h[static_cast<std::size_t>(d)] != 0) first = d;
  if (first >= 0) {
    // spec hd-allreduce: relay, plane a uses main unit 2a (+) or 2a+1 (-).
    if (!B::is_main_unit(cur))
      in_board(B::main_unit(B::board_of(cur),
                            2 * B::unit_index(cur) + (h[static_cast<std::size_t>(first)] < 0 ? 1 : 0)));
    for (int d = B::X; d <= B::Z; ++d) ring(d);
  }
  while (cur != dst) {
    const int b = B::board_of(cur);
    if (B::is_main_unit(cur) != B::is_main_unit(dst)) in_board(dst);
    else if (B::is_main_unit(cur)) in_board(B::aggregation_unit(b, B::unit_index(cur) / 2));
    else in_board(B::main_unit(b, 2 * B::unit_index(cur)));
  }
  return r;
}

}  // namespace

RoutingFunction board_relay_routing() {
  RoutingFunction f = source_routing(
      "board-relay", "boards: relay through main units along the board torus, dateline VC classes on the board links",
      {"boards"}, &classes, &route);
  f.keys = {"dateline"};
  return f;
}

}  // namespace collnet::topology
