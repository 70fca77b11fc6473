#include "systemc/collective_run.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "collectives/a2a_common.hpp"
#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "systemc/kernel.hpp"
#include "systemc/network.hpp"
#include "systemc/waveform.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

const std::vector<KeyDoc>& collective_keys() {
  static const std::vector<KeyDoc> keys = {
      {"schedule_engine",
       "source of the NIC's descriptors: reference (the algorithm's programs, one descriptor per cycle), hls (the "
       "algorithm's schedule engine stepped per cycle, loaded by driver/engine_loader: a2a-spread, a2a-nd, "
       "a2a-optimal, a2a-hopgroup, a2a-hopgroup-direct, hd-allreduce, hd-allreduce-conventional, twotree-hier, "
       "twotree-flat, tree-single; its HLS class or "
       "its RTL by nic_blocks), auto (the engine where one covers the scenario, else reference)",
       "auto", "auto, reference, hls"},
      {"nic_blocks",
       "which implementation of the NIC's hardware blocks runs: hls (the synthesizable C++ classes of hls/) or rtl "
       "(their Verilated SystemVerilog, rtl/, in the loop: the packet pacers, and the schedule engine unless "
       "schedule_engine is reference; same cycles and data as hls)",
       "hls", "hls, rtl"},
      {"compare", "collnet run: also run these algorithms (comma-separated) on the same scenario and print them "
                  "side by side",
       "", "algorithm names"},
      {"max_cycles", "collective runs: stop an unfinished run after this many cycles (exit 3 like a deadlock)",
       "100000000", "1..2^40"},
  };
  return keys;
}

CollectiveScenario collective_from(const Params& params) {
  CollectiveScenario s;
  s.params = params;
  s.topology = params.text("topology", s.topology);
  s.algorithm = params.text("algorithm", s.algorithm);
  s.router = router_config_from(params);
  s.nic.controllers = params.has("controllers") ? static_cast<int>(params.integer("controllers", 1, 1, 8)) : 0;
  s.nic.packet_flits = static_cast<int>(params.integer("packet_flits", 4, 1, 1024));
  s.nic.descriptor_queue = static_cast<int>(params.integer("descriptor_queue", 256, 1, 65536));
  s.dispatch = params.choice("dispatch", "auto", {"auto", "named", "next-idle"});
  s.schedule_engine = params.choice("schedule_engine", "auto", {"auto", "reference", "hls"});
  s.nic.blocks = params.choice("nic_blocks", "hls", {"hls", "rtl"}) == "rtl" ? NicBlocks::rtl : NicBlocks::hls;
  s.barrier = barrier_config_from(params, s.router.link_latency);
  s.watchdog_cycles = static_cast<Cycle>(params.integer("watchdog_cycles", 1000, 1, 100000000));
  s.max_cycles = static_cast<Cycle>(params.integer("max_cycles", 100000000, 1, std::int64_t{1} << 40));
  s.vcd_flow_window = static_cast<Cycle>(params.integer("vcd_flow_window", 100, 1, 1000000));
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
    const bool idle = activity_.flits_in_network == 0 &&
                      std::none_of(book_.nics.begin(), book_.nics.end(), [](const Nic* n) { return n->busy(); });
    if (idle && book_.progress == last_progress_ && now > 0) {
      stuck_ = true;
      sc_core::sc_stop();
      return kNever;
    }
    last_progress_ = book_.progress;
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

bool uses_nct_controllers(const std::string& algorithm) {
  // spec a2a-optimal: "an idle controller takes the next queued send".
  return algorithm == "a2a-optimal" || algorithm == "a2a-spread" || algorithm == "a2a-nd";
}

}  // namespace

