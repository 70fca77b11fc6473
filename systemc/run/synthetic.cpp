#include "systemc/run/synthetic.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <memory>
#include <thread>

#include <sched.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "collectives/algorithm.hpp"
#include "systemc/kernel/kernel.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/energy_counts.hpp"
#include "systemc/trace/waveform.hpp"
#include "topology/grid.hpp"
#include "topology/routing.hpp"

namespace collnet::systemc {

SyntheticScenario synthetic_from(const Params& params) {
  const SyntheticKeys& k = declared<SyntheticKeys>();
  const RunKeys& run = declared<RunKeys>();
  SyntheticScenario s;
  s.topology = collectives::topology_key().text(params);
  s.router = router_config_from(params);
  s.traffic.pattern = k.traffic.choice(params);
  s.traffic.shift = static_cast<int>(k.traffic_shift.integer(params));
  s.traffic.hotspot_node = static_cast<int>(k.hotspot_node.integer(params));
  s.traffic.hotspot_fraction = k.hotspot_fraction.real(params);
  s.load.injection_rate = k.injection_rate.real(params);
  s.load.packet_flits = static_cast<int>(run.packet_flits.integer(params));
  s.load.periodic = k.injection_process.choice(params) == "periodic";
  s.load.packets_per_node = static_cast<std::uint64_t>(k.packets_per_node.integer(params));
  s.load.seed = static_cast<std::uint64_t>(run.seed.integer(params));
  const std::string direction = k.route_direction.choice(params);
  s.warmup_cycles = static_cast<Cycle>(k.warmup_cycles.integer(params));
  s.measure_cycles = static_cast<Cycle>(k.measure_cycles.integer(params));
  s.drain_cycles = static_cast<Cycle>(k.drain_cycles.integer(params));
  s.watchdog_cycles = static_cast<Cycle>(run.watchdog_cycles.integer(params));
  s.vcd_flow_window = static_cast<Cycle>(run.vcd_flow_window.integer(params));
  s.load.random_ties = direction == "minimal-random-tie";
  s.load.inject_self = k.self_packets.choice(params) == "inject";
  s.router.routing_seed = s.load.seed;
  s.route_direction = direction;
  s.threads = static_cast<int>(run.threads.integer(params));
  s.latency_by = k.latency_by.choice(params);
  s.endpoint_attach = k.endpoint_attach.choice(params) == "direct" ? EndpointAttach::direct : EndpointAttach::server;
  if (s.endpoint_attach == EndpointAttach::direct) {
    // Refused before the run (a sweep's points are checked this way): the
    // topology's endpoints must be servers on a cable. A topology that does
    // not build is the key 'topology''s problem, reported by its own check.
    std::unique_ptr<topology::Topology> topo;
    try {
      topo = topology::make_topology(s.topology);
    } catch (const topology::TopologyError&) {
    }
    if (topo != nullptr)
      if (const std::string problem = direct_attach_problem(*topo); !problem.empty()) throw ConfigError(problem);
  }
  if (direction == "plus" || direction == "minus") {
    const auto d = direction == "plus" ? topology::Direction::plus : topology::Direction::minus;
    topology::RouteHint hint = 0;
    for (int dim = 0; dim < 4; ++dim) hint |= topology::Grid::direction_hint(dim, d);
    s.load.route_hint = hint;
  }
  return s;
}

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Nearest rank of samples sorted ascending (not empty): the smallest value
/// with at least q of the samples at or below it.
double percentile(const std::vector<std::uint32_t>& sorted, double q) {
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

LatencyHistogram latency_histogram(const std::vector<std::uint32_t>& latencies) {
  LatencyHistogram h;
  if (latencies.empty()) return h;
  const std::uint32_t most = *std::max_element(latencies.begin(), latencies.end());
  // The narrowest of 1, 2, 5, 10, 20, 50, ... cycles that covers 0..max in
  // at most kLatencyBins bins.
  std::uint32_t width = 1;
  for (std::uint32_t decade = 1; most / width >= kLatencyBins; decade *= 10)
    for (std::uint32_t m : {1u, 2u, 5u}) {
      width = m * decade;
      if (most / width < kLatencyBins) break;
    }
  h.bin_width = width;
  h.counts.assign(most / width + 1, 0);
  for (std::uint32_t l : latencies) ++h.counts[l / width];
  return h;
}

int synthetic_threads(int requested, std::size_t routers, unsigned cores) {
  const auto by_size = static_cast<int>(std::max<std::size_t>(1, routers / kRoutersPerThread));
  if (requested == 0) return std::max(1, std::min(static_cast<int>(std::max(1u, cores)), by_size));
  return std::max(1, std::min<int>(requested, static_cast<int>(std::max<std::size_t>(routers, 1))));
}

unsigned process_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof(set), &set) == 0 ? static_cast<unsigned>(CPU_COUNT(&set))
                                                      : std::max(1u, std::thread::hardware_concurrency());
}

