#include "topology/routing.hpp"

#include <algorithm>

#include "topology/grid.hpp"

namespace collnet::topology {

// Routing functions defined in files of their own.
RoutingFunction min_adaptive_routing();  // routing_min_adaptive.cpp
RoutingFunction dor_vc_adaptive_routing();  // routing_dor_vc_adaptive.cpp
RoutingFunction valiant_routing();       // routing_valiant.cpp
RoutingFunction ugal_routing();          // routing_ugal.cpp: dragonfly
std::vector<RoutingFunction> fabric_routings();  // routing_fabrics.cpp: fat tree and dragonfly

void HopOptions::add(HopOption option) {
  if (count == kMax) throw TopologyError("routing: more than " + std::to_string(kMax) + " options at one hop");
  items[count++] = option;
}

bool RoutingFunction::runs_on(const Topology& topology) const {
  const std::string_view kind = topology_kind(topology);
  return std::find(topologies.begin(), topologies.end(), kind) != topologies.end();
}

std::string_view topology_kind(const Topology& topology) {
  const std::string_view name = topology.name();
  return name.substr(0, name.find(':'));
}

namespace {

int topology_classes(const Topology& t) { return std::max(t.vc_classes(), 1); }

// The topology's own route(): every topology's default.
Route own_route(const Topology& t, EndpointId src, EndpointId dst, RouteHint hint, std::uint64_t /*random*/) {
  return t.route(src, dst, hint);
}

RoutingFunction own(std::string name, std::string description, std::vector<std::string> kinds,
                    std::vector<std::string> keys = {}) {
  RoutingFunction f;
  f.name = std::move(name);
  f.description = std::move(description);
  f.topologies = std::move(kinds);
  f.keys = std::move(keys);
  f.vc_classes = &topology_classes;
  f.min_vcs = &topology_classes;
  f.route = &own_route;
  return f;
}

std::vector<RoutingFunction> make_registry() {
  std::vector<RoutingFunction> all;
  all.push_back(own("dor",
                    "dimension order (X, then Y, ...), minimal in every dimension, direction from the route hint "
                    "(key route_direction); torus: dateline VC classes",
                    {"mesh", "torus"}, {"route_direction", "dateline", "dateline_class"}));
  all.push_back(min_adaptive_routing());
  all.push_back(dor_vc_adaptive_routing());
  all.push_back(valiant_routing());
  all.push_back(own("unique-path", "the one path of a tree: up to the lowest common ancestor, then down", {"tree"}));
  all.push_back(own("board-relay",
                    "boards: relay through main units along the board torus, dateline VC classes on the board links",
                    {"boards"}, {"dateline"}));
  all.push_back(own("spine-policy",
                    "leaf/spine: up to the spine the route hint or the topology's static policy names, then down",
                    {"leafspine", "leafspine-wiring"}));
  for (RoutingFunction& f : fabric_routings()) all.push_back(std::move(f));
  all.push_back(ugal_routing());
  all.push_back(own("shortest",
                    "graph files: up*/down* shortest routes from the file's root, or the file's own routing table "
                    "(the file's key routing: shortest | table)",
                    {"graph"}));
  return all;
}

}  // namespace

const std::vector<RoutingFunction>& routing_functions() {
  static const std::vector<RoutingFunction> registry = make_registry();
  return registry;
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
