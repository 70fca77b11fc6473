// What the BookSim2 cross-validation suites share: a point of BookSim2's
// tables (an example file, an offered load, BookSim2's figure) and the run
// of an example at a load through the CLI.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace collnet::test {

struct BookSimPoint {
  std::string example;  // examples/NAME.yaml
  double offered;       // flits/node/cycle; 1.0: saturation
  double booksim;       // BookSim2's latency (offered < 1) or accepted rate (offered = 1)
};

inline void PrintTo(const BookSimPoint& p, std::ostream* os) { *os << p.example << " at " << p.offered; }

inline fs::path example_path(const std::string& name) {
  return fs::path(COLLNET_SOURCE_DIR) / "examples" / (name + ".yaml");
}

/// `collnet run examples/EXAMPLE.yaml --set injection_rate=OFFERED [extra]`,
/// its JSON report (the run must exit 0).
inline nlohmann::json run_example(const std::string& example, double offered,
                                  const std::vector<std::string>& extra = {}) {
  std::string tag = example + "_" + std::to_string(offered);
  for (std::string word : extra) {
    if (word == "--set") continue;
    for (char& c : word)
      if (c == '=' || c == '/' || c == ':') c = '-';
    tag += "_" + word;
  }
  const fs::path json = scratch() / (tag + ".json");
  std::vector<std::string> args = {"run", example_path(example).string(), "--set",
                                   "injection_rate=" + std::to_string(offered), "--json", json.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun r = run_collnet(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return read_json(json);
}

}  // namespace collnet::test
