// `collnet sweep`, local backend: child `collnet run` processes (fork/exec),
// N at a time, each record appended when its point ends.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cli/run.hpp"
#include "cli/scenario.hpp"
#include "cli/sweep.hpp"
#include "cli/sweep_runner.hpp"

namespace collnet::cli {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int sig) { g_stop_signal = sig; }

/// Installs the SIGINT/SIGTERM handlers for the life of the object.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

namespace {

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

/// What went wrong, from a failed run's output: its error lines.
std::string failure_message(const std::string& out, const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream e(err);
  for (std::string l; std::getline(e, l);)
    if (!l.empty()) lines.push_back(l);
  std::istringstream o(out);
  for (std::string l; std::getline(o, l);)
    if (l.find("DEADLOCK") != std::string::npos || l.find("FAIL") != std::string::npos) {
      l.erase(0, l.find_first_not_of(' '));
      lines.push_back(l);
    }
  if (lines.size() > 6) lines.resize(6);
  std::string m;
  for (const auto& l : lines) m += (m.empty() ? "" : "\n") + l;
  return m;
}

struct Child {
  pid_t pid = 0;
  const SweepPoint* point = nullptr;
  std::chrono::steady_clock::time_point start;
  bool timed_out = false;
  int slot = 0;
};

/// The CPUs this process may run on, in order (empty if unknown).
std::vector<int> own_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

/// `cpus` empty: the child keeps the parent's CPUs.
pid_t spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
            const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // A child must not outlive a sweep killed outright (SIGKILL, a lost node).
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(128 + SIGTERM);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    if (!cpus.empty()) (void)::sched_setaffinity(0, sizeof(set), &set);  // else the parent's CPUs
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) ::_exit(127);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::close(out);
    ::close(err);
    ::execv(args[0], args.data());
    const std::string msg = std::string("collnet sweep: cannot run ") + args[0] + ": " + std::strerror(errno) + "\n";
    (void)!::write(2, msg.data(), msg.size());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

std::string work_dir(const std::string& results_path) { return results_path + ".d"; }

std::string point_file(const std::string& work, const SweepPoint& p) {
  return (fs::path(work) / "points" / (p.hash + ".yaml")).string();
}

void write_point_files(const std::string& work, const std::vector<const SweepPoint*>& points) {
  fs::create_directories(fs::path(work) / "points");
  fs::create_directories(fs::path(work) / "runs");
  for (const SweepPoint* p : points) {
    const std::string path = point_file(work, *p);
    std::ofstream out(path);
    out << "# collnet sweep point " << p->hash << ": " << point_label(*p) << "\n";
    // YAML-quoted values: a value is read back exactly as written.
    for (const auto& [k, v] : p->scenario.values()) out << k << ": " << nlohmann::json(v).dump() << "\n";
    if (!out) throw ConfigError("cannot write point file '" + path + "'");
  }
}

nlohmann::json make_record(const SweepPoint& p, int exit_status, const std::string& status, const std::string& message,
                           double wall_seconds, const nlohmann::json& run) {
  nlohmann::json scenario = nlohmann::json::object();
  for (const auto& [k, v] : p.scenario.values()) scenario[k] = v;
  nlohmann::json r;
  r["hash"] = p.hash;
  r["index"] = p.index;
  r["point_index"] = p.group;
  r["point"] = p.keys;
  r["scenario"] = scenario;
  r["status"] = status;
  r["exit_status"] = exit_status;
  r["message"] = message;
  r["wall_seconds"] = wall_seconds;
  r["finished_at"] = utc_now("%Y-%m-%dT%H:%M:%SZ");
  r["host"] = host_name();
  r["run"] = run;
  return r;
}

SweepProgress::SweepProgress(std::size_t total, double period)
    : total_(total), period_(period), tty_(::isatty(2) != 0), start_(std::chrono::steady_clock::now()), last_(start_) {}

void SweepProgress::update(std::size_t done, std::size_t failed, std::size_t running, bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since = std::chrono::duration<double>(now - last_).count();
  std::string eta = "unknown";
  if (done > 0) eta = format_duration(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done));
  if (done >= total_) eta = "0:00";
  if (tty_) {
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ ? done * kWidth / total_ : kWidth;
    std::string bar(filled, '#');
    bar += std::string(kWidth - filled, '.');
    const std::string line = fmt::format("[{}] {}/{} done, {} failed, {} running | {} elapsed, ETA {}", bar, done,
                                         total_, failed, running, format_duration(elapsed), eta);
    if (line == line_ && !force && since < 1.0) return;
    std::cerr << "\r\033[K" << line << std::flush;
    line_ = line;
    drawn_ = true;
    last_ = now;
  } else {
    // Not a terminal: a line per period, and the last one.
    if (since < period_ && !(force && done >= total_ && running == 0)) return;
    if (done == printed_done_ && done >= total_ && running == 0) return;
    printed_done_ = done;
    std::cerr << fmt::format("sweep: {}/{} done, {} failed, {} running, {} elapsed, ETA {}\n", done, total_, failed,
                             running, format_duration(elapsed), eta)
              << std::flush;
    last_ = now;
  }
}

