#include "fuzz/entry.hpp"

#include <cstring>
#include <stdexcept>
#include <string_view>

#include "collectives/descriptor.hpp"
#include "collectives/params.hpp"
#include "cli/run.hpp"
#include "cli/scenario.hpp"
#include "topology/graph_file.hpp"
#include "workload/workload.hpp"
#include "collectives/algorithms/msccl.hpp"
#include "topology/leafspine.hpp"
#include "topology/topology.hpp"

namespace collnet::fuzz {

namespace {

std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Routes a few endpoint pairs of a built topology: every route is a
/// connected path from the source's node to the destination's node.
void route_some(const topology::Topology& t) {
  const auto n = t.endpoint_count();
  if (n <= 0) throw std::logic_error("topology '" + t.name() + "' has no endpoint");
  const topology::Graph& g = t.graph();
  const topology::EndpointId pairs[][2] = {{0, n - 1}, {n - 1, 0}, {n / 2, n / 3}, {0, 0}};
  for (const auto& pr : pairs) {
    const auto route = t.route(pr[0], pr[1]);
    topology::NodeId at = g.endpoint_node(pr[0]);
    for (const auto& hop : route) {
      if (g.link(hop.link).src != at) throw std::logic_error(t.name() + ": route is not a connected path");
      at = g.link(hop.link).dst;
    }
    if (at != g.endpoint_node(pr[1])) throw std::logic_error(t.name() + ": route ends elsewhere");
  }
}

}  // namespace

Outcome scenario_outcome(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = text_of(data, size);
  const auto nul = in.find('\0');
  const std::string yaml(in.substr(0, nul));
  std::vector<std::string> overrides;
  if (nul != std::string_view::npos) {
    std::string_view rest = in.substr(nul + 1);
    while (!rest.empty()) {
      const auto eol = rest.find('\n');
      overrides.emplace_back(rest.substr(0, eol));
      rest = eol == std::string_view::npos ? std::string_view{} : rest.substr(eol + 1);
    }
  }
  try {
    Params p = cli::parse_scenario_text(yaml, "fuzz");
    const Params with_sets = cli::load_scenario("", overrides);
    for (const auto& [k, v] : with_sets.values()) p.set(k, v);
    // Every key that survived the parser is one the CLI documents.
    const auto keys = cli::known_keys();
    for (const auto& [k, v] : p.values()) {
      bool known = false;
      for (const auto& d : keys) known = known || d.name == k;
      if (!known) throw std::logic_error("parser accepted the undocumented key '" + k + "'");
    }
    // Routed as `collnet run` routes it: a collective (of its algorithm and
    // those compared) or synthetic traffic; keys that run does not read are
    // refused.
    const Params run = cli::complete_run_scenario(p);
    const bool collective = run.has("algorithm");
    cli::throw_problems(
        cli::applicability_problems(run, collective ? cli::RunKind::collective : cli::RunKind::synthetic));
    return {true, collective ? "collective " + join(cli::run_algorithms(run, true), ",") : "synthetic"};
  } catch (const ConfigError& e) {
    return {false, e.what()};
  }
}

namespace {

/// Builds a topology from fuzzed input and routes some pairs: accepted with
/// `describe(topology)`, or refused with the refusal's message. Anything
/// other than a TopologyError or ConfigError escapes (a finding).
template <class Build, class Describe>
Outcome built_topology(Build build, Describe describe) {
  try {
    const auto t = build();
    route_some(*t);
    return {true, describe(*t)};
  } catch (const topology::TopologyError& e) {
    return {false, e.what()};
  } catch (const ConfigError& e) {
    return {false, e.what()};
  }
}

std::string endpoints_of(const topology::Topology& t) { return std::to_string(t.endpoint_count()) + " endpoints"; }

}  // namespace

Outcome topology_outcome(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec = text_of(data, size);
  if (spec.starts_with("leafspine-wiring")) return {false, "leafspine-wiring: wiring() fuzzes the file's text"};
  if (spec.starts_with("graph:") || spec == "graph") return {false, "graph: graph() fuzzes the file's text"};
  return built_topology([&] { return topology::make_topology(spec); },
                        [](const topology::Topology& t) { return t.name(); });
}

Outcome wiring_outcome(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = text_of(data, size);
  return built_topology([&] { return topology::LeafSpine::from_wiring(text, "fuzz", "leafspine-wiring:fuzz"); },
                        endpoints_of);
}

Outcome graph_outcome(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = text_of(data, size);
  return built_topology([&] { return topology::GraphNetwork::from_text(text, "fuzz", "graph:fuzz"); }, endpoints_of);
}

Outcome descriptor_outcome(const std::uint8_t* data, std::size_t size) {
  std::uint8_t bytes[16] = {};
  std::memcpy(bytes, data, size < 16 ? size : 16);
  DescriptorWord w;
  std::memcpy(&w.lo, bytes, 8);
  std::memcpy(&w.hi, bytes + 8, 8);
  const Descriptor d = Descriptor::unpack(w);
  // The bits above the used ones carry nothing: pack(unpack(w)) is w with
  // them cleared, and unpacking that again gives the same descriptor.
  DescriptorWord used = w;
  used.hi &= (std::uint64_t{1} << (descriptor_layout::used_bits - 64)) - 1;
  if (!d.fits()) throw std::logic_error("unpack produced a field wider than its slot");
  if (d.pack() != used) throw std::logic_error("pack(unpack(w)) differs from w in a used bit");
  if (Descriptor::unpack(d.pack()) != d) throw std::logic_error("unpack(pack(d)) != d");
  static constexpr const char* kOpcodes[] = {"END", "SEND", "WAIT", "BARRIER"};
  return {true, kOpcodes[static_cast<int>(d.opcode) & 3]};
}

Outcome chakra_outcome(const std::uint8_t* data, std::size_t size) {
  // One rank's file, read and checked as a one-rank workload (cycles,
  // groups, sends to itself matched by its receives).
  try {
    workload::Workload w;
    w.prefix = "fuzz";
    w.ranks.push_back(workload::read_rank_trace(text_of(data, size), "fuzz.0.et"));
    workload::check_workload(w);
    return {true, std::to_string(w.ranks.front().nodes.size()) + " nodes"};
  } catch (const ConfigError& e) {
    return {false, e.what()};
  }
}

Outcome msccl_outcome(const std::uint8_t* data, std::size_t size) {
  // An MSCCL-IR file's text: parsed, then built into a schedule on its own
  // ranks (at most 64, so that one input stays quick) and checked by the
  // functional executor where it runs.
  try {
    const collectives::MscclProgram p = collectives::parse_msccl_text(std::string(text_of(data, size)), "fuzz.xml");
    if (p.ngpus > 64) return {false, "more than 64 gpus (the fuzz entry's bound)"};
    const collectives::Schedule s = collectives::build_msccl(p, static_cast<std::size_t>(p.ngpus), {});
    return {true, p.coll + " on " + std::to_string(p.ngpus) + " gpus, " + std::to_string(s.memory_words) + " words"};
  } catch (const ConfigError& e) {
    return {false, e.what()};
  }
}

void scenario(const std::uint8_t* data, std::size_t size) { (void)scenario_outcome(data, size); }
void msccl(const std::uint8_t* data, std::size_t size) { (void)msccl_outcome(data, size); }
void chakra(const std::uint8_t* data, std::size_t size) { (void)chakra_outcome(data, size); }
void topology(const std::uint8_t* data, std::size_t size) { (void)topology_outcome(data, size); }
void wiring(const std::uint8_t* data, std::size_t size) { (void)wiring_outcome(data, size); }
void graph(const std::uint8_t* data, std::size_t size) { (void)graph_outcome(data, size); }
void descriptor(const std::uint8_t* data, std::size_t size) { (void)descriptor_outcome(data, size); }

namespace {

/// Every target: its name, entry point and outcome.
struct Target {
  const char* name;
  Entry entry;
  Check check;
};
constexpr Target kTargets[] = {
    {"scenario", &scenario, &scenario_outcome},       {"topology", &topology, &topology_outcome},
    {"wiring", &wiring, &wiring_outcome},             {"graph", &graph, &graph_outcome},
    {"descriptor", &descriptor, &descriptor_outcome}, {"chakra", &chakra, &chakra_outcome},
    {"msccl", &msccl, &msccl_outcome},
};

const Target* find_target(const std::string& name) {
  for (const Target& t : kTargets)
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace

Check check(const std::string& target) {
  const Target* t = find_target(target);
  return t != nullptr ? t->check : nullptr;
}

Entry entry(const std::string& target) {
  const Target* t = find_target(target);
  return t != nullptr ? t->entry : nullptr;
}

std::vector<std::string> targets() {
  std::vector<std::string> names;
  for (const Target& t : kTargets) names.emplace_back(t.name);
  return names;
}

}  // namespace collnet::fuzz
