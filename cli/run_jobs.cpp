#include "cli/run_jobs.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "cli/run_collective.hpp"
#include "cli/scenario.hpp"
#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "systemc/run/collective_run.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

const Key& jobs_key() {
  static const Key k = Key::text(
      "jobs",
      "collnet run: several jobs on one network instead of one collective, a YAML list of maps, one a job: its "
      "algorithm, its endpoints (\"0-7\", \"0-3,8-11\" or a list; rank r on the r-th), its shape (the topology its "
      "algorithm is built for; default mesh:Kx1 for K endpoints) and its algorithm's keys; jobs share no endpoint; "
      "each job's cycles, data check and slowdown against it alone are reported (docs/guide/workloads.md)",
      "", "a YAML list of maps with algorithm and endpoints, or empty");
  return k;
}

const std::vector<std::string>& job_own_keys() {
  static const std::vector<std::string> keys = {"algorithm", "endpoints", "shape"};
  return keys;
}

namespace {

struct JobSpec {
  std::string algorithm;
  std::string endpoints_text;
  std::vector<int> endpoints;
  std::string shape;                                // empty: mesh:Kx1
  std::vector<std::pair<std::string, std::string>> keys;  // the algorithm's keys, in the order given
};

std::string job_name(std::size_t i, const JobSpec& j) {
  return fmt::format("key 'jobs': job {}{}", i, j.algorithm.empty() ? "" : " (" + j.algorithm + ")");
}

/// "0-7,12" or a YAML list of numbers and ranges -> endpoints in order.
std::vector<int> parse_endpoints(const YAML::Node& node, std::string& text, std::string& problem) {
  std::vector<std::string> parts;
  if (node.IsSequence()) {
    for (const auto& item : node) parts.push_back(item.as<std::string>());
  } else if (node.IsScalar()) {
    std::string all = node.as<std::string>();
    std::size_t start = 0;
    while (start <= all.size()) {
      const std::size_t comma = all.find(',', start);
      parts.push_back(all.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    problem = "endpoints must be ranges (\"0-7,12\") or a list of endpoint numbers";
    return {};
  }
  std::vector<int> out;
  for (std::string part : parts) {
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    text += (text.empty() ? "" : ",") + part;
    const std::size_t dash = part.find('-');
    try {
      std::size_t used = 0;
      const int lo = std::stoi(part.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? part.size() : dash)) throw std::invalid_argument(part);
      int hi = lo;
      if (dash != std::string::npos) {
        hi = std::stoi(part.substr(dash + 1), &used);
        if (used != part.size() - dash - 1) throw std::invalid_argument(part);
      }
      if (lo < 0 || hi < lo || hi - lo > 1 << 20) throw std::invalid_argument(part);
      for (int e = lo; e <= hi; ++e) out.push_back(e);
    } catch (const std::exception&) {
      problem = "endpoints: '" + part + "' is not an endpoint number or a range LO-HI (LO <= HI)";
      return {};
    }
  }
  if (out.empty()) problem = "endpoints: none given";
  return out;
}

/// The jobs of the key's value, each problem naming the job.
std::vector<JobSpec> parse_jobs(const std::string& value, std::vector<std::string>& problems) {
  std::vector<JobSpec> jobs;
  YAML::Node root;
  try {
    root = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    problems.push_back("key 'jobs': malformed YAML: " + std::string(e.what()));
    return jobs;
  }
  if (!root.IsSequence() || root.size() == 0) {
    problems.push_back("key 'jobs': expected a YAML list of maps, one a job, each with algorithm and endpoints");
    return jobs;
  }
  for (std::size_t i = 0; i < root.size(); ++i) {
    JobSpec j;
    const YAML::Node& node = root[i];
    if (!node.IsMap()) {
      problems.push_back(fmt::format("key 'jobs': job {} is not a map (algorithm: NAME, endpoints: RANGES, ...)", i));
      continue;
    }
    for (const auto& kv : node) {
      const auto key = kv.first.as<std::string>();
      if (key == "endpoints") {
        std::string problem;
        j.endpoints = parse_endpoints(kv.second, j.endpoints_text, problem);
        if (!problem.empty()) problems.push_back(job_name(i, j) + ": " + problem);
        continue;
      }
      if (!kv.second.IsScalar()) {
        problems.push_back(fmt::format("{}: key '{}' must have a single value", job_name(i, j), key));
        continue;
      }
      const auto v = kv.second.as<std::string>();
      if (key == "algorithm") j.algorithm = v;
      else if (key == "shape") j.shape = v;
      else j.keys.emplace_back(key, v);
    }
    if (j.algorithm.empty()) problems.push_back(fmt::format("key 'jobs': job {} has no algorithm", i));
    else if (collectives::lookup_algorithm(j.algorithm) == nullptr)
      problems.push_back(fmt::format("key 'jobs': job {}: unknown algorithm '{}'; accepted values: {}", i, j.algorithm,
                                     join(collectives::algorithm_names())));
    if (j.endpoints.empty() && j.endpoints_text.empty())
      problems.push_back(fmt::format("{}: no endpoints (endpoints: 0-7, a range or a list)", job_name(i, j)));
    jobs.push_back(std::move(j));
  }
  return jobs;
}

/// The scenario without `jobs`: the network's keys, every job's.
Params network_params(const Params& params) {
  Params p;
  for (const auto& [k, v] : params.values())
    if (k != "jobs") p.set(k, v);
  return p;
}

std::string shape_of(const JobSpec& j) {
  return j.shape.empty() ? fmt::format("mesh:{}x1", j.endpoints.size()) : j.shape;
}

/// A job's own scenario: the network's keys, its algorithm's, its shape as
/// the topology its schedule is built for.
Params job_params(const Params& network, const JobSpec& j) {
  Params p = network;
  for (const auto& [k, v] : j.keys) p.set(k, v);
  p.set("algorithm", j.algorithm);
  p.set("topology", shape_of(j));
  return p;
}

/// Every problem of the jobs against the network: endpoints out of range
/// or shared, a shape of another size, the jobs' own keys.
std::vector<std::string> check_jobs(const Params& params, const std::vector<JobSpec>& jobs) {
  std::vector<std::string> problems;
  std::unique_ptr<topology::Topology> topo;
  try {
    topo = topology::make_topology(collectives::topology_key().text(params));
  } catch (const std::exception&) {
    return problems;  // the key 'topology''s own problem
  }
  const Params network = network_params(params);
  std::map<int, std::size_t> owner;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    for (const int e : j.endpoints) {
      if (e >= topo->endpoint_count()) {
        problems.push_back(fmt::format("{}: endpoint {} is not one of {}'s endpoints 0..{}", job_name(i, j), e,
                                       topo->name(), topo->endpoint_count() - 1));
        break;
      }
      if (const auto [it, fresh] = owner.emplace(e, i); !fresh) {
        problems.push_back(fmt::format("{}: endpoint {} is {}; a job runs on endpoints of its own",
                                       job_name(i, j), e,
                                       it->second == i ? "given twice" : fmt::format("job {}'s too", it->second)));
        break;
      }
    }
    if (j.algorithm.empty() || collectives::lookup_algorithm(j.algorithm) == nullptr || j.endpoints.empty()) continue;
    for (const auto& [k, v] : j.keys)
      if (k == "topology" || k == "algorithm" || k == "compare" || k == "workload" || k == "jobs")
        problems.push_back(fmt::format("{}: key '{}' is the scenario's, not a job's; a job reads {} and its "
                                       "algorithm's keys",
                                       job_name(i, j), k, join(job_own_keys())));
    try {
      const auto shape = topology::make_topology(shape_of(j));
      if (shape->endpoint_count() != static_cast<std::int32_t>(j.endpoints.size())) {
        problems.push_back(fmt::format("{}: shape {} has {} endpoints and the job {}; accepted: a topology with as "
                                       "many endpoints as the job (default mesh:{}x1)",
                                       job_name(i, j), shape->name(), shape->endpoint_count(), j.endpoints.size(),
                                       j.endpoints.size()));
        continue;
      }
    } catch (const std::exception& e) {
      problems.push_back(fmt::format("{}: shape '{}': {}", job_name(i, j), shape_of(j), e.what()));
      continue;
    }
    for (const auto& p : collective_run_problems(job_params(network, j)))
      problems.push_back(fmt::format("{}: {}", job_name(i, j), p));
  }
  return problems;
}

/// A job's schedule, built for its shape, with its SENDs addressed to the
/// network's endpoints.
struct BuiltJob {
  JobSpec spec;
  collectives::Schedule schedule;  // for the shape (ranks)
  std::int64_t words_per_rank = -1;
  std::string size_text;
  bool next_idle = false;
};

BuiltJob build_job(const Params& network, const JobSpec& j, std::size_t index) {
  BuiltJob b;
  b.spec = j;
  const Params p = job_params(network, j);
  const collectives::Algorithm& a = collectives::find_algorithm(j.algorithm);
  const auto shape = topology::make_topology(shape_of(j));
  try {
    b.schedule = a.build(*shape, p);
    b.words_per_rank = collectives::words_per_rank(a, *shape, p);
    b.size_text = collectives::words_per_rank_text(a, *shape, p);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", job_name(index, j), e.what()));
  }
  b.next_idle = a.nic.dispatch == collectives::Dispatch::next_idle;
  const auto scan = [&](const collectives::Program& program) {
    for (const Descriptor& d : program)
      if (d.opcode == Opcode::barrier)
        throw ConfigError(fmt::format("{}: {} synchronizes with barriers, and the barrier network spans every "
                                      "endpoint of the network, not a job's; a job runs an algorithm without "
                                      "barriers",
                                      job_name(index, j), j.algorithm));
  };
  for (const auto& program : b.schedule.programs) scan(program);
  for (const auto& threads : b.schedule.threads)
    for (const auto& t : threads) scan(t.program);
  return b;
}

/// Rank r's descriptors with their SENDs addressed to the job's endpoints.
collectives::Program placed(const collectives::Program& program, const std::vector<int>& endpoints) {
  collectives::Program out = program;
  for (std::size_t i = 0; i < out.size(); ++i) {
    Descriptor d = out[i];
    if (d.opcode != Opcode::send) continue;
    d.dest = static_cast<std::uint32_t>(endpoints[d.dest]);
    d.route_hint = 0;  // the shape's hint means nothing on the network's routes
    out.set(i, d);
  }
  return out;
}

/// The schedule of `jobs` (indices into `built`) on a network of `n`
/// endpoints: each job's ranks on its endpoints, the other endpoints idle.
collectives::Schedule merged_schedule(const std::vector<BuiltJob>& built, const std::vector<std::size_t>& jobs,
                                      std::size_t n) {
  collectives::Schedule m;
  m.algorithm = "jobs";
  m.programs.assign(n, collectives::Program{Descriptor::end()});
  m.node_memory_words.assign(n, 1);
  // owner[e]: (job, rank), or job -1.
  auto owner = std::make_shared<std::vector<std::pair<int, int>>>(n, std::make_pair(-1, 0));
  bool threads = false;
  for (const std::size_t i : jobs) threads = threads || !built[i].schedule.threads.empty();
  if (threads) m.threads.resize(n);
  for (const std::size_t i : jobs) {
    const BuiltJob& b = built[i];
    m.controllers = std::max(m.controllers, b.schedule.controllers);
    for (std::size_t r = 0; r < b.spec.endpoints.size(); ++r) {
      const auto e = static_cast<std::size_t>(b.spec.endpoints[r]);
      (*owner)[e] = {static_cast<int>(i), static_cast<int>(r)};
      m.programs[e] = placed(b.schedule.programs[r], b.spec.endpoints);
      m.node_memory_words[e] =
          std::max<std::uint32_t>(1, b.schedule.memory_of(static_cast<collectives::EndpointId>(r)));
      if (r < b.schedule.threads.size())
        for (const collectives::Thread& t : b.schedule.threads[r]) {
          collectives::Thread placed_thread = t;
          placed_thread.program = placed(t.program, b.spec.endpoints);
          m.threads[e].push_back(std::move(placed_thread));
        }
    }
  }
  m.memory_words = *std::max_element(m.node_memory_words.begin(), m.node_memory_words.end());
  auto schedules = std::make_shared<std::vector<const collectives::Schedule*>>();
  for (const BuiltJob& b : built) schedules->push_back(&b.schedule);
  m.initial = [owner, schedules](collectives::EndpointId e, std::uint32_t a) -> collectives::Word {
    const auto [job, rank] = (*owner)[static_cast<std::size_t>(e)];
    if (job < 0) return 0;
    const collectives::Schedule& s = *(*schedules)[static_cast<std::size_t>(job)];
    return s.initial ? s.initial(static_cast<collectives::EndpointId>(rank), a) : 0;
  };
  m.expected = [owner, schedules](collectives::EndpointId e) -> std::vector<collectives::Region> {
    const auto [job, rank] = (*owner)[static_cast<std::size_t>(e)];
    if (job < 0) return {};
    const collectives::Schedule& s = *(*schedules)[static_cast<std::size_t>(job)];
    return s.expected ? s.expected(static_cast<collectives::EndpointId>(rank)) : std::vector<collectives::Region>{};
  };
  return m;
}

/// One job's figures from a run of the merged schedule.
struct JobResult {
  std::uint64_t cycles = 0;
  bool finished = false;
  collectives::DataCheck check;
  bool checked = false;
};

/// A run of the merged schedule of `jobs`: the collective result and each job's figures.
struct MergedRun {
  systemc::CollectiveResult result;
  std::vector<JobResult> jobs;  // index as `jobs`
};

MergedRun run_merged(const systemc::CollectiveScenario& base, const std::vector<BuiltJob>& built,
                     const std::vector<std::size_t>& jobs, std::size_t n) {
  systemc::CollectiveScenario s = base;
  const collectives::Schedule merged = merged_schedule(built, jobs, n);
  s.custom_schedule = [&merged](const topology::Topology&) { return merged; };
  MergedRun out;
  out.jobs.resize(jobs.size());
  s.memory_sink = [&](const std::vector<collectives::NodeMemory>& memory) {
    // Each job's words against its own expectation (the others' endpoints expect nothing).
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      collectives::Schedule view;
      view.programs.resize(n);
      const BuiltJob& b = built[jobs[k]];
      std::vector<int> rank_of(n, -1);
      for (std::size_t r = 0; r < b.spec.endpoints.size(); ++r)
        rank_of[static_cast<std::size_t>(b.spec.endpoints[r])] = static_cast<int>(r);
      view.expected = [&b, rank_of](collectives::EndpointId e) -> std::vector<collectives::Region> {
        const int rank = rank_of[static_cast<std::size_t>(e)];
        if (rank < 0 || !b.schedule.expected) return {};
        return b.schedule.expected(static_cast<collectives::EndpointId>(rank));
      };
      out.jobs[k].check = collectives::check_data(view, memory);
      out.jobs[k].checked = true;
    }
  };
  const systemc::CollectivePlan plan = systemc::plan_collective(s);
  out.result = systemc::run_collective(s, plan);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    JobResult& jr = out.jobs[k];
    jr.finished = true;
    for (const int e : built[jobs[k]].spec.endpoints) {
      const systemc::Cycle f = out.result.node_finish[static_cast<std::size_t>(e)];
      if (f == systemc::kNever) jr.finished = false;
      else jr.cycles = std::max<std::uint64_t>(jr.cycles, f + 1);
    }
    if (!jr.finished) jr.cycles = out.result.cycles;
  }
  return out;
}

}  // namespace

