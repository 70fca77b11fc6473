#include "cli/run_collective.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/trace/message_trace.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/run/synthetic.hpp"
#include "systemc/trace/waveform.hpp"
#include "cli/scenario.hpp"
#include "cli/energy_report.hpp"
#include "cli/units_report.hpp"
#include "topology/topology.hpp"
#include "workload/keys.hpp"
#include "workload/lower.hpp"
#include "workload/timing.hpp"

namespace collnet::cli {

bool synthetic_only_key(const std::string& key) {
  // Keys both kinds of run read (topology, systemc::RunKeys) are not
  // SyntheticKeys.
  const auto& keys = declared_list<systemc::SyntheticKeys>();
  return std::any_of(keys.begin(), keys.end(), [&](const Key& k) { return k.name == key; });
}

const std::vector<std::string>& background_keys() {
  static const std::vector<std::string> keys = {"traffic",       "injection_rate",   "injection_process",
                                                "traffic_shift", "hotspot_node",     "hotspot_fraction",
                                                "self_packets"};
  return keys;
}

namespace {

/// Stopped by max_cycles: not finished, and neither the network watchdog nor
/// the program monitor found a deadlock.
bool max_cycles_reached(const systemc::CollectiveResult& r) {
  return !r.completed && !r.deadlocked() && !r.interrupted;
}

/// Why the data check was not made, or empty when it was: a run that did
/// not finish leaves words unwritten, so its check says nothing of the
/// algorithm (a deadlock's partial check is reported when it found words).
std::string data_check_not_made(const systemc::CollectiveResult& r) {
  if (r.completed) return {};
  if (r.interrupted) return fmt::format("interrupted at cycle {}", r.cycles);
  if (max_cycles_reached(r)) return "the run stopped at max_cycles before it finished";
  if (r.check.words_checked == 0) return "the run deadlocked before any word was checked";
  return {};
}

/// JSON `background`: null without background traffic; alone_cycles and
/// slowdown are set by the caller (the same run without it).
nlohmann::json background_json(const systemc::CollectiveResult& r) {
  const systemc::BackgroundResult& b = r.background;
  if (!b.enabled) return nullptr;
  const bool measured = b.received_packets > 0;
  const auto latency = [&](double v) { return measured ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"pattern", b.pattern},
          {"injection_rate", b.injection_rate},
          {"offered_rate", b.offered_rate},
          {"accepted_rate", b.accepted_rate},
          {"created_packets", b.created_packets},
          {"received_packets", b.received_packets},
          {"in_flight_packets", b.in_flight_packets},
          {"avg_latency", latency(b.avg_latency)},
          {"p50_latency", latency(b.p50_latency)},
          {"p99_latency", latency(b.p99_latency)},
          {"max_latency", latency(b.max_latency)},
          {"integrity_errors", b.integrity_errors},
          {"alone_cycles", nullptr},
          {"slowdown", nullptr}};
}

/// The report's background lines (none without background traffic).
std::string background_text(const systemc::CollectiveResult& r, const nlohmann::json& j) {
  const systemc::BackgroundResult& b = r.background;
  if (!b.enabled) return "";
  std::string t = fmt::format("  background        {} at injection_rate {:g}: accepted {:.3f} flits/endpoint/cycle "
                              "(offered {:.3f}) over the {} cycles\n",
                              b.pattern, b.injection_rate, b.accepted_rate, b.offered_rate, r.cycles);
  if (b.received_packets > 0)
    t += fmt::format("  background lat.   avg {:.2f}, p50 {:g}, p99 {:g}, max {:g} cycles ({} packets arrived, {} "
                     "in flight at the end)\n",
                     b.avg_latency, b.p50_latency, b.p99_latency, b.max_latency, b.received_packets,
                     b.in_flight_packets);
  else
    t += fmt::format("  background lat.   none measured (no packet arrived; {} in flight at the end)\n",
                     b.in_flight_packets);
  if (b.integrity_errors > 0)
    t += fmt::format("  BACKGROUND FAIL   {} flits misplaced or corrupted; first: {}\n", b.integrity_errors,
                     b.first_integrity_error);
  const nlohmann::json& bj = j["background"];
  if (bj.is_object() && bj["slowdown"].is_number())
    t += fmt::format("  slowdown          {:.3f}x the {} cycles alone (the same run without background traffic)\n",
                     bj["slowdown"].get<double>(), bj["alone_cycles"].get<std::uint64_t>());
  return t;
}

/// The scenario's background keys (the JSON `scenario` of a run with
/// 'traffic'; a collective run's resolved scenario has none of them).
void add_background_scenario(nlohmann::json& scenario, const Params& params) {
  if (!params.has("traffic")) return;
  for (const Key& k : declared_list<systemc::SyntheticKeys>()) {
    if (std::find(background_keys().begin(), background_keys().end(), k.name) == background_keys().end()) continue;
    switch (k.type()) {
      case Key::Type::integer: scenario[k.name] = k.integer(params); break;
      case Key::Type::real: scenario[k.name] = k.real(params); break;
      case Key::Type::choice: scenario[k.name] = k.choice(params); break;
      default: scenario[k.name] = k.text(params); break;
    }
  }
}

/// Sets the report's background alone_cycles and slowdown from the run
/// without it.
void set_alone(nlohmann::json& j, const systemc::CollectiveResult& with, const systemc::CollectiveResult& alone) {
  if (!j["background"].is_object()) return;
  j["background"]["alone_cycles"] = alone.cycles;
  const bool both = alone.completed && with.completed && alone.cycles > 0;
  j["background"]["slowdown"] =
      both ? nlohmann::json(static_cast<double>(with.cycles) / static_cast<double>(alone.cycles))
           : nlohmann::json(nullptr);
}

/// The same scenario without background traffic (no waveform, trace or sink).
systemc::CollectiveScenario alone_scenario(const systemc::CollectiveScenario& s) {
  systemc::CollectiveScenario a = s;
  a.background.enabled = false;
  a.vcd_path.clear();
  a.trace_path.clear();
  a.trace_links = false;
  a.message_sink = nullptr;
  a.memory_sink = nullptr;
  a.link_sink = nullptr;
  return a;
}

nlohmann::json to_json(const systemc::CollectiveResult& r, const systemc::RouterConfig& rc, bool per_link,
                       const Units& units, const collectives::CollectiveKind& kind,
                       const EnergySetting* energy = nullptr) {
  nlohmann::json j;
  j["algorithm"] = r.algorithm;
  j["topology"] = r.topology;
  j["endpoints"] = r.endpoints;
  j["routers"] = r.routers;
  j["switches"] = switch_count(topology::make_topology(r.topology)->graph());
  j["link_latencies"] = link_latencies_json(r.link_latencies);
  j["credit_loop"] = credit_loop_json(r.link_latencies, rc);
  // The key that sets the size holds it, the other is null (both for
  // msccl, whose size comes from its file and chunk_words); words_per_rank
  // is the size every algorithm shares.
  j["message_flits"] = r.message_words > 0 ? nlohmann::json(r.message_words) : nlohmann::json(nullptr);
  j["elements"] = r.elements >= 0 ? nlohmann::json(r.elements) : nlohmann::json(nullptr);
  j["words_per_rank"] = r.words_per_rank >= 0 ? nlohmann::json(r.words_per_rank) : nlohmann::json(nullptr);
  j["packet_flits"] = r.packet_flits;
  j["controllers"] = r.controllers;
  j["dispatch"] = r.dispatch;
  j["schedule_engine"] = r.schedule_engine;
  j["nic_blocks"] = r.nic_blocks;
  j["barrier"] = {{"kind", r.barrier}, {"latency", r.barrier_latency}};
  j["router"] = router_json(rc);
  j["cycles"] = r.cycles;
  // The physical figures (clock_ghz, flit_bytes): time, and the bandwidths
  // as nccl-tests define them (null where the run did not finish or has no
  // words a rank; the bus bandwidth also where the collective has no factor).
  const CollectiveBandwidth bw = collective_bandwidth(units, r.cycles, r.completed, r.words_per_rank, kind);
  j["time_ns"] = bw.time_ns;
  j["lower_bound_ns"] = r.lower_bound_cycles > 0 ? nlohmann::json(units.ns(static_cast<double>(r.lower_bound_cycles)))
                                                 : nlohmann::json(nullptr);
  j["collective_operation"] = kind.name.empty() ? nlohmann::json(nullptr)
                                      : nlohmann::json{{"name", kind.name}, {"ranks", kind.ranks}, {"bus_factor", bw.bus_factor}};
  j["bytes_per_rank"] = bw.bytes_per_rank;
  j["algorithm_bandwidth_gbps"] = bw.algorithm_gbps;
  j["bus_bandwidth_gbps"] = bw.bus_gbps;
  const auto topo = topology::make_topology(r.topology);
  j["link_gbps"] = link_gbps(units, topo->graph());  // a link's bandwidth (units_report.hpp)
  j["injection_gbps"] = r.cycles > 0 && r.endpoints > 0
                            ? nlohmann::json(units.gbps(static_cast<double>(r.flits) /
                                                        (static_cast<double>(r.endpoints) * static_cast<double>(r.cycles))))
                            : nlohmann::json(nullptr);
  j["completed"] = r.completed;
  j["max_cycles_reached"] = max_cycles_reached(r);
  j["interrupted"] = r.interrupted;
  // No bound for the algorithm: both null (not -1 and 0).
  j["lower_bound_cycles"] = r.lower_bound_cycles > 0 ? nlohmann::json(r.lower_bound_cycles) : nlohmann::json(nullptr);
  j["efficiency"] = r.lower_bound_cycles > 0 ? nlohmann::json(r.efficiency) : nlohmann::json(nullptr);
  // null: not made (interrupted, max_cycles, a deadlock before any word).
  j["data_check"] = !data_check_not_made(r).empty() ? nlohmann::json(nullptr) : r.data_check ? "pass" : "fail";
  j["data_mismatches"] = r.check.mismatches;
  j["data_errors"] = r.check.first_errors;
  j["reference_mismatch_words"] = r.reference_mismatch_words;
  j["barriers"] = r.barriers;
  j["barrier_wait_cycles"] = r.barrier_wait_cycles;
  j["max_queue_flits"] = r.max_queue_flits;
  // No bisection defined for the topology: bisection_mean null.
  nlohmann::json links = {{"mean", r.mean_link_utilization},
                          {"max", r.max_link_utilization},
                          {"bisection_mean", r.bisection_links.empty() ? nlohmann::json(nullptr)
                                                                       : nlohmann::json(r.bisection_link_utilization)},
                          {"bisection_links", r.bisection_links.size()}};
  if (per_link) add_per_link_json(links, topo->graph(), r.link_utilization);
  add_link_gbps_json(links, units, &topo->graph(), &r.link_utilization);
  j["link_utilization"] = links;
  j["arbitration_conflicts"] = r.arbitration_conflicts;
  j["messages"] = r.messages;
  j["local_copies"] = r.local_copies;
  j["packets"] = r.packets;
  j["flits"] = r.flits;
  j["flit_hops"] = r.flit_hops;
  j["inter_board_flits"] = r.inter_board_flits >= 0 ? nlohmann::json(r.inter_board_flits) : nlohmann::json(nullptr);
  j["router_evaluations"] = r.router_evaluations;
  j["nic_evaluations"] = r.nic_evaluations;
  add_speed_json(j, r);
  // Key technology set: the run's energy (collectives/energy.hpp), per byte
  // of the collective's data (its words a rank on each of its ranks).
  if (energy != nullptr) {
    const double bytes = bw.bytes_per_rank.is_number() && kind.ranks > 0
                             ? bw.bytes_per_rank.get<double>() * static_cast<double>(kind.ranks)
                             : 0.0;
    j["energy"] = energy_json(r.energy_counts, *energy, units, bytes);
  } else {
    j["energy"] = nullptr;
  }
  j["background"] = background_json(r);
  j["link_flits_corrupted"] = r.link_flits_corrupted;
  j["link_flits_retransmitted"] = r.link_flits_retransmitted;
  if (r.deadlock) {
    j["deadlock"] = deadlock_json(*r.deadlock);
  } else if (!r.stuck.empty()) {
    j["deadlock"] = {{"programs", r.stuck}};
  } else {
    j["deadlock"] = nullptr;
  }
  if (!r.down_links.empty() && j["deadlock"].is_object()) j["deadlock"]["down_links"] = r.down_links;
  return j;
}

/// "64-flit messages", "4096 elements" where the size comes from
/// `elements`, "128 words a rank (8 chunks of chunk_words=16)" where no key
/// alone sets it (msccl).
std::string message_size(const systemc::CollectiveResult& r) {
  if (r.elements >= 0) return fmt::format("{} elements", r.elements);
  if (r.message_words > 0) return fmt::format("{}-flit messages", r.message_words);
  if (r.words_per_rank >= 0) return fmt::format("{} words a rank ({})", r.words_per_rank, r.size_text);
  return r.size_text;
}

/// The size of the runs side by side, naming only what sets each one's:
/// "128 words a rank; msccl: 8 chunks of chunk_words=16, ring-allreduce:
/// elements=128", or "64 words a rank; elements=64" where every run says
/// the same.
std::string compared_size(const std::vector<systemc::CollectiveResult>& results) {
  bool same = true;
  for (const auto& r : results) same = same && r.size_text == results.front().size_text;
  std::string by;
  if (same) {
    by = results.front().size_text;
  } else {
    std::vector<std::string> each;
    for (const auto& r : results) each.push_back(r.algorithm + ": " + r.size_text);
    by = join(each, ", ");
  }
  return fmt::format("{} words a rank; {}", results.front().words_per_rank, by);
}

std::string details(const systemc::CollectiveResult& r, const systemc::RouterConfig& rc, const nlohmann::json& j,
                    const Units& units) {
  std::string t;
  const auto topo = topology::make_topology(r.topology);
  t += fmt::format("collnet run: {} on {} ({}), {}\n", r.algorithm, r.topology, network_size_text(*topo),
                   message_size(r));
  t += fmt::format("  NIC               {} controller{} ({}), {}-flit packets, descriptors from {}, {} blocks\n",
                   r.controllers, r.controllers == 1 ? "" : "s", r.dispatch, r.packet_flits, r.schedule_engine,
                   r.nic_blocks);
  t += fmt::format("  router            {} VCs x {} flits, {}, {}, router delay {}, link latency {}{}\n", rc.vcs,
                   rc.buffer_flits, rc.switching == systemc::Switching::wormhole ? "wormhole" : "vct", rc.arbitration,
                   rc.router_delay(), link_latency_text(r.link_latencies, rc.link_latency), dateline_text(rc, *topo));
  t += link_bandwidth_text(r.link_latencies);
  t += buffer_sizing_text(r.link_latencies, rc);
  t += credit_loop_text(r.link_latencies, rc);
  t += fmt::format("  barrier network   {}, {} cycles{}\n", r.barrier, r.barrier_latency,
                   r.barrier == "ideal" ? " from the last entry" : " per step");
  if (r.lower_bound_cycles > 0)
    t += fmt::format("  cycles            {} (lower bound {}, efficiency {:.3f})\n", r.cycles, r.lower_bound_cycles,
                     r.efficiency);
  else
    t += fmt::format("  cycles            {} (no lower bound for this algorithm)\n", r.cycles);
  if (const std::string why = data_check_not_made(r); !why.empty())
    t += "  data check        not made (" + why + ")\n";
  else if (r.completed)
    t += fmt::format("  data check        {} ({} words checked{})\n", r.data_check ? "pass" : "FAIL",
                     r.check.words_checked,
                     r.reference_mismatch_words == 0 ? "; every word equals the functional executor's" : "");
  else
    t += fmt::format("  data check        FAIL ({} of {} words checked differ: the run deadlocked before it "
                     "finished)\n",
                     r.check.mismatches, r.check.words_checked);
  t += background_text(r, j);
  t += fmt::format("  time              {}{} at {:g} GHz\n", time_text(j["time_ns"].get<double>()),
                   j["lower_bound_ns"].is_number() ? " (lower bound " + time_text(j["lower_bound_ns"].get<double>()) + ")"
                                                   : std::string(),
                   units.clock_ghz);
  if (j["bytes_per_rank"].is_number()) {
    const nlohmann::json& c = j["collective_operation"];
    t += fmt::format("  bandwidth         algbw {}, busbw {} ({} bytes a rank{}; nccl-tests' definitions)\n",
                     gbps_text(j["algorithm_bandwidth_gbps"]), gbps_text(j["bus_bandwidth_gbps"]),
                     j["bytes_per_rank"].get<std::int64_t>(),
                     c.is_object() ? fmt::format(", {} of {} ranks", c["name"].get<std::string>(), c["ranks"].get<std::int64_t>())
                                   : std::string());
  }
  t += fmt::format("  barriers          {} ({} cycles from first entry to release, summed)\n", r.barriers,
                   r.barrier_wait_cycles);
  if (r.bisection_links.empty())
    t += fmt::format("  links             utilization mean {:.3f}, max {:.3f}\n", r.mean_link_utilization,
                     r.max_link_utilization);
  else
    t += fmt::format("  links             utilization mean {:.3f}, max {:.3f}, bisection mean {:.3f} ({} links)\n",
                     r.mean_link_utilization, r.max_link_utilization, r.bisection_link_utilization,
                     r.bisection_links.size());
  t += fmt::format("  link bandwidth    {} a link; mean {}, max {}\n", gbps_text(j["link_gbps"]),
                   gbps_text(j["link_utilization"]["mean_gbps"]), gbps_text(j["link_utilization"]["max_gbps"]));
  t += fmt::format("  contention        max queue {} flits in one VC, {} arbitration conflicts\n", r.max_queue_flits,
                   r.arbitration_conflicts);
  t += fmt::format("  traffic           {} messages, {} packets, {} flits, {} local copies\n", r.messages, r.packets,
                   r.flits, r.local_copies);
  t += fmt::format("  speed             {:.3f} M router-cycles/s ({:.3f} s simulation, {:.3f} s CPU, {:.3f} s "
                   "elaboration, {}), {} flit-hops\n",
                   r.router_cycles_per_second / 1e6, r.sim_seconds, r.sim_cpu_seconds, r.elaboration_seconds,
                   threads_text(r.threads, r.solo_cycles, r.calendar_cycles), r.flit_hops);
  t += fmt::format("  evaluations       {} router, {} NIC ({:.2f} router evaluations per flit-hop)\n",
                   r.router_evaluations, r.nic_evaluations,
                   r.flit_hops > 0 ? static_cast<double>(r.router_evaluations) / static_cast<double>(r.flit_hops) : 0.0);
  if (j["energy"].is_object()) t += energy_text(j["energy"]);
  if (r.link_flits_corrupted > 0 || r.link_flits_retransmitted > 0)
    t += fmt::format("  link faults       {} flits corrupted on a link, {} retransmitted\n", r.link_flits_corrupted,
                     r.link_flits_retransmitted);
  if (data_check_not_made(r).empty())
    for (const auto& e : r.check.first_errors) t += "    " + e + "\n";
  if (r.deadlocked())
    for (const auto& d : r.down_links) t += "  LINK DOWN         " + d + "\n";
  if (r.deadlock) {
    t += deadlock_text(*r.deadlock);
  } else if (!r.stuck.empty()) {
    t += r.completed ? "" : "  DEADLOCK          the programs stopped making progress (each waits for the next):\n";
    for (std::size_t i = 0; i < r.stuck.size() && i < 16; ++i) t += "    " + r.stuck[i] + "\n";
    if (r.stuck.size() > 16) t += fmt::format("    ... {} nodes in all\n", r.stuck.size());
  }
  return t;
}

/// The report's fields `vcd` and `trace` and their lines, for the files the
/// run wrote (none: nothing added).
void report_output_files(const systemc::CollectiveResult& r, const std::string& vcd_path, const TraceRequest& trace,
                         RunOutcome& out) {
  if (!vcd_path.empty()) {
    out.json["vcd"] = {{"file", vcd_path}, {"gtkw", systemc::WaveformTracer::save_file_path(vcd_path)}};
    out.text += fmt::format("  waveform          {} (GTKWave: gtkwave -a {} {})\n", vcd_path,
                            systemc::WaveformTracer::save_file_path(vcd_path), vcd_path);
  }
  if (!trace.path.empty()) {
    out.json["trace"] = {{"file", trace.path},
                         {"messages", r.traced_messages},
                         {"links_file", trace.links ? nlohmann::json(systemc::LinkBusyTrace::path_for(trace.path))
                                                    : nlohmann::json(nullptr)},
                         {"link_intervals", trace.links ? nlohmann::json(r.traced_link_intervals)
                                                        : nlohmann::json(nullptr)},
                         {"write_seconds", r.trace_write_seconds}};
    out.text += fmt::format("  message trace     {} ({} messages)\n", trace.path, r.traced_messages);
    if (trace.links)
      out.text += fmt::format("  link trace        {} ({} busy intervals)\n",
                              systemc::LinkBusyTrace::path_for(trace.path), r.traced_link_intervals);
  }
}

}  // namespace

