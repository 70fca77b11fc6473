// `collnet sweep --backend slurm`: the pending points as one Slurm job array
// (one array task per chunk of points), each task running its chunk with the
// local backend into its own results file; the sweep waits for the job (or
// not, --no-wait) and merges the tasks' records into RESULTS.jsonl
// (--collect does that later).
//
// Layout under RESULTS.jsonl.d/slurm/SUBMISSION/:
//   sweep.sbatch       the batch script given to sbatch
//   chunks/K.txt       the hashes of array task K's points
//   results/K.jsonl    the records task K wrote
//   task-K.out         the task's standard output and error
//   job.json           {job_id, chunks, submitted_at}
#include <signal.h>

#include <csignal>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cli/sweep.hpp"
#include "cli/sweep_runner.hpp"

namespace collnet::cli {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_wait_signal = 0;
void on_wait_signal(int sig) { g_wait_signal = sig; }

std::string quote_shell(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string stamp() { return fmt::format("{}-{}", utc_now("%Y%m%dT%H%M%SZ"), ::getpid()); }

bool have_command(const std::string& name) {
  std::string out;
  return run_capture({"sh", "-c", "command -v " + name}, out) == 0;
}

/// Whether the job still has array tasks pending or running.
bool job_active(const std::string& job_id, std::size_t* running = nullptr) {
  std::string out;
  const int st = run_capture({"squeue", "-h", "-r", "-j", job_id, "-o", "%T"}, out);
  if (st != 0) return false;  // the controller forgot the job: it ended
  std::size_t active = 0;
  std::size_t run = 0;
  std::istringstream in(out);
  for (std::string s; in >> s;) {
    if (s == "PENDING" || s == "RUNNING" || s == "CONFIGURING" || s == "COMPLETING" || s == "SUSPENDED" ||
        s == "REQUEUED" || s == "RESIZING")
      ++active;
    if (s == "RUNNING" || s == "COMPLETING" || s == "CONFIGURING") ++run;
  }
  if (running) *running = run;
  return active > 0;
}

struct Submission {
  fs::path dir;
  std::string job_id;
  std::vector<std::vector<std::string>> chunks;
};

std::vector<Submission> submissions(const std::string& work) {
  std::vector<Submission> subs;
  const fs::path root = fs::path(work) / "slurm";
  if (!fs::is_directory(root)) return subs;
  for (const auto& entry : fs::directory_iterator(root)) {
    const fs::path job = entry.path() / "job.json";
    if (!fs::exists(job)) continue;
    std::ifstream in(job);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    Submission s{entry.path(), j.value("job_id", ""), j.value("chunks", std::vector<std::vector<std::string>>{})};
    subs.push_back(std::move(s));
  }
  std::sort(subs.begin(), subs.end(), [](const Submission& a, const Submission& b) { return a.dir < b.dir; });
  return subs;
}

std::size_t count_lines(const fs::path& dir) {
  std::size_t n = 0;
  if (!fs::is_directory(dir)) return 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) ++n;
  }
  return n;
}

/// Merges every submission's task records into the results file under the
/// sweep's rules: a point already recorded ok keeps its record; a failed one
/// is superseded by a newer record. A finished job's point without any
/// record is recorded as "lost". Returns the points still pending.
std::size_t merge(const Sweep& sweep, const std::string& results_path, const std::string& work, std::size_t* merged,
                  std::vector<std::string>* active_jobs) {
  std::map<std::string, const SweepPoint*> by_hash;
  for (const auto& p : sweep.points) by_hash[p.hash] = &p;
  auto records = read_records(results_path);
  const auto subs = submissions(work);
  std::set<std::string> pending_active;
  std::size_t added = 0;
  for (const auto& s : subs) {
    const bool active = job_active(s.job_id);
    if (active && active_jobs) active_jobs->push_back(s.job_id);
    const fs::path results = s.dir / "results";
    if (fs::is_directory(results)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(results)) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        const auto task_records = read_records(f.string());
        for (const auto& [hash, rec] : task_records) {
          const auto it = records.find(hash);
          if (it != records.end()) {
            if (it->second.ok() || it->second.json == rec.json) continue;
            if (rec.json.value("finished_at", "") < it->second.json.value("finished_at", "")) continue;
          }
          append_record(results_path, rec.json);
          records[hash] = rec;
          ++added;
        }
      }
    }
    for (std::size_t k = 0; k < s.chunks.size(); ++k)
      for (const auto& hash : s.chunks[k]) {
        if (records.count(hash)) continue;
        if (active) {
          pending_active.insert(hash);
          continue;
        }
        const auto p = by_hash.find(hash);
        if (p == by_hash.end()) continue;  // the sweep file changed since
        if (std::any_of(subs.begin(), subs.end(), [&](const Submission& other) {
              return other.dir > s.dir && std::any_of(other.chunks.begin(), other.chunks.end(), [&](const auto& c) {
                       return std::find(c.begin(), c.end(), hash) != c.end();
                     });
            }))
          continue;  // a later submission runs it again
        const auto lost = make_record(*p->second, -1, "lost",
                                      fmt::format("Slurm job {} array task {} ended without a result for this point "
                                                  "(see {})",
                                                  s.job_id, k, (s.dir / fmt::format("task-{}.out", k)).string()),
                                      0.0, nullptr);
        append_record(results_path, lost);
        records[hash] = SweepRecord{lost};
        ++added;
      }
  }
  if (merged) *merged = added;
  return pending_active.size();
}

