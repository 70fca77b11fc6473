#include "cli/check.hpp"

#include <chrono>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "collectives/units.hpp"
#include "cli/scenario.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

PlannedSchedule plan_schedule(const Params& params) {
  PlannedSchedule plan;
  try {
    plan.topology = topology::make_topology(params.text("topology", "torus:8x8"));
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("key 'topology': ") + e.what());
  }
  plan.algorithm = &collectives::find_algorithm(params.text("algorithm", "a2a-optimal"));
  plan.schedule = plan.algorithm->build(*plan.topology, params);
  return plan;
}

CheckOutcome run_check(const Params& params) {
  const auto t0 = std::chrono::steady_clock::now();
  const PlannedSchedule plan = plan_schedule(params);
  const auto& topo = plan.topology;
  const collectives::Algorithm& algorithm = *plan.algorithm;
  const collectives::Schedule& schedule = plan.schedule;
  const collectives::StaticReport report = collectives::static_check(*topo, schedule);
  const collectives::ExecResult exec = collectives::execute(schedule);
  const collectives::DataCheck data = collectives::check_data(schedule, exec.memory);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // A flit time is a cycle of the cycle model (a link moves a flit a cycle).
  const Units units = units_from(params);
  CheckOutcome out;
  out.data_pass = data.pass;
  out.json = {  // in the README's order
      {"topology", topo->name()},
      {"algorithm", algorithm.name},
      {"nodes", topo->endpoint_count()},
      {"phases", report.phases.size()},
      {"sends_per_node", {{"min", report.min_sends_per_node}, {"max", report.max_sends_per_node}}},
      {"phase_max_link_load", report.phase_max_link_load()},
      {"static_time", report.static_time},
      {"lower_bound", schedule.lower_bound >= 0 ? nlohmann::json(schedule.lower_bound) : nlohmann::json(nullptr)},
      {"static_time_ns", units.ns(static_cast<double>(report.static_time))},
      {"lower_bound_ns", schedule.lower_bound >= 0 ? nlohmann::json(units.ns(static_cast<double>(schedule.lower_bound)))
                                                   : nlohmann::json(nullptr)},
      {"data_check", data.pass ? "pass" : "fail"},
      {"transfers", report.transfers},
      {"local_copies", report.local_copies},
      {"barriers", report.barriers},
      {"memory_words", schedule.memory_words},
      {"words_checked", data.words_checked},
      {"check_seconds", seconds},
  };
  if (!data.pass) out.json["data_errors"] = data.first_errors;
  out.json["scenario"] = resolved_scenario(params, RunKind::check);

  std::string& t = out.text;
  t += fmt::format("collnet check: {} on {} ({} nodes)\n", algorithm.name, topo->name(), topo->endpoint_count());
  t += fmt::format("  phases            {}\n", report.phases.size());
  t += fmt::format("  transfers         {} (+{} local copies)\n", report.transfers, report.local_copies);
  t += fmt::format("  sends per node    {}..{}\n", report.min_sends_per_node, report.max_sends_per_node);
  t += fmt::format("  barriers          {}\n", report.barriers);
  const auto loads = report.phase_max_link_load();
  std::string shown;
  for (std::size_t i = 0; i < loads.size() && i < 24; ++i) shown += (i ? "," : "") + std::to_string(loads[i]);
  if (loads.size() > 24) shown += ",...";
  t += fmt::format("  phase max loads   [{}]\n", shown);
  t += fmt::format("  static time       {} flit times\n", report.static_time);
  if (schedule.lower_bound >= 0)
    t += fmt::format("  lower bound       {} flit times (static/bound = {:.4f})\n", schedule.lower_bound,
                     schedule.lower_bound > 0 ? static_cast<double>(report.static_time) / static_cast<double>(schedule.lower_bound) : 0.0);
  else t += "  lower bound       (none for this algorithm)\n";
  t += fmt::format("  data check        {} ({} words compared)\n", data.pass ? "pass" : "FAIL", data.words_checked);
  for (const auto& e : data.first_errors) t += "    " + e + "\n";
  return out;
}

}  // namespace collnet::cli
