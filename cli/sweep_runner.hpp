// Internals of `collnet sweep` shared by the local and the Slurm backends:
// the work directory, child `collnet run` processes, result records and the
// progress display.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep.hpp"

namespace collnet::cli {

/// RESULTS.jsonl.d: the points' scenario files (points/HASH.yaml), the
/// runs' JSON and logs (runs/), the Slurm job (slurm/).
std::string work_dir(const std::string& results_path);
std::string point_file(const std::string& work, const SweepPoint& p);
/// Writes points/HASH.yaml for every point (its canonical scenario).
void write_point_files(const std::string& work, const std::vector<const SweepPoint*>& points);

/// The record of a finished point (README "collnet sweep": JSONL fields).
nlohmann::json make_record(const SweepPoint& p, int exit_status, const std::string& status, const std::string& message,
                           double wall_seconds, const nlohmann::json& run);

/// Done / failed / running counts, elapsed time and an estimate of the time
/// left: a bar redrawn in place when stderr is a terminal, else a plain line
/// every `period` seconds.
class SweepProgress {
 public:
  SweepProgress(std::size_t total, double period);
  void update(std::size_t done, std::size_t failed, std::size_t running, bool force = false);
  void finish();

 private:
  std::size_t total_;
  double period_;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  std::string line_;
  std::size_t printed_done_ = ~std::size_t{0};
};

struct LocalRunResult {
  std::size_t finished = 0;  // recorded (ok or failed)
  std::size_t failed = 0;
  int signal = 0;            // SIGINT / SIGTERM that stopped the sweep, else 0
};

/// The CPUs of job slot `slot` (0 .. jobs-1) of a sweep running `jobs`
/// points at once on `cpus` (the CPUs the sweep may use): a contiguous
/// share, the shares as even as they can be and disjoint while there are
/// no more slots than CPUs; with more slots, slot s shares CPU
/// cpus[s * cpus.size() / jobs] with others.
std::vector<int> slot_cpus(const std::vector<int>& cpus, int jobs, int slot);

/// Runs `points` as child `collnet run` processes, `jobs` at a time,
/// appending each record to `results_path` when its point ends. Each child
/// runs on its slot's CPUs (slot_cpus), so that a run's automatic thread
/// count (key threads) takes its share of the cores, not every core.
/// SIGINT and SIGTERM end the children, keep the records written, and
/// return.
LocalRunResult run_points_locally(const std::vector<const SweepPoint*>& points, const std::string& work,
                                  const std::string& results_path, const SweepOptions& options);

/// The current UTC time in strftime's `format`.
std::string utc_now(const char* format);

/// Runs `argv` and returns its exit status and standard output.
int run_capture(const std::vector<std::string>& argv, std::string& out);

/// The Slurm backend (cli/sweep_slurm.cpp).
int run_slurm(const Sweep& sweep, const std::vector<const SweepPoint*>& pending, const SweepOptions& options,
              const std::string& work);
void slurm_before_submit(const Sweep& sweep, const SweepOptions& options, const std::string& work);
int collect_slurm(const Sweep& sweep, const SweepOptions& options, const std::string& work, bool wait);
int run_slurm_task(const Sweep& sweep, const SweepOptions& options, const std::string& work);

/// The sweep's summary and exit status after its records are in `results_path`.
int sweep_exit_status(const Sweep& sweep, const std::string& results_path, std::size_t ran_now);

}  // namespace collnet::cli
