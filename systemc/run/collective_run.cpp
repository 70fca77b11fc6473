#include "systemc/run/collective_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <sstream>

#include <x86intrin.h>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "systemc/kernel/kernel.hpp"
#include "systemc/network/memory_estimate.hpp"
#include "systemc/trace/message_trace.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/energy_counts.hpp"
#include "systemc/run/synthetic.hpp"
#include "systemc/switch/innet_fabric.hpp"
#include "systemc/trace/waveform.hpp"
#include "topology/boards.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

const std::vector<Key>& collective_keys() {
  static const std::vector<Key> keys = {
      Key::choice("schedule_engine",
                  "source of the NIC's descriptors: reference (the algorithm's programs, one descriptor per cycle), "
                  "hls (the algorithm's schedule engine stepped per cycle, loaded by driver/engine_loader: " +
                      driver::engine_coverage() +
                      "; tree-bcast: the NIC's forwarding-rule block asked on every receipt, "
                      "hls/tree_bcast_rule.hpp; its HLS class or its RTL by nic_blocks), programmable (the "
                      "programmable engine, schedule_engine_programmable, loaded with each endpoint's reference "
                      "program: any algorithm; see program_depth), auto (the engine where one covers the scenario, "
                      "else reference)",
                  "auto", {"auto", "reference", "hls", "programmable"}),
      driver::program_depth_key(),
      Key::choice("nic_blocks",
                  "which implementation of the NIC's hardware blocks runs: hls (the synthesizable C++ classes of "
                  "hls/) or rtl (their Verilated SystemVerilog, rtl/, in the loop: the packet pacers, and the "
                  "schedule engine or tree-bcast's forwarding-rule block unless schedule_engine is reference; same "
                  "cycles and data as hls)",
                  "hls", {"hls", "rtl"}),
      Key::choice("switch_blocks",
                  "in-network collectives: which implementation of the switches' aggregation engine runs: hls "
                  "(the synthesizable C++ class hls/switch_aggregator.hpp) or rtl (its Verilated SystemVerilog "
                  "rtl/switch_aggregator.sv in the loop; same cycles and data as hls)",
                  "hls", {"hls", "rtl"}),
      Key::integer("aggregation_slots",
                   "in-network collectives: slots of each switch's aggregation table, the reduction blocks it holds "
                   "at once (hls: a power of two; rtl: the 8 it is built with)",
                   8, 1, 64)
          .accepting("1, 2, 4, 8, 16, 32, 64 (hls); 8 (rtl)"),
      Key::text("compare",
                "collnet run: also run these algorithms (comma-separated) on the same scenario and print them side "
                "by side, each on the main run's words a rank (set through its own elements or message_flits); "
                "empty: none",
                "", "algorithm names, comma-separated, or empty",
                [](const std::string& value) -> std::string {
                  std::vector<std::string> unknown;
                  for (const auto& name : compare_list(value))
                    if (collectives::lookup_algorithm(name) == nullptr) unknown.push_back("'" + name + "'");
                  if (unknown.empty()) return "";
                  return "unknown algorithm " + join(unknown) + "; accepted values: comma-separated names of " +
                         join(collectives::algorithm_names()) + ", or empty for no comparison";
                }),
      Key::integer("max_cycles", "collective runs: stop an unfinished run after this many cycles (exit 3 like a "
                                 "deadlock)",
                   100000000, 1, std::int64_t{1} << 40, "cycles"),
  };
  return keys;
}

std::vector<std::string> compare_list(const std::string& value) {
  std::vector<std::string> names;
  std::stringstream in(value);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) names.push_back(item);
  }
  return names;
}

namespace {

const Key& collective_key(const std::string& name) {
  for (const Key& k : collective_keys())
    if (k.name == name) return k;
  throw std::logic_error("collective_keys: no key " + name);
}

}  // namespace

