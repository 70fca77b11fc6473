// The registry of collective algorithms, by name. Each algorithm documents
// the scenario keys it reads; `collnet list` prints them and the CLI rejects
// keys no algorithm or model knows.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

struct Algorithm {
  std::string name;         // contract: the value of the scenario key `algorithm`
  std::string document;     // "000", "001", ... (the seed it implements)
  std::string description;
  std::string topologies;   // which topologies it accepts, for humans
  std::vector<KeyDoc> keys; // algorithm parameters it reads
  /// Builds the schedule; throws ConfigError for a topology or parameter it
  /// does not support, naming the key and the accepted values.
  std::function<Schedule(const topology::Topology&, const Params&)> build;
};

const std::vector<Algorithm>& algorithms();
/// Throws ConfigError listing the accepted names.
const Algorithm& find_algorithm(std::string_view name);

/// Keys shared by every algorithm (message size, controllers, ...).
const std::vector<KeyDoc>& common_keys();

}  // namespace collnet::collectives