void report_model_run(const systemc::CollectiveResult& r, const systemc::RouterConfig& rc, const Units& units,
                      RunOutcome& out) {
  out.json = to_json(r, rc, true, units, collectives::CollectiveKind{});
  out.text += details(r, rc, out.json, units);
}

std::vector<std::string> collective_run_problems(const Params& params) {
  std::vector<std::string> problems;
  // With 'traffic' the collective runs beside background traffic, which
  // reads the keys of its pattern and load; the synthetic run's window,
  // drain and closed-loop keys have no meaning there.
  const bool background = params.has("traffic");
  const auto& keys = declared_list<systemc::SyntheticKeys>();
  for (const auto& [key, value] : params.values()) {
    if (!synthetic_only_key(key)) continue;
    const bool of_background =
        std::find(background_keys().begin(), background_keys().end(), key) != background_keys().end();
    if (background && of_background) {
      for (const Key& k : keys)
        if (k.name == key) add_problem(problems, k.problem(params));
    } else if (of_background) {
      problems.push_back("key '" + key + "' sets background traffic, which key 'traffic' turns on beside the "
                         "collective (set 'traffic', or remove '" + key + "')");
    } else {
      problems.push_back("key '" + key + "' belongs to synthetic-traffic runs; beside a collective, background "
                         "traffic reads only " + join(background_keys()) + " and runs for the collective's cycles "
                         "(remove '" + key + "')");
    }
  }
  for (const auto& p : algorithm_key_problems(params, true)) add_problem(problems, p);
  return problems;
}