CollectiveScenario collective_from(const Params& params) {
  CollectiveScenario s;
  s.params = params;
  s.topology = collectives::topology_key().text(params);
  s.algorithm = collectives::find_algorithm(params.text("algorithm", collectives::algorithm_key().default_text())).name;
  s.router = router_config_from(params);
  s.router.routing_seed = static_cast<std::uint64_t>(declared<RunKeys>().seed.integer(params));
  s.nic.controllers = params.has("controllers") ? static_cast<int>(collectives::controllers_key().integer(params)) : 0;
  s.nic.packet_flits = static_cast<int>(declared<RunKeys>().packet_flits.integer(params));
  s.nic.descriptor_queue = static_cast<int>(declared<NicKeys>().descriptor_queue.integer(params));
  s.nic.reduce_words_per_cycle = static_cast<int>(declared<NicKeys>().reduce_words_per_cycle.integer(params));
  s.dispatch = collectives::dispatch_key().choice(params);
  s.schedule_engine = collective_key("schedule_engine").choice(params);
  s.nic.blocks = collective_key("nic_blocks").choice(params) == "rtl" ? NicBlocks::rtl : NicBlocks::hls;
  s.switch_blocks = collective_key("switch_blocks").choice(params) == "rtl" ? SwitchBlocks::rtl : SwitchBlocks::hls;
  s.aggregation_slots = static_cast<int>(collective_key("aggregation_slots").integer(params));
  s.barrier = barrier_config_from(params, s.router.link_latency);
  s.link_faults = link_faults_from(params);
  s.watchdog_cycles = static_cast<Cycle>(declared<RunKeys>().watchdog_cycles.integer(params));
  s.max_cycles = static_cast<Cycle>(collective_key("max_cycles").integer(params));
  s.vcd_flow_window = static_cast<Cycle>(declared<RunKeys>().vcd_flow_window.integer(params));
  s.threads = static_cast<int>(declared<RunKeys>().threads.integer(params));
  if (params.has("traffic")) {
    // Background traffic: the synthetic keys of its pattern and load; its
    // packets are the NIC's size (packet_flits) and its seed the run's.
    const SyntheticKeys& k = declared<SyntheticKeys>();
    s.background.enabled = true;
    s.background.traffic.pattern = k.traffic.choice(params);
    s.background.traffic.shift = static_cast<int>(k.traffic_shift.integer(params));
    s.background.traffic.hotspot_node = static_cast<int>(k.hotspot_node.integer(params));
    s.background.traffic.hotspot_fraction = k.hotspot_fraction.real(params);
    s.background.load.injection_rate = k.injection_rate.real(params);
    s.background.load.packet_flits = s.nic.packet_flits;
    s.background.load.periodic = k.injection_process.choice(params) == "periodic";
    s.background.load.seed = static_cast<std::uint64_t>(declared<RunKeys>().seed.integer(params));
    s.background.load.inject_self = k.self_packets.choice(params) == "inject";
  }
  return s;
}

std::vector<topology::LinkId> bisection_links(const topology::Topology& topology) {
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  if (grid == nullptr) return {};
  const std::int64_t nodes = grid->endpoint_count();
  int best = -1;
  std::int64_t best_term = 0;
  for (int d = 0; d < grid->dims(); ++d) {
    const std::int64_t n = grid->size(d);
    const std::int64_t term = (n / 2) * ((n + 1) / 2) * (nodes / n);
    if (term > best_term) {
      best_term = term;
      best = d;
    }
  }
  std::vector<topology::LinkId> links;
  if (best < 0) return links;
  const int n = grid->size(best);
  // Cut between coordinates n/2 - 1 and n/2 (and, on a torus, n-1 and 0).
  for (topology::EndpointId e = 0; e < grid->endpoint_count(); ++e) {
    const int c = grid->coord(e)[static_cast<std::size_t>(best)];
    if (c == n / 2 - 1 || (grid->torus() && c == n - 1)) {
      std::vector<int> step(static_cast<std::size_t>(grid->dims()), 0);
      step[static_cast<std::size_t>(best)] = 1;
      const topology::EndpointId across = grid->shifted(e, step);
      for (const topology::LinkId l : {grid->link(e, best, +1), grid->link(across, best, -1)})
        if (l != topology::kNone && std::find(links.begin(), links.end(), l) == links.end()) links.push_back(l);
    }
  }
  return links;
}

namespace {

/// Ends a run whose programs can no longer progress (a WAIT for messages
/// that never come, a barrier some node never reaches): nothing in the
/// network, no NIC with work of its own, and no progress for a whole
/// interval. Flits stuck in buffers are the Watchdog's case.
class ProgramMonitor final : public Clocked {
 public:
  ProgramMonitor(const sc_core::sc_module_name& name, const CollectiveBook& book, const NetworkActivity& activity,
                 Cycle interval)
      : Clocked(name, /*run_at_start=*/true), book_(book), activity_(activity), interval_(interval) {}
  [[nodiscard]] bool stuck() const { return stuck_; }

 protected:
  Cycle evaluate(Cycle now) override {
    if (book_.finished) return kNever;
    const bool idle = activity_.flits() == 0 &&
                      std::none_of(book_.nics.begin(), book_.nics.end(), [](const Nic* n) { return n->busy(); });
    const std::uint64_t progress = book_.total(&CollectiveBook::Lane::progress);
    if (idle && progress == last_progress_ && now > 0) {
      stuck_ = true;
      sc_core::sc_stop();
      return kNever;
    }
    last_progress_ = progress;
    return now + interval_;
  }

 private:
  const CollectiveBook& book_;
  const NetworkActivity& activity_;
  Cycle interval_;
  std::uint64_t last_progress_ = ~std::uint64_t{0};
  bool stuck_ = false;
};

/// Forwards network-link flits with their packet header to a test probe.
class ProbeObserver final : public LinkObserver {
 public:
  ProbeObserver(const PacketTable& packets,
                std::function<void(const Link&, const PacketHeader&, const Flit&, Cycle)> probe)
      : packets_(packets), probe_(std::move(probe)) {}
  void on_flit(const Link& link, const Flit& flit, Cycle depart) override {
    probe_(link, packets_[flit.packet].header, flit, depart);
  }

