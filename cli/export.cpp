#include "cli/export.hpp"

#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "collectives/msccl_export.hpp"
#include "cli/check.hpp"
#include "cli/scenario.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

int run_export(const ExportOptions& o) {
  std::vector<std::string> problems;
  if (o.format != "msccl")
    problems.push_back("--format: '" + o.format + "' is not an export format; accepted values: msccl");
  if (o.out.empty()) problems.push_back("--out: missing; give the MSCCL-IR file to write (--out FILE.xml)");
  else if (const auto p = output_path_problem("--out", o.out); !p.empty()) problems.push_back(p);
  const Params params = load_scenario(o.scenario, o.sets, problems);
  for (auto& p : algorithm_key_problems(params, false)) problems.push_back(std::move(p));
  throw_problems(problems);

  const PlannedSchedule plan = plan_schedule(params);
  const collectives::Algorithm& algorithm = *plan.algorithm;
  const collectives::Schedule& schedule = plan.schedule;
  std::vector<std::string> key_names;
  for (const auto& k : algorithm.keys) key_names.push_back(k.name);
  const collectives::MscclExport ex = collectives::export_msccl(schedule, algorithm.name, key_names);
  for (const auto& w : ex.warnings) std::cerr << "collnet export: warning: " << w << "\n";
  std::ofstream f(o.out, std::ios::binary);
  f << ex.xml;
  f.close();
  if (!f) throw ConfigError("--out: cannot write '" + o.out + "'");
  std::cout << fmt::format(
      "collnet export: {} on {} ({} gpus, coll {}, {} thread blocks, {} steps), chunk = {} words -> {}\n"
      "  import with: --set algorithm=msccl --set schedule={} --set topology={} (the file's chunk_words is the "
      "chunk)\n",
      algorithm.name, plan.topology->name(), schedule.endpoints(), ex.coll, ex.thread_blocks, ex.steps, ex.chunk_words,
      o.out, o.out, params.text("topology", "torus:8x8"));
  return 0;
}

}  // namespace collnet::cli
