#include "cli/scenario.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "collectives/algorithm.hpp"
#include "workload/keys.hpp"
#include "collectives/input_text.hpp"
#include "collectives/units.hpp"
#include "systemc/nic/barrier_network.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/router/router_config.hpp"
#include "cli/model_keys.hpp"
#include "cli/run_jobs.hpp"
#include "topology/topology.hpp"

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
  for (const auto& k : unit_keys()) add_doc(k.doc());
  return keys;
}

void throw_problems(const std::vector<std::string>& problems) {
  if (problems.empty()) return;
  if (problems.size() == 1) throw ConfigError(problems.front());
  std::string all = std::to_string(problems.size()) + " problems in the scenario:";
  for (const auto& p : problems) all += "\n  " + p;
  throw ConfigError(all);
}

std::string read_input_file(const std::string& what, const std::string& path, std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return what + " '" + path + "' does not exist";
  if (fs::is_directory(st)) return what + " '" + path + "' is a directory, not a file";
  if (!fs::is_regular_file(st)) return what + " '" + path + "' is not a regular file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return what + " '" + path + "' cannot be read (permission denied?)";
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return what + " '" + path + "' cannot be read";
  text = ss.str();
  return "";
}

namespace {

std::vector<std::string> known_key_names() {
  std::vector<std::string> names;
  for (const auto& k : known_keys()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string unknown_key(const std::string& key, const std::string& source) {
  const auto names = known_key_names();
  const std::string near = nearest(key, names);
  return source + ": unknown key '" + key + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
         "; accepted keys: " + join(names);
}

bool is_known(const std::string& key) {
  const auto keys = known_keys();
  return std::any_of(keys.begin(), keys.end(), [&](const KeyDoc& k) { return k.name == key; });
}

void merge_yaml(Params& p, const YAML::Node& root, const std::string& source, std::vector<std::string>& problems,
                bool empty_is_problem = false) {
  if (root.IsNull()) {  // no keys: all defaults (an embedded scenario), refused for a file
    if (empty_is_problem)
      problems.push_back(source + " is empty (no 'key: value' line); give at least one key, or no scenario file for "
                                  "the default scenario");
    return;
  }
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
    if (key == "jobs" && kv.second.IsSequence()) {
      // A list of maps (cli/run_jobs.hpp), kept as its YAML text.
      YAML::Emitter flow;
      flow << YAML::Flow << kv.second;
      p.set(key, flow.c_str());
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
    std::string text;
    if (const std::string why = read_input_file("scenario file", path, text); !why.empty()) {
      problems.push_back(why);
    } else {
      try {
        merge_yaml(p, YAML::Load(text), "scenario '" + path + "'", problems, /*empty_is_problem=*/true);
      } catch (const YAML::Exception& e) {
        problems.push_back("scenario '" + path + "': malformed YAML: " + e.what());
      }
    }
  }
  apply_overrides(p, overrides, problems);
  return p;
}

void apply_overrides(Params& p, const std::vector<std::string>& overrides, std::vector<std::string>& problems) {
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

void write_json_report(const std::string& option, const std::string& path, const nlohmann::json& report) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) throw ConfigError(option + ": cannot write '" + path + "'");
  out << report.dump(2) << "\n";
}

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

/// The key a problem is about: "X" of a message starting "key 'X'", "" for
/// others (an unknown key from a file, a malformed --set, an output file).
std::string problem_key(const std::string& p) {
  if (p.rfind("key '", 0) != 0) return "";
  const auto close = p.find('\'', 5);
  return close == std::string::npos ? "" : p.substr(5, close - 5);
}

}  // namespace

void add_problem(std::vector<std::string>& problems, const std::string& p) {
  if (p.empty() || std::find(problems.begin(), problems.end(), p) != problems.end()) return;
  // One problem per key: the first check that refuses a value names it; the
  // later ones (the same value read again by a model) would repeat it.
  if (const std::string key = problem_key(p); !key.empty())
    if (std::any_of(problems.begin(), problems.end(), [&](const std::string& q) { return problem_key(q) == key; }))
      return;
  problems.push_back(p);
}

const std::map<std::string, KeyScope>& key_scopes() {
  static const std::map<std::string, KeyScope> scopes = [] {
    std::map<std::string, KeyScope> m;
    auto general = [&](const Key& k, bool synthetic, bool collective) {
      auto& s = m[k.name];
      if (!s.general) s.general = k;
      s.synthetic = s.synthetic || synthetic;
      s.collective = s.collective || collective;
    };
    general(collectives::topology_key(), true, true);
    for (const Key& k : unit_keys()) general(k, true, true);  // every kind of run, `collnet check` too
    for (const Key& k : collectives::common_keys())
      if (k.name != "topology") general(k, false, true);
    for (const Key& k : systemc::collective_keys()) general(k, false, true);
    for (const Key& k : workload::workload_keys()) general(k, false, true);
    general(jobs_key(), false, true);
    for (const Key& k : declared_list<systemc::RouterKeys>()) general(k, true, true);
    for (const Key& k : declared_list<systemc::RunKeys>()) general(k, true, true);
    for (const Key& k : declared_list<systemc::SyntheticKeys>()) general(k, true, false);
    for (const Key& k : declared_list<systemc::NicKeys>()) general(k, false, true);
    for (const Key& k : declared_list<systemc::BarrierKeys>()) general(k, false, true);
    for (const Key& k : declared_list<systemc::LinkFaultKeys>()) general(k, false, true);
    for (const auto& a : collectives::algorithms())
      for (const Key& k : a.keys) m[k.name].algorithms.emplace_back(a.name, k);
    return m;
  }();
  return scopes;
}

const Key* KeyScope::declaration(const std::vector<std::string>& run_algorithms) const {
  if (general) return &*general;
  for (const auto& name : run_algorithms)
    for (const auto& [algorithm, key] : algorithms)
      if (algorithm == name) return &key;
  return nullptr;
}

bool KeyScope::applies(RunKind kind, const std::vector<std::string>& run_algorithms) const {
  switch (kind) {
    case RunKind::synthetic: return synthetic;
    case RunKind::check:
      // `collnet check` reads the algorithm's keys; it tolerates the keys of
      // the cycle model (a run's scenario file may be checked) but not those
      // of synthetic traffic or of other algorithms.
      if (synthetic && !collective) return false;
      if (general) return true;
      break;
    case RunKind::collective:
      if (collective) return true;
      if (general) return false;
      break;
  }
  return declaration(run_algorithms) != nullptr;
}

std::vector<std::string> run_algorithms(const Params& params, bool with_compare) {
  std::vector<std::string> names;
  const std::string first = params.text("algorithm", collectives::algorithm_key().default_text());
  if (collectives::lookup_algorithm(first) != nullptr) names.push_back(first);
  if (with_compare)
    for (const auto& other : systemc::compare_list(params.text("compare", "")))
      if (collectives::lookup_algorithm(other) != nullptr &&
          std::find(names.begin(), names.end(), other) == names.end())
        names.push_back(other);
  return names;
}

namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::vector<std::string> q;
  for (const auto& n : names) q.push_back(n);
  return join(q);
}

}  // namespace

