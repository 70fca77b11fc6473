#include "cli/run.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "collectives/units.hpp"
#include "systemc/network/memory_estimate.hpp"
#include "systemc/trace/message_trace.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/synthetic.hpp"
#include "systemc/trace/waveform.hpp"
#include "cli/run_collective.hpp"
#include "cli/run_jobs.hpp"
#include "cli/scenario.hpp"
#include "cli/energy_report.hpp"
#include "cli/units_report.hpp"
#include "topology/grid.hpp"
#include "topology/topology.hpp"

namespace collnet::cli {

const char* const kDefaultRunScenario = R"(# collnet run: embedded default scenario
# A2AT, the optimal all-to-all of document 001, next to the MPICH-style A2A
# baseline on an 8x8 torus, every other key at its default: the scenario
# `collnet check` checks and `--set algorithm=a2a-optimal` runs (the headline
# configuration, A2AT at 0.998 of the bisection bound, is
# examples/a2at-torus-8x8.yaml).
topology: torus:8x8
algorithm: a2a-optimal
compare: a2a-spread
)";

const char* const kDefaultSyntheticScenario = R"(# collnet run: embedded synthetic-traffic default
topology: torus:8x8
traffic: uniform
injection_rate: 0.3
packet_flits: 4
warmup_cycles: 1000
measure_cycles: 10000
)";

Params load_run_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return without_problems(
      [&](std::vector<std::string>& problems) { return load_run_scenario(path, overrides, problems); });
}

Params load_run_scenario(const std::string& path, const std::vector<std::string>& overrides,
                         std::vector<std::string>& problems) {
  // One rule for a scenario file and --set alike (README, "collnet run"):
  // the keys given, from the file and then the overrides, decide the run.
  // With `algorithm`: that collective from the keys' own defaults; else with
  // a synthetic-traffic key: synthetic traffic; else the embedded default
  // collective (A2AT next to A2A), the keys given replacing its own.
  return complete_run_scenario(load_scenario(path, overrides, problems));
}

Params complete_run_scenario(const Params& given) {
  const bool synthetic = std::any_of(given.values().begin(), given.values().end(),
                                     [](const auto& kv) { return synthetic_only_key(kv.first); });
  Params p = given.has("algorithm") || given.has("workload") || given.has("jobs") ? Params{}
             : synthetic            ? parse_scenario_text(kDefaultSyntheticScenario, "embedded synthetic run scenario")
                                    : parse_scenario_text(kDefaultRunScenario, "embedded run scenario");
  for (const auto& [k, v] : given.values()) p.set(k, v);
  return p;
}

std::vector<std::string> run_problems(const Params& params) {
  if (params.has("workload")) return workload_run_problems(params);
  if (params.has("jobs")) return jobs_run_problems(params);
  if (params.has("algorithm")) return collective_run_problems(params);
  std::vector<std::string> problems;
  std::vector<std::string> model;
  collect_model_problems(params, [](const Params& p) { (void)systemc::synthetic_from(p); }, model);
  for (const auto& p : model) add_problem(problems, p);
  add_problem(problems, collectives::topology_key().problem(params));
  for (const Key& k : unit_keys()) add_problem(problems, k.problem(params));
  for (const auto& p : applicability_problems(params, RunKind::synthetic)) add_problem(problems, p);
  add_hints(problems, params);
  return problems;
}

void add_per_link_json(nlohmann::json& into, const topology::Graph& graph, const std::vector<double>& utilization) {
  nlohmann::json per_link = nlohmann::json::object();
  for (std::size_t l = 0; l < utilization.size(); ++l)
    per_link[graph.link_name(static_cast<topology::LinkId>(l))] = utilization[l];
  into["per_link"] = std::move(per_link);
  if (auto positions = node_positions_json(graph); !positions.is_null()) into["node_positions"] = std::move(positions);
}

nlohmann::json node_positions_json(const topology::Graph& graph) {
  nlohmann::json positions = nlohmann::json::object();
  for (topology::NodeId n = 0; n < static_cast<topology::NodeId>(graph.node_count()); ++n) {
    const std::vector<double>& at = graph.node(n).at;
    if (at.empty()) return nullptr;
    positions[graph.node_name(n)] = {at[0], at.size() > 1 ? at[1] : 0.0};
  }
  return positions;
}

