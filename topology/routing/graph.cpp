// shortest and table: the routes of a network read from a YAML file
// (graph:FILE.yaml, topology/graph_file.hpp), following the next-link tables
// the file gives: up*/down* shortest routes from the file's root (a file
// without a table), or the file's own routing table. VC class 0 on every
// hop (both are checked deadlock free when the file is read); the route
// hint is ignored.
#include <stdexcept>
#include <string>

#include "topology/graph_file.hpp"
#include "topology/routing/entry.hpp"

namespace collnet::topology {

namespace {

bool without_table(const Topology& t) { return !static_cast<const GraphNetwork&>(t).has_table(); }
bool with_table(const Topology& t) { return static_cast<const GraphNetwork&>(t).has_table(); }

Route route(const Topology& t, EndpointId src, EndpointId dst, RouteHint /*hint*/, std::uint64_t /*random*/) {
  const GraphNetwork& net = static_cast<const GraphNetwork&>(t);
  const Graph& g = net.graph();
  if (src < 0 || dst < 0 || src >= t.endpoint_count() || dst >= t.endpoint_count())
    throw TopologyError("route: endpoint out of range 0.." + std::to_string(t.endpoint_count() - 1));
  Route r;
  NodeId at = g.endpoint_node(src);
  const NodeId target = g.endpoint_node(dst);
  int phase = 0;
  while (at != target) {
    const LinkId l = net.next_link(at, phase, dst);
    if (l == kNone || r.size() > g.node_count())
      throw std::logic_error("graph " + t.name() + ": no route from endpoint " + std::to_string(src) + " to " +
                             std::to_string(dst));
    r.push_back(Hop{l, 0});
    if (!net.has_table() && !net.goes_up(l)) phase = 1;
    at = g.link(l).dst;
  }
  return r;
}

RoutingFunction entry(std::string name, std::string description, bool (*accepts)(const Topology&),
                      std::string when) {
  RoutingFunction f = source_routing(std::move(name), std::move(description), {"graph"}, &one_class, &route);
  f.accepts = accepts;
  f.accepts_when = std::move(when);
  return f;
}

}  // namespace

std::vector<RoutingFunction> graph_routings() {
  return {
      entry("shortest",
            "graph files: up*/down* shortest routes from the file's root (the file's key routing: shortest)",
            &without_table, "a file without a routing table"),
      entry("table", "graph files: the file's own routing table (the file's key routing: table)", &with_table,
            "a file with a routing table"),
  };
}

}  // namespace collnet::topology