std::vector<std::string> jobs_run_problems(const Params& params) {
  std::vector<std::string> problems;
  for (const char* key : {"algorithm", "compare", "workload"})
    if (params.has(key))
      problems.push_back(std::string("keys '") + key + "' and 'jobs' select different runs (one collective or "
                         "workload, or several jobs each with its own algorithm); set only one");
  const std::vector<JobSpec> jobs = parse_jobs(params.text("jobs", ""), problems);
  // The network's keys, checked as those of a collective run of the default algorithm.
  Params checked = network_params(params);
  checked.set("algorithm", collectives::algorithm_key().default_text());
  for (const auto& p : collective_run_problems(checked)) add_problem(problems, p);
  if (problems.empty()) for (const auto& p : check_jobs(params, jobs)) problems.push_back(p);
  return problems;
}

RunOutcome run_jobs_scenario(const Params& params, const std::string& vcd_path, const systemc::RunProgressFn& progress,
                             const TraceRequest& trace) {
  throw_problems(jobs_run_problems(params));
  std::vector<std::string> unused;
  const std::vector<JobSpec> specs = parse_jobs(params.text("jobs", ""), unused);
  const Params network = network_params(params);
  std::vector<BuiltJob> built;
  for (std::size_t i = 0; i < specs.size(); ++i) built.push_back(build_job(network, specs[i], i));

  Params checked = network;
  checked.set("algorithm", collectives::algorithm_key().default_text());
  systemc::CollectiveScenario s = systemc::collective_from(checked);
  s.algorithm = "jobs";
  s.schedule_engine = "reference";
  // The NIC hands SENDs to controllers as every job's algorithm does: one
  // dispatch for the run.
  const bool all_next_idle = std::all_of(built.begin(), built.end(), [](const BuiltJob& b) { return b.next_idle; });
  const bool any_next_idle = std::any_of(built.begin(), built.end(), [](const BuiltJob& b) { return b.next_idle; });
  if (s.dispatch == "auto") {
    if (any_next_idle && !all_next_idle)
      throw ConfigError("key 'dispatch': the jobs' algorithms hand their SENDs to controllers differently (next-idle "
                        "and named); a NIC does one: set dispatch: named or next-idle");
    s.dispatch = all_next_idle ? "next-idle" : "named";
  }
  s.nic.controllers = params.has("controllers") ? s.nic.controllers : 0;
  s.progress = progress;
  const auto topo = topology::make_topology(s.topology);
  const auto n = static_cast<std::size_t>(topo->endpoint_count());

  std::vector<std::size_t> all(built.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  systemc::CollectiveScenario together = s;
  together.vcd_path = vcd_path;
  together.trace_path = trace.path;
  together.trace_links = trace.links;
  const MergedRun run = run_merged(together, built, all, n);
  systemc::CollectiveResult r = run.result;
  // No one size: each job's is on its line.
  r.message_words = 0;
  r.elements = -1;
  r.words_per_rank = -1;
  r.size_text = "each job's size on its line above";
  // Each job alone on the same network and endpoints (no background traffic
  // either: the job's own cycles).
  std::vector<MergedRun> alone;
  if (!r.interrupted) {
    systemc::CollectiveScenario by_itself = s;
    by_itself.background.enabled = false;
    by_itself.progress = nullptr;
    for (std::size_t i = 0; i < built.size(); ++i) alone.push_back(run_merged(by_itself, built, {i}, n));
  }

  RunOutcome out;
  const Units units = units_from(network);
  report_model_run(r, s.router, units, out);
  std::string head = fmt::format("collnet run: {} job{} on {} ({} endpoints)\n", built.size(),
                                 built.size() == 1 ? "" : "s", r.topology, n);
  nlohmann::json jobs_json = nlohmann::json::array();
  bool data_ok = true;
  for (std::size_t i = 0; i < built.size(); ++i) {
    const BuiltJob& b = built[i];
    const JobResult& jr = run.jobs[i];
    nlohmann::json j;
    j["algorithm"] = b.spec.algorithm;
    j["endpoints"] = b.spec.endpoints;
    j["shape"] = shape_of(b.spec);
    j["words_per_rank"] = b.words_per_rank >= 0 ? nlohmann::json(b.words_per_rank) : nlohmann::json(nullptr);
    j["size"] = b.size_text;
    j["cycles"] = jr.cycles;
    j["completed"] = jr.finished;
    j["data_check"] = !jr.finished || !jr.checked ? nlohmann::json(nullptr) : jr.check.pass ? "pass" : "fail";
    j["data_mismatches"] = jr.check.mismatches;
    data_ok = data_ok && (!jr.finished || jr.check.pass);
    std::string alone_text;
    if (i < alone.size()) {
      const JobResult& a = alone[i].jobs[0];
      j["alone_cycles"] = a.cycles;
      j["alone_data_check"] = !a.finished || !a.checked ? nlohmann::json(nullptr) : a.check.pass ? "pass" : "fail";
      j["slowdown"] = a.finished && jr.finished && a.cycles > 0
                          ? nlohmann::json(static_cast<double>(jr.cycles) / static_cast<double>(a.cycles))
                          : nlohmann::json(nullptr);
      data_ok = data_ok && (!a.finished || a.check.pass);
      if (j["slowdown"].is_number())
        alone_text = fmt::format(", alone {} (slowdown {:.3f}x)", a.cycles, j["slowdown"].get<double>());
    } else {
      j["alone_cycles"] = nullptr;
      j["alone_data_check"] = nullptr;
      j["slowdown"] = nullptr;
    }
    head += fmt::format("  job {:<13} {} on endpoints {} ({} ranks, shape {}, {}): {} cycles{}, data check {}\n", i,
                        b.spec.algorithm, b.spec.endpoints_text, b.spec.endpoints.size(), shape_of(b.spec),
                        b.size_text, jr.cycles, alone_text,
                        j["data_check"].is_null() ? "not made" : j["data_check"].get<std::string>() == "pass" ? "pass"
                                                                                                              : "FAIL");
    for (std::size_t e = 0; e < jr.check.first_errors.size() && !jr.check.pass; ++e)
      head += "    " + jr.check.first_errors[e] + "\n";
    jobs_json.push_back(std::move(j));
  }
  out.text = head + out.text;
  out.json["jobs"] = std::move(jobs_json);
  nlohmann::json scenario = resolved_scenario(checked, RunKind::collective);
  scenario.erase("algorithm");
  scenario.erase("compare");
  for (const Key& k : collectives::find_algorithm(collectives::algorithm_key().default_text()).keys)
    if (!params.has(k.name)) scenario.erase(k.name);
  nlohmann::json jobs_scenario = nlohmann::json::array();
  for (const BuiltJob& b : built) {
    nlohmann::json j = {
        {"algorithm", b.spec.algorithm}, {"endpoints", b.spec.endpoints_text}, {"shape", shape_of(b.spec)}};
    for (const auto& [k, v] : b.spec.keys) j[k] = v;
    jobs_scenario.push_back(std::move(j));
  }
  scenario["jobs"] = std::move(jobs_scenario);
  out.json["scenario"] = std::move(scenario);
  if (r.interrupted) out.interrupted = fmt::format("jobs on {} at cycle {}", r.topology, r.cycles);
  else if ((!data_ok || !r.data_check || r.background.integrity_errors > 0) && !r.deadlocked()) out.exit_status = 1;
  if ((r.deadlocked() || !r.completed) && !r.interrupted) out.exit_status = 3;
  return out;
}

}  // namespace collnet::cli
