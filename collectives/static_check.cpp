#include "collectives/static_check.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "collectives/params.hpp"
#include "topology/aggregation.hpp"

namespace collnet::collectives {

std::vector<std::int32_t> StaticReport::phase_max_link_load() const {
  std::vector<std::int32_t> v;
  v.reserve(phases.size());
  for (const auto& p : phases) v.push_back(p.max_link_messages);
  return v;
}

std::vector<topology::LinkId> innet_links(const topology::Topology& topology, const InNetwork& innet, int tree) {
  const topology::AggregationTree t = topology::aggregation_tree(topology, tree);
  const topology::Graph& g = topology.graph();
  // The switches on the way from `root`'s attachment to the tree's root
  // (bcast: the only switches its packets climb through).
  std::vector<bool> on_path(g.node_count(), false);
  for (topology::NodeId v = topology::aggregation_attachment(topology, innet.root); v != topology::kNone;
       v = t.parent[static_cast<std::size_t>(v)])
    on_path[static_cast<std::size_t>(v)] = true;
  std::vector<topology::LinkId> links;
  for (const topology::NodeId v : t.switches) {
    if (v != t.root && (innet.kind != InNetwork::Kind::bcast || on_path[static_cast<std::size_t>(v)]))
      links.push_back(t.up_link[static_cast<std::size_t>(v)]);
    for (const topology::AggregationChild& c : t.children[static_cast<std::size_t>(v)]) {
      if (c.endpoint == topology::kNone) {
        links.push_back(c.down);  // every switch of the tree gets the result (its slot frees then)
        continue;
      }
      if (c.up == topology::kNone) continue;  // the endpoint is on the switch's node
      if (innet.contributes(c.endpoint)) links.push_back(c.up);
      if (innet.receives(c.endpoint)) links.push_back(c.down);
    }
  }
  return links;
}

StaticReport static_check(const topology::Topology& topology, const Schedule& schedule) {
  if (static_cast<std::size_t>(topology.endpoint_count()) != schedule.endpoints())
    throw ConfigError(fmt::format("schedule has {} programs but topology '{}' has {} endpoints",
                                  schedule.endpoints(), topology.name(), topology.endpoint_count()));
  struct Acc {
    std::unordered_map<topology::LinkId, LinkLoad> links;
    std::unordered_map<EndpointId, std::int32_t> sends, receives;
    std::int64_t transfers = 0;
  };
  std::map<std::uint32_t, Acc> phases;
  std::set<std::uint64_t> innet_blocks;  // in-network blocks (tag << 32 | offset) whose tree links are counted
  if (schedule.innet) {
    for (std::size_t e = 0; e < schedule.endpoints(); ++e)
      for (const Descriptor& d : schedule.programs[e])
        if (d.opcode == Opcode::send && d.dest == kInNetwork && d.route_hint >= schedule.innet->trees)
          throw ConfigError(fmt::format("endpoint {}: a SEND to the aggregation trees names tree {} of {}", e,
                                        d.route_hint, schedule.innet->trees));
  }
  StaticReport r;
  r.min_sends_per_node = INT32_MAX;
  for (std::size_t e = 0; e < schedule.endpoints(); ++e) {
    std::int32_t sends = 0;
    for (const Descriptor& d : schedule.programs[e]) {
      if (d.opcode == Opcode::barrier && e == 0) ++r.barriers;
      if (d.opcode != Opcode::send) continue;
      if (d.dest == kInNetwork) {
        // A block crosses every link of its aggregation tree once: up from
        // the contributors, down to the receivers (innet_links).
        ++sends;
        ++r.transfers;
        Acc& a = phases[d.tag];
        ++a.transfers;
        ++a.sends[static_cast<EndpointId>(e)];
        if (!innet_blocks.insert((std::uint64_t{d.tag} << 32) | d.dst_offset).second) continue;
        for (const topology::LinkId link : innet_links(topology, *schedule.innet, d.route_hint)) {
          LinkLoad& l = a.links[link];
          l.link = link;
          ++l.messages;
          l.flits += d.length;
        }
        continue;
      }
      if (d.dest == e) {
        ++r.local_copies;
        continue;
      }
      ++sends;
      ++r.transfers;
      Acc& a = phases[d.tag];
      ++a.transfers;
      ++a.sends[static_cast<EndpointId>(e)];
      ++a.receives[static_cast<EndpointId>(d.dest)];
      for (const auto& hop : topology.route(static_cast<EndpointId>(e), static_cast<EndpointId>(d.dest), d.route_hint)) {
        LinkLoad& l = a.links[hop.link];
        l.link = hop.link;
        ++l.messages;
        l.flits += d.length;
      }
    }
    r.min_sends_per_node = std::min(r.min_sends_per_node, sends);
    r.max_sends_per_node = std::max(r.max_sends_per_node, sends);
  }
  if (schedule.endpoints() == 0) r.min_sends_per_node = 0;
  for (auto& [tag, a] : phases) {
    PhaseReport p;
    p.tag = tag;
    p.transfers = a.transfers;
    for (auto& [id, l] : a.links) {
      p.max_link_messages = std::max(p.max_link_messages, l.messages);
      p.max_link_flits = std::max(p.max_link_flits, l.flits);
      p.links.push_back(l);
    }
    std::sort(p.links.begin(), p.links.end(), [](const LinkLoad& x, const LinkLoad& y) { return x.link < y.link; });
    for (const auto& [n, c] : a.sends) p.max_sends_per_node = std::max(p.max_sends_per_node, c);
    for (const auto& [n, c] : a.receives) p.max_receives_per_node = std::max(p.max_receives_per_node, c);
    r.static_time += p.max_link_flits;
    r.max_link_load = std::max(r.max_link_load, p.max_link_messages);
    r.phases.push_back(std::move(p));
  }
  return r;
}

}  // namespace collnet::collectives
