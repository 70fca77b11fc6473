#include "topology/routing.hpp"

#include <algorithm>
#include <atomic>

namespace collnet::topology {

void HopOptions::add(HopOption option) {
  if (count == kMax) throw TopologyError("routing: more than " + std::to_string(kMax) + " options at one hop");
  items[count++] = option;
}

bool RoutingFunction::runs_on(const Topology& topology) const {
  const std::string_view kind = topology_kind(topology);
  return std::find(topologies.begin(), topologies.end(), kind) != topologies.end() &&
         (accepts == nullptr || accepts(topology));
}

Route Topology::route(EndpointId src, EndpointId dst, RouteHint hint) const {
  const RoutingFunction* f = default_routing_.load(std::memory_order_relaxed);
  if (f == nullptr) {
    f = &default_routing(*this);
    default_routing_.store(f, std::memory_order_relaxed);
  }
  return f->route(*this, src, dst, hint, 0);
}

std::string_view topology_kind(const Topology& topology) {
  const std::string_view name = topology.name();
  return name.substr(0, name.find(':'));
}

std::vector<const RoutingFunction*> routings_of_kind(std::string_view kind) {
  std::vector<const RoutingFunction*> of;
  for (const auto& f : routing_functions())
    if (std::find(f.topologies.begin(), f.topologies.end(), kind) != f.topologies.end()) of.push_back(&f);
  return of;
}

namespace {

std::string join(const std::vector<std::string>& items, std::string_view last) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? std::string(last) : std::string(", ")) + items[i];
  return text;
}

}  // namespace

std::string routing_names_by_kind() {
  // One group per distinct list of kinds, in registry order: "dor, ... or
  // valiant on mesh, torus; ...".
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups;  // kinds -> names
  for (const auto& f : routing_functions()) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == f.topologies; });
    if (it == groups.end()) it = groups.insert(groups.end(), {f.topologies, {}});
    it->second.push_back(f.name);
  }
  std::string text;
  for (const auto& [kinds, names] : groups)
    text += (text.empty() ? "" : "; ") + join(names, " or ") + " on " + join(kinds, ", ");
  return text;
}

std::string routing_defaults_by_kind() {
  // Per list of kinds, its first function; functions that accept only some
  // topologies of their kind are each the default of those.
  std::string text;
  std::vector<std::vector<std::string>> seen;
  for (const auto& f : routing_functions()) {
    if (std::find(seen.begin(), seen.end(), f.topologies) != seen.end()) continue;
    std::string kinds = join(f.topologies, ", ");
    std::vector<std::string> defaults;
    for (const RoutingFunction* g : routings_of_kind(f.topologies.front())) {
      defaults.push_back(g->name + (g->accepts != nullptr ? " (" + kinds + ": " + g->accepts_when + ")" : ""));
      if (g->accepts == nullptr) break;
    }
    if (f.accepts == nullptr) defaults.back() += " (" + kinds + ")";
    text += (text.empty() ? "" : ", ") + join(defaults, ", ");
    seen.push_back(f.topologies);
  }
  return text;
}

const RoutingFunction& default_routing(const Topology& topology) {
  // The first registered function that runs on the topology's kind (the
  // topology's own route() is registered before any alternative).
  for (const auto& f : routing_functions())
    if (f.runs_on(topology)) return f;
  throw TopologyError("key 'routing': no routing function runs on " + topology.name());
}

const RoutingFunction& find_routing(std::string_view name, const Topology& topology) {
  if (name.empty()) return default_routing(topology);
  std::string accepted;
  const RoutingFunction* named = nullptr;
  for (const auto& f : routing_functions()) {
    if (f.runs_on(topology)) accepted += (accepted.empty() ? "" : ", ") + f.name;
    // Two topologies may each have a function of one name (valiant): the
    // one that runs on this topology.
    if (f.name == name && (named == nullptr || f.runs_on(topology))) named = &f;
  }
  if (named != nullptr && named->runs_on(topology)) return *named;
  std::string why = named == nullptr ? "unknown routing function '" + std::string(name) + "'"
                                     : "'" + std::string(name) + "' does not run on " + topology.name();
  throw TopologyError("key 'routing': " + why + "; accepted on " + topology.name() + ": " + accepted);
}

std::vector<std::pair<int, int>> class_layout(const RoutingFunction& routing, const Topology& topology, int classes,
                                              int vcs) {
  if (classes > 1 && routing.vc_layout != nullptr) return routing.vc_layout(topology, vcs);
  // Even split: class k owns the VCs v with v * classes / vcs == k.
  std::vector<std::pair<int, int>> layout(static_cast<std::size_t>(std::max(classes, 1)), {vcs, 0});
  for (int v = 0; v < vcs; ++v) {
    auto& [first, end] = layout[static_cast<std::size_t>(v * static_cast<int>(layout.size()) / vcs)];
    first = std::min(first, v);
    end = std::max(end, v + 1);
  }
  return layout;
}

std::uint64_t packet_random(std::uint64_t seed, EndpointId source, std::uint64_t sequence) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (static_cast<std::uint64_t>(source) << 40) + sequence;
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace collnet::topology