std::vector<std::string> applicability_problems(const Params& params, RunKind kind) {
  std::vector<std::string> problems;
  const std::string first = params.text("algorithm", collectives::algorithm_key().default_text());
  // An unknown algorithm is its own problem; which keys it reads is unknown.
  if (kind != RunKind::synthetic && collectives::lookup_algorithm(first) == nullptr) return problems;
  const std::vector<std::string> algorithms = run_algorithms(params, true);
  const auto& scopes = key_scopes();
  for (const auto& [key, value] : params.values()) {
    const auto it = scopes.find(key);
    if (it == scopes.end()) continue;  // unknown keys are refused where they are read
    const KeyScope& s = it->second;
    if (s.applies(kind, algorithms)) continue;
    std::vector<std::string> readers;
    for (const auto& [a, k] : s.algorithms) readers.push_back(a);
    std::string where;
    if (s.synthetic && !s.collective) {
      if (kind == RunKind::collective) continue;  // collective_run_problems names these
      where = "synthetic-traffic runs of `collnet run` (no 'algorithm')";
    } else if (!readers.empty()) {
      where = std::string(readers.size() == 1 ? "algorithm " : "algorithms ") + quoted_list(readers);
    } else {
      where = "collective runs (key 'algorithm')";
    }
    std::string run;
    switch (kind) {
      case RunKind::synthetic: run = "this run is synthetic traffic"; break;
      case RunKind::check: run = "`collnet check` runs algorithm " + first; break;
      case RunKind::collective:
        run = algorithms.size() == 1 ? "this run's algorithm is " + algorithms.front()
                                     : "this run's algorithms are " + quoted_list(algorithms) + " (with 'compare')";
        break;
    }
    add_problem(problems, "key '" + key + "' applies to " + where + "; " + run + " (remove '" + key + "')");
  }
  return problems;
}

