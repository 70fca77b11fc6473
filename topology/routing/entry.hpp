// What the registry entries of topology/routing/ share: a name, a line for
// `collnet list`, the topology kinds, and one count of VC classes that is
// also the fewest VCs the function runs deadlock-free with. A file builds its
// entry with these and adds what is its own (route or next_hops, keys,
// per_packet_random, vc_layout, selection).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "topology/routing.hpp"

namespace collnet::topology {

/// RoutingFunction::vc_classes and min_vcs of a function whose routes use any VC.
inline int one_class(const Topology& /*topology*/) { return 1; }

inline RoutingFunction routing_entry(std::string name, std::string description, std::vector<std::string> topologies,
                                     int (*classes)(const Topology&)) {
  RoutingFunction f;
  f.name = std::move(name);
  f.description = std::move(description);
  f.topologies = std::move(topologies);
  f.vc_classes = classes;
  f.min_vcs = classes;
  return f;
}

/// The entry of a source-routed function.
inline RoutingFunction source_routing(std::string name, std::string description, std::vector<std::string> topologies,
                                      int (*classes)(const Topology&),
                                      Route (*route)(const Topology&, EndpointId, EndpointId, RouteHint,
                                                     std::uint64_t)) {
  RoutingFunction f = routing_entry(std::move(name), std::move(description), std::move(topologies), classes);
  f.route = route;
  return f;
}

}  // namespace collnet::topology
