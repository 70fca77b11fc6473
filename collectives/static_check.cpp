#include "collectives/static_check.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "collectives/params.hpp"

namespace collnet::collectives {

std::vector<std::int32_t> StaticReport::phase_max_link_load() const {
  std::vector<std::int32_t> v;
  v.reserve(phases.size());
  for (const auto& p : phases) v.push_back(p.max_link_messages);
  return v;
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
  StaticReport r;
  r.min_sends_per_node = INT32_MAX;
  for (std::size_t e = 0; e < schedule.endpoints(); ++e) {
    std::int32_t sends = 0;
    for (const Descriptor& d : schedule.programs[e]) {
      if (d.opcode == Opcode::barrier && e == 0) ++r.barriers;
      if (d.opcode != Opcode::send) continue;
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
