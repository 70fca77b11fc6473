// Scenarios: a YAML file of `key: value` pairs, overridden by `--set
// key=value`. Every key must be one that some part of collnet documents
// (known_keys()); anything else is rejected with the list of accepted keys.
#pragma once

#include <string>
#include <vector>

#include "collectives/params.hpp"

namespace collnet::cli {

/// Every documented scenario key: common, per-algorithm and per-model.
std::vector<KeyDoc> known_keys();

/// Loads `path` (may be empty: no file) and applies the `key=value`
/// overrides. Throws ConfigError for a malformed file, a non-scalar value,
/// an unknown key or a malformed override.
Params load_scenario(const std::string& path, const std::vector<std::string>& overrides);

/// Parses a YAML document held in a string (the embedded default scenarios).
Params parse_scenario_text(const std::string& yaml, const std::string& source_name);

}  // namespace collnet::cli
