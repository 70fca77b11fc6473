#include "testbench/scenario.hpp"

#include <algorithm>
#include <fstream>
#include <set>

#include <yaml-cpp/yaml.h>

#include "collectives/algorithm.hpp"
#include "testbench/model_keys.hpp"

namespace collnet::cli {

std::vector<KeyDoc> known_keys() {
  std::vector<KeyDoc> keys = collectives::common_keys();
  std::set<std::string> seen;
  for (const auto& k : keys) seen.insert(k.name);
  auto add = [&](const std::vector<KeyDoc>& more) {
    for (const auto& k : more)
      if (seen.insert(k.name).second) keys.push_back(k);
  };
  for (const auto& a : collectives::algorithms()) add(a.keys);
  add(model_keys());
  return keys;
}

namespace {

void check_key(const std::string& key, const std::string& source) {
  const auto keys = known_keys();
  if (std::any_of(keys.begin(), keys.end(), [&](const KeyDoc& k) { return k.name == key; })) return;
  std::vector<std::string> names;
  for (const auto& k : keys) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  throw ConfigError(source + ": unknown key '" + key + "'; accepted keys: " + join(names));
}

void merge_yaml(Params& p, const YAML::Node& root, const std::string& source) {
  if (root.IsNull()) return;  // empty file: all defaults
  if (!root.IsMap()) throw ConfigError(source + ": a scenario must be a map of 'key: value' pairs");
  for (const auto& kv : root) {
    const auto key = kv.first.as<std::string>();
    check_key(key, source);
    if (!kv.second.IsScalar())
      throw ConfigError(source + ": key '" + key + "' must have a single value (a number, word or string)");
    p.set(key, kv.second.as<std::string>());
  }
}

}  // namespace

Params parse_scenario_text(const std::string& yaml, const std::string& source_name) {
  Params p;
  try {
    merge_yaml(p, YAML::Load(yaml), source_name);
  } catch (const YAML::Exception& e) {
    throw ConfigError(source_name + ": malformed YAML: " + e.what());
  }
  return p;
}

Params load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  Params p;
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) throw ConfigError("scenario file '" + path + "' cannot be opened");
    try {
      merge_yaml(p, YAML::Load(in), "scenario '" + path + "'");
    } catch (const YAML::Exception& e) {
      throw ConfigError("scenario '" + path + "': malformed YAML: " + e.what());
    }
  }
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError("--set '" + o + "': expected key=value");
    const std::string key = o.substr(0, eq);
    check_key(key, "--set");
    p.set(key, o.substr(eq + 1));
  }
  return p;
}

}  // namespace collnet::cli
