// `collnet bench`: speed and memory of the cycle-accurate network.
// Synthetic points: uniform random traffic at 0.1
// flits/node/cycle, 4-flit packets, 1,000 warm-up and 10,000 measured cycles
// on 8x8, 16x16 and 32x32 meshes and tori, plus mesh:8x8 saturated (offered
// 1.0). Collective points (--collectives): the collective runs at the documents' scales
// (A2AT on torus:32x32 and torus:16x16, hd-allreduce on boards:4x4x4x4, the
// hierarchical two-tree allreduce on leafspine:p=16 and, at 4096 elements,
// on leafspine:p=36 with 6156 servers), each with its full data
// check. Each point runs in a child process so that its peak resident memory
// (getrusage) is its own. Not a timed test: the figures depend on the machine
// and its load, which the report records.
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
  int threads = 0;  // synthetic points: key `threads` (0: automatic)
  bool saturated_point = true;  // also mesh:8x8 at offered 1.0 (off when --topology chooses the networks)
  bool synthetic = true;        // run the synthetic points
  bool collectives = false;     // run the collective points
  std::vector<std::string> points;  // collective points by name (empty: all)
};

/// One collective point of `collnet bench --collectives`: a name and the
/// scenario keys it sets.
struct CollectivePoint {
  std::string name;
  std::vector<std::pair<std::string, std::string>> keys;
};
const std::vector<CollectivePoint>& collective_points();

struct BenchOutcome {
  nlohmann::json json;
  std::string text;
};

BenchOutcome run_bench(const BenchOptions& options);

}  // namespace collnet::cli