std::string threads_text(int threads, std::uint64_t solo_cycles, std::uint64_t calendar_cycles) {
  std::string t = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
  if (threads > 1 && solo_cycles > 0 && calendar_cycles > 0)
    t += fmt::format(", {:.1f} % of cycles solo",
                     100.0 * static_cast<double>(solo_cycles) / static_cast<double>(calendar_cycles));
  return t;
}

RunOutcome run_collective_scenario(const Params& params, const std::string& vcd_path,
                                   const systemc::RunProgressFn& progress, const TraceRequest& trace) {
  throw_problems(collective_run_problems(params));
  std::vector<std::string> algorithms{params.text("algorithm", collectives::algorithm_key().default_text())};
  for (const auto& name : systemc::compare_list(params.text("compare", ""))) algorithms.push_back(name);

  // Plan every run before any is simulated: a scenario one of them cannot
  // run is refused at once, with every problem.
  std::vector<systemc::CollectiveScenario> scenarios;
  std::vector<systemc::CollectivePlan> plans;
  std::vector<collectives::CollectiveKind> kinds;  // each run's collective, for its bus bandwidth
  std::vector<std::string> problems;
  // The baselines run on the main run's words a rank, each through its own
  // size key (collectives::DataSize); the keys set so, for the JSON scenario.
  std::optional<std::int64_t> words;
  std::unique_ptr<topology::Topology> topology;
  std::map<std::string, std::string> baseline_sizes;
  if (algorithms.size() > 1) {
    const collectives::Algorithm& main = collectives::find_algorithm(algorithms[0]);
    try {
      topology = topology::make_topology(collectives::topology_key().text(params));
      words = collectives::words_per_rank(main, *topology, params);
    } catch (const std::exception&) {
      // a bad topology or size is refused naming its key where the main run is planned
    }
    if (words && *words < 0)
      throw ConfigError(fmt::format("key 'compare': {} runs a collective without words a rank ({}), so no baseline "
                                    "can run on its size; accepted values: empty (no comparison)",
                                    main.name, collectives::words_per_rank_text(main, *topology, params)));
  }
  for (std::size_t i = 0; i < algorithms.size(); ++i) {
    Params p = params;
    p.set("algorithm", algorithms[i]);
    if (i > 0 && words) {
      const collectives::Algorithm& main = collectives::find_algorithm(algorithms[0]);
      const collectives::Algorithm& baseline = collectives::find_algorithm(algorithms[i]);
      try {
        collectives::apply_words_per_rank(baseline, *topology, p, *words, main);
      } catch (const ConfigError& e) {
        problems.push_back(algorithms[i] + ": " + e.what());
        continue;
      }
      const std::string& key = baseline.size.key;
      if (!key.empty() && key != main.size.key && !params.has(key)) baseline_sizes.emplace(key, p.text(key, ""));
    }
    scenarios.push_back(systemc::collective_from(p));
    try {
      kinds.push_back(collectives::collective_kind(collectives::find_algorithm(algorithms[i]),
                                                   *topology::make_topology(scenarios.back().topology), p));
    } catch (const std::exception&) {
      kinds.emplace_back();  // a bad topology or key is refused naming its key where the run is planned
    }
    if (i == 0) {
      scenarios.back().vcd_path = vcd_path;
      scenarios.back().trace_path = trace.path;
      scenarios.back().trace_links = trace.links;
    }
    scenarios.back().progress = progress;
    try {
      plans.push_back(systemc::plan_collective(scenarios.back()));
    } catch (const ConfigError& e) {
      problems.push_back(algorithms.size() > 1 ? algorithms[i] + ": " + e.what() : e.what());
    }
  }
  throw_problems(problems);

  // The energy model's technology file, read before anything runs (a bad
  // one is a ConfigError naming the key and the file).
  EnergySetting energy;
  const bool with_energy = energy_setting_from(params, energy);

  RunOutcome out;
  std::vector<systemc::CollectiveResult> results;
  std::vector<systemc::CollectiveResult> alone;  // with background traffic: each run without it
  const systemc::RouterConfig rc = scenarios.front().router;
  for (std::size_t i = 0; i < algorithms.size(); ++i) {
    if (i > 0 && results.back().interrupted) break;  // the baselines after it do not run
    results.push_back(systemc::run_collective(scenarios[i], plans[i]));
    // Background traffic: the same collective alone, for its slowdown.
    if (results.back().background.enabled && !results.back().interrupted)
      alone.push_back(systemc::run_collective(alone_scenario(scenarios[i]), plans[i]));
    const auto& r = results.back();
    if (r.interrupted) {
      out.interrupted = fmt::format("{} on {} at cycle {}", r.algorithm, r.topology, r.cycles);
      continue;
    }
    // Asked for threads, ran on one: say why (the report's threads is 1).
    if (!r.threads_note.empty())
      std::cerr << fmt::format("collnet run: {} runs on one thread (key threads): {}\n", r.algorithm, r.threads_note);
    else if (scenarios[i].threads > r.threads)
      std::cerr << fmt::format("collnet run: key threads = {} is more than the {} routers of {}: {} runs on {}\n",
                               scenarios[i].threads, r.routers, r.topology, r.algorithm, r.threads);
    if ((!r.data_check || r.background.integrity_errors > 0) && !r.deadlocked() && out.exit_status == 0)
      out.exit_status = 1;
    if (r.deadlocked() || !r.completed) out.exit_status = 3;
  }

  // A run cut short by max_cycles says so first, in one line each.
  for (std::size_t i = 0; i < results.size(); ++i)
    if (max_cycles_reached(results[i]))
      out.text += fmt::format("collnet run: {} stopped at max_cycles = {} before it finished (no deadlock found; a "
                              "larger max_cycles lets it run on)\n",
                              results[i].algorithm, scenarios[i].max_cycles);
  const Units units = units_from(params);
  out.json = to_json(results[0], rc, true, units, kinds[0], with_energy ? &energy : nullptr);
  if (!alone.empty()) set_alone(out.json, results[0], alone[0]);
  out.json["scenario"] = resolved_scenario(params, RunKind::collective);
  add_background_scenario(out.json["scenario"], params);
  // A baseline's own size key, unset in the scenario: the value it ran with.
  for (const auto& [key, value] : baseline_sizes) out.json["scenario"][key] = std::stoll(value);
  out.text += details(results[0], rc, out.json, units);
  report_output_files(results[0], vcd_path, trace, out);
  if (results.size() < algorithms.size()) {
    std::string not_run;
    out.json["compare_not_run"] = nlohmann::json::array();
    for (std::size_t i = results.size(); i < algorithms.size(); ++i) {
      not_run += (not_run.empty() ? "" : ", ") + algorithms[i];
      out.json["compare_not_run"].push_back(algorithms[i]);
    }
    out.text += fmt::format("  INTERRUPTED       {}; not run: {}\n", out.interrupted, not_run);
  } else if (!out.interrupted.empty()) {
    out.text += fmt::format("  INTERRUPTED       {}\n", out.interrupted);
  }
  if (results.size() > 1) {
    out.json["compare"] = nlohmann::json::array();
    for (std::size_t i = 1; i < results.size(); ++i)
    {
      out.json["compare"].push_back(to_json(results[i], rc, false, units, kinds[i], with_energy ? &energy : nullptr));
      if (i < alone.size()) set_alone(out.json["compare"].back(), results[i], alone[i]);
    }
    out.text += fmt::format("\nSame scenario, side by side ({} on {}, {}):\n", "cycle model", results[0].topology,
                            compared_size(results));
    // The name column as wide as the longest name (at least 22).
    std::size_t name_width = 22;
    for (const auto& r : results) name_width = std::max(name_width, r.algorithm.size());
    out.text += fmt::format("  {:<{}} {:>10} {:>10} {:>10} {:>12} {:>10} {:>9} {:>11} {:>10}\n", "algorithm",
                            name_width, "cycles", "time", "busbw", "lower bound", "efficiency", "barriers",
                            "controllers", "data check");
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      const nlohmann::json& rj = i == 0 ? out.json : out.json["compare"][i - 1];
      out.text += fmt::format("  {:<{}} {:>10} {:>10} {:>10} {:>12} {:>10} {:>9} {:>11} {:>10}\n", r.algorithm,
                              name_width, r.cycles,
                              time_text(rj["time_ns"].get<double>()),
                              rj["bus_bandwidth_gbps"].is_number()
                                  ? fmt::format("{:.3g}", rj["bus_bandwidth_gbps"].get<double>())
                                  : "-",
                              r.lower_bound_cycles > 0 ? std::to_string(r.lower_bound_cycles) : "none",
                              r.lower_bound_cycles > 0 ? fmt::format("{:.3f}", r.efficiency) : "-", r.barriers,
                              r.controllers,
                              r.deadlocked()         ? "DEADLOCK"
                              : r.interrupted         ? "interrupted"
                              : max_cycles_reached(r) ? "max_cycles"
                              : r.data_check         ? "pass"
                                                     : "FAIL");
    }
    out.text += "  (time at clock_ghz, busbw in GB/s as nccl-tests define it)\n";
    for (std::size_t i = 1; i < results.size(); ++i)
      if (results[i].cycles > 0)
        out.text += fmt::format("  {} takes {:.2f}x the cycles of {}\n", results[i].algorithm,
                                static_cast<double>(results[i].cycles) / static_cast<double>(results[0].cycles),
                                results[0].algorithm);
  }
  return out;
}