namespace {

/// Whether a key's default depends on the scenario (declared with
/// default_from): its documented default is then not the value a read of an
/// unset key gives.
bool default_is_derived(const Key& key) {
  const Params none;
  switch (key.type()) {
    case Key::Type::integer: return key.default_text() != std::to_string(key.integer(none));
    case Key::Type::real: return key.default_text() != fmt::format("{}", key.real(none));
    case Key::Type::boolean: return key.default_text() != (key.boolean(none) ? "true" : "false");
    case Key::Type::choice: return key.default_text() != key.choice(none);
    case Key::Type::text: return key.default_text() != key.text(none);
  }
  return true;
}

}  // namespace

nlohmann::json resolved_scenario(const Params& params, RunKind kind) {
  nlohmann::json j = nlohmann::json::object();
  const std::vector<std::string> algorithms =
      kind == RunKind::synthetic ? std::vector<std::string>{} : run_algorithms(params, kind == RunKind::collective);
  const auto& common = collectives::common_keys();
  for (const auto& [name, scope] : key_scopes()) {
    // `collnet check` reads the common keys and the algorithm's own.
    const std::string& key_name = name;  // (clang 14 cannot capture a structured binding)
    const auto named = [&](const Key& k) { return k.name == key_name; };
    const bool read =
        kind == RunKind::check
            ? (scope.general ? std::any_of(common.begin(), common.end(), named) ||
                                   std::any_of(unit_keys().begin(), unit_keys().end(), named)
                             : scope.declaration(algorithms) != nullptr)
            : scope.applies(kind, algorithms);
    if (!read) continue;
    // The workload keys belong to a run that has `workload` (which the
    // workload run's report adds itself), not to every collective run.
    if (key_name == "jobs" && !params.has("jobs")) continue;  // (as the workload keys)
    if (!params.has("workload") && std::any_of(workload::workload_keys().begin(), workload::workload_keys().end(),
                                               [&](const Key& k) { return k.name == key_name; }))
      continue;
    const Key* key = scope.declaration(algorithms);
    if (key == nullptr) continue;
    nlohmann::json& v = j[name];
    if (!params.has(name) && default_is_derived(*key)) {
      v = nullptr;  // the default that depends on the scenario (collnet list describes it)
      continue;
    }
    const std::string text = params.has(name) ? params.text(name, "") : key->default_text();
    v = text;
    switch (key->type()) {
      case Key::Type::integer: {
        std::int64_t n = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec == std::errc{} && ptr == text.data() + text.size()) v = n;
        break;
      }
      case Key::Type::real: {
        double x = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (ec == std::errc{} && ptr == text.data() + text.size()) v = x;
        break;
      }
      case Key::Type::boolean:
        if (const auto b = parse_boolean(text)) v = *b;
        break;
      case Key::Type::choice:
      case Key::Type::text: break;
    }
  }
  return j;
}

