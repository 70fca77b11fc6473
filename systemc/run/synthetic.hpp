// A synthetic-traffic run of the network (`collnet run`): a topology, the
// router configuration, a traffic pattern at an offered load, a warm-up and a
// measurement window, then a drain until every packet created inside the
// window has arrived. Every parameter is a scenario key declared in
// systemc/model_keys.hpp.
//
// Measurement (BookSim convention): packets created in cycles
// [warmup, warmup + measure) are measured; latency = cycle the tail arrives at
// the destination NIC - cycle the packet was created (source queueing
// included). offered_rate / accepted_rate = flits created / received inside
// the window per endpoint per cycle; link utilization = flits that departed
// on the link inside the window / window cycles. Creation goes on during the
// drain so that measured packets see the same load. With packets_per_node > 0
// the run is closed instead: every source creates that many packets, the
// window is the whole run and it ends when the last one arrives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collectives/energy.hpp"
#include "collectives/params.hpp"
#include "systemc/link/link.hpp"
#include "systemc/network/network.hpp"
#include "systemc/router/router_config.hpp"
#include "systemc/kernel/run_progress.hpp"
#include "systemc/run/traffic_endpoint.hpp"
#include "systemc/run/traffic_pattern.hpp"
#include "systemc/run/watchdog.hpp"

namespace collnet::systemc {

struct SyntheticScenario {
  std::string topology = "torus:8x8";
  RouterConfig router;
  TrafficOptions traffic;
  TrafficConfig load;
  Cycle warmup_cycles = 1000;
  Cycle measure_cycles = 10000;
  Cycle drain_cycles = 50000;   // open loop: at most this long after the window
  Cycle watchdog_cycles = 1000;
  std::string vcd_path;         // empty: no waveform (and no tracing cost)
  RunProgressFn progress;       // empty: none (systemc/kernel/run_progress.hpp)
  Cycle vcd_flow_window = 100;  // cycles a flow counts as sharing a link after its last flit
  /// The key `route_direction`: anything but minimal needs a mesh or torus.
  std::string route_direction = "minimal";
  /// Tests: replaces the pattern (e.g. only some nodes send).
  DestinationFn custom_destination;
  /// Tests: keep one record per received measured packet.
  bool record_packets = false;
  /// Key `latency_by`: none, source or flow (the latency of each source's,
  /// or each source-destination pair's, measured packets).
  std::string latency_by = "none";
  /// Key `threads`: worker threads (0: automatic, see synthetic_threads).
  int threads = 0;
  /// Key `endpoint_attach` (systemc/network/network.hpp).
  EndpointAttach endpoint_attach = EndpointAttach::server;
};

/// The worker threads a synthetic run of `routers` routers uses for key
/// `threads` = `requested` on a machine with `cores` cores: 0 (automatic)
/// takes the cores, at most one thread per kRoutersPerThread routers (a
/// thread's share of a smaller network does not pay for its per-cycle
/// barrier); a number is taken as given, up to one thread per router.
/// Waveforms and per-packet records need one thread.
inline constexpr int kRoutersPerThread = 128;
int synthetic_threads(int requested, std::size_t routers, unsigned cores);
/// The CPUs this process may run on (its affinity: a sweep gives each
/// point its share, cli/sweep_runner.hpp).
unsigned process_cpus();
/// process_cpus() less the one-minute load average (at least 1): what
/// `threads: 0` takes.
unsigned available_cores();

/// Reads a scenario (SyntheticKeys, RunKeys and RouterKeys of
/// systemc/network/model_keys.hpp); throws
/// ConfigError naming the key on bad input.
SyntheticScenario synthetic_from(const Params& params);

/// Measured latencies in bins of equal width: counts[i] packets took
/// [i x bin_width, (i + 1) x bin_width) cycles. The width is the narrowest of
/// 1, 2, 5, 10, 20, 50, ... cycles giving at most kLatencyBins bins.
struct LatencyHistogram {
  std::uint32_t bin_width = 0;  // 0: no packet measured
  std::vector<std::uint64_t> counts;
};
inline constexpr std::uint32_t kLatencyBins = 100;
LatencyHistogram latency_histogram(const std::vector<std::uint32_t>& latencies);

struct SyntheticResult {
  std::string topology;
  /// The energy model's router and link events (systemc/run/energy_counts.hpp).
  EnergyCounts energy_counts;
  std::size_t endpoints = 0;
  std::size_t routers = 0;  // routers that run (endpoint_attach direct: the switches)
  Cycle cycles = 0;              // simulated cycles (the run ended in this cycle)
  bool completed = false;        // every measured packet arrived
  bool interrupted = false;      // ended early by a stop request (run_progress.hpp)
  std::optional<DeadlockReport> deadlock;
  double offered_rate = 0;       // flits / endpoint / cycle
  double accepted_rate = 0;
  // Latency of the measured packets, cycles (nearest-rank percentiles);
  // meaningless, and reported as none, when measured_packets is 0.
  double avg_latency = 0;
  double p50_latency = 0;
  double p90_latency = 0;
  double p99_latency = 0;
  double p999_latency = 0;
  double max_latency = 0;
  LatencyHistogram latency_histogram;
  /// latency_by source or flow: per (source, destination) pair with measured
  /// packets, in source then destination order.
  struct FlowLatency {
    topology::EndpointId source = 0;
    topology::EndpointId destination = 0;
    std::uint64_t packets = 0;
    double avg_latency = 0;
    double max_latency = 0;
  };
  std::vector<FlowLatency> flow_latencies;
  std::uint64_t measured_packets = 0;  // received measured packets
  std::uint64_t unfinished_packets = 0;
  std::vector<LinkLatencyCount> link_latencies;  // Network::link_latencies
  std::vector<double> link_utilization;  // per graph link, window flits / window cycles
  double mean_link_utilization = 0;
  double max_link_utilization = 0;
  std::vector<std::uint64_t> accepted_flits_by_source;
  std::uint64_t window_cycles = 0;
  std::uint64_t integrity_errors = 0;
  std::string first_integrity_error;
  std::vector<TrafficStats::Delivery> packets;  // when record_packets
  double sim_seconds = 0;             // wall time of the simulation proper
  double sim_cpu_seconds = 0;         // process CPU time of the same (robust on a loaded machine)
  double elaboration_seconds = 0;
  double router_cycles_per_second = 0;      // routers x cycles / sim_seconds
  double router_cycles_per_cpu_second = 0;  // routers x cycles / sim_cpu_seconds
  std::uint64_t router_traversals = 0;      // flits that left a router (network and ejection links)
  std::uint64_t router_evaluations = 0;     // SystemC activations of all routers
  int threads = 1;                          // worker threads the run used
  // Shares of the simulation's time (time-stamp counter, see
  // WakeScheduler::Profile): evaluating partitioned modules (one thread: what
  // threads can share, 1 - the serial fraction; threaded: the main thread's
  // partition), waiting at the per-cycle barrier, and the serial phase.
  double evaluate_share = 0;
  double wait_share = 0;
  double serial_share = 0;
  std::uint64_t calendar_cycles = 0;  // cycles the calendar dispatched
  std::uint64_t solo_cycles = 0;      // of them, threaded cycles the main thread evaluated alone
};

SyntheticResult run_synthetic(const SyntheticScenario& scenario);

}  // namespace collnet::systemc