RunOutcome run_given_schedule(const Params& params, const std::string& name,
                              const std::function<collectives::Schedule(const topology::Topology&)>& build,
                              const std::string& vcd_path, const systemc::RunProgressFn& progress,
                              const TraceRequest& trace) {
  std::vector<std::string> problems;
  if (params.has("algorithm") || params.has("compare"))
    problems.push_back("key '" + std::string(params.has("algorithm") ? "algorithm" : "compare") +
                       "': a given schedule runs instead of an algorithm; remove it");
  if (params.has("schedule_engine") && params.text("schedule_engine", "") != "reference" &&
      params.text("schedule_engine", "") != "auto")
    problems.push_back("key 'schedule_engine': no schedule engine covers a given schedule; accepted values here: auto, "
                       "reference");
  // The keys are checked as those of a collective run of the default
  // algorithm: the network, NIC and run keys are the same for every one.
  Params checked = params;
  checked.set("algorithm", collectives::algorithm_key().default_text());
  for (const Key& k : collectives::find_algorithm(collectives::algorithm_key().default_text()).keys)
    if (params.has(k.name))
      problems.push_back("key '" + k.name + "' belongs to algorithm " + collectives::algorithm_key().default_text() +
                         "; a given schedule reads only the network, NIC and run keys");
  for (const auto& p : collective_run_problems(checked)) add_problem(problems, p);
  for (const auto& p : trace_problems(checked, trace)) add_problem(problems, p);
  throw_problems(problems);

  systemc::CollectiveScenario s = systemc::collective_from(checked);
  s.algorithm = name;
  s.schedule_engine = "reference";
  s.custom_schedule = build;
  s.vcd_path = vcd_path;
  s.trace_path = trace.path;
  s.trace_links = trace.links;
  s.progress = progress;
  const systemc::CollectivePlan plan = systemc::plan_collective(s);
  EnergySetting energy;
  const bool with_energy = energy_setting_from(checked, energy);
  const systemc::CollectiveResult r = systemc::run_collective(s, plan);

  RunOutcome out;
  if (r.interrupted) out.interrupted = fmt::format("{} on {} at cycle {}", r.algorithm, r.topology, r.cycles);
  else if (!r.data_check && !r.deadlocked()) out.exit_status = 1;
  if ((r.deadlocked() || !r.completed) && !r.interrupted) out.exit_status = 3;
  if (max_cycles_reached(r))
    out.text += fmt::format("collnet run: {} stopped at max_cycles = {} before it finished (no deadlock found; a "
                            "larger max_cycles lets it run on)\n",
                            r.algorithm, s.max_cycles);
  const Units units = units_from(checked);
  out.json = to_json(r, s.router, true, units, {}, with_energy ? &energy : nullptr);
  nlohmann::json scenario = resolved_scenario(checked, RunKind::collective);
  scenario["algorithm"] = name;
  for (const Key& k : collectives::find_algorithm(collectives::algorithm_key().default_text()).keys)
    scenario.erase(k.name);  // the default algorithm's own keys: not read by a given schedule
  out.json["scenario"] = scenario;
  out.text += details(r, s.router, out.json, units);
  report_output_files(r, vcd_path, trace, out);
  return out;
}