 private:
  const PacketTable& packets_;
  std::function<void(const Link&, const PacketHeader&, const Flit&, Cycle)> probe_;
};

/// The controllers and their dispatch: the scenario's, else the algorithm's
/// NIC defaults (collectives::Algorithm::nic).
NicConfig plan_nic(const CollectiveScenario& s, const collectives::Schedule& schedule) {
  NicConfig nic = s.nic;
  const Key& controllers = collectives::controllers_key();
  if (nic.controllers == 0)
    nic.controllers = std::clamp(schedule.controllers, static_cast<int>(controllers.lo()),
                                 static_cast<int>(controllers.hi()));
  if (nic.controllers < controllers.lo() || nic.controllers > controllers.hi())
    throw ConfigError("key 'controllers': expected " + controllers.doc().accepted + ", got " +
                      std::to_string(nic.controllers));
  if (s.dispatch == "auto") {
    // (A test's own schedule keeps the dispatch of the algorithm it names.)
    const collectives::Algorithm* a = collectives::lookup_algorithm(s.algorithm);
    nic.dispatch = a != nullptr && a->nic.dispatch == collectives::Dispatch::next_idle ? Dispatch::next_idle
                                                                                       : Dispatch::named;
  } else {
    nic.dispatch = s.dispatch == "named" ? Dispatch::named : Dispatch::next_idle;
  }
  if (nic.dispatch == Dispatch::named) {
    int highest = -1;
    for (const auto& program : schedule.programs)
      for (const Descriptor& d : program)
        if (d.opcode == Opcode::send) highest = std::max(highest, static_cast<int>(d.controller));
    if (highest >= nic.controllers)
      throw ConfigError("key 'controllers': " + s.algorithm + " runs SENDs on controller " + std::to_string(highest) +
                        " but the NIC has " + std::to_string(nic.controllers) + " (dispatch named); set controllers "
                        ">= " + std::to_string(highest + 1) + " or dispatch: next-idle");
  }
  if (s.router.switching == Switching::virtual_cut_through && s.router.buffer_flits < nic.packet_flits)
    throw ConfigError("key 'buffer_flits': virtual cut-through needs room for a whole packet, so buffer_flits (" +
                      std::to_string(s.router.buffer_flits) + ") must be at least packet_flits (" +
                      std::to_string(nic.packet_flits) + ")");
  return nic;
}

/// The engine of the algorithm runs where one covers the scenario
/// (driver/engine_loader.hpp); nic_blocks picks its HLS class or its RTL.
void plan_source(const CollectiveScenario& s, CollectivePlan& p) {
  const SourceKind engine_source = p.nic.blocks == NicBlocks::rtl ? SourceKind::rtl : SourceKind::hls;
  // A receipt-driven collective (tree-bcast): its forwarding-rule block
  // takes the place of a schedule engine, chosen by the same keys.
  const collectives::Algorithm* algorithm =
      s.custom_schedule ? nullptr : collectives::lookup_algorithm(p.schedule.algorithm);
  if (s.schedule_engine == "programmable") {
    // Every endpoint's program of the run's schedule (any algorithm's, or a
    // test's own); a refusal (a program longer than the descriptor memory)
    // stops the run naming the key.
    p.source = engine_source;
    p.engine = "programmable";
    p.writes = driver::load_engine(p.engine, driver::LoadRequest{algorithm, &p.schedule, p.topo.get(), &s.params});
    return;
  }
  std::vector<collectives::ForwardingNode> rule;
  if (algorithm != nullptr && algorithm->forwarding_rule) rule = algorithm->forwarding_rule(*p.topo, s.params);
  // The engine's one load of the run (with the schedule's plan, where its
  // builder made one): its writes, or why the engine refuses the scenario.
  std::vector<std::vector<driver::EngineWrite>> writes;
  std::string refusal;
  if (s.custom_schedule) {
    refusal = "the run's schedule is not an algorithm's";
  } else if (!rule.empty()) {
    refusal = forwarding_rule_refusal(rule);
  } else if (s.schedule_engine != "reference") {
    if (algorithm == nullptr || algorithm->engine.empty()) {
      refusal = driver::engine_refusal(p.schedule.algorithm, *p.topo, s.params);
    } else {
      try {
        writes = driver::load_engine(algorithm->engine,
                                     driver::LoadRequest{algorithm, &p.schedule, p.topo.get(), &s.params});
      } catch (const ConfigError& e) {
        refusal = e.what();
      }
    }
  }
  if (s.schedule_engine == "hls") {
    if (!refusal.empty())
      throw ConfigError("key 'schedule_engine': no schedule engine covers " + s.algorithm + " on " + p.topo->name() +
                        " (" + refusal + "); accepted values here: auto, reference, programmable");
    p.source = engine_source;
  } else if (s.schedule_engine == "auto") {
    if (refusal.empty()) p.source = engine_source;
    else if (p.nic.blocks == NicBlocks::rtl)
      throw ConfigError("key 'nic_blocks': rtl runs the Verilated schedule engine of the algorithm, and none covers " +
                        s.algorithm + " on " + p.topo->name() + " (" + refusal + "); engines cover " +
                        driver::covered_algorithms() + ". For the RTL pacers alone set schedule_engine: reference; "
                        "accepted values here: hls");
  }
  if (p.source != SourceKind::reference && !rule.empty()) {
    p.rule = std::move(rule);
    p.writes.assign(p.endpoints, {});
  } else if (p.source != SourceKind::reference) {
    p.engine = algorithm->engine;
    p.writes = std::move(writes);
  } else {
    p.writes.assign(p.endpoints, {});
  }
}

/// The modules of one run, built from a plan. Members are destroyed in
/// reverse order: the modules before the session (kernel.hpp).
struct Elaboration {
  Elaboration(const CollectiveScenario& s, const CollectivePlan& p)
      : network(*p.topo, s.router, p.nic.controllers + (s.background.enabled ? 1 : 0), EndpointAttach::server,
                p.schedule.innet ? InNetworkFabric::extras(*p.topo, *p.schedule.innet,
                                                           p.nic.controllers + (s.background.enabled ? 1 : 0))
                                 : NetworkExtras{}),
        barrier(*p.topo, s.barrier,
                [this](topology::EndpointId e, Cycle at) { book.nics[static_cast<std::size_t>(e)]->wake(at); }) {
    network.enable_link_faults(s.link_faults);
    book.memory_words = p.schedule.memory_words;
    book.node_memory_words = p.schedule.node_memory_words;
    if (!s.trace_path.empty() || s.message_sink) {
      // One trace record per SEND (the programs' count; an engine issues the same).
      std::size_t sends = 0;
      for (const auto& program : p.schedule.programs)
        for (const Descriptor& d : program) sends += d.opcode == Opcode::send ? 1 : 0;
      message_trace = std::make_unique<MessageTrace>(sends);
      book.trace = message_trace.get();
      book.messages.number_in_order();
    }
    book.nics.assign(p.endpoints, nullptr);
    nics.reserve(p.endpoints);
    for (std::size_t e = 0; e < p.endpoints; ++e) {
      const auto id = static_cast<topology::EndpointId>(e);
      nics.push_back(std::make_unique<Nic>(("nic" + std::to_string(e)).c_str(), id, network, p.nic,
                                           !p.rule.empty() ? make_rule_source(p.source, p.rule[e], id)
                                           : !p.engine.empty() ? make_engine_source(p.source, p.engine, p.writes[e])
                                                           : make_descriptor_source(p.source, p.schedule, p.writes[e], id),
                                           p.schedule, barrier, book));
      book.nics[e] = nics.back().get();
    }
    if (s.background.enabled) {
      // One background source a node, on the NIC port after the controllers.
      TrafficConfig load = s.background.load;
      load.controller = p.nic.controllers;
      const DestinationFn destination = make_pattern(*p.topo, s.background.traffic);
      background_stats.accepted_by_source.assign(p.endpoints, 0);
      background_stats.window = MeasureWindow{0, kNever};
      background.reserve(p.endpoints);
      for (std::size_t e = 0; e < p.endpoints; ++e)
        background.push_back(std::make_unique<TrafficEndpoint>(("background" + std::to_string(e)).c_str(),
                                                               static_cast<topology::EndpointId>(e), network, load,
                                                               destination, background_stats));
    }
    if (p.schedule.innet)
      fabric = std::make_unique<InNetworkFabric>(network, p.schedule, s.switch_blocks, s.aggregation_slots, book);
    watchdog = std::make_unique<Watchdog>("watchdog", network.activity(), s.watchdog_cycles);
    monitor = std::make_unique<ProgramMonitor>("monitor", book, network.activity(), s.watchdog_cycles);
    if (!s.vcd_path.empty()) {
      tracer = std::make_unique<WaveformTracer>("waveform", network, s.vcd_path, s.vcd_flow_window, book.nics);
    } else if (s.flit_probe) {
      probe = std::make_unique<ProbeObserver>(network.packets(), s.flit_probe);
      network.set_link_observer(probe.get());
    }
    if ((!s.trace_path.empty() && s.trace_links) || s.link_sink) {
      // The links' one observer: the busy-interval recorder, which passes
      // every flit on to the waveform tracer or the probe.
      link_trace = std::make_unique<LinkBusyTrace>(
          network, tracer ? static_cast<LinkObserver*>(tracer.get()) : static_cast<LinkObserver*>(probe.get()));
      network.set_link_observer(link_trace.get());
    }
    partition(s, p);
  }

