#include "testbench/scenario.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <yaml-cpp/yaml.h>

#include "collectives/algorithm.hpp"
#include "systemc/barrier_network.hpp"
#include "systemc/collective_run.hpp"
#include "systemc/router_config.hpp"
#include "testbench/model_keys.hpp"

namespace collnet::cli {

std::vector<KeyDoc> known_keys() {
  std::vector<KeyDoc> keys;
  std::set<std::string> seen;
  auto add_doc = [&](const KeyDoc& k) {
    if (seen.insert(k.name).second) keys.push_back(k);
  };
  for (const auto& k : collectives::common_keys()) add_doc(k.doc());
  for (const auto& a : collectives::algorithms())
    for (const auto& k : a.keys) add_doc(k.doc());
  for (const auto& k : model_keys()) add_doc(k);
  return keys;
}

void throw_problems(const std::vector<std::string>& problems) {
  if (problems.empty()) return;
  if (problems.size() == 1) throw ConfigError(problems.front());
  std::string all = std::to_string(problems.size()) + " problems in the scenario:";
  for (const auto& p : problems) all += "\n  " + p;
  throw ConfigError(all);
}

namespace {

std::string unknown_key(const std::string& key, const std::string& source) {
  std::vector<std::string> names;
  for (const auto& k : known_keys()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  return source + ": unknown key '" + key + "'; accepted keys: " + join(names);
}

bool is_known(const std::string& key) {
  const auto keys = known_keys();
  return std::any_of(keys.begin(), keys.end(), [&](const KeyDoc& k) { return k.name == key; });
}

void merge_yaml(Params& p, const YAML::Node& root, const std::string& source, std::vector<std::string>& problems) {
  if (root.IsNull()) return;  // empty file: all defaults
  if (!root.IsMap()) {
    problems.push_back(source + ": a scenario must be a map of 'key: value' pairs");
    return;
  }
  std::map<std::string, int> first_line;  // 1-based
  for (const auto& kv : root) {
    const auto key = kv.first.as<std::string>();
    const int line = kv.first.Mark().line + 1;
    if (const auto it = first_line.find(key); it != first_line.end()) {
      problems.push_back(source + ": key '" + key + "' is given twice, on lines " + std::to_string(it->second) +
                         " and " + std::to_string(line) + "; give it once");
      continue;
    }
    first_line[key] = line;
    if (!is_known(key)) {
      problems.push_back(unknown_key(key, source + " line " + std::to_string(line)));
      continue;
    }
    if (!kv.second.IsScalar()) {
      problems.push_back(source + ": key '" + key + "' must have a single value (a number, word or string)");
      continue;
    }
    p.set(key, kv.second.as<std::string>());
  }
}

}  // namespace

Params parse_scenario_text(const std::string& yaml, const std::string& source_name) {
  Params p;
  std::vector<std::string> problems;
  try {
    merge_yaml(p, YAML::Load(yaml), source_name, problems);
  } catch (const YAML::Exception& e) {
    problems.push_back(source_name + ": malformed YAML: " + e.what());
  }
  throw_problems(problems);
  return p;
}

Params without_problems(const std::function<Params(std::vector<std::string>&)>& load) {
  std::vector<std::string> problems;
  Params p = load(problems);
  throw_problems(problems);
  return p;
}

Params load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return without_problems([&](std::vector<std::string>& problems) { return load_scenario(path, overrides, problems); });
}

Params load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                     std::vector<std::string>& problems) {
  Params p;
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) {
      problems.push_back("scenario file '" + path + "' cannot be opened");
    } else {
      try {
        merge_yaml(p, YAML::Load(in), "scenario '" + path + "'", problems);
      } catch (const YAML::Exception& e) {
        problems.push_back("scenario '" + path + "': malformed YAML: " + e.what());
      }
    }
  }
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      problems.push_back("--set '" + o + "': expected key=value");
      continue;
    }
    const std::string key = o.substr(0, eq);
    if (!is_known(key)) {
      problems.push_back(unknown_key(key, "--set"));
      continue;
    }
    p.set(key, o.substr(eq + 1));
  }
  return p;
}

std::string output_path_problem(const std::string& option, const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "";
  const fs::path file(path);
  std::error_code ec;
  if (fs::is_directory(file, ec)) return option + ": '" + path + "' is a directory, not a file";
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) return option + ": cannot write '" + path + "': directory '" + dir.string() + "' does not exist";
  if (fs::exists(file, ec) ? ::access(file.c_str(), W_OK) != 0 : ::access(dir.c_str(), W_OK | X_OK) != 0)
    return option + ": cannot write '" + path + "': permission denied";
  return "";
}

namespace {

}  // namespace

void collect_model_problems(Params params, const std::function<void(const Params&)>& read,
                            std::vector<std::string>& problems) {
  for (std::size_t round = 0; round <= params.values().size(); ++round) {
    try {
      read(params);
      return;
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      if (std::find(problems.begin(), problems.end(), what) == problems.end()) problems.push_back(what);
      const auto open = what.find("key '");
      if (open == std::string::npos) return;
      const auto close = what.find('\'', open + 5);
      const std::string key = what.substr(open + 5, close - open - 5);
      if (!params.has(key)) return;
      Params rest;
      for (const auto& [k, v] : params.values())
        if (k != key) rest.set(k, v);
      params = rest;
    }
  }
}

namespace {

void add_problem(std::vector<std::string>& problems, const std::string& p) {
  if (!p.empty() && std::find(problems.begin(), problems.end(), p) == problems.end()) problems.push_back(p);
}

}  // namespace

std::vector<std::string> algorithm_key_problems(const Params& params, bool collective_run) {
  std::vector<std::string> problems;
  for (const Key& k : collectives::common_keys()) add_problem(problems, k.problem(params));
  std::vector<const collectives::Algorithm*> runs;
  const std::string name = params.text("algorithm", collectives::algorithm_key().default_text());
  if (const auto* a = collectives::lookup_algorithm(name)) runs.push_back(a);
  else
    add_problem(problems, "key 'algorithm': unknown algorithm '" + name + "'; accepted values: " +
                              join(collectives::algorithm_names()));
  if (collective_run) {
    for (const Key& k : systemc::collective_keys()) add_problem(problems, k.problem(params));
    for (const auto& other : systemc::compare_list(params.text("compare", "")))
      if (const auto* a = collectives::lookup_algorithm(other)) runs.push_back(a);
    collect_model_problems(params, [](const Params& p) { (void)systemc::router_config_from(p); }, problems);
    collect_model_problems(params, [](const Params& p) { (void)systemc::barrier_config_from(p, 1); }, problems);
    collect_model_problems(params, [](const Params& p) { (void)systemc::collective_from(p); }, problems);
  }
  for (const auto* a : runs)
    for (const Key& k : a->keys) add_problem(problems, k.problem(params));
  return problems;
}

}  // namespace collnet::cli
