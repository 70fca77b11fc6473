#include "workload/workload.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "collectives/params.hpp"

namespace collnet::workload {

std::map<std::string, std::vector<int>> read_comm_groups(const std::string& file, int ranks) {
  std::ifstream in(file);
  if (!in) throw ConfigError("key 'comm_groups': cannot read '" + file + "' (missing or unreadable file)");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw ConfigError("key 'comm_groups': " + file + ": expected a JSON object of groups, {\"1\": [0, 1, 2, 3], ...}");
  std::map<std::string, std::vector<int>> groups;
  for (const auto& [name, list] : j.items()) {
    if (!list.is_array())
      throw ConfigError("key 'comm_groups': " + file + ": group '" + name + "': expected a list of ranks");
    std::vector<int> r;
    for (const auto& x : list) {
      if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::int64_t>() >= ranks)
        throw ConfigError(fmt::format("key 'comm_groups': {}: group '{}': rank {} is not one of the {} ranks (0..{})",
                                      file, name, x.dump(), ranks, ranks - 1));
      r.push_back(x.get<int>());
    }
    std::sort(r.begin(), r.end());
    if (std::adjacent_find(r.begin(), r.end()) != r.end())
      throw ConfigError("key 'comm_groups': " + file + ": group '" + name + "' names a rank twice");
    groups[name] = std::move(r);
  }
  return groups;
}

Workload load_chakra(const std::string& prefix, int ranks, const std::string& comm_groups_file) {
  Workload w;
  w.prefix = prefix;
  for (int r = 0; r < ranks; ++r) {
    const std::string file = fmt::format("{}.{}.et", prefix, r);
    if (!std::filesystem::is_regular_file(file))
      throw ConfigError(fmt::format("key 'workload': {}: the file of rank {} is missing (the network has {} "
                                    "endpoints, rank r reads PREFIX.r.et)",
                                    file, r, ranks));
    w.ranks.push_back(read_rank_file(file));
  }
  if (const std::string extra = fmt::format("{}.{}.et", prefix, ranks); std::filesystem::exists(extra))
    throw ConfigError(fmt::format("key 'workload': {}: the trace has more ranks than the network's {} endpoints "
                                  "(key 'topology')",
                                  extra, ranks));
  if (!comm_groups_file.empty()) w.groups = read_comm_groups(comm_groups_file, ranks);
  check_workload(w);
  return w;
}

const std::vector<int>& group_ranks(const Workload& w, int rank, const Node& node) {
  const auto it = w.groups.find(node.pg_name);
  if (it == w.groups.end()) {
    std::vector<std::string> known;
    for (const auto& [name, r] : w.groups)
      if (!name.empty()) known.push_back("'" + name + "'");
    throw ConfigError(where(w.ranks[static_cast<std::size_t>(rank)], node) +
                      fmt::format("field 'attr' pg_name: unknown process group '{}' on rank {}; known groups: {} "
                                  "(key comm_groups, or the METADATA_NODE's list)",
                                  node.pg_name, rank, join(known)));
  }
  return it->second;
}

namespace {

/// A node left out of the topological order sits on a cycle or behind one:
/// the error names one on the cycle.
void check_acyclic(const RankTrace& t) {
  const std::size_t n = t.nodes.size();
  const std::vector<std::uint32_t> order = topological_order(t);
  std::vector<std::uint32_t> pending(n, 1);  // 1: not in the order
  for (const std::uint32_t i : order) pending[i] = 0;
  const std::size_t done = order.size();
  if (done == n) return;
  // Walk back along unfinished dependencies until a node repeats: it is on a cycle.
  std::size_t at = 0;
  while (pending[at] == 0) ++at;
  std::vector<bool> seen(n, false);
  const char* field = "data_deps";
  std::uint64_t dep = 0;
  while (!seen[at]) {
    seen[at] = true;
    for (const auto* deps : {&t.nodes[at].data_deps, &t.nodes[at].ctrl_deps}) {
      const auto it = std::find_if(deps->begin(), deps->end(), [&](std::uint64_t d) { return pending[t.index.at(d)] > 0; });
      if (it != deps->end()) {
        field = deps == &t.nodes[at].data_deps ? "data_deps" : "ctrl_deps";
        dep = *it;
        break;
      }
    }
    at = t.index.at(dep);
  }
  // `at` is on the cycle; name it and the dependency that closes the cycle.
  const Node& node = t.nodes[at];
  for (const auto* deps : {&node.data_deps, &node.ctrl_deps})
    for (const std::uint64_t d : *deps)
      if (pending[t.index.at(d)] > 0) {
        field = deps == &node.data_deps ? "data_deps" : "ctrl_deps";
        throw ConfigError(where(t, node) + fmt::format("field '{}': dependency cycle through node {}", field, d));
      }
  throw ConfigError(where(t, node) + fmt::format("field '{}': dependency cycle", field));
}

}  // namespace