  /// Key `threads`: the partitions of a threaded run (docs/performance.md,
  /// threads), as for synthetic traffic: contiguous ranges of node numbers,
  /// each router with its endpoints' NICs; the watchdog and the program
  /// monitor in the serial partition. What only one thread can do keeps the
  /// run on one, and threads_note says why.
  void partition(const CollectiveScenario& s, const CollectivePlan& p) {
    if (s.threads == 1) return;
    if (s.background.enabled) threads_note = "background traffic (key traffic) runs beside it";
    else if (!s.vcd_path.empty()) threads_note = "a waveform (--vcd) is written";
    else if (!s.trace_path.empty()) threads_note = "a message trace (--trace) is written";
    else if (s.link_sink) threads_note = "the links' load is recorded for a timeline";
    else if (s.message_sink) threads_note = "a workload's nodes are timed from its messages";
    else if (s.flit_probe) threads_note = "a flit probe watches the links";
    else if (p.nic.blocks == NicBlocks::rtl) threads_note = "nic_blocks=rtl runs Verilated models";
    else if (p.schedule.innet) threads_note = "an in-network collective runs its switches' aggregation units";
    else if (s.link_faults.enabled) threads_note = "the links run under the fault model";
    // The program monitor's verdict reads every NIC in the cycle it runs;
    // inside the calendar (an interval below its horizon) a serial run's
    // monitor sees part of that cycle, a threaded run's all of it.
    else if (s.watchdog_cycles < WakeScheduler::kHorizon)
      threads_note = "watchdog_cycles below " + std::to_string(WakeScheduler::kHorizon) +
                     " runs the program monitor inside the wake-up calendar";
    if (!threads_note.empty()) {
      if (s.threads == 0) threads_note.clear();  // the automatic count (the default) is not told why
      return;
    }
    workers = synthetic_threads(s.threads, network.router_count(), available_cores());
    if (workers == 1) return;
    WakeScheduler& scheduler = WakeScheduler::current();
    scheduler.set_workers(workers, [] { Router::fit_thread_scratch(); });
    network.packets().set_workers(workers);
    network.activity().set_workers(workers);
    book.set_workers(workers);
    const std::size_t nodes = network.router_count();
    auto part = [&](topology::NodeId n) {
      return static_cast<std::uint16_t>(static_cast<std::size_t>(n) * static_cast<std::size_t>(workers) / nodes);
    };
    for (std::size_t n = 0; n < nodes; ++n)
      network.router(static_cast<topology::NodeId>(n)).set_partition(part(static_cast<topology::NodeId>(n)));
    const topology::Graph& g = p.topo->graph();
    for (std::size_t l = 0; l < network.link_count(); ++l) {
      const topology::Link& gl = g.link(static_cast<topology::LinkId>(l));
      network.link(static_cast<topology::LinkId>(l)).set_cross(part(gl.src) != part(gl.dst));
    }
    for (std::size_t e = 0; e < nics.size(); ++e)
      nics[e]->set_partition(part(g.endpoint_node(static_cast<topology::EndpointId>(e))));
    watchdog->set_partition(scheduler.serial_partition());
    monitor->set_partition(scheduler.serial_partition());
    scheduler.add_cycle_end([this](Cycle now) { book.cycle_end(now); });
  }
  Elaboration(const Elaboration&) = delete;
  Elaboration& operator=(const Elaboration&) = delete;
  ~Elaboration() {
    // Reverse construction order after the sentinel (TeardownSentinel):
    // linear in the objects.
    sentinel.release();
    link_trace.reset();
    probe.reset();
    tracer.reset();
    monitor.reset();
    watchdog.reset();
    while (!background.empty()) background.pop_back();
    fabric.reset();
    while (!nics.empty()) nics.pop_back();
  }