nlohmann::json router_json(const systemc::RouterConfig& rc) {
  return {{"vcs", rc.vcs},
          {"buffer_flits", rc.buffer_flits},
          {"buffer_sizing", rc.buffer_round_trip ? "round-trip" : "fixed"},
          {"switching", rc.switching == systemc::Switching::wormhole ? "wormhole" : "vct"},
          {"arbitration", rc.arbitration},
          {"age_width", rc.age_width},
          {"allocator", rc.allocator == systemc::Allocator::output_first ? "output-first" : "input-first"},
          {"allocator_iterations", rc.allocator_iterations},
          {"vc_allocation", rc.atomic_vc_allocation ? "atomic" : "non-atomic"},
          {"router_delay", rc.router_delay()},
          {"routing_delay", rc.routing_delay},
          {"allocation_delay", rc.allocation_delay},
          {"traversal_delay", rc.traversal_delay},
          {"link_latency", rc.link_latency},
          {"dateline", rc.dateline},
          {"dateline_class", rc.dateline_whole_dimension ? "whole-dimension" : "from-wrap"},
          {"credit_release_delay", rc.credit_release_delay},
          {"vc_allocator_stage", rc.vc_allocator_own          ? "own-allocator"
                                 : rc.separate_vc_allocation ? "separate"
                                                             : "combined"},
          {"vc_bid", rc.round_robin_vc_bid ? "round-robin" : "all"},
          {"injection_bandwidth", topology::to_string(rc.injection_bandwidth)},
          {"ejection_bandwidth", topology::to_string(rc.ejection_bandwidth)}};
}

std::vector<std::string> trace_problems(const Params& params, const TraceRequest& trace) {
  std::vector<std::string> problems;
  const std::string& path_option = trace.path_option;
  if (trace.links && trace.path.empty())
    problems.push_back(trace.links_option + ": goes with " + path_option +
                       " FILE.csv (the busy intervals are written to FILE.links.csv next to it)");
  if (!trace.timeline_path.empty()) {
    if (!params.has("workload"))
      problems.push_back(trace.timeline_option + ": goes with a workload run (key 'workload'): the timeline is one of "
                         "its nodes");
    if (const auto p = output_path_problem(trace.timeline_option, trace.timeline_path); !p.empty()) problems.push_back(p);
  }
  if (trace.path.empty()) return problems;
  if (!params.has("algorithm") && !params.has("workload") && !params.has("jobs"))
    problems.push_back(path_option + ": synthetic-traffic runs (key 'traffic') are not traced; " + path_option +
                       " records the messages of a collective run (a scenario with 'algorithm')");
  if (const auto p = output_path_problem(path_option, trace.path); !p.empty()) problems.push_back(p);
  if (trace.links) {
    const std::string links = systemc::LinkBusyTrace::path_for(trace.path);
    if (const auto p = output_path_problem(trace.links_option, links); !p.empty()) problems.push_back(p);
  }
  return problems;
}

namespace {

/// JSON `latency_by_flow`: every (source, destination) pair with measured
/// packets.
nlohmann::json flow_latency_json(const systemc::SyntheticResult& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& f : r.flow_latencies)
    a.push_back({{"source", f.source},
                 {"destination", f.destination},
                 {"packets", f.packets},
                 {"avg_latency", f.avg_latency},
                 {"max_latency", f.max_latency}});
  return a;
}

