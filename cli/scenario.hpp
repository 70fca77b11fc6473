// Scenarios: a YAML file of `key: value` pairs, overridden by `--set
// key=value`. Every key must be one that some part of collnet documents
// (known_keys(): the typed declarations of collectives/ and the models'
// key lists); anything else is rejected with the list of accepted keys.
// A scenario is checked completely before anything is built or simulated
// (validate_*): every problem is collected, each naming its key, and they
// are reported together as one ConfigError (exit status 2).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/keys.hpp"
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

/// Applies `key=value` overrides (`--set`) to `p`, adding the problems
/// (malformed, unknown key) to `problems`.
void apply_overrides(Params& p, const std::vector<std::string>& overrides, std::vector<std::string>& problems);

/// Reads an input file named on the command line into `text`. "" when
/// fine, else why not, naming it as `what` 'PATH': missing, a directory or
/// another non-regular file (a device, a FIFO), unreadable.
std::string read_input_file(const std::string& what, const std::string& path, std::string& text);

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

/// Writes a JSON report to `path` as `--json FILE` does (two-space indent,
/// a final newline); nothing when `path` is empty. A file that cannot be
/// opened is a ConfigError naming `option`.
void write_json_report(const std::string& option, const std::string& path, const nlohmann::json& report);

/// Runs a model's reader (which throws ConfigError naming a key) and
/// collects every problem: each named key is taken out and the reader runs
/// again.
void collect_model_problems(Params params, const std::function<void(const Params&)>& read,
                            std::vector<std::string>& problems);

/// Adds `p` unless it repeats a problem already there: the same text, or a
/// problem about the same key ("key 'X': ..."; the first one stays).
void add_problem(std::vector<std::string>& problems, const std::string& p);

/// Appends "did you mean" hints to the problems of keys whose values are
/// names checked elsewhere (topology forms, compare's algorithm names).
void add_hints(std::vector<std::string>& problems, const Params& params);

/// What reads a scenario: `collnet check`, or `collnet run` as a collective
/// (the algorithm and those in `compare`) or as synthetic traffic.
enum class RunKind { check, collective, synthetic };

/// Where a declared key applies, derived from the declarations: the common
/// keys and the models' key lists (general), each algorithm's own keys.
struct KeyScope {
  std::optional<Key> general;  // declared for every run of the kinds below
  bool synthetic = false;      // synthetic-traffic runs read it
  bool collective = false;     // every collective run reads it
  std::vector<std::pair<std::string, Key>> algorithms;  // algorithm -> its declaration of the key

  /// The declaration that applies to a run of `run_algorithms` (nullptr: none).
  [[nodiscard]] const Key* declaration(const std::vector<std::string>& run_algorithms) const;
  [[nodiscard]] bool applies(RunKind kind, const std::vector<std::string>& run_algorithms) const;
};
/// Every declared key by name.
const std::map<std::string, KeyScope>& key_scopes();

/// The algorithm of the scenario (the default when not set) and, with
/// `with_compare`, those of `compare`; unknown names left out.
std::vector<std::string> run_algorithms(const Params& params, bool with_compare);

/// One problem per key given that the run does not read: "key 'nct' applies
/// to algorithms a2a-optimal, ...; this run's algorithm is a2a-hopgroup".
/// A key applies to a collective run when it applies to its algorithm or to
/// one in `compare`.
std::vector<std::string> applicability_problems(const Params& params, RunKind kind);

/// The whole scenario a run used (field `scenario` of the JSON reports):
/// every key the run reads with its value, defaults included, typed
/// (numbers, booleans, strings); null for a key left at a default that
/// depends on the scenario (`collnet list` describes it).
nlohmann::json resolved_scenario(const Params& params, RunKind kind);

/// The keys of the `scenario` object of a JSON report (`--from FILE`), null
/// values left out; problems (missing or unreadable file, not JSON, no
/// `scenario` object, an unknown key, a non-scalar value) name the file.
Params load_from_json(const std::string& path, std::vector<std::string>& problems);

/// Every problem of the keys an algorithm run reads (`collnet check` and
/// collective runs): common keys, the algorithm's keys, the keys of every
/// algorithm in `compare` (collective runs), the models' keys.
std::vector<std::string> algorithm_key_problems(const Params& params, bool collective_run);

}  // namespace collnet::cli
