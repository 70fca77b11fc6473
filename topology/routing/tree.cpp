// unique-path: the one path of a tree (topology/tree.hpp), up from the
// deeper end to the lowest common ancestor, then down; VC class 0 (a tree
// has no cycle to deadlock on). The route hint is ignored.
#include "topology/routing.hpp"
#include "topology/tree.hpp"

namespace collnet::topology {

namespace {

int one_class(const Topology&) { return 1; }

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
  RoutingFunction f;
  f.name = "unique-path";
  f.description = "the one path of a tree: up to the lowest common ancestor, then down";
  f.topologies = {"tree"};
  f.vc_classes = &one_class;
  f.min_vcs = &one_class;
  f.route = &route;
  return f;
}

}  // namespace collnet::topology
