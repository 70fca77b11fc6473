// Validation of a sweep point before anything runs: the checks `collnet run`
// makes of a scenario file before it builds a network, called in-process.
// This file is the one seam between the sweep and the scenario validation.
#include "collectives/algorithm.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/run/synthetic.hpp"
#include "cli/run.hpp"
#include "cli/run_collective.hpp"
#include "cli/sweep.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

std::vector<std::string> point_problems(const Params& scenario) {
  // The point file goes to `collnet run FILE`: the same rule completes it and
  // the same checks refuse it (cli/run.cpp).
  const Params params = complete_run_scenario(scenario);
  std::vector<std::string> problems = run_problems(params);
  if (!problems.empty() || !params.has("algorithm")) return problems;
  // A collective is also planned (schedule built against the topology), as
  // `collnet run` plans every compared algorithm before simulating any.
  std::vector<std::string> algorithms{params.text("algorithm", collectives::algorithm_key().default_text())};
  for (const auto& name : systemc::compare_list(params.text("compare", ""))) algorithms.push_back(name);
  for (const auto& name : algorithms) {
    Params p = params;
    p.set("algorithm", name);
    try {
      (void)systemc::plan_collective(systemc::collective_from(p));
    } catch (const ConfigError& e) {
      problems.push_back(algorithms.size() > 1 ? name + ": " + e.what() : e.what());
    }
  }
  return problems;
}

}  // namespace collnet::cli
