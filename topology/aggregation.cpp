#include "topology/aggregation.hpp"

#include <algorithm>
#include <deque>
#include <string>

namespace collnet::topology {

namespace {

/// Rank of an aggregating kind for the choice of roots (higher: nearer the top).
int kind_rank(NodeKind kind) {
  switch (kind) {
    case NodeKind::spine: return 3;
    case NodeKind::leaf: return 2;
    case NodeKind::tree_node: return 1;
    default: return 0;
  }
}

/// The aggregating neighbours of `node` (a link each way), ascending, once each.
std::vector<NodeId> switch_neighbours(const Graph& g, NodeId node) {
  std::vector<NodeId> out;
  for (const LinkId l : g.node(node).out_ports) {
    if (l == kNone) continue;
    const NodeId other = g.link(l).dst;
    if (aggregates(g.node(other).kind) && g.find_link(other, node) != kNone) out.push_back(other);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// Switch hops from `from` to every node over aggregating switches (-1: unreached).
std::vector<int> distances(const Graph& g, NodeId from) {
  std::vector<int> d(g.node_count(), -1);
  std::deque<NodeId> queue{from};
  d[static_cast<std::size_t>(from)] = 0;
  while (!queue.empty()) {
    const NodeId v = queue.front();
    queue.pop_front();
    for (const NodeId w : switch_neighbours(g, v)) {
      if (d[static_cast<std::size_t>(w)] >= 0) continue;
      d[static_cast<std::size_t>(w)] = d[static_cast<std::size_t>(v)] + 1;
      queue.push_back(w);
    }
  }
  return d;
}

std::vector<NodeId> attachments(const Topology& topology) {
  std::vector<NodeId> a;
  for (EndpointId e = 0; e < topology.endpoint_count(); ++e) a.push_back(aggregation_attachment(topology, e));
  return a;
}

}  // namespace

bool aggregates(NodeKind kind) { return kind_rank(kind) > 0; }

NodeId aggregation_attachment(const Topology& topology, EndpointId e) {
  const Graph& g = topology.graph();
  const NodeId node = g.endpoint_node(e);
  if (aggregates(g.node(node).kind)) return node;
  if (g.node(node).kind != NodeKind::server) return kNone;
  // a server: the one switch on its cable(s)
  NodeId attached = kNone;
  for (const LinkId l : g.node(node).out_ports) {
    if (l == kNone) continue;
    const NodeId other = g.link(l).dst;
    if (!aggregates(g.node(other).kind) || g.find_link(other, node) == kNone) return kNone;
    if (attached != kNone && attached != other) return kNone;
    attached = other;
  }
  return attached;
}

std::string aggregation_problem(const Topology& topology) {
  const Graph& g = topology.graph();
  if (topology.endpoint_count() == 0) return "the topology has no endpoints";
  const std::vector<NodeId> attach = attachments(topology);
  for (EndpointId e = 0; e < topology.endpoint_count(); ++e) {
    if (attach[static_cast<std::size_t>(e)] == kNone)
      return "the switches of " + topology.name() + " cannot aggregate (endpoint " + std::to_string(e) + ", node " +
             g.node_name(g.endpoint_node(e)) + ", is a " + to_string(g.node(g.endpoint_node(e)).kind) +
             " that hangs under no aggregating switch); in-network collectives run on leaf/spine fabrics, fat trees "
             "and tree networks";
  }
  const std::vector<int> d = distances(g, attach[0]);
  for (EndpointId e = 0; e < topology.endpoint_count(); ++e)
    if (d[static_cast<std::size_t>(attach[static_cast<std::size_t>(e)])] < 0)
      return "the aggregating switches of " + topology.name() + " do not connect endpoint 0's switch to endpoint " +
             std::to_string(e) + "'s";
  return {};
}

std::vector<NodeId> aggregation_roots(const Topology& topology) {
  if (!aggregation_problem(topology).empty()) return {};
  const Graph& g = topology.graph();
  int top = 0;
  for (NodeId v = 0; v < static_cast<NodeId>(g.node_count()); ++v) top = std::max(top, kind_rank(g.node(v).kind));
  const std::vector<NodeId> attach = attachments(topology);
  std::vector<NodeId> roots;
  int best = -1;
  for (NodeId v = 0; v < static_cast<NodeId>(g.node_count()); ++v) {
    if (kind_rank(g.node(v).kind) != top) continue;
    const std::vector<int> d = distances(g, v);
    int eccentricity = 0;
    for (const NodeId a : attach) {
      const int da = d[static_cast<std::size_t>(a)];
      eccentricity = da < 0 ? -1 : std::max(eccentricity, da);
      if (da < 0) break;
    }
    if (eccentricity < 0) continue;
    if (best < 0 || eccentricity < best) {
      best = eccentricity;
      roots.clear();
    }
    if (eccentricity == best) roots.push_back(v);
  }
  return roots;
}

AggregationTree aggregation_tree(const Topology& topology, int index) {
  if (const std::string problem = aggregation_problem(topology); !problem.empty()) throw TopologyError(problem);
  const Graph& g = topology.graph();
  const std::vector<NodeId> roots = aggregation_roots(topology);
  const std::size_t nodes = g.node_count();
  AggregationTree t;
  t.root = roots.at(static_cast<std::size_t>(index) % roots.size());
  t.parent.assign(nodes, kNone);
  t.up_link.assign(nodes, kNone);
  t.children.assign(nodes, {});
  const std::vector<int> d = distances(g, t.root);

  // Attachments per switch, and which switches have endpoints at or below them.
  std::vector<std::vector<EndpointId>> attached(nodes);
  for (EndpointId e = 0; e < topology.endpoint_count(); ++e)
    attached[static_cast<std::size_t>(aggregation_attachment(topology, e))].push_back(e);
  // Parents: one hop nearer the root, the ((index + node) mod count)-th candidate.
  std::vector<NodeId> order;
  for (NodeId v = 0; v < static_cast<NodeId>(nodes); ++v)
    if (d[static_cast<std::size_t>(v)] >= 0) order.push_back(v);
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return d[static_cast<std::size_t>(a)] < d[static_cast<std::size_t>(b)]; });
  std::vector<NodeId> candidate_parent(nodes, kNone);
  for (const NodeId v : order) {
    if (v == t.root) continue;
    std::vector<NodeId> nearer;
    for (const NodeId w : switch_neighbours(g, v))
      if (d[static_cast<std::size_t>(w)] == d[static_cast<std::size_t>(v)] - 1) nearer.push_back(w);
    candidate_parent[static_cast<std::size_t>(v)] =
        nearer[(static_cast<std::size_t>(index) + static_cast<std::size_t>(v)) % nearer.size()];
  }
  // Keep the switches with attachments below them: mark from each attachment up.
  std::vector<bool> kept(nodes, false);
  for (NodeId v = 0; v < static_cast<NodeId>(nodes); ++v) {
    if (attached[static_cast<std::size_t>(v)].empty()) continue;
    for (NodeId w = v; w != kNone && !kept[static_cast<std::size_t>(w)]; w = candidate_parent[static_cast<std::size_t>(w)])
      kept[static_cast<std::size_t>(w)] = true;
  }
  for (const NodeId v : order) {
    if (!kept[static_cast<std::size_t>(v)]) continue;
    t.switches.push_back(v);
    t.levels = std::max(t.levels, d[static_cast<std::size_t>(v)] + 1);
    for (const EndpointId e : attached[static_cast<std::size_t>(v)]) {
      const NodeId en = g.endpoint_node(e);
      AggregationChild c;
      c.endpoint = e;
      if (en != v) {
        c.up = g.find_link(en, v);
        c.down = g.find_link(v, en);
      }
      t.children[static_cast<std::size_t>(v)].push_back(c);
    }
    if (v == t.root) continue;
    const NodeId p = candidate_parent[static_cast<std::size_t>(v)];
    t.parent[static_cast<std::size_t>(v)] = p;
    t.up_link[static_cast<std::size_t>(v)] = g.find_link(v, p);
  }
  // Child switches in node order, after the endpoints.
  for (NodeId v = 0; v < static_cast<NodeId>(nodes); ++v) {
    const NodeId p = t.parent[static_cast<std::size_t>(v)];
    if (p == kNone) continue;
    t.children[static_cast<std::size_t>(p)].push_back(
        AggregationChild{kNone, v, t.up_link[static_cast<std::size_t>(v)], g.find_link(p, v)});
  }
  for (const NodeId v : t.switches) {
    const auto count = t.children[static_cast<std::size_t>(v)].size();
    if (count > static_cast<std::size_t>(kMaxAggregationChildren))
      throw TopologyError("the aggregation tree rooted at " + g.node_name(t.root) + " gives switch " +
                          g.node_name(v) + " " + std::to_string(count) + " children; its aggregation engine has " +
                          std::to_string(kMaxAggregationChildren) + " child ports (a smaller fabric fits)");
  }
  return t;
}

}  // namespace collnet::topology
