// `collnet sweep`: many scenarios from one sweep file, run as
// child `collnet run` processes on this machine or as a Slurm job array,
// every result appended to a JSONL file as soon as its point finishes.
//
// Sweep file (YAML):
//   base:  a scenario (key: value, as in a scenario file)
//   axes:  key: [v1, v2, ...]                  a list of values
//          key: {from: A, to: B, step: S}      a numeric range (or factor: F, geometric)
//          name: [{k1: v, k2: w}, {k1: u}]     a group axis: each value sets several keys
//                                             (and `label: text` names the value; default "k1=v k2=w")
//   zip:   false (default: the product of the axes) | true (the i-th values together)
//   seeds: N (default: none) each point of the axes runs N times, key seed = 1..N
//   table, plot: read by `collnet plot --table` (scripts/collnet_plot.py), ignored here
//
// A point is identified by the hash of its canonical scenario (the merged
// keys, sorted, "key: value" lines): a sweep run again skips the points its
// results file already holds.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/params.hpp"

namespace collnet::cli {

struct SweepPoint {
  std::size_t index = 0;        // the run's number (with seeds: one per seed, the seed varying fastest)
  std::size_t group = 0;        // the number of the axes' point it runs (without seeds: = index)
  int seed = 0;                 // with seeds: the key seed it sets (1..N); 0: the sweep has no seeds
  nlohmann::ordered_json keys;  // axis name -> value of this point (group axes: their label)
  Params scenario;              // base keys with the axes' values applied
  std::string canonical;        // sorted "key: value" lines of `scenario`
  std::string hash;             // 16 hex digits: FNV-1a (64 bit) of `canonical`
};

struct Sweep {
  std::string source;  // the file (or a name for text)
  Params base;
  std::vector<std::string> axes;  // axis names in file order
  bool zip = false;
  int seeds = 0;  // seeds: N; 0 when the file has none
  std::vector<SweepPoint> points;
};

/// A point as the sweep's messages name it: its axis values, and its seed
/// when the sweep has seeds (`{"nct":2} seed=3`).
std::string point_label(const SweepPoint& p);

/// Parses and expands a sweep file. Throws ConfigError naming the axis (or
/// the top-level key) and what it accepts.
Sweep load_sweep(const std::string& path);
Sweep parse_sweep_text(const std::string& yaml, const std::string& source);

std::string canonical_scenario(const Params& p);
std::string scenario_hash(const std::string& canonical);

/// Every problem of one point's scenario, each naming its key; empty when
/// `collnet run` would accept it. This is the one place where the sweep
/// borrows `collnet run`'s validation (cli/sweep_validate.cpp).
std::vector<std::string> point_problems(const Params& scenario);

/// One line of RESULTS.jsonl. Contract fields: see README "collnet sweep".
struct SweepRecord {
  nlohmann::json json;
  [[nodiscard]] std::string hash() const { return json.value("hash", ""); }
  [[nodiscard]] bool ok() const { return json.value("status", "") == "ok"; }
};

/// The records of a results file (missing file: none), the last record of
/// each hash winning. A line cut short by a killed writer is skipped.
std::map<std::string, SweepRecord> read_records(const std::string& path);

/// Appends one record as a single line (one write(2) with O_APPEND).
void append_record(const std::string& path, const nlohmann::json& record);

/// Status name of a child `collnet run` exit status (README: "ok",
/// "data-check-failed", "bad-input", "deadlock", "internal-error").
std::string status_name(int exit_status);

struct SweepOptions {
  std::string sweep_path;
  std::string out;  // default: the sweep file's name with .jsonl
  int jobs = 0;     // 0: the number of cores
  std::string backend = "local";
  bool retry_failed = false;
  bool dry_run = false;  // validate and list the points, run nothing
  double timeout_seconds = 0;     // per point; 0: none
  double progress_seconds = 10;   // non-terminal progress lines
  // Slurm backend
  std::string slurm_opts;
  bool no_wait = false;
  bool collect = false;
  int chunk_size = 0;  // points per array task; 0: at most 100 tasks
  std::string task;    // inside an array task: the chunk file listing the hashes to run
  double poll_seconds = 2;  // Slurm: squeue period while waiting
  std::string self;    // the collnet executable the children and tasks run
};

/// `collnet sweep`: returns the exit status (0 every point ok, 1 a point
/// failed, 2 bad input, 128+signal when interrupted).
int run_sweep(const SweepOptions& options);

}  // namespace collnet::cli