/// JSON `latency_by_source` (the flows of each source added up; null with
/// latency_by none) and the report lines of both views: the range of the
/// averages and where it lies.
std::tuple<nlohmann::json, std::string, std::string> latency_by_json(const systemc::SyntheticResult& r,
                                                                     const std::string& latency_by) {
  if (latency_by == "none") return {nullptr, "", ""};
  struct Source {
    std::uint64_t packets = 0;
    double sum = 0;
    double max = 0;
  };
  std::map<topology::EndpointId, Source> sources;
  for (const auto& f : r.flow_latencies) {
    Source& s = sources[f.source];
    s.packets += f.packets;
    s.sum += f.avg_latency * static_cast<double>(f.packets);
    s.max = std::max(s.max, f.max_latency);
  }
  nlohmann::json a = nlohmann::json::array();
  double low = 0, high = 0;
  topology::EndpointId low_at = 0, high_at = 0;
  for (const auto& [source, s] : sources) {
    const double avg = s.sum / static_cast<double>(s.packets);
    if (a.empty() || avg < low) std::tie(low, low_at) = std::make_pair(avg, source);
    if (a.empty() || avg > high) std::tie(high, high_at) = std::make_pair(avg, source);
    a.push_back({{"source", source}, {"packets", s.packets}, {"avg_latency", avg}, {"max_latency", s.max}});
  }
  std::string by_source = sources.empty()
                              ? "  by source         none measured\n"
                              : fmt::format("  by source         avg {:.2f} (endpoint {}) to {:.2f} (endpoint {}) over {} "
                                            "sources (JSON latency_by_source)\n",
                                            low, low_at, high, high_at, sources.size());
  std::string by_flow;
  if (latency_by == "flow" && !r.flow_latencies.empty()) {
    const auto [lo, hi] = std::minmax_element(r.flow_latencies.begin(), r.flow_latencies.end(),
                                              [](const auto& x, const auto& y) { return x.avg_latency < y.avg_latency; });
    by_flow = fmt::format("  by flow           avg {:.2f} ({}->{}) to {:.2f} ({}->{}) over {} pairs (JSON "
                          "latency_by_flow)\n",
                          lo->avg_latency, lo->source, lo->destination, hi->avg_latency, hi->source, hi->destination,
                          r.flow_latencies.size());
  }
  return {a, by_source, by_flow};
}

}  // namespace