void check_workload(Workload& w) {
  const int ranks = static_cast<int>(w.ranks.size());
  for (const RankTrace& t : w.ranks) check_acyclic(t);

  // Process groups: comm_groups, then every rank's METADATA_NODE list (the
  // same name must mean the same ranks); "" and "0" are every rank.
  std::vector<int> all(static_cast<std::size_t>(ranks));
  std::iota(all.begin(), all.end(), 0);
  for (const RankTrace& t : w.ranks)
    for (const ProcessGroup& g : t.groups) {
      std::vector<int> r = g.ranks.empty() ? all : g.ranks;
      std::sort(r.begin(), r.end());
      for (const int x : r)
        if (x >= ranks)
          throw ConfigError(fmt::format("key 'workload': {}: METADATA_NODE: field 'inputs.values': group '{}' has "
                                        "rank {}, beyond the {} ranks",
                                        t.file, g.name, x, ranks));
      const auto [it, fresh] = w.groups.emplace(g.name, r);
      if (!fresh && it->second != r)
        throw ConfigError(fmt::format("key 'workload': {}: METADATA_NODE: field 'inputs.values': group '{}' has other "
                                      "ranks than comm_groups or another rank's file gives it",
                                      t.file, g.name));
    }
  w.groups[""] = all;
  if (!w.groups.count("0")) w.groups["0"] = all;

  // Collectives: on every rank of its group, in file order, the same type and size.
  std::map<std::string, std::vector<std::vector<const Node*>>> per_group;  // group -> per member: its collectives
  for (int r = 0; r < ranks; ++r) {
    const RankTrace& t = w.ranks[static_cast<std::size_t>(r)];
    for (const Node& n : t.nodes) {
      if (n.type != NodeType::comm_coll) continue;
      const std::vector<int>& members = group_ranks(w, r, n);
      const auto pos = std::lower_bound(members.begin(), members.end(), r);
      if (pos == members.end() || *pos != r)
        throw ConfigError(where(t, n) + fmt::format("field 'attr' pg_name: rank {} is not in process group '{}'", r,
                                                    n.pg_name));
      const std::string key = n.pg_name == "0" ? "" : n.pg_name;
      auto& lists = per_group[key];
      lists.resize(members.size());
      lists[static_cast<std::size_t>(pos - members.begin())].push_back(&n);
    }
  }
  for (const auto& [name, lists] : per_group) {
    const std::vector<int>& members = w.groups.at(name);
    std::size_t first = 0;  // the member with the most collectives names a missing one
    for (std::size_t m = 0; m < lists.size(); ++m)
      if (lists[m].size() > lists[first].size()) first = m;
    for (std::size_t m = 0; m < lists.size(); ++m) {
      const RankTrace& t = w.ranks[static_cast<std::size_t>(members[m])];
      const RankTrace& t0 = w.ranks[static_cast<std::size_t>(members[first])];
      if (lists[m].size() != lists[first].size()) {
        const Node& extra = *lists[first][lists[m].size()];
        throw ConfigError(where(t0, extra) +
                          fmt::format("field 'type': collective number {} of process group '{}' on rank {} has no "
                                      "match on rank {} ({} has {} collectives of the group)",
                                      lists[m].size() + 1, name, members[first], members[m], t.file, lists[m].size()));
      }
      for (std::size_t k = 0; k < lists[m].size(); ++k) {
        const Node& a = *lists[first][k];
        const Node& b = *lists[m][k];
        if (a.comm_type != b.comm_type)
          throw ConfigError(where(t, b) + fmt::format("field 'attr' comm_type: {} here, {} on rank {} (node {}): the "
                                                      "ranks of process group '{}' disagree on collective number {}",
                                                      collective_type_name(b.comm_type),
                                                      collective_type_name(a.comm_type), members[first], a.id, name,
                                                      k + 1));
        if (a.comm_size != b.comm_size)
          throw ConfigError(where(t, b) + fmt::format("field 'attr' comm_size: {} bytes here, {} on rank {} (node "
                                                      "{}): collective sizes differ between the ranks of process "
                                                      "group '{}'",
                                                      b.comm_size, a.comm_size, members[first], a.id, name));
      }
    }
  }

  // Point to point: the k-th send from s to d with tag t meets the k-th
  // receive on d from s with tag t, of the same size.
  std::map<std::tuple<int, int, std::int64_t>, std::vector<std::pair<int, const Node*>>> sends, recvs;
  for (int r = 0; r < ranks; ++r) {
    const RankTrace& t = w.ranks[static_cast<std::size_t>(r)];
    for (const Node& n : t.nodes) {
      if (n.type == NodeType::comm_send) {
        if (n.comm_dst >= ranks)
          throw ConfigError(where(t, n) + fmt::format("field 'attr' comm_dst: rank {} is not one of the {} ranks",
                                                      n.comm_dst, ranks));
        sends[{r, static_cast<int>(n.comm_dst), n.comm_tag}].emplace_back(r, &n);
      } else if (n.type == NodeType::comm_recv) {
        if (n.comm_src >= ranks)
          throw ConfigError(where(t, n) + fmt::format("field 'attr' comm_src: rank {} is not one of the {} ranks",
                                                      n.comm_src, ranks));
        recvs[{static_cast<int>(n.comm_src), r, n.comm_tag}].emplace_back(r, &n);
      }
    }
  }
  const auto unmatched = [&](const std::pair<int, const Node*>& x, bool is_send, int other) {
    const RankTrace& t = w.ranks[static_cast<std::size_t>(x.first)];
    return ConfigError(where(t, *x.second) +
                       fmt::format("field 'attr' {}: unmatched {}: rank {} has no {} rank {} with comm_tag {} for it",
                                   is_send ? "comm_dst" : "comm_src", is_send ? "send" : "receive", other,
                                   is_send ? "receive from" : "send to", x.first, x.second->comm_tag));
  };
  for (const auto& [key, list] : sends) {
    const auto it = recvs.find(key);
    const std::size_t matched = it == recvs.end() ? 0 : it->second.size();
    if (list.size() > matched) throw unmatched(list[matched], true, std::get<1>(key));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const Node& s = *list[k].second;
      const Node& r = *it->second[k].second;
      if (s.comm_size != r.comm_size)
        throw ConfigError(where(w.ranks[static_cast<std::size_t>(it->second[k].first)], r) +
                          fmt::format("field 'attr' comm_size: receives {} bytes, but its send (rank {} node {}) "
                                      "sends {}",
                                      r.comm_size, list[k].first, s.id, s.comm_size));
    }
  }
  for (const auto& [key, list] : recvs) {
    const auto it = sends.find(key);
    const std::size_t matched = it == sends.end() ? 0 : it->second.size();
    if (list.size() > matched) throw unmatched(list[matched], false, std::get<0>(key));
  }
}

std::vector<std::uint32_t> topological_order(const RankTrace& t) {
  const std::size_t n = t.nodes.size();
  std::vector<std::uint32_t> pending(n, 0);
  std::vector<std::vector<std::uint32_t>> users(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto* deps : {&t.nodes[i].data_deps, &t.nodes[i].ctrl_deps})
      for (const std::uint64_t d : *deps) {
        users[t.index.at(d)].push_back(static_cast<std::uint32_t>(i));
        ++pending[i];
      }
  std::set<std::uint32_t> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.insert(static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const std::uint32_t i = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(i);
    for (const std::uint32_t u : users[i])
      if (--pending[u] == 0) ready.insert(u);
  }
  return order;
}

}  // namespace collnet::workload
