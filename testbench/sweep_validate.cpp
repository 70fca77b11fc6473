// Validation of a sweep point before anything runs: the checks `collnet run`
// makes of a scenario file before it builds a network, called in-process.
// This file is the one seam between the sweep and the scenario validation;
// when `collnet run` gains a single entry point for its checks (issue 12),
// point_problems() becomes a call to it.
#include <sstream>

#include "collectives/algorithm.hpp"
#include "systemc/collective_run.hpp"
#include "systemc/synthetic.hpp"
#include "testbench/run.hpp"
#include "testbench/run_collective.hpp"
#include "testbench/sweep.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

namespace {

void check_collective(const Params& params) {
  for (const auto& [key, value] : params.values())
    if (synthetic_only_key(key))
      throw ConfigError("key '" + key + "' belongs to synthetic-traffic runs; a scenario with 'algorithm' runs a "
                        "collective");
  std::vector<std::string> algorithms{params.text("algorithm", "a2a-optimal")};
  std::stringstream in(params.text("compare", ""));
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) algorithms.push_back(item);
  }
  for (const auto& name : algorithms) {
    Params p = params;
    p.set("algorithm", name);
    const systemc::CollectiveScenario s = systemc::collective_from(p);
    const auto topo = topology::make_topology(s.topology);
    // Building the schedule checks the algorithm's own keys against the topology.
    (void)collectives::find_algorithm(name).build(*topo, p);
  }
}

void check_synthetic(const Params& params) {
  const systemc::SyntheticScenario s = systemc::synthetic_from(params);
  (void)topology::make_topology(s.topology);
  if (!(s.load.injection_rate >= 0.0 && s.load.injection_rate <= 1.0))
    throw ConfigError("key 'injection_rate': expected 0..1 flits per endpoint per cycle");
}

}  // namespace

std::vector<std::string> point_problems(const Params& scenario) {
  try {
    // The point file goes to `collnet run FILE`: a scenario with `algorithm`
    // runs a collective, one without runs synthetic traffic (testbench/run.cpp).
    if (scenario.has("algorithm")) {
      if (scenario.has("traffic"))
        throw ConfigError("keys 'algorithm' and 'traffic' select different runs (a collective or synthetic "
                          "traffic); set only one");
      check_collective(scenario);
    } else {
      check_synthetic(scenario);
    }
  } catch (const ConfigError& e) {
    return {e.what()};
  }
  return {};
}

}  // namespace collnet::cli