RunOutcome run_network(const Params& params, const std::string& vcd_path, const systemc::RunProgressFn& progress,
                       const TraceRequest& trace) {
  // `algorithm` selects a collective on the NICs, `traffic` synthetic traffic.
  throw_problems(run_problems(params));
  throw_problems(trace_problems(params, trace));
  if (params.has("workload")) return run_workload_scenario(params, vcd_path, progress, trace);
  if (params.has("jobs")) return run_jobs_scenario(params, vcd_path, progress, trace);
  if (params.has("algorithm")) return run_collective_scenario(params, vcd_path, progress, trace);
  systemc::SyntheticScenario s = systemc::synthetic_from(params);
  s.vcd_path = vcd_path;
  s.progress = progress;
  {
    std::unique_ptr<topology::Topology> topo;
    try {
      topo = topology::make_topology(s.topology);
    } catch (const topology::TopologyError& e) {
      throw ConfigError(std::string("key 'topology': ") + e.what());
    }
    systemc::require_memory(systemc::estimate_network_memory(*topo, s.router, 1), "synthetic traffic on " + topo->name());
  }
  const systemc::SyntheticResult r = systemc::run_synthetic(s);
  // A number of threads the network cannot use is said, not clamped silently.
  if (s.threads > r.threads && r.threads > 1)
    std::cerr << fmt::format("collnet run: key threads = {} is more than the {} routers of {}: the run uses {}\n",
                             s.threads, r.routers, r.topology, r.threads);
  else if (s.threads > 1 && r.threads == 1)
    std::cerr << fmt::format("collnet run: key threads = {}: the run uses one thread ({})\n", s.threads,
                             !vcd_path.empty() ? "a waveform (--vcd) is written"
                                               : "the network has " + std::to_string(r.routers) + " router" +
                                                     (r.routers == 1 ? "" : "s"));

  RunOutcome out;
  auto& j = out.json;
  const auto topo = topology::make_topology(r.topology);
  const auto& rc = s.router;
  // A figure with no sample behind it is null, never 0.
  const bool measured = r.measured_packets > 0;
  const auto latency = [&](double v) { return measured ? nlohmann::json(v) : nlohmann::json(nullptr); };
  // The window did not drain: the figures are not those of a steady state.
  const bool saturated = !r.completed && !r.deadlock && !r.interrupted;
  j["topology"] = r.topology;
  j["traffic"] = s.traffic.pattern;
  j["endpoints"] = r.endpoints;
  j["routers"] = r.routers;
  j["switches"] = switch_count(topo->graph());
  j["link_latencies"] = link_latencies_json(r.link_latencies);
  j["credit_loop"] = credit_loop_json(r.link_latencies, rc);
  j["injection_rate"] = s.load.injection_rate;
  j["packet_flits"] = s.load.packet_flits;
  j["router"] = router_json(rc);
  const Units units = units_from(params);
  j["cycles"] = r.cycles;
  j["time_ns"] = units.ns(static_cast<double>(r.cycles));
  j["window_cycles"] = r.window_cycles;
  j["window_ns"] = units.ns(static_cast<double>(r.window_cycles));
  j["completed"] = r.completed;
  j["saturated"] = saturated;
  j["interrupted"] = r.interrupted;
  j["measured_packets"] = r.measured_packets;
  j["unfinished_packets"] = r.unfinished_packets;
  j["avg_latency"] = latency(r.avg_latency);
  j["p50_latency"] = latency(r.p50_latency);
  j["p90_latency"] = latency(r.p90_latency);
  j["p99_latency"] = latency(r.p99_latency);
  j["p999_latency"] = latency(r.p999_latency);
  j["max_latency"] = latency(r.max_latency);
  j["latency_ns"] = measured ? nlohmann::json{{"avg", units.ns(r.avg_latency)},
                                              {"p50", units.ns(r.p50_latency)},
                                              {"p90", units.ns(r.p90_latency)},
                                              {"p99", units.ns(r.p99_latency)},
                                              {"p999", units.ns(r.p999_latency)},
                                              {"max", units.ns(r.max_latency)}}
                             : nlohmann::json(nullptr);
  j["latency_histogram"] = measured ? nlohmann::json{{"bin_width", r.latency_histogram.bin_width},
                                                     {"counts", r.latency_histogram.counts}}
                                    : nlohmann::json(nullptr);
  const auto [by_source, by_source_text, by_flow_text] = latency_by_json(r, s.latency_by);
  j["latency_by_source"] = by_source;
  j["latency_by_flow"] = s.latency_by == "flow" ? flow_latency_json(r) : nlohmann::json(nullptr);
  j["offered_rate"] = r.window_cycles > 0 ? nlohmann::json(r.offered_rate) : nlohmann::json(nullptr);
  j["accepted_rate"] = r.window_cycles > 0 ? nlohmann::json(r.accepted_rate) : nlohmann::json(nullptr);
  // Per endpoint, GB/s (flits a cycle x flit_bytes x clock_ghz).
  j["offered_gbps"] = r.window_cycles > 0 ? nlohmann::json(units.gbps(r.offered_rate)) : nlohmann::json(nullptr);
  j["accepted_gbps"] = r.window_cycles > 0 ? nlohmann::json(units.gbps(r.accepted_rate)) : nlohmann::json(nullptr);
  j["link_gbps"] = link_gbps(units, topo->graph());  // a link's bandwidth (units_report.hpp)
  j["link_utilization"] = {{"mean", r.mean_link_utilization}, {"max", r.max_link_utilization}};
  add_per_link_json(j["link_utilization"], topo->graph(), r.link_utilization);
  add_link_gbps_json(j["link_utilization"], units, &topo->graph(), &r.link_utilization);
  j["accepted_flits_by_source"] = r.accepted_flits_by_source;
  j["integrity_errors"] = r.integrity_errors;
  add_speed_json(j, r);
  j["router_cycles_per_cpu_second"] = r.router_cycles_per_cpu_second;
  if (!vcd_path.empty()) j["vcd"] = {{"file", vcd_path}, {"gtkw", systemc::WaveformTracer::save_file_path(vcd_path)}};
  j["deadlock"] = r.deadlock ? deadlock_json(*r.deadlock) : nlohmann::json(nullptr);
  // Key technology: the run's energy (router and link events; traffic
  // endpoints execute no descriptors and move no DMA words).
  EnergySetting energy;
  j["energy"] = energy_setting_from(params, energy) ? energy_json(r.energy_counts, energy, units, 0.0)
                                                    : nlohmann::json(nullptr);
  j["scenario"] = resolved_scenario(params, RunKind::synthetic);

  std::string& t = out.text;
  t += fmt::format("collnet run: {} traffic on {} ({})\n", s.traffic.pattern, r.topology, network_size_text(*topo));
  t += fmt::format("  router            {} VCs x {} flits, {}, {}, router delay {} (routing {}, allocation {}, "
                   "traversal {}), link latency {}{}\n",
                   rc.vcs, rc.buffer_flits, rc.switching == systemc::Switching::wormhole ? "wormhole" : "vct",
                   rc.arbitration, rc.router_delay(), rc.routing_delay, rc.allocation_delay, rc.traversal_delay,
                   link_latency_text(r.link_latencies, rc.link_latency), dateline_text(rc, *topo));
  t += link_bandwidth_text(r.link_latencies);
  t += buffer_sizing_text(r.link_latencies, rc);
  t += credit_loop_text(r.link_latencies, rc);
  if (s.endpoint_attach == systemc::EndpointAttach::direct)
    t += "  endpoints         attached direct: each NIC sends into and receives from its switch's terminal port "
         "over its cable (key endpoint_attach)\n";
  t += fmt::format("  load              {} flits/node/cycle (key injection_rate), {}-flit packets\n",
                   s.load.injection_rate, s.load.packet_flits);
  t += fmt::format("  cycles            {} ({} measured)\n", r.cycles, r.window_cycles);
  t += fmt::format("  time              {} ({} measured) at {:g} GHz\n", time_text(units.ns(static_cast<double>(r.cycles))),
                   time_text(units.ns(static_cast<double>(r.window_cycles))), units.clock_ghz);
  if (r.window_cycles > 0)
    t += fmt::format("  offered/accepted  {:.4f} / {:.4f} flits/node/cycle ({} / {} a node, {}-byte flits)\n",
                     r.offered_rate, r.accepted_rate, gbps_text(j["offered_gbps"]), gbps_text(j["accepted_gbps"]),
                     units.flit_bytes);
  else
    t += "  offered/accepted  none measured (the run ended before its measurement window)\n";
  if (measured)
    t += fmt::format("  latency           avg {:.2f}, p50 {:.0f}, p90 {:.0f}, p99 {:.0f}, p99.9 {:.0f}, max {:.0f} "
                     "cycles ({} packets)\n",
                     r.avg_latency, r.p50_latency, r.p90_latency, r.p99_latency, r.p999_latency, r.max_latency,
                     r.measured_packets);
  if (measured)
    t += fmt::format("  latency (time)    avg {}, p99 {}, max {}\n", time_text(units.ns(r.avg_latency)),
                     time_text(units.ns(r.p99_latency)), time_text(units.ns(r.max_latency)));
  else
    t += "  latency           none measured (no packet created in the measurement window arrived)\n";
  t += by_source_text + by_flow_text;
  t += fmt::format("  link utilization  mean {:.4f}, max {:.4f}\n", r.mean_link_utilization,
                   r.max_link_utilization);
  t += fmt::format("  link bandwidth    {} a link; mean {}, max {}\n", gbps_text(j["link_gbps"]),
                   gbps_text(j["link_utilization"]["mean_gbps"]), gbps_text(j["link_utilization"]["max_gbps"]));
  t += fmt::format("  speed             {:.3f} M router-cycles/s ({:.3f} s simulation, {:.3f} s CPU, {:.3f} s "
                   "elaboration, {})\n",
                   r.router_cycles_per_second / 1e6, r.sim_seconds, r.sim_cpu_seconds, r.elaboration_seconds,
                   threads_text(r.threads, r.solo_cycles, r.calendar_cycles));
  if (j["energy"].is_object()) t += energy_text(j["energy"]);
  if (saturated)
    t += fmt::format("  SATURATED         {} measured packet{} still in flight after drain_cycles = {}: accepted "
                     "{:.4f} of {:.4f} flits/node/cycle offered\n"
                     "                    the latencies are those of the packets that arrived, not of a steady "
                     "state; a slowly forming deadlock looks the same until a larger drain_cycles tells them apart "
                     "(a deadlock then stops every flit: exit 3 with its waiting cycle)\n",
                     r.unfinished_packets, r.unfinished_packets == 1 ? "" : "s", s.drain_cycles, r.accepted_rate,
                     r.offered_rate);
  if (r.interrupted)
    t += fmt::format("  INTERRUPTED       at cycle {}: the figures are those of the cycles run so far\n", r.cycles);
  if (!vcd_path.empty())
    t += fmt::format("  waveform          {} (GTKWave: gtkwave -a {} {})\n", vcd_path,
                     systemc::WaveformTracer::save_file_path(vcd_path), vcd_path);
  if (r.integrity_errors > 0) {
    t += fmt::format("  DATA CHECK FAILED {} flits: {}\n", r.integrity_errors, r.first_integrity_error);
    out.exit_status = 1;
  }
  if (r.deadlock) {
    t += deadlock_text(*r.deadlock);
    out.exit_status = 3;
  }
  if (r.interrupted) out.interrupted = fmt::format("{} traffic on {} at cycle {}", s.traffic.pattern, r.topology, r.cycles);
  return out;
}

