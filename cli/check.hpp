// `collnet check`: the software reference without cycle simulation. Builds
// the schedule, runs the functional executor, compares every endpoint's
// memory with the collective's definition, and routes every phase for the
// static link loads.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "collectives/algorithm.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

struct CheckOutcome {
  nlohmann::json json;  // contract fields: see README "collnet check"
  std::string text;     // readable summary
  bool data_pass = false;
};

/// The scenario's topology, algorithm and schedule (the software reference's
/// programs): what `check` and `export` start from. Throws ConfigError naming
/// the key for a topology or size the algorithm cannot take.
struct PlannedSchedule {
  std::unique_ptr<topology::Topology> topology;
  const collectives::Algorithm* algorithm = nullptr;
  collectives::Schedule schedule;
};
PlannedSchedule plan_schedule(const Params& params);

CheckOutcome run_check(const Params& params);

}  // namespace collnet::cli