namespace {

/// `params` without the keys `drop` names (the keys a workload run sets for
/// its own checks).
Params without_keys(const Params& params, const std::vector<std::string>& drop) {
  Params p;
  for (const auto& [k, v] : params.values())
    if (std::find(drop.begin(), drop.end(), k) == drop.end()) p.set(k, v);
  return p;
}

std::vector<std::string> workload_key_names() {
  std::vector<std::string> names{"algorithm", "compare"};
  for (const Key& k : workload::workload_keys()) names.push_back(k.name);
  return names;
}

}  // namespace

std::vector<std::string> workload_run_problems(const Params& params) {
  std::vector<std::string> problems;
  for (const char* key : {"algorithm", "compare"})
    if (params.has(key))
      problems.push_back(std::string("keys '") + key + "' and 'workload' select different runs (one collective, or a "
                         "workload's collectives chosen per type by allreduce_algorithm, ...); set only one");
  for (const Key& k : workload::workload_keys()) add_problem(problems, k.problem(params));
  // The network, NIC and run keys are checked as those of a collective run
  // of the workload's algorithms (their own keys apply, as in a comparison).
  Params checked = without_keys(params, workload_key_names());
  std::vector<std::string> algorithms;
  for (const auto type : {workload::CollectiveType::all_reduce, workload::CollectiveType::all_gather,
                          workload::CollectiveType::reduce_scatter, workload::CollectiveType::all_to_all,
                          workload::CollectiveType::broadcast, workload::CollectiveType::reduce}) {
    const Key* k = workload::algorithm_key(type);
    if (k == nullptr || !k->problem(params).empty()) continue;
    const std::string name = k->choice(params);
    if (std::find(algorithms.begin(), algorithms.end(), name) == algorithms.end()) algorithms.push_back(name);
  }
  checked.set("algorithm", algorithms.front());
  if (algorithms.size() > 1) {
    std::string rest;
    for (std::size_t i = 1; i < algorithms.size(); ++i) rest += (i > 1 ? "," : "") + algorithms[i];
    checked.set("compare", rest);
  }
  for (const auto& p : collective_run_problems(checked)) {
    // The keys the check set itself are not the user's.
    if (p.rfind("key 'compare'", 0) == 0) continue;
    add_problem(problems, p);
  }
  return problems;
}

