// `collnet check`: the software reference without cycle simulation. Builds
// the schedule, runs the functional executor, compares every endpoint's
// memory with the collective's definition, and routes every phase for the
// static link loads.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "collectives/params.hpp"

namespace collnet::cli {

struct CheckOutcome {
  nlohmann::json json;  // contract fields: see README "collnet check"
  std::string text;     // readable summary
  bool data_pass = false;
};

CheckOutcome run_check(const Params& params);

}  // namespace collnet::cli