int finish_collect(const Sweep& sweep, const SweepOptions& options, const std::string& work) {
  std::size_t merged = 0;
  std::vector<std::string> active;
  const std::size_t pending = merge(sweep, options.out, work, &merged, &active);
  std::cerr << fmt::format("sweep: merged {} records from the Slurm tasks into {}\n", merged, options.out);
  if (!active.empty())
    std::cerr << fmt::format("sweep: Slurm job {} still running, {} points pending; run --collect again when it "
                             "ends\n",
                             join(active), pending);
  return sweep_exit_status(sweep, options.out, merged);
}

}  // namespace

int run_slurm(const Sweep& sweep, const std::vector<const SweepPoint*>& pending, const SweepOptions& options,
              const std::string& work) {
  const std::size_t chunk = options.chunk_size > 0 ? static_cast<std::size_t>(options.chunk_size)
                                                   : (pending.size() + 99) / 100;
  std::vector<std::vector<std::string>> chunks;
  for (std::size_t i = 0; i < pending.size(); i += chunk) {
    chunks.emplace_back();
    for (std::size_t j = i; j < std::min(pending.size(), i + chunk); ++j) chunks.back().push_back(pending[j]->hash);
  }
  const fs::path dir = fs::absolute(fs::path(work) / "slurm" / stamp());
  fs::create_directories(dir / "chunks");
  fs::create_directories(dir / "results");
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    std::ofstream out(dir / "chunks" / fmt::format("{}.txt", k));
    for (const auto& h : chunks[k]) out << h << "\n";
  }
  const fs::path script = dir / "sweep.sbatch";
  {
    std::ofstream out(script);
    out << "#!/bin/bash\n"
        << "# collnet sweep " << sweep.source << ": " << pending.size() << " points in " << chunks.size()
        << " array tasks of up to " << chunk << "\n"
        << "#SBATCH --job-name=collnet-sweep\n"
        << "#SBATCH --array=0-" << chunks.size() - 1 << "\n"
        << "#SBATCH --output=" << (dir / "task-%a.out").string() << "\n"
        << "set -eu\n"
        << "exec " << quote_shell(options.self) << " sweep " << quote_shell(fs::absolute(options.sweep_path).string())
        << " --out " << quote_shell(fs::absolute(options.out).string()) << " --task "
        << quote_shell((dir / "chunks").string()) << "/\"${SLURM_ARRAY_TASK_ID}.txt\""
        << " --jobs \"${SLURM_CPUS_PER_TASK:-1}\"" << (options.timeout_seconds > 0 ? fmt::format(" --timeout {}", options.timeout_seconds) : "")
        << "\n";
  }
  fs::permissions(script, fs::perms::owner_exec, fs::perm_options::add);
  std::string out;
  const std::string command = "sbatch --parsable " + options.slurm_opts + " " + quote_shell(script.string());
  const int st = run_capture({"sh", "-c", command}, out);
  const std::string job_id = out.substr(0, out.find_first_of(";\n"));
  if (st != 0 || job_id.empty())
    throw std::runtime_error(fmt::format("sbatch failed (exit status {}): {}", st, command));
  {
    std::ofstream j(dir / "job.json");
    j << nlohmann::json{{"job_id", job_id}, {"chunks", chunks}, {"script", script.string()}}.dump(2) << "\n";
  }
  std::cerr << fmt::format("sweep: submitted Slurm job {} ({} array tasks, {} points; script {})\n", job_id,
                           chunks.size(), pending.size(), script.string());
  if (options.no_wait) {
    std::cerr << fmt::format("sweep: not waiting; 'collnet sweep {} --out {} --collect' merges the results when the "
                             "job has ended\n",
                             options.sweep_path, options.out);
    return 0;
  }
  // Wait for the job, showing the tasks' records as they come.
  g_wait_signal = 0;
  struct sigaction sa {};
  struct sigaction old_int {};
  struct sigaction old_term {};
  sa.sa_handler = on_wait_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  SweepProgress progress(pending.size(), options.progress_seconds);
  for (;;) {
    std::size_t running = 0;
    const bool active = job_active(job_id, &running);
    progress.update(count_lines(dir / "results"), 0, running, !active);
    if (!active || g_wait_signal != 0) break;
    for (int i = 0; i < static_cast<int>(options.poll_seconds * 10) && g_wait_signal == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  progress.finish();
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  if (g_wait_signal != 0) {
    std::cerr << fmt::format("sweep: stopped waiting; Slurm job {} goes on (scancel {} stops it); 'collnet sweep {} "
                             "--out {} --collect' merges its results\n",
                             job_id, job_id, options.sweep_path, options.out);
    finish_collect(sweep, options, work);
    return 128 + g_wait_signal;
  }
  return finish_collect(sweep, options, work);
}

void slurm_before_submit(const Sweep& sweep, const SweepOptions& options, const std::string& work) {
  for (const char* cmd : {"sbatch", "squeue"})
    if (!have_command(cmd))
      throw ConfigError(std::string("--backend slurm: '") + cmd +
                        "' is not on PATH; run the sweep on a machine with Slurm's client commands (slurm-client)");
  // Finished tasks' records first; a job of this sweep still running would
  // run the same points twice.
  std::size_t merged = 0;
  std::vector<std::string> active;
  merge(sweep, options.out, work, &merged, &active);
  if (merged > 0) std::cerr << fmt::format("sweep: merged {} records of an earlier Slurm job into {}\n", merged, options.out);
  if (!active.empty())
    throw ConfigError(fmt::format("--backend slurm: Slurm job {} of this sweep is still running; wait for it and "
                                  "run --collect (or scancel it) before submitting again",
                                  join(active)));
}

int collect_slurm(const Sweep& sweep, const SweepOptions& options, const std::string& work, bool /*wait*/) {
  if (submissions(work).empty())
    throw ConfigError("--collect: no Slurm submission of this sweep under '" + (fs::path(work) / "slurm").string() +
                      "' (submit with --backend slurm first)");
  return finish_collect(sweep, options, work);
}

int run_slurm_task(const Sweep& sweep, const SweepOptions& options, const std::string& work) {
  std::ifstream in(options.task);
  if (!in) throw ConfigError("--task: cannot read '" + options.task + "'");
  std::set<std::string> wanted;
  for (std::string h; in >> h;) wanted.insert(h);
  std::vector<const SweepPoint*> points;
  for (const auto& p : sweep.points)
    if (wanted.count(p.hash)) points.push_back(&p);
  if (points.size() != wanted.size())
    throw ConfigError(fmt::format("--task '{}': {} of its {} points are not in the sweep file (was it changed?)",
                                  options.task, wanted.size() - points.size(), wanted.size()));
  const fs::path chunk(options.task);
  const fs::path results = chunk.parent_path().parent_path() / "results" / (chunk.stem().string() + ".jsonl");
  // A task run again by Slurm (requeue) skips what it already recorded.
  const auto done = read_records(results.string());
  std::vector<const SweepPoint*> todo;
  for (const SweepPoint* p : points)
    if (!done.count(p->hash)) todo.push_back(p);
  std::cerr << fmt::format("sweep task {}: {} points ({} already done) on {}\n", options.task, todo.size(),
                           points.size() - todo.size(), options.jobs);
  const LocalRunResult r = run_points_locally(todo, work, results.string(), options);
  return r.signal != 0 ? 128 + r.signal : 0;
}

}  // namespace collnet::cli
