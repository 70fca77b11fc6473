// spine-policy: server -> leaf -> (spine ->) leaf -> server on a leaf/spine
// fabric (topology/leafspine.hpp); the spine is the one the route hint names,
// else the fabric's static policy's (LeafSpine::route_spine). VC class 0:
// up/down routes cannot deadlock.
#include "topology/leafspine.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t /*random*/) {
  if (src == dst) return {};
  const LeafSpine& ls = static_cast<const LeafSpine&>(t);
  const Graph& g = ls.graph();
  const int a = ls.leaf_of(src);
  const int b = ls.leaf_of(dst);
  Route r;
  r.push_back(Hop{g.node(g.endpoint_node(src)).out_ports.at(0), 0});
  const int spine = ls.route_spine(src, dst, hint);
  if (spine >= 0) {
    const auto first_uplink_port = ls.servers(a).size();
    r.push_back(
        Hop{g.node(ls.leaf_node(a)).out_ports.at(first_uplink_port + static_cast<std::size_t>(ls.uplink_index(a, spine))),
            0});
    r.push_back(Hop{ls.down_link(spine, b), 0});
  }
  r.push_back(Hop{g.node(ls.leaf_node(b)).out_ports.at(static_cast<std::size_t>(ls.port_of(dst))), 0});
  return r;
}

}  // namespace

RoutingFunction spine_policy_routing() {
  return source_routing("spine-policy",
                        "leaf/spine: up to the spine the route hint or the topology's static policy names, then down",
                        {"leafspine", "leafspine-wiring"}, &one_class, &route);
}

}  // namespace collnet::topology