  KernelSession session;
  TeardownSentinel sentinel;  // constructed before every other SystemC object of the run
  Network network;
  CollectiveBook book;
  BarrierNetwork barrier;
  std::vector<std::unique_ptr<Nic>> nics;
  TrafficStats background_stats;                          // key traffic: the background's counts
  std::vector<std::unique_ptr<TrafficEndpoint>> background;  // one source a node (empty: none)
  std::unique_ptr<InNetworkFabric> fabric;  // in-network collectives: the switches' aggregation units
  std::unique_ptr<Watchdog> watchdog;
  std::unique_ptr<ProgramMonitor> monitor;
  std::unique_ptr<WaveformTracer> tracer;
  std::unique_ptr<ProbeObserver> probe;
  std::unique_ptr<MessageTrace> message_trace;  // --trace
  std::unique_ptr<LinkBusyTrace> link_trace;    // --trace-links
  int workers = 1;           // key `threads`: the run's worker threads
  std::string threads_note;  // why a run asking for threads runs on one
};

struct Timing {
  Cycle end = 0;  // the cycle the kernel stopped in
  double elaboration_seconds = 0;
  double sim_seconds = 0;
  double sim_cpu_seconds = 0;
  double trace_write_seconds = 0;  // not counted in sim_seconds
  double trace_write_cpu_seconds = 0;
  std::uint64_t traced_messages = 0;
  std::uint64_t traced_link_intervals = 0;
  std::uint64_t sim_ticks = 0;  // time-stamp-counter ticks of the simulation (WakeScheduler::Profile)
  // The functional executor's result, one digest per node (empty: the
  // programs deadlock in the executor too).
  std::vector<std::uint64_t> reference_digests;
};

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Digest of one node's memory (the functional executor's result is kept as
/// one digest per node, so that a run never holds every node's memory twice;
/// words are counted exactly only when a digest differs).
/// Each word is mixed with its address on its own and the mixes are summed:
/// no chain through the running value, so the multiplications of successive
/// words overlap instead of each waiting for the one before (a large run
/// digests every node's memory). The mix is
/// a bijection of the word for a given address, so a single differing word
/// always changes the digest.
std::uint64_t memory_digest(const collectives::NodeMemory& words) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ words.size();
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::uint64_t z = words[i] ^ (i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    h += z ^ (z >> 31);
  }
  return h;
}

