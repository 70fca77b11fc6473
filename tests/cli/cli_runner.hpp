// Runs the real `collnet` binary for the CLI tests: arguments are quoted for
// the shell, stdout and stderr captured, the exit status returned. Every
// test process gets one scratch directory, removed when the process ends.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace collnet::test {

namespace fs = std::filesystem;

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
  double seconds = 0;      // wall time of the run
  double cpu_seconds = 0;  // CPU time (user + system) of the run's processes: not inflated by a loaded machine
};

inline fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("collnet_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ignored;
    fs::remove_all(fs::temp_directory_path() / ("collnet_cli_test_" + std::to_string(::getpid())), ignored);
  }
};
inline const ScratchCleanup scratch_cleanup;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Writes `text` to scratch()/NAME (NAME may name folders, which are made).
inline fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
  return p;
}

inline nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

inline std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// `collnet ARGS...`, each argument passed as one word; `environment`:
/// NAME=value settings for this run only.
inline CliRun run_collnet(const std::vector<std::string>& args, const std::vector<std::string>& environment = {}) {
  const fs::path out = scratch() / "stdout.txt";
  const fs::path err = scratch() / "stderr.txt";
  // `timeout`: a run that hangs fails its test instead of blocking the suite.
  std::string command = environment.empty() ? "" : "env ";
  for (const auto& setting : environment) command += quoted(setting) + " ";
  command += "timeout 300 " + quoted(COLLNET_BINARY);
  for (const auto& a : args) command += " " + quoted(a);
  command += " >" + quoted(out.string()) + " 2>" + quoted(err.string());
  const auto cpu = [] {
    rusage u{};
    ::getrusage(RUSAGE_CHILDREN, &u);  // children that ended and were waited for
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  };
  const double cpu0 = cpu();
  const auto t0 = std::chrono::steady_clock::now();
  const int raw = std::system(command.c_str());
  CliRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = cpu() - cpu0;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

/// The whitespace-separated words of `text` (no quoting: for literal options).
inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> w;
  std::istringstream in(text);
  for (std::string word; in >> word;) w.push_back(word);
  return w;
}

/// `collnet WORDS... EXTRA...`: literal options as one string, then arguments
/// (paths) passed as single words.
inline CliRun run_words(const std::string& options, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = words(options);
  args.insert(args.end(), extra.begin(), extra.end());
  return run_collnet(args);
}

/// A run and the JSON report it wrote with --json (null where it wrote none).
struct JsonRun : CliRun {
  nlohmann::json json;
};

/// `collnet WORDS... --json FILE`, FILE a fresh file `name` in the scratch
/// folder.
inline JsonRun run_words_json(const std::string& options, const std::string& name) {
  const fs::path file = scratch() / name;
  fs::remove(file);
  JsonRun r{run_words(options, {"--json", file.string()}), {}};
  if (fs::exists(file)) r.json = read_json(file);
  return r;
}

/// `collnet check --set S1 --set S2 ... EXTRA...`
inline CliRun run_check(const std::vector<std::string>& sets, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"check"};
  for (const auto& s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return run_collnet(args);
}

}  // namespace collnet::test
