// `collnet run`: the cycle-accurate network (systemc/) under synthetic
// traffic. Keys: synthetic_keys() and router_keys() (listed by `collnet
// list`); with no scenario file, the embedded default below.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/params.hpp"

namespace collnet::cli {

/// Embedded default of `collnet run`: uniform random traffic on an 8x8 torus
/// at a moderate load.
extern const char* const kDefaultRunScenario;

/// The scenario file (or the embedded default when `path` is empty) with the
/// `--set key=value` overrides applied.
Params load_run_scenario(const std::string& path, const std::vector<std::string>& overrides);

struct RunOutcome {
  nlohmann::json json;  // contract fields: see README "collnet run"
  std::string text;
  int exit_status = 0;  // 0 ok, 1 a delivered flit failed its check, 3 deadlock
};

/// `vcd_path` empty: no waveform.
RunOutcome run_network(const Params& params, const std::string& vcd_path);

}  // namespace collnet::cli