// The CPUs this process may run on, less the ones other processes keep
// busy (the one-minute load average): a worker thread that waits for a core
// at every cycle's barrier costs more than it gives (measured:
// docs/performance.md, threads).
unsigned available_cores() {
  unsigned cores = process_cpus();
  double load[1] = {0};
  if (getloadavg(load, 1) == 1) {
    const auto busy = static_cast<unsigned>(std::max(0.0, load[0] + 0.5));
    cores = busy >= cores ? 1 : cores - busy;
  }
  return std::max(1u, cores);
}

SyntheticResult run_synthetic(const SyntheticScenario& s) {
  std::unique_ptr<topology::Topology> topo;
  try {
    topo = topology::make_topology(s.topology);
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("key 'topology': ") + e.what());
  }
  if (s.router.switching == Switching::virtual_cut_through && s.router.buffer_flits < s.load.packet_flits)
    throw ConfigError("key 'buffer_flits': virtual cut-through needs room for a whole packet, so buffer_flits (" +
                      std::to_string(s.router.buffer_flits) + ") must be at least packet_flits (" +
                      std::to_string(s.load.packet_flits) + ")");
  if (s.load.packet_flits < 1 || s.load.packet_flits > 1024)
    throw ConfigError("key 'packet_flits': expected 1..1024, got " + std::to_string(s.load.packet_flits));
  if (!(s.load.injection_rate >= 0.0 && s.load.injection_rate <= 1.0))
    throw ConfigError("key 'injection_rate': expected 0..1 flits per endpoint per cycle");
  if (s.route_direction != "minimal" && dynamic_cast<const topology::Grid*>(topo.get()) == nullptr)
    throw ConfigError("key 'route_direction': " + s.route_direction + " needs a mesh or torus, not " + topo->name() +
                      "; accepted on this topology: minimal");
  const DestinationFn destination =
      s.custom_destination ? s.custom_destination : make_pattern(*topo, s.traffic);
  const bool open_loop = s.load.packets_per_node == 0;

  const auto t0 = std::chrono::steady_clock::now();
  KernelSession session;
  Network network(*topo, s.router, 1, s.endpoint_attach);  // resolves the key `routing`
  if (const auto& keys = network.routing().keys;
      s.route_direction != "minimal" && std::find(keys.begin(), keys.end(), "route_direction") == keys.end())
    throw ConfigError("key 'route_direction': routing " + network.routing().name +
                      " chooses its own directions; accepted with it: minimal");
  TrafficStats stats;
  stats.record_packets = s.record_packets;
  stats.record_flows = s.latency_by != "none";
  stats.accepted_by_source.assign(static_cast<std::size_t>(topo->endpoint_count()), 0);
  if (open_loop) stats.window = MeasureWindow{s.warmup_cycles, s.warmup_cycles + s.measure_cycles};
  network.window() = stats.window;
  const int workers = s.vcd_path.empty() && !s.record_packets
                          ? synthetic_threads(s.threads, network.router_count(), available_cores())
                          : 1;
  if (workers > 1) stats.make_shards(workers);
  std::vector<std::unique_ptr<TrafficEndpoint>> endpoints;
  for (topology::EndpointId e = 0; e < topo->endpoint_count(); ++e) {
    const auto shard = workers > 1 ? static_cast<std::size_t>(static_cast<std::size_t>(topo->graph().endpoint_node(e)) *
                                                              static_cast<std::size_t>(workers) / network.router_count())
                                   : 0;
    TrafficStats& counts = workers > 1 ? *stats.shards[shard] : stats;
    endpoints.push_back(std::make_unique<TrafficEndpoint>(("endpoint" + std::to_string(e)).c_str(), e, network,
                                                          s.load, destination, counts));
  }
  TrafficControl control("control", stats, open_loop);
  Watchdog watchdog("watchdog", network.activity(), s.watchdog_cycles);
  std::unique_ptr<WaveformTracer> tracer;
  if (!s.vcd_path.empty())
    tracer = std::make_unique<WaveformTracer>("waveform", network, s.vcd_path, s.vcd_flow_window);
  if (workers > 1) {
    // Partitions: contiguous ranges of node numbers (rows of a mesh or
    // torus), each router with its endpoints; the links between two ranges
    // are the only ones that cross.
    WakeScheduler& scheduler = WakeScheduler::current();
    scheduler.set_workers(workers, [] { Router::fit_thread_scratch(); });
    network.packets().set_workers(workers);
    network.activity().set_workers(workers);
    const std::size_t nodes = network.router_count();
    auto part = [&](topology::NodeId n) {
      return static_cast<std::uint16_t>(static_cast<std::size_t>(n) * static_cast<std::size_t>(workers) / nodes);
    };
    for (std::size_t n = 0; n < nodes; ++n) network.router(static_cast<topology::NodeId>(n)).set_partition(part(static_cast<topology::NodeId>(n)));
    const topology::Graph& g = topo->graph();
    for (std::size_t l = 0; l < network.link_count(); ++l) {
      const topology::Link& gl = g.link(static_cast<topology::LinkId>(l));
      network.link(static_cast<topology::LinkId>(l)).set_cross(part(gl.src) != part(gl.dst));
    }
    for (topology::EndpointId e = 0; e < topo->endpoint_count(); ++e)
      endpoints[static_cast<std::size_t>(e)]->set_partition(part(g.endpoint_node(e)));
    control.set_partition(scheduler.serial_partition());
    watchdog.set_partition(scheduler.serial_partition());
    scheduler.add_cycle_end([&stats](Cycle now) { stats.cycle_end(now); });
  }

  Cycle limit;
  if (open_loop) {
    limit = s.warmup_cycles + s.measure_cycles + s.drain_cycles;
  } else {
    // Closed run: generous bound on the creation time plus the drain; the
    // watchdog ends a deadlocked run long before.
    const double per_packet = s.load.injection_rate > 0 ? s.load.packet_flits / s.load.injection_rate : 0.0;
    limit = static_cast<Cycle>(4.0 * per_packet * static_cast<double>(s.load.packets_per_node)) + s.drain_cycles +
            100000;
  }
  const auto t1 = std::chrono::steady_clock::now();
  const double cpu1 = cpu_seconds();
  const std::uint64_t tsc1 = __rdtsc();
  // In slices, so that a stop request (run_progress.hpp) ends the run.
  run_for(limit, progress_slice(network.router_count()), [&] {
    if (s.progress) s.progress({Clocked::now(), stats.received, network.router_count()});
  });
  const std::uint64_t tsc2 = __rdtsc();
  const double cpu2 = cpu_seconds();
  const auto t2 = std::chrono::steady_clock::now();
  if (tracer) tracer->finish(Clocked::now());
  stats.merge_shards();
  if (!stats.config_error.empty()) throw ConfigError(stats.config_error);

  SyntheticResult r;
  r.topology = topo->name();
  r.endpoints = static_cast<std::size_t>(topo->endpoint_count());
  r.routers = network.running_router_count();
  r.link_latencies = network.link_latencies();
  r.cycles = stats.finished ? stats.finish_cycle : Clocked::now();
  r.completed = stats.finished;
  if (watchdog.fired()) r.deadlock = diagnose_deadlock(network, watchdog.fired_at());
  r.interrupted = !r.completed && !r.deadlock && interrupt_requested() && Clocked::now() < limit;
  const Cycle window_end = std::min<Cycle>(stats.window.end, r.cycles + 1);
  r.window_cycles = window_end > stats.window.begin ? window_end - stats.window.begin : 0;
  const double slots = static_cast<double>(r.window_cycles) * static_cast<double>(r.endpoints);
  if (slots > 0) {
    r.offered_rate = static_cast<double>(stats.offered_flits) / slots;
    r.accepted_rate = static_cast<double>(stats.accepted_flits) / slots;
  }
  if (!stats.latencies.empty()) {
    double sum = 0;
    for (auto l : stats.latencies) sum += l;
    r.avg_latency = sum / static_cast<double>(stats.latencies.size());
    // One sorted copy serves every percentile and the maximum.
    std::vector<std::uint32_t> sorted = stats.latencies;
    std::sort(sorted.begin(), sorted.end());
    r.p50_latency = percentile(sorted, 0.5);
    r.p90_latency = percentile(sorted, 0.9);
    r.p99_latency = percentile(sorted, 0.99);
    r.p999_latency = percentile(sorted, 0.999);
    r.max_latency = sorted.back();
    r.latency_histogram = latency_histogram(stats.latencies);
  }
  r.measured_packets = stats.latencies.size();
  {
    const auto n = static_cast<std::uint64_t>(topo->endpoint_count());
    std::vector<std::pair<std::uint64_t, TrafficStats::FlowLatency>> flows(stats.flows.begin(), stats.flows.end());
    std::sort(flows.begin(), flows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [flow, l] : flows)
      r.flow_latencies.push_back({static_cast<topology::EndpointId>(flow / n), static_cast<topology::EndpointId>(flow % n),
                                  l.packets, static_cast<double>(l.sum) / static_cast<double>(l.packets),
                                  static_cast<double>(l.max)});
  }
  r.unfinished_packets = stats.pending;
  r.link_utilization.reserve(network.link_count());
  for (std::size_t l = 0; l < network.link_count(); ++l) {
    const Link& link = network.link(static_cast<topology::LinkId>(l));
    const auto flits = static_cast<double>(link.window_flits());
    // Of the link's own rate: flits / (cycles x bandwidth) (1 at bandwidth 1).
    double u = r.window_cycles ? flits / static_cast<double>(r.window_cycles) : 0.0;
    if (link.rated()) u /= link.bandwidth().value();
    r.link_utilization.push_back(u);
    r.mean_link_utilization += u;
    r.max_link_utilization = std::max(r.max_link_utilization, u);
  }
  if (!r.link_utilization.empty()) r.mean_link_utilization /= static_cast<double>(r.link_utilization.size());
  for (std::size_t l = 0; l < network.link_count(); ++l)
    r.router_traversals += network.link(static_cast<topology::LinkId>(l)).total_flits();
  for (topology::EndpointId e = 0; e < topo->endpoint_count(); ++e)
    r.router_traversals += network.ejection(e, 0).total_flits();
  for (std::size_t n = 0; n < network.router_count(); ++n)
    r.router_evaluations += network.router(static_cast<topology::NodeId>(n)).evaluations();
  r.energy_counts = energy_counts(network, static_cast<std::size_t>(topo->endpoint_count()));
  r.energy_counts.cycles = r.cycles;
  r.accepted_flits_by_source = stats.accepted_by_source;
  r.packets = std::move(stats.deliveries);
  r.integrity_errors = stats.integrity_errors;
  r.first_integrity_error = stats.first_error;
  r.elaboration_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.sim_seconds = std::chrono::duration<double>(t2 - t1).count();
  r.sim_cpu_seconds = cpu2 - cpu1;
  r.threads = workers;
  {
    const auto& prof = WakeScheduler::current().profile();
    const double total = tsc2 > tsc1 ? static_cast<double>(tsc2 - tsc1) : 1.0;
    r.evaluate_share = static_cast<double>(prof.evaluate) / total;
    r.wait_share = static_cast<double>(prof.wait) / total;
    r.serial_share = static_cast<double>(prof.serial) / total;
    r.calendar_cycles = prof.cycles;
    r.solo_cycles = prof.solo_cycles;
  }
  const double router_cycles = static_cast<double>(r.routers) * static_cast<double>(Clocked::now());
  r.router_cycles_per_second = r.sim_seconds > 0 ? router_cycles / r.sim_seconds : 0.0;
  r.router_cycles_per_cpu_second = r.sim_cpu_seconds > 0 ? router_cycles / r.sim_cpu_seconds : 0.0;
  return r;
}

}  // namespace collnet::systemc
