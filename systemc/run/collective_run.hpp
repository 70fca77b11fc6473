// A collective run on the cycle-accurate network:
// the algorithm's Schedule (collectives/) executed by one NIC per endpoint
// (nic.hpp) on the routers and links of systemc/network/network.hpp, with the
// side-band barrier network (barrier_network.hpp). At the end the memory of
// every node is checked against the schedule's expectation (data_check) and
// compared word by word with the functional executor's result.
//
// Report fields (the `collnet run` contract for collectives):
//   cycles               cycles from 0 to the cycle the last node finished
//                        (END taken, controllers idle, every message it sent
//                        delivered), inclusive: last cycle + 1.
//   lower_bound_cycles   the algorithm's bound (Schedule::lower_bound, the
//                        bisection bound for the all-to-alls) in flit times.
//                        The header rides as sideband with the head flit
//                        (packet.hpp), so the flits a message puts on the
//                        wire are exactly its payload words: the bound in
//                        payload words is the bound in flit times. -1 where
//                        the algorithm gives none.
//   efficiency           lower_bound_cycles / cycles (0 without a bound).
//   barriers             barriers released, with their timing.
//   max_queue_flits      the most flits any router input VC ever held (1 when
//                        every flit leaves in the cycle it arrives).
//   link_utilization     per directed network link: flits / cycles; the mean
//                        and max, and the mean over the bisection links (the
//                        links across the cut of the bisection bound).
//   flit_hops            flits that crossed a network link, summed over the
//                        links (injection and ejection ports not counted).
//   arbitration_conflicts  head flits that waited at least one cycle for
//                        their output (another packet held it or won it),
//                        once per packet and router (router.hpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/energy.hpp"
#include "collectives/executor.hpp"
#include "collectives/params.hpp"
#include "driver/engine_loader.hpp"
#include "systemc/nic/barrier_network.hpp"
#include "systemc/nic/descriptor_source.hpp"
#include "systemc/link/link.hpp"
#include "systemc/link/link_faults.hpp"
#include "systemc/nic/nic.hpp"
#include "systemc/router/router_config.hpp"
#include "systemc/kernel/run_progress.hpp"
#include "systemc/run/traffic_endpoint.hpp"
#include "systemc/run/traffic_pattern.hpp"
#include "systemc/run/watchdog.hpp"
#include "systemc/switch/aggregator_block.hpp"