void SweepProgress::finish() {
  if (tty_ && drawn_) std::cerr << "\n" << std::flush;
  drawn_ = false;
}

int run_capture(const std::vector<std::string>& argv, std::string& out) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  out.clear();
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

std::vector<int> slot_cpus(const std::vector<int>& cpus, int jobs, int slot) {
  const auto n = static_cast<long>(cpus.size());
  const long j = std::max(1, jobs);
  const long first = slot * n / j;
  const long end = std::max(first + 1, (slot + 1) * n / j);
  return {cpus.begin() + first, cpus.begin() + std::min(end, n)};
}

LocalRunResult run_points_locally(const std::vector<const SweepPoint*>& points, const std::string& work,
                                  const std::string& results_path, const SweepOptions& options) {
  const StopSignals signals;
  const int jobs = std::max(1, options.jobs);
  const std::vector<int> cpus = own_cpus();
  std::vector<bool> slot_busy(static_cast<std::size_t>(jobs), false);
  const fs::path runs = fs::path(work) / "runs";
  fs::create_directories(runs);
  LocalRunResult result;
  std::vector<Child> running;
  std::size_t next = 0;
  SweepProgress progress(points.size(), options.progress_seconds);

  auto finish_child = [&](Child& c, int st) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
    const SweepPoint& p = *c.point;
    const std::string base = (runs / p.hash).string();
    int exit_status = 0;
    std::string status;
    std::string message;
    const std::string out = slurp(base + ".out");
    const std::string err = slurp(base + ".err");
    if (WIFEXITED(st)) {
      exit_status = WEXITSTATUS(st);
      status = exit_status == 127 ? "failed" : status_name(exit_status);
      if (exit_status != 0) message = failure_message(out, err);
    } else {
      const int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
      exit_status = 128 + sig;
      if (c.timed_out) {
        status = "timeout";
        message = fmt::format("stopped after the --timeout of {} s", options.timeout_seconds);
      } else {
        status = "killed";
        message = fmt::format("killed by signal {} ({})", sig, ::strsignal(sig));
      }
    }
    nlohmann::json run = nullptr;
    const std::string json_text = slurp(base + ".json");
    if (!json_text.empty()) {
      run = nlohmann::json::parse(json_text, nullptr, false);
      if (run.is_discarded()) run = nullptr;
    }
    append_record(results_path, make_record(p, exit_status, status, message, wall, run));
    ++result.finished;
    if (status != "ok") {
      ++result.failed;
      progress.finish();
      std::cerr << fmt::format("sweep: point {} {} {}: {}\n", p.index + 1, point_label(p), status,
                               message.substr(0, message.find('\n')));
    }
  };

  while ((next < points.size() || !running.empty()) && g_stop_signal == 0) {
    while (static_cast<int>(running.size()) < jobs && next < points.size() && g_stop_signal == 0) {
      const SweepPoint* p = points[next++];
      const std::string base = (runs / p->hash).string();
      std::error_code ignored;
      fs::remove(base + ".json", ignored);
      const auto slot = static_cast<int>(std::find(slot_busy.begin(), slot_busy.end(), false) - slot_busy.begin());
      slot_busy[static_cast<std::size_t>(slot)] = true;
      running.push_back({spawn({options.self, "run", point_file(work, *p), "--json", base + ".json"}, base + ".out",
                               base + ".err", cpus.empty() ? cpus : slot_cpus(cpus, jobs, slot)),
                         p, std::chrono::steady_clock::now(), false, slot});
    }
    int st = 0;
    const pid_t pid = ::waitpid(-1, &st, WNOHANG);
    if (pid > 0) {
      const auto it = std::find_if(running.begin(), running.end(), [&](const Child& c) { return c.pid == pid; });
      if (it != running.end()) {
        Child c = *it;
        running.erase(it);
        slot_busy[static_cast<std::size_t>(c.slot)] = false;
        finish_child(c, st);
      }
      progress.update(result.finished, result.failed, running.size(), true);
      continue;
    }
    if (options.timeout_seconds > 0)
      for (Child& c : running)
        if (!c.timed_out &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count() > options.timeout_seconds) {
          c.timed_out = true;
          ::kill(c.pid, SIGKILL);
        }
    progress.update(result.finished, result.failed, running.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  progress.update(result.finished, result.failed, running.size(), true);
  progress.finish();
  if (g_stop_signal != 0) {
    result.signal = g_stop_signal;
    // Interrupted: end the children; their points stay unrecorded and run next time.
    for (const Child& c : running) ::kill(c.pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!running.empty()) {
      int st = 0;
      const pid_t pid = ::waitpid(-1, &st, WNOHANG);
      if (pid > 0) {
        running.erase(std::remove_if(running.begin(), running.end(), [&](const Child& c) { return c.pid == pid; }),
                      running.end());
        continue;
      }
      if (pid < 0 && errno == ECHILD) break;
      if (std::chrono::steady_clock::now() > deadline)
        for (const Child& c : running) ::kill(c.pid, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  return result;
}

int sweep_exit_status(const Sweep& sweep, const std::string& results_path, std::size_t ran_now) {
  const auto records = read_records(results_path);
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::size_t missing = 0;
  for (const auto& p : sweep.points) {
    const auto it = records.find(p.hash);
    if (it == records.end())
      ++missing;
    else if (it->second.ok())
      ++ok;
    else
      ++failed;
  }
  std::cerr << fmt::format("sweep: {} points: {} ok, {} failed{} ({} run now); results in {}\n", sweep.points.size(), ok,
                           failed, missing ? fmt::format(", {} without a result", missing) : "", ran_now,
                           results_path);
  // Points whose links' VC buffers do not cover the credit round trip
  // (buffer_sizing fixed): their figures are bound by it.
  std::size_t looped = 0;
  std::string first;
  for (const auto& p : sweep.points) {
    const auto it = records.find(p.hash);
    if (it == records.end() || !it->second.json.contains("run") || !it->second.json["run"].is_object()) continue;
    const std::string words = credit_loop_words(it->second.json["run"].value("credit_loop", nlohmann::json(nullptr)));
    if (words.empty()) continue;
    if (looped++ == 0) first = fmt::format("point {}: {}", p.index + 1, words);
  }
  if (looped > 0)
    std::cerr << fmt::format("sweep: credit loop on {} of {} points: {} ({})\n", looped, sweep.points.size(),
                             kCreditLoopRule, first);
  if (failed > 0) std::cerr << "sweep: failed points are kept; --retry-failed runs them again\n";
  return failed > 0 ? 1 : 0;
}

int run_sweep(const SweepOptions& options_in) {
  SweepOptions options = options_in;
  const Sweep sweep = load_sweep(options.sweep_path);
  if (options.out.empty()) options.out = fs::path(options.sweep_path).stem().string() + ".jsonl";
  if (options.jobs <= 0) options.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  if (options.backend != "local" && options.backend != "slurm")
    throw ConfigError("--backend: expected local or slurm, got '" + options.backend + "'");
  const std::string work = work_dir(options.out);

  if (!options.task.empty()) return run_slurm_task(sweep, options, work);
  if (options.collect) return collect_slurm(sweep, options, work, false);

  // Every point is checked before anything runs; the refusal counts and
  // lists the bad points only, each once with each of its problems once.
  std::vector<std::string> problems;
  std::size_t bad_points = 0;
  for (const auto& p : sweep.points) {
    std::vector<std::string> own;
    for (const auto& problem : point_problems(p.scenario)) add_problem(own, problem);
    if (own.empty()) continue;
    ++bad_points;
    std::string line = fmt::format("point {} {}: {}", p.index + 1, point_label(p), own.front());
    for (std::size_t i = 1; i < own.size(); ++i) line += "\n    " + own[i];
    problems.push_back(line);
  }
  if (!problems.empty()) {
    std::string all = fmt::format("{}: {} of {} points refused, nothing was run:", sweep.source, bad_points,
                                  sweep.points.size());
    for (const auto& pr : problems) all += "\n  " + pr;
    throw ConfigError(all);
  }
  if (options.dry_run) {
    for (const auto& p : sweep.points) std::cout << fmt::format("{} {} {}\n", p.index + 1, p.hash, point_label(p));
    std::cerr << fmt::format("sweep: {} points, every one valid; nothing run (--dry-run)\n", sweep.points.size());
    return 0;
  }
  {
    const fs::path parent = fs::path(options.out).parent_path();
    if (!parent.empty() && !fs::is_directory(parent))
      throw ConfigError("--out: directory '" + parent.string() + "' does not exist");
  }

  if (options.backend == "slurm") slurm_before_submit(sweep, options, work);
  const auto records = read_records(options.out);
  std::vector<const SweepPoint*> pending;
  std::size_t recorded_ok = 0;
  std::size_t recorded_failed = 0;
  for (const auto& p : sweep.points) {
    const auto it = records.find(p.hash);
    if (it == records.end()) {
      pending.push_back(&p);
    } else if (it->second.ok()) {
      ++recorded_ok;
    } else if (options.retry_failed) {
      pending.push_back(&p);
    } else {
      ++recorded_failed;
    }
  }
  std::cerr << fmt::format("sweep: {} points, {} to run, {} already recorded ({} ok, {} failed{})\n",
                           sweep.points.size(), pending.size(), recorded_ok + recorded_failed, recorded_ok,
                           recorded_failed, recorded_failed && !options.retry_failed ? ", not retried" : "");
  if (pending.empty()) return sweep_exit_status(sweep, options.out, 0);
  write_point_files(work, pending);
  if (options.backend == "slurm") return run_slurm(sweep, pending, options, work);

  const LocalRunResult r = run_points_locally(pending, work, options.out, options);
  if (r.signal != 0) {
    std::cerr << fmt::format("sweep: interrupted ({}): {} points finished and kept in {}; run the same command to go "
                             "on\n",
                             ::strsignal(r.signal), r.finished, options.out);
    return 128 + r.signal;
  }
  return sweep_exit_status(sweep, options.out, r.finished);
}

}  // namespace collnet::cli
