// `collnet bench`: speed and memory of the cycle-accurate network (issue 4,
// item 7). Uniform random traffic at 0.1 flits/node/cycle, 4-flit packets,
// 1,000 warm-up and 10,000 measured cycles on 8x8, 16x16 and 32x32 meshes and
// tori. Each configuration runs in a child process so that its peak resident
// memory (getrusage) is its own. Not a timed test: the figures depend on the
// machine and its load, which the report records.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace collnet::cli {

struct BenchOptions {
  std::vector<std::string> topologies = {"mesh:8x8", "torus:8x8", "mesh:16x16", "torus:16x16", "mesh:32x32",
                                         "torus:32x32"};
  double injection_rate = 0.1;
  int packet_flits = 4;
  int warmup_cycles = 1000;
  int measure_cycles = 10000;
  int repeat = 1;  // runs per configuration; the fastest is reported
};

struct BenchOutcome {
  nlohmann::json json;
  std::string text;
};

BenchOutcome run_bench(const BenchOptions& options);

}  // namespace collnet::cli