CollectiveResult run_collective(const CollectiveScenario& s) {
  std::unique_ptr<topology::Topology> topo;
  try {
    topo = topology::make_topology(s.topology);
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("key 'topology': ") + e.what());
  }
  const collectives::Schedule schedule =
      s.custom_schedule ? s.custom_schedule(*topo) : collectives::find_algorithm(s.algorithm).build(*topo, s.params);
  const auto endpoints = static_cast<std::size_t>(topo->endpoint_count());
  if (schedule.programs.size() != endpoints)
    throw std::logic_error(s.algorithm + ": schedule has " + std::to_string(schedule.programs.size()) +
                           " programs for " + std::to_string(endpoints) + " endpoints");

  NicConfig nic = s.nic;
  if (nic.controllers == 0) nic.controllers = std::clamp(schedule.controllers, 1, 8);
  if (nic.controllers < 1 || nic.controllers > 8)
    throw ConfigError("key 'controllers': expected 1..8, got " + std::to_string(nic.controllers));
  if (s.dispatch == "auto") nic.dispatch = uses_nct_controllers(s.algorithm) ? Dispatch::next_idle : Dispatch::named;
  else nic.dispatch = s.dispatch == "named" ? Dispatch::named : Dispatch::next_idle;
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
  // The engine of the algorithm runs where one covers the scenario
  // (driver/engine_loader.hpp); nic_blocks picks its HLS class or its RTL.
  SourceKind source = SourceKind::reference;
  const SourceKind engine_source = nic.blocks == NicBlocks::rtl ? SourceKind::rtl : SourceKind::hls;
  const std::string refusal = s.custom_schedule ? "the run's schedule is not an algorithm's"
                                                : driver::engine_refusal(schedule.algorithm, *topo, s.params);
  if (s.schedule_engine == "hls") {
    if (!refusal.empty())
      throw ConfigError("key 'schedule_engine': no schedule engine covers " + s.algorithm + " on " + topo->name() +
                        " (" + refusal + "); accepted values here: auto, reference");
    source = engine_source;
  } else if (s.schedule_engine == "auto") {
    if (refusal.empty()) source = engine_source;
    else if (nic.blocks == NicBlocks::rtl)
      throw ConfigError("key 'nic_blocks': rtl runs the Verilated schedule engine of the algorithm, and none covers " +
                        s.algorithm + " on " + topo->name() + " (" + refusal + "); engines cover " +
                        driver::covered_algorithms() + ". For the RTL pacers alone set schedule_engine: reference; "
                        "accepted values here: hls");
  }
  const std::optional<driver::EngineKind> engine =
      source == SourceKind::reference ? std::nullopt : driver::engine_for_algorithm(schedule.algorithm);

  const auto t0 = std::chrono::steady_clock::now();
  KernelSession session;
  Network network(*topo, s.router, nic.controllers);
  CollectiveBook book;
  book.memory_words = schedule.memory_words;
  book.unfinished = endpoints;
  book.nics.assign(endpoints, nullptr);
  BarrierNetwork barrier(*topo, s.barrier,
                         [&book](topology::EndpointId e, Cycle at) { book.nics[static_cast<std::size_t>(e)]->wake(at); });
  std::vector<std::unique_ptr<Nic>> nics;
  nics.reserve(endpoints);
  const std::vector<std::vector<driver::EngineWrite>> writes =
      engine ? driver::engine_writes_all(schedule.algorithm, *topo, s.params)
             : std::vector<std::vector<driver::EngineWrite>>(endpoints);
  for (std::size_t e = 0; e < endpoints; ++e) {
    const auto id = static_cast<topology::EndpointId>(e);
    nics.push_back(std::make_unique<Nic>(("nic" + std::to_string(e)).c_str(), id, network, nic,
                                         make_descriptor_source(source, schedule, writes[e], id), schedule,
                                         barrier, book));
    book.nics[e] = nics.back().get();
  }
  Watchdog watchdog("watchdog", network.activity(), s.watchdog_cycles);
  ProgramMonitor monitor("monitor", book, network.activity(), s.watchdog_cycles);
  std::unique_ptr<WaveformTracer> tracer;
  std::unique_ptr<ProbeObserver> probe;
  if (!s.vcd_path.empty()) {
    tracer = std::make_unique<WaveformTracer>("waveform", network, s.vcd_path, s.vcd_flow_window);
  } else if (s.flit_probe) {
    probe = std::make_unique<ProbeObserver>(network.packets(), s.flit_probe);
    network.set_link_observer(probe.get());
  }

  const auto t1 = std::chrono::steady_clock::now();
  // The run ends by sc_stop(): every node finished, the watchdog or the
  // monitor fired, or an error; or at max_cycles.
  run_for(s.max_cycles);
  const auto t2 = std::chrono::steady_clock::now();
  const Cycle end = Clocked::now();
  if (tracer) tracer->finish(end);
  if (!book.error.empty()) {
    if (book.error.rfind("key '", 0) == 0) throw ConfigError(book.error);
    throw collectives::ExecutionError(book.error);
  }

  CollectiveResult r;
  r.algorithm = s.algorithm;
  r.topology = topo->name();
  r.endpoints = endpoints;
  r.routers = network.router_count();
  r.elements = schedule.elements;
  r.message_words =
      schedule.elements >= 0 ? 0 : static_cast<std::uint32_t>(s.params.integer("message_flits", 16, 1, 65536));
  r.packet_flits = nic.packet_flits;
  r.controllers = nic.controllers;
  r.dispatch = nic.dispatch == Dispatch::named ? "named" : "next-idle";
  r.schedule_engine = engine ? (source == SourceKind::rtl ? "rtl-" : "hls-") + driver::engine_short_name(*engine)
                             : "reference";
  r.nic_blocks = nic.blocks == NicBlocks::rtl ? "rtl" : "hls";
  r.barrier = barrier_kind_name(s.barrier.kind);
  r.barrier_latency = s.barrier.kind == BarrierKind::ideal ? s.barrier.latency : s.barrier.step_latency;
  r.completed = book.finished;
  r.cycles = (book.finished ? book.finish_cycle : end) + 1;
  r.lower_bound_cycles = schedule.lower_bound;
  if (r.lower_bound_cycles > 0 && r.completed)
    r.efficiency = static_cast<double>(r.lower_bound_cycles) / static_cast<double>(r.cycles);

  std::vector<std::vector<collectives::Word>> memory;
  memory.reserve(endpoints);
  for (const auto& n : nics) {
    memory.push_back(n->memory());
    r.node_finish.push_back(n->finished() ? n->finish_cycle() : kNever);
  }
  if (watchdog.fired()) r.deadlock = diagnose_deadlock(network, watchdog.fired_at());
  if (monitor.stuck() || (!book.finished && !watchdog.fired()))
    for (const auto& n : nics)
      if (!n->finished()) r.stuck.push_back(n->describe());
  r.check = collectives::check_data(schedule, memory);
  r.data_check = r.completed && r.check.pass;
  try {
    const collectives::ExecResult reference = collectives::execute(schedule);
    std::int64_t differ = 0;
    for (std::size_t e = 0; e < endpoints; ++e)
      for (std::size_t a = 0; a < memory[e].size(); ++a) differ += memory[e][a] != reference.memory[e][a] ? 1 : 0;
    r.reference_mismatch_words = differ;
  } catch (const collectives::ExecutionError&) {
    r.reference_mismatch_words = -1;  // the programs deadlock in the executor too
  }

  for (const BarrierRecord& b : barrier.records()) r.barrier_wait_cycles += b.last_release - b.first_entry;
  r.barriers = barrier.records().size();
  r.barrier_records = barrier.records();
  for (std::size_t n = 0; n < network.router_count(); ++n) {
    const Router& router = network.router(static_cast<topology::NodeId>(n));
    r.max_queue_flits = std::max(r.max_queue_flits, router.max_vc_flits());
    r.arbitration_conflicts += router.arbitration_conflicts();
  }
  const double cycles = static_cast<double>(r.cycles);
  for (std::size_t l = 0; l < network.link_count(); ++l) {
    const double u = static_cast<double>(network.link(static_cast<topology::LinkId>(l)).total_flits()) / cycles;
    r.link_utilization.push_back(u);
    r.mean_link_utilization += u;
    r.max_link_utilization = std::max(r.max_link_utilization, u);
  }
  if (!r.link_utilization.empty()) r.mean_link_utilization /= static_cast<double>(r.link_utilization.size());
  r.bisection_links = bisection_links(*topo);
  for (topology::LinkId l : r.bisection_links) r.bisection_link_utilization += r.link_utilization[static_cast<std::size_t>(l)];
  if (!r.bisection_links.empty()) r.bisection_link_utilization /= static_cast<double>(r.bisection_links.size());
  r.messages = book.network_messages;
  r.local_copies = book.local_copies;
  r.packets = book.packets;
  r.flits = book.flits;
  r.elaboration_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.sim_seconds = std::chrono::duration<double>(t2 - t1).count();
  r.router_cycles_per_second =
      r.sim_seconds > 0 ? static_cast<double>(r.routers) * static_cast<double>(end) / r.sim_seconds : 0.0;
  // Modules go before the session (kernel.hpp).
  tracer.reset();
  nics.clear();
  return r;
}

}  // namespace collnet::systemc
