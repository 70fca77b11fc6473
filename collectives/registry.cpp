#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/a2a_baselines.hpp"
#include "collectives/algorithms/a2a_hopgroup.hpp"
#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithms/hd_allreduce.hpp"
#include "collectives/algorithms/innet.hpp"
#include "collectives/algorithms/standard_collectives.hpp"
#include "collectives/algorithms/tree_baselines.hpp"
#include "collectives/algorithms/tree_bcast.hpp"
#include "collectives/algorithms/twotree_hier.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {

// One factory per algorithm, defined in the algorithm's file. A family's
// header declares its factories (included above); a factory whose file has
// no header of its own is declared here. Adding an algorithm adds its entry
// below, and its declaration here or its header's include above.
// declarations:
Algorithm make_msccl();  // msccl.cpp (msccl.hpp, which schedule.hpp includes, knows no Algorithm)
// (end of declarations)

std::string topology_kind(const topology::Topology& topology) {
  const std::string& name = topology.name();
  return name.substr(0, name.find(':'));
}

bool TopologySupport::accepts(const topology::Topology& topology) const {
  if (kinds.empty()) return true;
  if (std::find(kinds.begin(), kinds.end(), topology_kind(topology)) == kinds.end()) return false;
  if (min_dims == 0 && max_dims == 0) return true;
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  return grid != nullptr && grid->dims() >= min_dims && (max_dims == 0 || grid->dims() <= max_dims);
}

std::string TopologySupport::describe() const {
  if (kinds.empty()) return "any";
  const bool grid = std::find(kinds.begin(), kinds.end(), "torus") != kinds.end() &&
                    std::find(kinds.begin(), kinds.end(), "mesh") != kinds.end();
  std::vector<std::string> parts;
  if (grid) {
    std::string sizes = "NX";
    const int shown = max_dims > 0 ? max_dims : 4;
    static constexpr const char* kSize[] = {"NX", "NY", "NZ", "NW"};
    for (int d = 1; d < std::min(shown, 4); ++d) sizes += (d < std::max(min_dims, 1) ? "x" : "[x") + std::string(kSize[d]);
    for (int d = std::max(min_dims, 1); d < std::min(shown, 4); ++d) sizes += "]";
    const std::string dims = min_dims == max_dims && min_dims > 0 ? std::to_string(min_dims) + "-D"
                             : std::to_string(std::max(min_dims, 1)) + "-D to " + std::to_string(shown) + "-D";
    parts.push_back("a " + dims + " mesh or torus (torus:" + sizes + ", mesh:" + sizes + ")");
  }
  for (const auto& k : kinds) {
    if (grid && (k == "torus" || k == "mesh")) continue;
    std::string syntax = k + ":...";
    for (const auto& f : topology::topology_forms())
      if (f.prefix == k) syntax = f.syntax;
    parts.push_back(syntax);
  }
  return join(parts, "; ");
}

void require_topology(const Algorithm& algorithm, const topology::Topology& topology) {
  if (algorithm.supports.accepts(topology)) return;
  throw ConfigError("key 'topology': algorithm '" + algorithm.name + "' does not run on '" + topology.name() +
                    "'; accepted topologies: " + algorithm.supports.describe());
}

DataSize DataSize::of_key(const Key& key) {
  DataSize d;
  d.key = key.name;
  d.value = [key](const topology::Topology&, const Params& params) { return key.integer(params); };
  return d;
}

std::int64_t words_per_rank(const Algorithm& algorithm, const topology::Topology& topology, const Params& params) {
  require_topology(algorithm, topology);
  const DataSize& d = algorithm.size;
  if (d.key.empty()) return d.words(topology, params);
  return d.value(topology, params) * (d.per_unit ? d.per_unit(topology, params) : 1);
}

CollectiveKind collective_kind(const Algorithm& algorithm, const topology::Topology& topology, const Params& params) {
  require_topology(algorithm, topology);
  return algorithm.collective ? algorithm.collective(topology, params) : CollectiveKind{};
}

std::string words_per_rank_text(const Algorithm& algorithm, const topology::Topology& topology, const Params& params) {
  require_topology(algorithm, topology);
  const DataSize& d = algorithm.size;
  if (d.key.empty()) return d.text(topology, params);
  return fmt::format("{}={}", d.key, d.value(topology, params));
}

void apply_words_per_rank(const Algorithm& algorithm, const topology::Topology& topology, Params& params,
                          std::int64_t words, const Algorithm& main) {
  require_topology(algorithm, topology);
  const DataSize& d = algorithm.size;
  const std::string size = fmt::format("{} words a rank (the size of the main run, {})", words, main.name);
  if (d.key.empty()) {
    const std::int64_t own = d.words(topology, params);
    if (own != words)
      throw ConfigError(fmt::format("{} runs {} words a rank ({}), not {}; no key sets its size, so it cannot run "
                                    "as a compare baseline of this scenario",
                                    algorithm.name, own, d.text(topology, params), size));
    return;
  }
  const std::int64_t per = d.per_unit ? d.per_unit(topology, params) : 1;
  if (per <= 0 || words % per != 0)
    throw ConfigError(fmt::format("key '{}': {} cannot run {}: it holds {} words for each of its {} ranks, so its "
                                  "words a rank are a multiple of {}",
                                  d.key, algorithm.name, size, d.key, per, per));
  const std::int64_t value = words / per;
  // A size key of the baseline alone, set in the scenario to another size:
  // refused, not overridden.
  if (main.size.key != d.key && params.has(d.key)) {
    const std::int64_t given = d.value(topology, params);
    if (given != value)
      throw ConfigError(fmt::format("key '{}': {} gives {} {} words a rank, not {}; compare runs every baseline on "
                                    "the main run's words a rank (remove '{}' or set it to {})",
                                    d.key, given, algorithm.name, given * per, size, d.key, value));
  }
  params.set(d.key, std::to_string(value));
}