/// The trace files (--trace, --trace-links), written after the run, also
/// of one that failed or deadlocked (what did arrive, and when).
void write_traces(Elaboration& m, const CollectiveScenario& s, Timing& t) {
  if (!m.message_trace || s.trace_path.empty()) return;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  m.message_trace->write_csv(s.trace_path);
  for (const auto& r : m.message_trace->records()) t.traced_messages += r.listed ? 1 : 0;
  if (m.link_trace) {
    m.link_trace->write_csv(LinkBusyTrace::path_for(s.trace_path), m.network.topology());
    for (const auto& l : m.link_trace->intervals()) t.traced_link_intervals += l.size();
  }
  t.trace_write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.trace_write_cpu_seconds = cpu_seconds() - cpu0;
}

/// The run ends by sc_stop(): every node finished, the watchdog or the
/// monitor fired, or an error; or at max_cycles. With a progress callback
/// the kernel runs in slices and reports between them.
Cycle run(Elaboration& m, const CollectiveScenario& s, Timing& t) {
  const std::uint64_t tsc0 = __rdtsc();
  // In slices, so that a stop request (run_progress.hpp) ends the run.
  run_for(s.max_cycles, progress_slice(m.network.router_count()), [&] {
    if (s.progress)
      s.progress({Clocked::now(), m.book.total(&CollectiveBook::Lane::delivered_messages), m.network.router_count()});
  });
  t.sim_ticks = __rdtsc() - tsc0;
  const Cycle end = Clocked::now();
  if (m.tracer) m.tracer->finish(end);
  write_traces(m, s, t);
  if (s.message_sink && m.message_trace) s.message_sink(*m.message_trace);
  if (s.link_sink && m.link_trace) s.link_sink(*m.link_trace);
  if (!m.background_stats.config_error.empty()) throw ConfigError(m.background_stats.config_error);
  if (const std::string error = m.book.error(); !error.empty()) {
    if (error.rfind("key '", 0) == 0) throw ConfigError(error);
    throw collectives::ExecutionError(error);
  }
  return end;
}

/// Memory against the schedule's expectation and the functional executor.
void check_memory(const CollectiveScenario& s, const CollectivePlan& p, Elaboration& m, const Timing& t,
                  CollectiveResult& r) {
  std::vector<collectives::NodeMemory> memory;
  memory.reserve(p.endpoints);
  for (const auto& n : m.nics) memory.push_back(n->take_memory());  // moved, not copied
  r.check = collectives::check_data(p.schedule, memory);
  if (s.memory_sink) s.memory_sink(memory);
  r.data_check = r.completed && r.check.pass;
  if (t.reference_digests.size() != p.endpoints) {
    r.reference_mismatch_words = -1;  // the programs deadlock in the executor too
    return;
  }
  bool same = true;
  for (std::size_t e = 0; e < p.endpoints && same; ++e) same = memory_digest(memory[e]) == t.reference_digests[e];
  r.reference_mismatch_words = 0;
  if (same) return;
  // Count the differing words exactly (a failed run: the executor again).
  const auto reference = collectives::execute_in_node_memory(p.schedule);
  std::int64_t differ = 0;
  for (std::size_t e = 0; e < p.endpoints; ++e)
    for (std::size_t a = 0; a < memory[e].size(); ++a) differ += memory[e][a] != reference.memory[e][a] ? 1 : 0;
  r.reference_mismatch_words = differ;
}

/// Barriers, queues, conflicts and link utilization of the run.
void network_statistics(const CollectivePlan& p, const Elaboration& m, CollectiveResult& r) {
  for (const BarrierRecord& b : m.barrier.records()) r.barrier_wait_cycles += b.last_release - b.first_entry;
  r.barriers = m.barrier.records().size();
  r.barrier_records = m.barrier.records();
  for (std::size_t n = 0; n < m.network.router_count(); ++n) {
    const Router& router = m.network.router(static_cast<topology::NodeId>(n));
    r.max_queue_flits = std::max(r.max_queue_flits, router.max_vc_flits());
    r.arbitration_conflicts += router.arbitration_conflicts();
    r.router_evaluations += router.evaluations();
  }
  for (const auto& nic : m.nics) r.nic_evaluations += nic->evaluations();
  const double cycles = static_cast<double>(r.cycles);
  for (std::size_t l = 0; l < m.network.link_count(); ++l) {
    r.flit_hops += m.network.link(static_cast<topology::LinkId>(l)).total_flits();
    const Link& link = m.network.link(static_cast<topology::LinkId>(l));
    // Of the link's own rate: flits / (cycles x bandwidth) (1 at bandwidth 1).
    double u = static_cast<double>(link.total_flits()) / cycles;
    if (link.rated()) u /= link.bandwidth().value();
    r.link_utilization.push_back(u);
    r.mean_link_utilization += u;
    r.max_link_utilization = std::max(r.max_link_utilization, u);
  }
  if (!r.link_utilization.empty()) r.mean_link_utilization /= static_cast<double>(r.link_utilization.size());
  if (dynamic_cast<const topology::Boards*>(p.topo.get()) != nullptr) {
    r.inter_board_flits = 0;
    const auto& links = p.topo->graph().links();
    for (std::size_t l = 0; l < m.network.link_count() && l < links.size(); ++l)
      if (topology::Boards::board_of(links[l].src) != topology::Boards::board_of(links[l].dst))
        r.inter_board_flits +=
            static_cast<std::int64_t>(m.network.link(static_cast<topology::LinkId>(l)).total_flits());
  }
  r.bisection_links = bisection_links(*p.topo);
  for (topology::LinkId l : r.bisection_links)
    r.bisection_link_utilization += r.link_utilization[static_cast<std::size_t>(l)];
  if (!r.bisection_links.empty()) r.bisection_link_utilization /= static_cast<double>(r.bisection_links.size());
  r.messages = m.book.total(&CollectiveBook::Lane::network_messages);
  r.local_copies = m.book.total(&CollectiveBook::Lane::local_copies);
  r.packets = m.book.total(&CollectiveBook::Lane::packets);
  r.flits = m.book.total(&CollectiveBook::Lane::flits);
  r.energy_counts = energy_counts(const_cast<Network&>(m.network), p.endpoints);
  EnergyCounts& e = r.energy_counts;
  // The NICs: one SEND descriptor per message or local copy; the DMA reads
  // each injected word, writes each delivered one, and a local copy reads
  // and writes each of its words.
  e.descriptors = r.messages + r.local_copies;
  e.dma_words = r.flits + e.delivered_flits + 2 * m.book.total(&CollectiveBook::Lane::copied_words);
  e.cycles = r.cycles;
}

