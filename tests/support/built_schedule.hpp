// Test helper (tests/support/: fixtures several suites share, written once):
// an algorithm's schedule built on a topology given by its scenario text,
// the topology kept alive beside it, and optionally its static report.
#pragma once

#include <memory>
#include <string>

#include "collectives/algorithm.hpp"
#include "collectives/static_check.hpp"
#include "topology/topology.hpp"

namespace collnet::test {

struct BuiltSchedule {
  std::unique_ptr<topology::Topology> topology;
  collectives::Schedule schedule;
  collectives::StaticReport report;  // empty unless asked for
};

enum class StaticCheck : bool { skip, run };

inline BuiltSchedule build_schedule(const std::string& algorithm, const std::string& topology,
                                    const Params& params = {}, StaticCheck check = StaticCheck::skip) {
  BuiltSchedule r;
  r.topology = topology::make_topology(topology);
  r.schedule = collectives::find_algorithm(algorithm).build(*r.topology, params);
  if (check == StaticCheck::run) r.report = collectives::static_check(*r.topology, r.schedule);
  return r;
}

}  // namespace collnet::test