namespace {

/// The entry with every function that takes a topology checking it first.
Algorithm checked(Algorithm a) {
  // The check reads the name and the declaration only: the guard keeps those.
  Algorithm id;
  id.name = a.name;
  id.supports = a.supports;
  // Every entry point that takes the topology checks it first.
  const auto guarded = [id](auto& entry) {
    if (entry)
      entry = [id, f = entry](const topology::Topology& t, const Params& p) {
        require_topology(id, t);
        return f(t, p);
      };
  };
  guarded(a.build);
  guarded(a.engine_params);
  guarded(a.forwarding_rule);
  guarded(a.footprint);
  return a;
}

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> v;
    for (auto make : std::initializer_list<Algorithm (*)()>{
             // entries:
             make_a2a_hopgroup,
             make_a2a_hopgroup_direct,
             make_a2a_optimal,
             make_a2a_spread,
             make_a2a_nd,
             make_a2a_random,
             make_tree_bcast,
             make_hd_allreduce,
             make_hd_allreduce_conventional,
             make_twotree_hier,
             make_twotree_flat,
             make_tree_single,
             make_ring_allreduce,
             make_rd_allreduce,
             make_innet_allreduce,
             make_innet_reduce,
             make_innet_bcast,
             make_binomial_bcast,
             make_binomial_reduce,
             make_ring_allgather,
             make_ring_reduce_scatter,
             make_pairwise_alltoall,
             make_msccl,
             // (end of entries)
         })
    {
      v.push_back(checked(make()));
      const DataSize& d = v.back().size;
      if (d.key.empty() ? !(d.words && d.text) : !d.value)
        throw std::logic_error("algorithm " + v.back().name + " declares no data size (Algorithm::size)");
    }
    return v;
  }();
  return all;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& a : algorithms()) names.push_back(a.name);
  return names;
}

const Algorithm* lookup_algorithm(std::string_view name) {
  const auto& all = algorithms();
  const auto it = std::find_if(all.begin(), all.end(), [&](const Algorithm& a) { return a.name == name; });
  return it == all.end() ? nullptr : &*it;
}

const Algorithm& find_algorithm(std::string_view name, std::string_view key) {
  if (const Algorithm* a = lookup_algorithm(name)) return *a;
  throw ConfigError("key '" + std::string(key) + "': unknown algorithm '" + std::string(name) +
                    "'; accepted values: " + join(algorithm_names()));
}

const Key& topology_key() {
  static const Key key = Key::text(
      "topology", "network the collective runs on", "torus:8x8",
      [] {
        std::vector<std::string> forms;
        for (const auto& f : topology::topology_forms()) forms.push_back(f.prefix + ":...");
        return join(forms) + " (see `collnet list`)";
      }(),
      [](const std::string& value) -> std::string {
        try {
          (void)topology::make_topology(value);
        } catch (const topology::TopologyError& e) {
          return e.what();
        }
        return "";
      });
  return key;
}

const Key& algorithm_key() {
  static const Key key = Key::choice("algorithm", "collective algorithm", "a2a-optimal", algorithm_names());
  return key;
}

const Key& message_flits_key() {
  static const Key key = Key::integer("message_flits",
                                      "payload words (= payload flits) of one message (all-to-all: per pair of nodes)",
                                      16, 1, 65536, "flits");
  return key;
}

const Key& packet_flits_key() {
  static const Key key = Key::integer("packet_flits", "flits per packet (one payload word each)", 4, 1, 1024);
  return key;
}

const Key& controllers_key() {
  static const Key key = [] {
    // "nct (a2a-optimal, a2a-spread, a2a-nd); ...": algorithms grouped by default
    std::vector<std::pair<std::string, std::vector<std::string>>> by_default;
    for (const auto& a : algorithms()) {
      if (a.nic.controllers == "1") continue;
      auto it = std::find_if(by_default.begin(), by_default.end(), [&](const auto& d) { return d.first == a.nic.controllers; });
      if (it == by_default.end()) by_default.push_back({a.nic.controllers, {a.name}});
      else it->second.push_back(a.name);
    }
    std::vector<std::string> defaults;
    for (const auto& [value, names] : by_default) defaults.push_back(value + " for " + join(names));
    return Key::integer("controllers", "NIC controllers per node (each with its own pacer, injection and ejection port)",
                        1, 1, 8)
        .default_from("the schedule's (" + join(defaults, "; ") + "; else 1)");
  }();
  return key;
}

const Key& dispatch_key() {
  static const Key key = [] {
    std::vector<std::string> next_idle;
    for (const auto& a : algorithms())
      if (a.nic.dispatch == Dispatch::next_idle) next_idle.push_back(a.name);
    return Key::choice("dispatch",
                       "which controller runs a SEND: named (the descriptor's controller field, own FIFO per "
                       "controller) or next-idle (one FIFO, the next idle controller); auto = next-idle for " +
                           join(next_idle) + " (document 001's NCT controllers), named otherwise",
                       "auto", {"auto", "named", "next-idle"});
  }();
  return key;
}

const std::vector<Key>& common_keys() {
  static const std::vector<Key> keys = {topology_key(), algorithm_key(), message_flits_key(), controllers_key(),
                                        dispatch_key()};
  return keys;
}

}  // namespace collnet::collectives
