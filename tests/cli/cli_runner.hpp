// Runs the real `collnet` binary for the CLI tests: arguments are quoted for
// the shell, stdout and stderr captured, the exit status returned. Every
// test process gets one scratch directory, removed when the process ends.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

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

inline fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

inline nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

inline std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// `collnet ARGS...`, each argument passed as one word.
inline CliRun run_collnet(const std::vector<std::string>& args) {
  const fs::path out = scratch() / "stdout.txt";
  const fs::path err = scratch() / "stderr.txt";
  // `timeout`: a run that hangs fails its test instead of blocking the suite.
  std::string command = "timeout 300 " + quoted(COLLNET_BINARY);
  for (const auto& a : args) command += " " + quoted(a);
  command += " >" + quoted(out.string()) + " 2>" + quoted(err.string());
  const int raw = std::system(command.c_str());
  CliRun r;
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