std::size_t switch_count(const topology::Graph& graph) {
  std::size_t n = 0;
  for (topology::NodeId id = 0; id < static_cast<topology::NodeId>(graph.node_count()); ++id)
    n += graph.node(id).kind != topology::NodeKind::server ? 1 : 0;
  return n;
}

std::string network_size_text(const topology::Topology& topology) {
  const topology::Graph& g = topology.graph();
  const std::size_t switches = switch_count(g);
  if (switches == g.node_count())
    return fmt::format("{} endpoints, {} routers", g.endpoint_count(), g.node_count());
  return fmt::format("{} endpoints, {} switch{}", g.endpoint_count(), switches, switches == 1 ? "" : "es");
}

std::string dateline_text(const systemc::RouterConfig& rc, const topology::Topology& topology) {
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  if (grid != nullptr && grid->torus()) return rc.dateline ? ", dateline on" : ", dateline off";
  return rc.dateline ? "" : ", VC classes off (any VC)";
}

nlohmann::json deadlock_json(const systemc::DeadlockReport& d) {
  return {{"detected_at", d.detected_at},
          {"last_move", d.last_move},
          {"waiting_cycle", d.cycle},
          {"blocked_vcs", d.blocked_vcs},
          {"blocked", d.blocked}};
}

nlohmann::json link_latencies_json(const std::vector<systemc::LinkLatencyCount>& counts) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : counts) {
    a.push_back({{"latency", c.latency}, {"links", c.links}});
    if (!c.bandwidth.unit()) a.back()["bandwidth"] = topology::to_string(c.bandwidth);
  }
  return a;
}

