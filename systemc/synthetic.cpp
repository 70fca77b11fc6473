#include "systemc/synthetic.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <memory>

#include "systemc/kernel.hpp"
#include "systemc/network.hpp"
#include "systemc/waveform.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

const std::vector<KeyDoc>& synthetic_keys() {
  static const std::vector<KeyDoc> keys = {
      {"traffic", "synthetic traffic pattern of `collnet run`", "uniform", join(pattern_names())},
      {"injection_rate", "offered load: flits created per endpoint per cycle", "0.3", "0..1"},
      {"injection_process", "packet creation: bernoulli (each cycle with probability injection_rate / "
                            "packet_flits) or periodic (every packet_flits / injection_rate cycles)",
       "bernoulli", "bernoulli, periodic"},
      {"packet_flits", "flits per packet (one payload word each)", "4", "1..1024"},
      {"warmup_cycles", "cycles before the measurement window", "1000", "0..100000000"},
      {"measure_cycles", "cycles of the measurement window", "10000", "1..100000000"},
      {"drain_cycles", "longest drain after the window before the run gives up waiting", "50000",
       "0..100000000"},
      {"packets_per_node", "closed run: each endpoint sends this many packets, then the run ends when all arrive "
                           "(0: open loop with warm-up and window)", "0", "0..100000000"},
      {"seed", "random seed of the traffic sources", "1", "0..2^63"},
      {"route_direction", "torus/mesh route hint of every packet: minimal (a half-way tie goes +), "
                          "minimal-random-tie (a half-way tie goes + or - at random, drawn per packet and "
                          "dimension), plus or minus only",
       "minimal", "minimal, minimal-random-tie, plus, minus"},
      {"traffic_shift", "offset per dimension of the neighbour pattern", "1", "-65536..65536"},
      {"hotspot_node", "destination endpoint of the hotspot pattern", "0", "0..endpoints-1"},
      {"hotspot_fraction", "share of packets sent to the hotspot", "0.2", "0..1"},
      {"watchdog_cycles", "deadlock watchdog: cycles without any flit moving while flits are buffered", "1000",
       "1..100000000"},
      {"vcd_flow_window", "waveforms: cycles a flow keeps counting as sharing a link after its last flit", "100",
       "1..1000000"},
  };
  return keys;
}

SyntheticScenario synthetic_from(const Params& params) {
  SyntheticScenario s;
  s.topology = params.text("topology", s.topology);
  s.router = router_config_from(params);
  s.traffic.pattern = params.choice("traffic", "uniform", pattern_names());
  s.traffic.shift = static_cast<int>(params.integer("traffic_shift", 1, -65536, 65536));
  s.traffic.hotspot_node = static_cast<int>(params.integer("hotspot_node", 0, 0, 65535));
  s.traffic.hotspot_fraction = params.real("hotspot_fraction", 0.2, 0.0, 1.0);
  s.load.injection_rate = params.real("injection_rate", 0.3, 0.0, 1.0);
  s.load.packet_flits = static_cast<int>(params.integer("packet_flits", 4, 1, 1024));
  s.load.periodic = params.choice("injection_process", "bernoulli", {"bernoulli", "periodic"}) == "periodic";
  s.load.packets_per_node = static_cast<std::uint64_t>(params.integer("packets_per_node", 0, 0, 100000000));
  s.load.seed = static_cast<std::uint64_t>(params.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  const std::string direction =
      params.choice("route_direction", "minimal", {"minimal", "minimal-random-tie", "plus", "minus"});
  s.warmup_cycles = static_cast<Cycle>(params.integer("warmup_cycles", 1000, 0, 100000000));
  s.measure_cycles = static_cast<Cycle>(params.integer("measure_cycles", 10000, 1, 100000000));
  s.drain_cycles = static_cast<Cycle>(params.integer("drain_cycles", 50000, 0, 100000000));
  s.watchdog_cycles = static_cast<Cycle>(params.integer("watchdog_cycles", 1000, 1, 100000000));
  s.vcd_flow_window = static_cast<Cycle>(params.integer("vcd_flow_window", 100, 1, 1000000));
  s.load.random_ties = direction == "minimal-random-tie";
  s.route_direction = direction;
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

double percentile(std::vector<std::uint32_t> values, double q) {
  if (values.empty()) return 0;
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  const std::size_t k = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace

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
  Network network(*topo, s.router, 1);
  TrafficStats stats;
  stats.record_packets = s.record_packets;
  stats.accepted_by_source.assign(static_cast<std::size_t>(topo->endpoint_count()), 0);
  if (open_loop) stats.window = MeasureWindow{s.warmup_cycles, s.warmup_cycles + s.measure_cycles};
  network.window() = stats.window;
  std::vector<std::unique_ptr<TrafficEndpoint>> endpoints;
  for (topology::EndpointId e = 0; e < topo->endpoint_count(); ++e)
    endpoints.push_back(std::make_unique<TrafficEndpoint>(("endpoint" + std::to_string(e)).c_str(), e, network,
                                                          s.load, destination, stats));
  TrafficControl control("control", stats, open_loop);
  Watchdog watchdog("watchdog", network.activity(), s.watchdog_cycles);
  std::unique_ptr<WaveformTracer> tracer;
  if (!s.vcd_path.empty())
    tracer = std::make_unique<WaveformTracer>("waveform", network, s.vcd_path, s.vcd_flow_window);

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
  if (s.progress)
    run_for(limit, progress_slice(network.router_count()),
            [&] { s.progress({Clocked::now(), stats.received, network.router_count()}); });
  else
    run_for(limit);
  const double cpu2 = cpu_seconds();
  const auto t2 = std::chrono::steady_clock::now();
  if (tracer) tracer->finish(Clocked::now());
  if (!stats.config_error.empty()) throw ConfigError(stats.config_error);

  SyntheticResult r;
  r.topology = topo->name();
  r.endpoints = static_cast<std::size_t>(topo->endpoint_count());
  r.routers = network.router_count();
  r.cycles = stats.finished ? stats.finish_cycle : Clocked::now();
  r.completed = stats.finished;
  if (watchdog.fired()) r.deadlock = diagnose_deadlock(network, watchdog.fired_at());
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
    r.p99_latency = percentile(stats.latencies, 0.99);
    r.max_latency = *std::max_element(stats.latencies.begin(), stats.latencies.end());
  }
  r.measured_packets = stats.latencies.size();
  r.unfinished_packets = stats.pending;
  r.link_utilization.reserve(network.link_count());
  for (std::size_t l = 0; l < network.link_count(); ++l) {
    const auto flits = static_cast<double>(network.link(static_cast<topology::LinkId>(l)).window_flits());
    const double u = r.window_cycles ? flits / static_cast<double>(r.window_cycles) : 0.0;
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
  r.accepted_flits_by_source = stats.accepted_by_source;
  r.packets = std::move(stats.deliveries);
  r.integrity_errors = stats.integrity_errors;
  r.first_integrity_error = stats.first_error;
  r.elaboration_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.sim_seconds = std::chrono::duration<double>(t2 - t1).count();
  r.sim_cpu_seconds = cpu2 - cpu1;
  const double router_cycles = static_cast<double>(r.routers) * static_cast<double>(Clocked::now());
  r.router_cycles_per_second = r.sim_seconds > 0 ? router_cycles / r.sim_seconds : 0.0;
  r.router_cycles_per_cpu_second = r.sim_cpu_seconds > 0 ? router_cycles / r.sim_cpu_seconds : 0.0;
  return r;
}

}  // namespace collnet::systemc