Params load_from_json(const std::string& path, std::vector<std::string>& problems) {
  Params p;
  const std::string source = "--from '" + path + "'";
  std::string text;
  if (const std::string why = read_input_file("--from: file", path, text); !why.empty()) {
    problems.push_back(why);
    return p;
  }
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    problems.push_back(source + ": not a JSON document (give the --json report of a `collnet run`)");
    return p;
  }
  if (!j.is_object() || !j.contains("scenario") || !j["scenario"].is_object()) {
    problems.push_back(source + ": no object 'scenario' (give the --json report of a `collnet run`)");
    return p;
  }
  for (const auto& [key, value] : j["scenario"].items()) {
    if (!is_known(key)) {
      problems.push_back(unknown_key(key, source + ": scenario"));
      continue;
    }
    if (value.is_null()) continue;  // left at its scenario-dependent default
    if (value.is_boolean()) p.set(key, value.get<bool>() ? "true" : "false");
    else if (value.is_number_integer()) p.set(key, std::to_string(value.get<std::int64_t>()));
    else if (value.is_number()) p.set(key, value.dump());
    else if (value.is_string()) p.set(key, value.get<std::string>());
    else if (key == "jobs" && value.is_array()) p.set(key, value.dump());  // JSON is YAML's flow form
    else problems.push_back(source + ": scenario key '" + key + "' must have a single value (a number, word or string)");
  }
  return p;
}

void add_hints(std::vector<std::string>& problems, const Params& params) {
  for (auto& p : problems) {
    const std::string key = problem_key(p);
    if (key == "topology" && p.find("did you mean") == std::string::npos) {
      const std::string value = params.text("topology", "");
      const auto colon = value.find(':');
      const std::string form = value.substr(0, colon);
      std::vector<std::string> forms;
      for (const auto& f : topology::topology_forms()) forms.push_back(f.prefix);
      if (std::find(forms.begin(), forms.end(), form) == forms.end())
        if (const std::string near = nearest(form, forms); !near.empty())
          p += "; did you mean '" + near + (colon == std::string::npos ? "" : value.substr(colon)) + "'?";
    } else if (key == "compare" && p.find("did you mean") == std::string::npos) {
      std::vector<std::string> hints;
      for (const auto& name : systemc::compare_list(params.text("compare", "")))
        if (collectives::lookup_algorithm(name) == nullptr)
          if (const std::string near = nearest(name, collectives::algorithm_names()); !near.empty())
            hints.push_back("'" + near + "' for '" + name + "'");
      if (!hints.empty()) p += "; did you mean " + join(hints) + "?";
    }
  }
}

std::vector<std::string> algorithm_key_problems(const Params& params, bool collective_run) {
  std::vector<std::string> problems;
  if (!collective_run && params.has("jobs"))
    problems.push_back("key 'jobs': `collnet check` checks one algorithm's schedule; several jobs run with "
                       "`collnet run`, which checks each job's keys before anything runs (remove 'jobs')");
  if (!collective_run && params.has("workload"))
    problems.push_back("key 'workload': `collnet check` checks one algorithm's schedule; a workload runs with "
                       "`collnet run`, which checks its traces before anything runs (remove 'workload')");
  std::vector<const collectives::Algorithm*> runs;
  const std::string name = params.text("algorithm", collectives::algorithm_key().default_text());
  if (const auto* a = collectives::lookup_algorithm(name)) runs.push_back(a);
  else
    add_problem(problems, "key 'algorithm': unknown algorithm '" + name + "'; accepted values: " +
                              join(collectives::algorithm_names()) + did_you_mean(name, collectives::algorithm_names()));
  for (const Key& k : collectives::common_keys()) add_problem(problems, k.problem(params));
  for (const Key& k : unit_keys()) add_problem(problems, k.problem(params));
  if (collective_run) {
    for (const Key& k : systemc::collective_keys()) add_problem(problems, k.problem(params));
    for (const auto& other : systemc::compare_list(params.text("compare", "")))
      if (const auto* a = collectives::lookup_algorithm(other)) runs.push_back(a);
    std::vector<std::string> model;
    collect_model_problems(params, [](const Params& p) { (void)systemc::router_config_from(p); }, model);
    collect_model_problems(params, [](const Params& p) { (void)systemc::barrier_config_from(p, 1); }, model);
    collect_model_problems(params, [](const Params& p) { (void)systemc::collective_from(p); }, model);
    for (const auto& p : model) add_problem(problems, p);
  }
  for (const auto* a : runs)
    for (const Key& k : a->keys) add_problem(problems, k.problem(params));
  for (const auto& p : applicability_problems(params, collective_run ? RunKind::collective : RunKind::check))
    add_problem(problems, p);
  add_hints(problems, params);
  return problems;
}

}  // namespace collnet::cli
