// The registry of routing functions (routing.hpp): one line per function or
// family, in `collnet list` order. A topology's default is the first listed
// of its kind, so every topology kind's own routing comes before the
// alternatives that run on it.
#include "topology/routing.hpp"

namespace collnet::topology {

// Declared in their files of topology/routing/.
RoutingFunction dor_routing();                   // grid.cpp: mesh, torus
RoutingFunction min_adaptive_routing();          // min_adaptive.cpp: mesh, torus
RoutingFunction dor_vc_adaptive_routing();       // dor_vc_adaptive.cpp: mesh, torus
RoutingFunction valiant_routing();               // valiant.cpp: mesh, torus
RoutingFunction unique_path_routing();           // tree.cpp
RoutingFunction board_relay_routing();           // boards.cpp
RoutingFunction spine_policy_routing();          // leafspine.cpp
std::vector<RoutingFunction> fattree_routings();    // fattree.cpp: nca, nca-random, nca-adaptive
std::vector<RoutingFunction> dragonfly_routings();  // dragonfly.cpp: min, valiant
RoutingFunction ugal_routing();                  // ugal.cpp: dragonfly
RoutingFunction ugal_booksim2_routing();         // ugal.cpp: dragonfly
std::vector<RoutingFunction> graph_routings();      // graph.cpp: shortest, table

namespace {

std::vector<RoutingFunction> make_registry() {
  std::vector<RoutingFunction> all;
  const auto add = [&all](std::vector<RoutingFunction> family) {
    for (RoutingFunction& f : family) all.push_back(std::move(f));
  };
  add({dor_routing(), min_adaptive_routing(), dor_vc_adaptive_routing(), valiant_routing()});
  add({unique_path_routing()});
  add({board_relay_routing()});
  add({spine_policy_routing()});
  add(fattree_routings());
  add(dragonfly_routings());
  add({ugal_routing(), ugal_booksim2_routing()});
  add(graph_routings());
  return all;
}

}  // namespace

const std::vector<RoutingFunction>& routing_functions() {
  static const std::vector<RoutingFunction> registry = make_registry();
  return registry;
}

}  // namespace collnet::topology
