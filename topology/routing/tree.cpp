// unique-path: the one path of a tree (topology/tree.hpp), up from the
// deeper end to the lowest common ancestor, then down; VC class 0 (a tree
// has no cycle to deadlock on). The route hint is ignored.
#include "topology/routing/entry.hpp"
#include "topology/tree.hpp"

namespace collnet::topology {

namespace {

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint /*hint*/, std::uint64_t /*random*/) {
  const Tree& tree = static_cast<const Tree&>(t);
  // Climb from the deeper end until both meet at the lowest common ancestor;
  // the hops from dst's side are collected reversed.
  Route up, down;
  EndpointId a = src, b = dst;
  while (a != b) {
    if (tree.depth(a) >= tree.depth(b)) {
      up.push_back(Hop{tree.link_between(a, tree.parent(a)), 0});
      a = tree.parent(a);
    } else {
      down.push_back(Hop{tree.link_between(tree.parent(b), b), 0});
      b = tree.parent(b);
    }
  }
  up.insert(up.end(), down.rbegin(), down.rend());
  return up;
}

}  // namespace

RoutingFunction unique_path_routing() {
  return source_routing("unique-path", "the one path of a tree: up to the lowest common ancestor, then down",
                        {"tree"}, &one_class, &route);
}

}  // namespace collnet::topology
