#include "collectives/algorithms/leafspine_placement.hpp"

#include <algorithm>
#include <map>

#include "collectives/params.hpp"

namespace collnet::collectives {

std::vector<std::vector<EndpointId>> leafspine_groups(const topology::LeafSpine& fabric, Grouping grouping) {
  std::map<std::vector<int>, std::vector<EndpointId>> by_spines;  // spine_set grouping
  std::vector<std::vector<EndpointId>> groups;
  for (int leaf = 0; leaf < fabric.leaf_count(); ++leaf) {
    const auto& servers = fabric.servers(leaf);
    if (servers.empty()) continue;
    if (grouping == Grouping::leaf) {
      groups.push_back(servers);
      continue;
    }
    auto spines = fabric.uplinks(leaf);
    std::sort(spines.begin(), spines.end());
    auto& g = by_spines[spines];
    g.insert(g.end(), servers.begin(), servers.end());
  }
  for (auto& [spines, servers] : by_spines) groups.push_back(std::move(servers));
  for (auto& g : groups) std::sort(g.begin(), g.end());
  // Endpoint ids follow server labels, so the first server orders the groups.
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return groups;
}

namespace {
Placement empty_placement(int endpoints, int processes) {
  Placement p;
  p.processes = processes;
  p.rank_of_endpoint.assign(static_cast<std::size_t>(endpoints), -1);
  return p;
}

[[noreturn]] void too_many(int processes, int endpoints) {
  throw ConfigError("key 'processes': " + std::to_string(processes) + " processes do not fit " +
                    std::to_string(endpoints) + " servers; accepted values: 1 to " + std::to_string(endpoints));
}
}  // namespace

Placement place_grouped(const topology::LeafSpine& fabric, Grouping grouping, int processes) {
  const int endpoints = fabric.endpoint_count();
  if (processes < 1 || processes > endpoints) too_many(processes, endpoints);
  const auto servers = leafspine_groups(fabric, grouping);
  std::size_t capacity = servers.front().size();
  for (const auto& g : servers) capacity = std::min(capacity, g.size());
  const int used = std::min(static_cast<int>(servers.size()),
                            (processes + static_cast<int>(capacity) - 1) / static_cast<int>(capacity));
  // Share of each group: n = P / G, the first P mod G one more; excess over a
  // group's size moves on to the next groups.
  std::vector<int> share(static_cast<std::size_t>(used));
  for (int g = 0; g < used; ++g) share[static_cast<std::size_t>(g)] = processes / used + (g < processes % used ? 1 : 0);
  int carry = 0;
  for (std::size_t g = 0; g < servers.size(); ++g) {
    if (g >= share.size()) {
      if (carry == 0) break;
      share.push_back(0);
    }
    share[g] += carry;
    carry = std::max(0, share[g] - static_cast<int>(servers[g].size()));
    share[g] -= carry;
  }
  if (carry > 0) too_many(processes, endpoints);  // cannot happen: processes <= endpoints
  Placement p = empty_placement(endpoints, processes);
  int rank = 0;
  for (std::size_t g = 0; g < share.size(); ++g) {
    if (share[g] == 0) continue;
    std::vector<int> ranks;
    for (int i = 0; i < share[g]; ++i, ++rank) {
      const EndpointId e = servers[g][static_cast<std::size_t>(i)];
      p.endpoint_of_rank.push_back(e);
      p.rank_of_endpoint[static_cast<std::size_t>(e)] = rank;
      ranks.push_back(rank);
    }
    p.representatives.push_back(ranks.front());
    p.groups.push_back(std::move(ranks));
  }
  return p;
}

Placement place_consecutive(int endpoints, int processes) {
  if (processes < 1 || processes > endpoints) too_many(processes, endpoints);
  Placement p = empty_placement(endpoints, processes);
  std::vector<int> ranks;
  for (int r = 0; r < processes; ++r) {
    p.endpoint_of_rank.push_back(r);
    p.rank_of_endpoint[static_cast<std::size_t>(r)] = r;
    ranks.push_back(r);
  }
  p.representatives = {0};
  p.groups = {std::move(ranks)};
  return p;
}

}  // namespace collnet::collectives