std::string link_latency_text(const std::vector<systemc::LinkLatencyCount>& counts, int configured) {
  // By latency alone (counts of one latency and several bandwidths merged).
  std::vector<std::pair<int, std::size_t>> by_latency;
  for (const auto& c : counts) {
    if (!by_latency.empty() && by_latency.back().first == c.latency) by_latency.back().second += c.links;
    else by_latency.emplace_back(c.latency, c.links);
  }
  if (by_latency.empty() || (by_latency.size() == 1 && by_latency.front().first == configured))
    return std::to_string(configured);
  std::string t;
  for (const auto& [latency, links] : by_latency)
    t += fmt::format("{}{} ({}{})", t.empty() ? "" : ", ", latency, links, t.empty() ? " links" : "");
  return t;
}

std::string link_bandwidth_text(const std::vector<systemc::LinkLatencyCount>& counts) {
  std::vector<std::pair<topology::Bandwidth, std::size_t>> by_bandwidth;
  for (const auto& c : counts) {
    auto it = std::find_if(by_bandwidth.begin(), by_bandwidth.end(), [&](const auto& b) { return b.first == c.bandwidth; });
    if (it == by_bandwidth.end()) by_bandwidth.emplace_back(c.bandwidth, c.links);
    else it->second += c.links;
  }
  if (by_bandwidth.size() <= 1 && (by_bandwidth.empty() || by_bandwidth.front().first.unit())) return {};
  std::string t;
  for (const auto& [b, links] : by_bandwidth)
    t += fmt::format("{}{} ({}{})", t.empty() ? "" : ", ", topology::to_string(b), links, t.empty() ? " links" : "");
  return "  link rates        " + t + " flits per cycle\n";
}

