// Scenarios: a YAML file of `key: value` pairs, overridden by `--set
// key=value`. Every key must be one that some part of collnet documents
// (known_keys(): the typed declarations of collectives/ and the models'
// key lists); anything else is rejected with the list of accepted keys.
// A scenario is checked completely before anything is built or simulated
// (validate_*): every problem is collected, each naming its key, and they
// are reported together as one ConfigError (exit status 2).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "collectives/params.hpp"

namespace collnet::cli {

/// Every documented scenario key: common, per-algorithm and per-model.
std::vector<KeyDoc> known_keys();

/// Loads `path` (may be empty: no file) and applies the `key=value`
/// overrides. Throws one ConfigError listing every problem: a malformed
/// file, a non-scalar value, a key given twice in the file (both lines),
/// an unknown key, a malformed override.
Params load_scenario(const std::string& path, const std::vector<std::string>& overrides);
/// The same, adding the problems to `problems` instead of throwing; the
/// result holds the keys that were accepted.
Params load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                     std::vector<std::string>& problems);

/// Parses a YAML document held in a string (the embedded default scenarios).
Params parse_scenario_text(const std::string& yaml, const std::string& source_name);

/// Throws one ConfigError listing `problems` (nothing when empty).
void throw_problems(const std::vector<std::string>& problems);

/// `load(problems)`, throwing the problems it collects.
Params without_problems(const std::function<Params(std::vector<std::string>&)>& load);

/// Problems of an output file given on the command line (`option` names it:
/// "--json"): its directory must exist and be writable, and the file, if it
/// exists, writable. "" when fine.
std::string output_path_problem(const std::string& option, const std::string& path);

/// Runs a model's reader (which throws ConfigError naming a key) and
/// collects every problem: each named key is taken out and the reader runs
/// again.
void collect_model_problems(Params params, const std::function<void(const Params&)>& read,
                            std::vector<std::string>& problems);

/// Every problem of the keys an algorithm run reads (`collnet check` and
/// collective runs): common keys, the algorithm's keys, the keys of every
/// algorithm in `compare` (collective runs), the models' keys.
std::vector<std::string> algorithm_key_problems(const Params& params, bool collective_run);

}  // namespace collnet::cli