/// The background traffic's figures over the run's cycles (BackgroundTraffic).
void background_statistics(const CollectiveScenario& s, const Elaboration& m, CollectiveResult& r) {
  const TrafficStats& st = m.background_stats;
  BackgroundResult& b = r.background;
  b.enabled = true;
  b.pattern = s.background.traffic.pattern;
  b.injection_rate = s.background.load.injection_rate;
  const double slots = static_cast<double>(r.cycles) * static_cast<double>(r.endpoints);
  b.offered_rate = slots > 0 ? static_cast<double>(st.offered_flits) / slots : 0.0;
  b.accepted_rate = slots > 0 ? static_cast<double>(st.accepted_flits) / slots : 0.0;
  b.created_packets = st.offered_flits / static_cast<std::uint64_t>(s.background.load.packet_flits);
  b.received_packets = st.latencies.size();
  b.in_flight_packets = st.pending;
  if (!st.latencies.empty()) {
    std::vector<std::uint32_t> sorted = st.latencies;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (const auto l : sorted) sum += l;
    b.avg_latency = sum / static_cast<double>(sorted.size());
    // Nearest rank: the smallest value with at least q of the samples at or below it.
    const auto rank = [&](double q) {
      const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
      return static_cast<double>(sorted[std::max<std::size_t>(k, 1) - 1]);
    };
    b.p50_latency = rank(0.5);
    b.p99_latency = rank(0.99);
    b.max_latency = sorted.back();
  }
  b.integrity_errors = st.integrity_errors;
  b.first_integrity_error = st.first_error;
}

CollectiveResult report(const CollectiveScenario& s, const CollectivePlan& p, Elaboration& m, const Timing& t) {
  CollectiveResult r;
  r.algorithm = s.algorithm;
  r.topology = p.topo->name();
  r.endpoints = p.endpoints;
  r.routers = m.network.router_count();
  r.link_latencies = m.network.link_latencies();
  // The size as the algorithm declares it; a given schedule reports message_flits.
  if (const collectives::Algorithm* a = s.custom_schedule ? nullptr : collectives::lookup_algorithm(s.algorithm)) {
    r.words_per_rank = collectives::words_per_rank(*a, *p.topo, s.params);
    r.size_text = collectives::words_per_rank_text(*a, *p.topo, s.params);
    if (a->size.key == "elements") r.elements = a->size.value(*p.topo, s.params);
    if (a->size.key == "message_flits")
      r.message_words = static_cast<std::uint32_t>(a->size.value(*p.topo, s.params));
  } else {
    r.message_words = static_cast<std::uint32_t>(collectives::message_flits_key().integer(s.params));
  }
  r.packet_flits = p.nic.packet_flits;
  r.controllers = p.nic.controllers;
  r.dispatch = p.nic.dispatch == Dispatch::named ? "named" : "next-idle";
  const std::string blocks = p.source == SourceKind::rtl ? "rtl-" : "hls-";
  r.schedule_engine = !p.engine.empty() ? blocks + p.engine
                      : !p.rule.empty() ? blocks + "tree_bcast_rule"
                                        : "reference";
  r.nic_blocks = p.nic.blocks == NicBlocks::rtl ? "rtl" : "hls";
  r.barrier = barrier_kind_name(s.barrier.kind);
  r.barrier_latency = s.barrier.kind == BarrierKind::ideal ? s.barrier.latency : s.barrier.step_latency;
  r.completed = m.book.finished;
  r.cycles = (m.book.finished ? m.book.finish_cycle : t.end) + 1;
  r.lower_bound_cycles = p.schedule.lower_bound;
  if (r.lower_bound_cycles > 0 && r.completed)
    r.efficiency = static_cast<double>(r.lower_bound_cycles) / static_cast<double>(r.cycles);
  for (const auto& n : m.nics) r.node_finish.push_back(n->finished() ? n->finish_cycle() : kNever);
  if (m.watchdog->fired()) r.deadlock = diagnose_deadlock(m.network, m.watchdog->fired_at());
  r.interrupted = !r.completed && !r.deadlock && !m.monitor->stuck() && interrupt_requested() && t.end < s.max_cycles;
  // Stopped by max_cycles (no watchdog, no monitor): not a deadlock, and no
  // list of what each node was doing (the run was cut short, not stuck).
  if (m.monitor->stuck())
    for (const auto& n : m.nics)
      if (!n->finished()) r.stuck.push_back(n->describe());
  if (s.background.enabled) background_statistics(s, m, r);
  r.link_flits_corrupted = m.network.link_fault_totals().corrupted;
  r.link_flits_retransmitted = m.network.link_fault_totals().retransmitted;
  r.down_links = m.network.down_links();
  // An interrupted run makes no data check (its memory is that of a cycle
  // midway): none is computed, so that the run ends at once.
  if (!r.interrupted) check_memory(s, p, m, t, r);
  network_statistics(p, m, r);
  r.elaboration_seconds = t.elaboration_seconds;
  r.sim_seconds = t.sim_seconds;
  r.sim_cpu_seconds = t.sim_cpu_seconds;
  r.traced_messages = t.traced_messages;
  r.traced_link_intervals = t.traced_link_intervals;
  r.trace_write_seconds = t.trace_write_seconds;
  r.threads = m.workers;
  r.threads_note = m.threads_note;
  {
    const auto& prof = WakeScheduler::current().profile();
    const double total = t.sim_ticks > 0 ? static_cast<double>(t.sim_ticks) : 1.0;
    r.evaluate_share = static_cast<double>(prof.evaluate) / total;
    r.wait_share = static_cast<double>(prof.wait) / total;
    r.serial_share = static_cast<double>(prof.serial) / total;
    r.calendar_cycles = prof.cycles;
    r.solo_cycles = prof.solo_cycles;
  }
  r.router_cycles_per_second =
      r.sim_seconds > 0 ? static_cast<double>(r.routers) * static_cast<double>(t.end) / r.sim_seconds : 0.0;
  return r;
}

}  // namespace