// The credit loop of a link: one VC's buffer of B flits at its far end
// carries at most B / round trip flits a cycle, the round trip being
// RouterConfig::credit_round_trip (2 x latency + the allocation and traversal
// pipeline + credit_release_delay).
std::string credit_loop_text(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc) {
  const std::string words = credit_loop_words(credit_loop_json(counts, rc));
  return words.empty() ? words : std::string("  credit loop       ") + kCreditLoopRule + ": " + words + "\n";
}

nlohmann::json credit_loop_json(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : counts) {
    const int buffer = rc.link_buffer_flits(c.latency, c.bandwidth);
    const int round_trip = rc.credit_round_trip(c.latency);
    // A link of bandwidth B stays busy with B x round trip flits of buffer
    // (a faster link needs more, a slower one less).
    const std::int64_t needed =
        (static_cast<std::int64_t>(round_trip) * c.bandwidth.flits + c.bandwidth.cycles - 1) / c.bandwidth.cycles;
    if (needed <= buffer) continue;
    a.push_back({{"latency", c.latency},
                 {"links", c.links},
                 {"buffer_flits", buffer},
                 {"round_trip", round_trip},
                 {"vc_flits_per_cycle", static_cast<double>(buffer) / static_cast<double>(round_trip)}});
    if (!c.bandwidth.unit()) {
      a.back()["bandwidth"] = topology::to_string(c.bandwidth);
      a.back()["needed_flits"] = needed;
    }
  }
  return a.empty() ? nlohmann::json(nullptr) : a;
}

std::string credit_loop_words(const nlohmann::json& credit_loop) {
  if (!credit_loop.is_array() || credit_loop.empty()) return {};
  std::string parts;
  int longest = 0;
  bool rated = false;
  for (const auto& c : credit_loop) {
    const std::size_t links = c.value("links", std::size_t{0});
    const std::string bandwidth = c.value("bandwidth", std::string());
    parts += fmt::format("{}{:.2g} on the {} link{} of latency {}{}", parts.empty() ? "" : ", ",
                         c.value("vc_flits_per_cycle", 0.0), links, links == 1 ? "" : "s", c.value("latency", 0),
                         bandwidth.empty() ? "" : " and bandwidth " + bandwidth);
    longest = std::max(longest, c.value("needed_flits", c.value("round_trip", 0)));
    rated = rated || !bandwidth.empty();
  }
  return fmt::format("{} (buffer_flits {} keeps every link busy{})", parts, longest,
                     rated ? "; a link of bandwidth B needs B x round trip flits" : "");
}

std::string buffer_sizing_text(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc) {
  std::string parts;
  for (const auto& c : counts) {
    const int buffer = rc.link_buffer_flits(c.latency, c.bandwidth);
    if (buffer == rc.buffer_flits) continue;
    parts += fmt::format("{}{} flits on the {} link{} of latency {}{}", parts.empty() ? "" : ", ", buffer, c.links,
                         c.links == 1 ? "" : "s", c.latency,
                         c.bandwidth.unit() ? "" : " and bandwidth " + topology::to_string(c.bandwidth));
  }
  if (parts.empty()) return {};
  return fmt::format("  buffers           VC buffers of a link's credit round trip where longer than buffer_flits "
                     "(key buffer_sizing): {}\n",
                     parts);
}

std::string deadlock_text(const systemc::DeadlockReport& d) {
  // A deadlock is a waiting cycle; without one the flits wait for something
  // outside the router buffers (a NIC that stopped receiving, a link down).
  std::string t = fmt::format("  {}          no flit moved since cycle {} (detected in cycle {}), {} VCs hold "
                              "flits\n",
                              d.cycle.empty() ? "STALLED " : "DEADLOCK", d.last_move, d.detected_at, d.blocked_vcs);
  t += d.cycle.empty() ? "  no waiting cycle among router buffers (not a routing deadlock); blocked VCs:\n"
                       : "  waiting cycle:\n";
  for (const auto& line : d.cycle.empty() ? d.blocked : d.cycle) t += "    " + line + "\n";
  return t;
}

}  // namespace collnet::cli