RunOutcome run_workload_scenario(const Params& params, const std::string& vcd_path,
                                 const systemc::RunProgressFn& progress, const TraceRequest& trace) {
  throw_problems(workload_run_problems(params));
  std::unique_ptr<topology::Topology> topo;
  try {
    topo = topology::make_topology(collectives::topology_key().text(params));
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("key 'topology': ") + e.what());
  }
  const auto read_start = std::chrono::steady_clock::now();
  const workload::Workload w =
      workload::load_chakra(workload::chakra_prefix(workload::workload_key().text(params)),
                            static_cast<int>(topo->endpoint_count()), workload::comm_groups_key().text(params));
  const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count();
  workload::LowerOptions options;
  const Units units = units_from(params);
  options.clock_ghz = units.clock_ghz;
  options.flit_bytes = static_cast<int>(units.flit_bytes);
  options.scale = workload::workload_scale_key().real(params);
  for (const auto type : {workload::CollectiveType::all_reduce, workload::CollectiveType::all_gather,
                          workload::CollectiveType::reduce_scatter, workload::CollectiveType::all_to_all,
                          workload::CollectiveType::broadcast, workload::CollectiveType::reduce})
    if (const Key* k = workload::algorithm_key(type)) options.algorithms[type] = k->choice(params);
  options.params = params;
  const auto lower_start = std::chrono::steady_clock::now();
  const workload::Lowered lowered = workload::lower(w, *topo, options);
  const double lower_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - lower_start).count();

  Params checked = without_keys(params, workload_key_names());
  checked.set("algorithm", collectives::algorithm_key().default_text());
  systemc::CollectiveScenario s = systemc::collective_from(checked);
  s.algorithm = "workload";
  s.schedule_engine = "reference";
  s.dispatch = "named";
  s.nic.controllers = params.has("controllers") ? s.nic.controllers : 0;
  s.custom_schedule = [&lowered](const topology::Topology&) { return lowered.schedule; };
  s.vcd_path = vcd_path;
  s.trace_path = trace.path;
  s.trace_links = trace.links;
  s.progress = progress;
  std::vector<workload::Arrival> arrivals, sent;
  std::vector<workload::LinkLoad> link_loads;  // --timeline-json: the links' load
  if (!trace.timeline_path.empty())
    s.link_sink = [&link_loads, &topo](const systemc::LinkBusyTrace& busy) {
      const auto intervals = busy.intervals();
      for (std::size_t l = 0; l < intervals.size(); ++l) {
        workload::LinkLoad load;
        load.name = topo->graph().link_name(static_cast<topology::LinkId>(l));
        for (const auto& iv : intervals[l]) load.busy.emplace_back(iv.start, iv.end);
        link_loads.push_back(std::move(load));
      }
    };
  s.message_sink = [&arrivals, &sent](const systemc::MessageTrace& messages) {
    for (const auto& m : messages.records()) {
      if (m.listed && m.deliver != systemc::kNever)
        arrivals.push_back({static_cast<std::uint32_t>(m.dst), m.tag, m.deliver});
      if (m.listed && m.sent != systemc::kNever)
        sent.push_back({static_cast<std::uint32_t>(m.src), m.tag, m.sent});
    }
  };
  const systemc::CollectivePlan plan = systemc::plan_collective(s);
  EnergySetting energy;
  const bool with_energy = energy_setting_from(checked, energy);
  systemc::CollectiveResult r = systemc::run_collective(s, plan);
  // Background traffic: the same workload alone, for its slowdown.
  std::optional<systemc::CollectiveResult> alone;
  if (r.background.enabled && !r.interrupted) alone = systemc::run_collective(alone_scenario(s), plan);
  // The sizes are the nodes' (comm_size), not message_flits.
  r.message_words = 0;
  r.size_text = fmt::format("the nodes' comm_size, flit_bytes={}, workload_scale={}", options.flit_bytes,
                            options.scale);
  const workload::WorkloadTime timing = workload::time_workload(w, lowered, arrivals, sent);
  // Each distinct collective (algorithm, words a rank) run alone on the
  // network, as a plain collective run of the same descriptors: its
  // slowdown in the workload (sharing the network with the workload's other
  // nodes, and background traffic).
  std::map<std::pair<std::string, std::int64_t>, std::optional<std::uint64_t>> collective_alone;
  if (!r.interrupted)
    for (const auto& lc : lowered.collectives) {
      // A group of part of the ranks has no run of its own here (null).
      if (lc.ranks.size() != w.ranks.size()) continue;
      const auto key = std::make_pair(lc.algorithm, lc.words_per_rank);
      if (collective_alone.count(key) != 0) continue;
      auto& slot = collective_alone[key];
      Params p = checked;
      p.set("algorithm", lc.algorithm);
      try {
        const collectives::Algorithm& a = collectives::find_algorithm(lc.algorithm);
        if (!a.size.key.empty()) collectives::apply_words_per_rank(a, *topo, p, lc.words_per_rank, a);
        systemc::CollectiveScenario cs = systemc::collective_from(p);
        cs.schedule_engine = "reference";  // the workload's descriptors
        cs.dispatch = "named";
        cs.background.enabled = false;
        const systemc::CollectiveResult c = systemc::run_collective(cs, systemc::plan_collective(cs));
        if (c.completed) slot = c.cycles;
      } catch (const ConfigError&) {
        // no alone run (reported as null)
      }
    }

  RunOutcome out;
  if (r.interrupted) out.interrupted = fmt::format("workload on {} at cycle {}", r.topology, r.cycles);
  else if ((!r.data_check || r.background.integrity_errors > 0) && !r.deadlocked()) out.exit_status = 1;
  if ((r.deadlocked() || !r.completed) && !r.interrupted) out.exit_status = 3;
  if (max_cycles_reached(r))
    out.text += fmt::format("collnet run: the workload stopped at max_cycles = {} before it finished (no deadlock "
                            "found; a larger max_cycles lets it run on)\n",
                            s.max_cycles);
  // A workload is no single collective: no algorithm or bus bandwidth.
  out.json = to_json(r, s.router, true, units, collectives::CollectiveKind{}, with_energy ? &energy : nullptr);
  if (alone) set_alone(out.json, r, *alone);
  nlohmann::json scenario = resolved_scenario(checked, RunKind::collective);
  add_background_scenario(scenario, params);
  scenario.erase("algorithm");
  scenario.erase("compare");
  for (const Key& k : collectives::find_algorithm(collectives::algorithm_key().default_text()).keys)
    if (!params.has(k.name)) scenario.erase(k.name);
  for (const Key& k : workload::workload_keys()) {
    if (k.type() == Key::Type::real) scenario[k.name] = k.real(params);
    else scenario[k.name] = k.type() == Key::Type::choice ? k.choice(params) : k.text(params);
  }
  out.json["scenario"] = scenario;
  out.json["workload"] = workload::workload_json(w, lowered, timing, options.clock_ghz);
  out.json["workload"]["read_seconds"] = read_seconds;
  out.json["workload"]["lower_seconds"] = lower_seconds;
  for (std::size_t c = 0; c < lowered.collectives.size(); ++c) {
    nlohmann::json& cj = out.json["workload"]["collectives"][c];
    const auto it = collective_alone.find({lowered.collectives[c].algorithm, lowered.collectives[c].words_per_rank});
    const bool known = lowered.collectives[c].ranks.size() == w.ranks.size() && it != collective_alone.end() &&
                       it->second.has_value() && *it->second > 0 && timing.complete;
    cj["alone_cycles"] = known ? nlohmann::json(*it->second) : nlohmann::json(nullptr);
    cj["slowdown"] = known ? nlohmann::json(static_cast<double>(timing.collectives[c].cycles()) /
                                            static_cast<double>(*it->second))
                           : nlohmann::json(nullptr);
  }
  out.text += fmt::format("collnet run: workload {} ({} ranks, {} nodes, {} collectives, {} point-to-point "
                          "messages)\n",
                          w.prefix, w.ranks.size(), out.json["workload"]["nodes"].get<std::size_t>(),
                          lowered.collectives.size(), lowered.messages);
  out.text += fmt::format("  total             {} cycles ({:.3f} us at clock_ghz {})\n", timing.total,
                          static_cast<double>(timing.total) / (options.clock_ghz * 1000.0), options.clock_ghz);
  out.text += fmt::format("  per rank          compute {} cycles, communication {}, exposed communication {} (the "
                          "most of any rank)\n",
                          out.json["workload"]["compute_cycles"].get<std::uint64_t>(),
                          out.json["workload"]["communication_cycles"].get<std::uint64_t>(),
                          out.json["workload"]["exposed_communication_cycles"].get<std::uint64_t>());
  for (std::size_t c = 0; c < lowered.collectives.size() && c < 16; ++c)
  {
    const nlohmann::json& cj = out.json["workload"]["collectives"][c];
    out.text += fmt::format("  collective {:<6} {} by {}, {} words a rank: {} cycles{}\n", c,
                            workload::collective_type_name(static_cast<std::int64_t>(lowered.collectives[c].type)),
                            lowered.collectives[c].algorithm, lowered.collectives[c].words_per_rank,
                            timing.collectives[c].cycles(),
                            cj["slowdown"].is_number()
                                ? fmt::format(" (alone {}, slowdown {:.3f}x)", cj["alone_cycles"].get<std::uint64_t>(),
                                              cj["slowdown"].get<double>())
                                : std::string());
  }
  if (lowered.collectives.size() > 16)
    out.text += fmt::format("  ... {} collectives in all (--json lists them)\n", lowered.collectives.size());
  out.text += details(r, s.router, out.json, units);
  report_output_files(r, vcd_path, trace, out);
  if (!trace.timeline_path.empty()) {
    std::ofstream file(trace.timeline_path);
    if (!file) throw ConfigError(trace.timeline_option + ": cannot write '" + trace.timeline_path + "'");
    file << workload::chrome_trace(w, lowered, timing, options.clock_ghz, link_loads).dump() << "\n";
    out.json["timeline"] = {{"file", trace.timeline_path}};
    out.text += fmt::format("  timeline          {} (Chrome trace events: Perfetto, chrome://tracing)\n",
                            trace.timeline_path);
  }
  return out;
}

}  // namespace collnet::cli