namespace collnet::systemc {

class LinkBusyTrace;  // systemc/trace/message_trace.hpp

/// Background traffic (key `traffic` beside `algorithm` or `workload`):
/// synthetic traffic of the pattern and load of the synthetic keys, from
/// cycle 0 until the collective (or workload) finishes, when the run stops.
/// Each endpoint's background source has a NIC port of its own, the one
/// after the NIC's controllers (TrafficConfig::controller): its packets
/// share the routers, links and VCs with the collective's but enter and
/// leave the network through that port and name it in their header, so a
/// NIC controller never sees one and the collective's data check is that of
/// its own words. Measured: every background packet created before the
/// collective finished (latency of those that arrived, the rest counted as
/// in flight); the rates are flits per endpoint per cycle of the run.
struct BackgroundTraffic {
  bool enabled = false;
  TrafficOptions traffic;
  TrafficConfig load;
};

struct BackgroundResult {
  bool enabled = false;
  std::string pattern;
  double injection_rate = 0;  // the key's offered load
  double offered_rate = 0;    // flits created / endpoint / cycle of the run
  double accepted_rate = 0;   // flits received / endpoint / cycle of the run
  std::uint64_t created_packets = 0;
  std::uint64_t received_packets = 0;
  std::uint64_t in_flight_packets = 0;  // created, not received when the run stopped
  double avg_latency = 0;  // cycles from creation to the tail's arrival (received packets)
  double p50_latency = 0;
  double p99_latency = 0;
  double max_latency = 0;
  std::uint64_t integrity_errors = 0;  // flits that arrived misplaced or corrupted
  std::string first_integrity_error;
};

struct CollectiveScenario {
  std::string topology = "torus:8x8";
  std::string algorithm = collectives::algorithm_key().default_text();
  Params params;           // the scenario (algorithm keys are read from it)
  RouterConfig router;
  NicConfig nic;           // controllers 0: the schedule's
  std::string dispatch = "auto";
  std::string schedule_engine = "auto";
  // In-network collectives: the switches' aggregation engines (keys
  // switch_blocks, aggregation_slots; systemc/switch/innet_fabric.hpp).
  SwitchBlocks switch_blocks = SwitchBlocks::hls;
  int aggregation_slots = 8;
  BarrierConfig barrier;
  LinkFaultConfig link_faults;  // link_error_rate, link_retry, ... (link_faults.hpp)
  BackgroundTraffic background;  // key traffic beside algorithm or workload
  Cycle watchdog_cycles = 1000;
  Cycle max_cycles = 100000000;  // the run stops here unfinished (reported like a deadlock)
  std::string vcd_path;    // empty: no waveform
  RunProgressFn progress;  // empty: none (systemc/kernel/run_progress.hpp)
  Cycle vcd_flow_window = 100;
  int threads = 1;          // key `threads` (0: automatic, synthetic_threads)
  std::string trace_path;   // --trace: message trace CSV (message_trace.hpp); empty: none
  bool trace_links = false;  // --trace-links: also the links' busy intervals (LinkBusyTrace::path_for)
  /// Tests: replaces the algorithm's schedule (algorithm then only names it).
  std::function<collectives::Schedule(const topology::Topology&)> custom_schedule;
  /// Called once after the run with the record of every SEND (a message
  /// trace kept in memory, written to a file only with trace_path): a
  /// workload's nodes are timed from their signals (workload/timing.hpp).
  std::function<void(const MessageTrace&)> message_sink;
  /// Called once after a run that made its data check with every node's
  /// memory at the end (a run of several jobs checks each job's words).
  std::function<void(const std::vector<collectives::NodeMemory>&)> memory_sink;
  /// Called once after the run with the network links' busy intervals
  /// (LinkBusyTrace, kept in memory): a workload's timeline draws the
  /// links' load from them.
  std::function<void(const LinkBusyTrace&)> link_sink;
  /// Tests: called for every flit that departs on a network link, with its
  /// packet's header (ignored when a waveform is written).
  std::function<void(const Link&, const PacketHeader&, const Flit&, Cycle)> flit_probe;
};

/// Reads a scenario (common keys, the algorithm's keys, router_keys(),
/// nic_keys(), barrier_keys(), collective_keys()); throws ConfigError naming
/// the key on bad input.
CollectiveScenario collective_from(const Params& params);
/// Keys of the collective run itself (schedule_engine, nic_blocks,
/// switch_blocks, aggregation_slots, compare, max_cycles); the algorithm's own and the common ones are in its registry
/// entry (collectives/algorithm.hpp).
const std::vector<Key>& collective_keys();
/// The algorithm names of a `compare` value ("a, b" -> {a, b}; empty: none).
std::vector<std::string> compare_list(const std::string& value);

struct CollectiveResult {
  std::string algorithm;
  std::string topology;
  std::size_t endpoints = 0;
  std::size_t routers = 0;
  std::uint32_t message_words = 0;  // message_flits where it sets the size (all-to-alls, tree-bcast), else 0
  std::int64_t elements = -1;       // key elements where it sets the size (the reductions, hd-allreduce), else -1
  /// The words each rank holds of the collective's vector (collectives::DataSize), -1 where the run has none.
  std::int64_t words_per_rank = -1;
  /// How the scenario sets them: "elements=128", "8 chunks of chunk_words=16".
  std::string size_text;
  int packet_flits = 0;
  int controllers = 0;
  std::string dispatch;
  std::string schedule_engine;  // reference, or <nic_blocks>-<engine>: hls-a2at, rtl-hopgroup, ..., hls-tree_bcast_rule
  std::string nic_blocks;       // hls or rtl (the pacers and the engine)
  std::string barrier;
  Cycle barrier_latency = 0;