CollectivePlan plan_collective(const CollectiveScenario& s) {
  CollectivePlan p;
  try {
    p.topo = topology::make_topology(s.topology);
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("key 'topology': ") + e.what());
  }
  // Size limit (memory_estimate.hpp): refuse before building anything large
  // (from the algorithm's keys; a given schedule is already built).
  if (!s.custom_schedule)
    require_memory(estimate_collective_memory(*p.topo, s.algorithm, s.params, s.router, s.nic.controllers,
                                              s.nic.descriptor_queue),
                   s.algorithm + " on " + p.topo->name());
  p.schedule =
      s.custom_schedule ? s.custom_schedule(*p.topo) : collectives::find_algorithm(s.algorithm).build(*p.topo, s.params);
  p.endpoints = static_cast<std::size_t>(p.topo->endpoint_count());
  if (p.schedule.programs.size() != p.endpoints)
    throw std::logic_error(s.algorithm + ": schedule has " + std::to_string(p.schedule.programs.size()) +
                           " programs for " + std::to_string(p.endpoints) + " endpoints");
  p.nic = plan_nic(s, p.schedule);
  if (s.background.enabled) {
    if (p.nic.controllers >= collectives::controllers_key().hi())
      throw ConfigError(fmt::format("key 'traffic': background traffic takes a NIC port of its own after the {} "
                                    "controllers, and a NIC has at most {} ports; with 'traffic' the run takes at "
                                    "most {} controllers (key 'controllers')",
                                    p.nic.controllers, collectives::controllers_key().hi(),
                                    collectives::controllers_key().hi() - 1));
    (void)make_pattern(*p.topo, s.background.traffic);  // throws naming its key when it does not fit
  }
  plan_source(s, p);
  // The engine is loaded (or refused): the builder's plan for it, which for a
  // tree collective holds every transfer (23 MB on leafspine:p=36), is not
  // read again.
  p.schedule.engine_params.reset();
  return p;
}

CollectiveResult run_collective(const CollectiveScenario& s) { return run_collective(s, plan_collective(s)); }

CollectiveResult run_collective(const CollectiveScenario& s, const CollectivePlan& p) {
  Timing t;
  // The functional executor runs first and leaves one digest per node (in
  // node memory: the words no program writes are never resident).
  try {
    const auto reference = collectives::execute_in_node_memory(p.schedule);
    for (const auto& words : reference.memory) t.reference_digests.push_back(memory_digest(words));
  } catch (const collectives::ExecutionError&) {
    t.reference_digests.clear();
  }
  const auto t0 = std::chrono::steady_clock::now();
  Elaboration m(s, p);
  const auto t1 = std::chrono::steady_clock::now();
  const double cpu1 = cpu_seconds();
  t.end = run(m, s, t);
  t.sim_cpu_seconds = cpu_seconds() - cpu1 - t.trace_write_cpu_seconds;
  const auto t2 = std::chrono::steady_clock::now();
  t.elaboration_seconds = std::chrono::duration<double>(t1 - t0).count();
  t.sim_seconds = std::chrono::duration<double>(t2 - t1).count() - t.trace_write_seconds;
  return report(s, p, m, t);
}

}  // namespace collnet::systemc
