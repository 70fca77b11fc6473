#include "driver/engine_loader.hpp"

#include <stdexcept>

#include "collectives/algorithm.hpp"

namespace collnet::driver {

namespace {

/// The algorithm's entry; ConfigError naming the key `algorithm` when no
/// engine runs it.
const collectives::Algorithm& engine_algorithm(const std::string& algorithm) {
  const collectives::Algorithm& a = collectives::find_algorithm(algorithm);
  if (a.engine.empty())
    throw ConfigError("key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " +
                      covered_algorithms());
  return a;
}

/// The loader of the algorithm's engine, after its topology check.
EndpointWrites algorithm_loader(const collectives::Algorithm& a, const topology::Topology& topology,
                                const Params& params, const collectives::Schedule* schedule) {
  const EngineEntry& entry = engine_entry(a.engine);
  const std::string why = entry.topology_refusal(a.name, topology);
  if (!why.empty()) throw ConfigError(why);
  return entry.load(LoadRequest{&a, schedule, &topology, &params});
}

}  // namespace

std::string engine_block(std::string_view engine) { return engine_entry(engine).block(); }

std::string engine_coverage() {
  std::vector<std::string> parts;
  for (const EngineEntry& e : engine_catalog()) {
    std::vector<std::string> names;
    for (const auto& a : collectives::algorithms())
      if (a.engine == e.name) names.push_back(a.name);
    if (!names.empty()) parts.push_back(join(names) + " (" + e.block() + ")");
  }
  return join(parts, "; ");
}

std::string covered_algorithms() {
  std::vector<std::string> limits;
  for (const EngineEntry& e : engine_catalog()) limits.push_back(e.block() + " " + e.limits);
  return engine_coverage() + " (limits: " + join(limits, "; ") + ")";
}

std::string engine_refusal(const std::string& algorithm, const topology::Topology& topology, const Params& params) {
  const collectives::Algorithm* a = collectives::lookup_algorithm(algorithm);
  if (a == nullptr || a->engine.empty())
    return "key 'algorithm': no schedule engine runs " + algorithm + "; engines cover " + covered_algorithms();
  // The topology, then the keys the writes read, with the algorithm's own
  // range checks.
  try {
    (void)algorithm_loader(*a, topology, params, nullptr)(0);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::optional<std::string> engine_covering(const std::string& algorithm, const topology::Topology& topology,
                                          const Params& params) {
  if (!engine_refusal(algorithm, topology, params).empty()) return std::nullopt;
  return collectives::find_algorithm(algorithm).engine;
}

std::vector<EngineWrite> engine_writes(const std::string& algorithm, const topology::Topology& topology,
                                       const Params& params, topology::EndpointId endpoint) {
  const collectives::Algorithm& a = engine_algorithm(algorithm);
  const EndpointWrites writes = algorithm_loader(a, topology, params, nullptr);
  if (endpoint < 0 || endpoint >= topology.endpoint_count())
    throw ConfigError("endpoint " + std::to_string(endpoint) + " is not a node of " + topology.name());
  return writes(endpoint);
}

std::vector<std::vector<EngineWrite>> engine_writes_all(const std::string& algorithm,
                                                        const topology::Topology& topology, const Params& params) {
  const EndpointWrites writes = algorithm_loader(engine_algorithm(algorithm), topology, params, nullptr);
  std::vector<std::vector<EngineWrite>> all;
  for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) all.push_back(writes(e));
  return all;
}

std::vector<std::vector<EngineWrite>> load_engine(std::string_view engine, const LoadRequest& request) {
  const EngineEntry& entry = engine_entry(engine);
  const std::string algorithm =
      request.algorithm != nullptr ? request.algorithm->name
      : request.schedule != nullptr ? request.schedule->algorithm
                                    : std::string("this schedule");
  const std::string why = entry.topology_refusal(algorithm, *request.topology);
  if (!why.empty()) throw ConfigError(why);
  const EndpointWrites writes = entry.load(request);
  std::vector<std::vector<EngineWrite>> all;
  for (topology::EndpointId e = 0; e < request.topology->endpoint_count(); ++e) all.push_back(writes(e));
  return all;
}

}  // namespace collnet::driver