  Cycle cycles = 0;
  bool completed = false;
  /// Ended early by a stop request (run_progress.hpp: SIGINT, SIGTERM,
  /// Ctrl-C): the figures are those of the cycles run so far.
  bool interrupted = false;
  std::int64_t lower_bound_cycles = -1;
  double efficiency = 0;
  bool data_check = false;
  collectives::DataCheck check;
  std::int64_t reference_mismatch_words = -1;  // vs the functional executor; -1: not compared
  std::uint64_t barriers = 0;
  Cycle barrier_wait_cycles = 0;  // sum over barriers of release - first entry
  std::vector<BarrierRecord> barrier_records;
  int max_queue_flits = 0;
  std::vector<LinkLatencyCount> link_latencies;  // Network::link_latencies
  std::vector<double> link_utilization;  // per graph link
  double mean_link_utilization = 0;
  double max_link_utilization = 0;
  std::vector<topology::LinkId> bisection_links;
  double bisection_link_utilization = 0;
  std::uint64_t arbitration_conflicts = 0;
  std::uint64_t messages = 0;     // network messages
  std::uint64_t local_copies = 0;
  std::uint64_t packets = 0;
  std::uint64_t flits = 0;
  std::uint64_t flit_hops = 0;     // flits that crossed a network link, summed over the links
  /// boards topologies: flits on the links whose two endpoints lie on
  /// different boards (topology/boards.hpp); -1 on other topologies.
  std::int64_t inter_board_flits = -1;
  std::uint64_t router_evaluations = 0;  // cycles in which a router ran, summed over the routers
  std::uint64_t nic_evaluations = 0;     // cycles in which a NIC ran, summed over the NICs
  /// The events of the energy model and the hardware they ran on
  /// (collectives/energy.hpp), counted whether or not key technology is set.
  EnergyCounts energy_counts;
  std::vector<Cycle> node_finish;  // per endpoint
  BackgroundResult background;     // enabled: the run had background traffic
  std::optional<DeadlockReport> deadlock;  // network: flits stuck in buffers
  std::vector<std::string> stuck;          // programs: what each unfinished node waits for
  std::uint64_t link_flits_corrupted = 0;      // link traversals that corrupted a flit
  std::uint64_t link_flits_retransmitted = 0;  // flits sent again by go-back-n
  std::vector<std::string> down_links;         // link_down: the failed links and the flits they hold
  std::uint64_t traced_messages = 0;  // rows written to the message trace (--trace)
  std::uint64_t traced_link_intervals = 0;  // rows written to the links file (--trace-links)
  double trace_write_seconds = 0;     // writing the trace files after the run
  int threads = 1;                // worker threads the run used
  std::string threads_note;       // why a run asked for more threads ran on one (empty: it did not)
  // Shares of the simulation's time-stamp-counter ticks spent evaluating the
  // partitions' modules, waiting at a threaded cycle's barrier and in its
  // serial phase (WakeScheduler::Profile; on one thread 1 - evaluate_share
  // is the serial fraction), and the calendar cycles dispatched.
  double evaluate_share = 0;
  double wait_share = 0;
  double serial_share = 0;
  std::uint64_t calendar_cycles = 0;
  std::uint64_t solo_cycles = 0;  // of them, threaded cycles the main thread evaluated alone
  double sim_seconds = 0;
  double sim_cpu_seconds = 0;     // process CPU time of the simulation (machine load aside)
  double elaboration_seconds = 0;
  double router_cycles_per_second = 0;

  [[nodiscard]] bool deadlocked() const { return deadlock.has_value() || !stuck.empty(); }
};

/// What a run does, decided before any module is built: the topology, the
/// schedule, the NIC as configured (controllers, dispatch: the scenario's
/// or the algorithm's NIC defaults), where the descriptors come from and
/// the engine writes.
struct CollectivePlan {
  std::unique_ptr<topology::Topology> topo;
  collectives::Schedule schedule;
  std::size_t endpoints = 0;
  NicConfig nic;
  SourceKind source = SourceKind::reference;
  std::string engine;                                    // its name when an engine runs
  std::vector<std::vector<driver::EngineWrite>> writes;  // per endpoint (empty for the reference)
  /// Per endpoint, when the forwarding-rule block runs (tree-bcast with
  /// schedule_engine auto or hls): what each NIC's rule block is loaded
  /// with. Empty otherwise.
  std::vector<collectives::ForwardingNode> rule;
};

/// Plans a run: builds the schedule and checks that the NIC and the
/// schedule engine can run it. Throws ConfigError naming the key.
CollectivePlan plan_collective(const CollectiveScenario& scenario);

/// plan -> elaborate (modules) -> run (kernel) -> report (result). Throws
/// ConfigError for bad input, collectives::ExecutionError for a program
/// error found while running (memory range, barrier mismatch).
CollectiveResult run_collective(const CollectiveScenario& scenario);
CollectiveResult run_collective(const CollectiveScenario& scenario, const CollectivePlan& plan);

/// The directed links across the cut of the grid's bisection bound (the
/// dimension with the largest term of a2a_bisection_bound; on a torus the
/// wrap links too); empty for other topologies.
std::vector<topology::LinkId> bisection_links(const topology::Topology& topology);

}  // namespace collnet::systemc
