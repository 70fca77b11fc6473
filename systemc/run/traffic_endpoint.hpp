// Synthetic traffic endpoint: the NIC side of one endpoint for synthetic runs
// (one controller). Bernoulli injection: in every cycle a new packet is
// created with probability injection_rate / packet_flits, so the offered load
// is injection_rate flits per node per cycle; the cycles between two packets
// are drawn as one geometric variable, so an endpoint is evaluated only when
// it creates, sends or receives something. (Periodic injection, a packet every
// packet_flits / injection_rate cycles, serves the zero-load tests.) Packets wait in an unbounded source
// queue (open loop, latency counts from creation) and enter the router's
// injection port one flit per cycle under credit flow control. The receiving
// side checks every flit (destination, order, payload word) and measures
// latency from creation to the tail's arrival.
//
// The NIC model (nic.hpp) binds the same two ports (Network::injection and
// Network::ejection) and reuses InjectionChannel below.
#pragma once

#include <deque>
#include <memory>
#include <unordered_map>
#include <string>
#include <vector>

#include "systemc/kernel/clocked.hpp"
#include "systemc/link/link.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/traffic_pattern.hpp"

namespace collnet::systemc {

/// Sender state of an injection link: credits and the VC of the packet being
/// sent (a NIC controller sends one packet at a time).
class InjectionChannel {
 public:
  void reset(const Link& link, Switching switching);
  void take_credits(Link& link, Cycle now);
  /// A VC able to take a new packet of `flits` (round robin), or -1.
  [[nodiscard]] int free_vc(int flits) const;
  [[nodiscard]] bool has_credit(int vc) const { return credits_[static_cast<std::size_t>(vc)] > 0; }
  void spend(int vc) {
    --credits_[static_cast<std::size_t>(vc)];
    last_vc_ = vc;
  }

 private:
  std::vector<int> credits_;
  bool cut_through_ = false;
  int last_vc_ = -1;
};

struct TrafficConfig {
  double injection_rate = 0.3;           // flits per node per cycle (the key's default)
  int packet_flits = 4;
  std::uint64_t packets_per_node = 0;    // 0: open loop; else each source stops after this many
  bool periodic = false;                 // a packet every packet_flits / injection_rate cycles from cycle 0
  std::uint64_t seed = 1;
  topology::RouteHint route_hint = 0;
  /// Torus: each packet breaks half-way ties (offset N/2) in each dimension
  /// at random, + or - with equal probability (route_hint is then unused).
  bool random_ties = false;
  /// A packet the pattern sends to its own source goes through the source's
  /// router (injection port to ejection port, key self_packets: inject), as
  /// BookSim2's; false: it is never created (drop).
  bool inject_self = false;
  /// The NIC port the endpoint sends and receives on (its injection and
  /// ejection link, and the header's controller): 0 in a synthetic run; a
  /// collective run's background traffic takes the port after the NIC's
  /// controllers, so that its packets never reach a controller.
  int controller = 0;
};

/// Counters shared by all endpoints of a run (one module runs at a time per
/// thread, so no locking). A threaded run gives each partition's endpoints
/// their own shard (a TrafficStats whose root is the run's), merged after the
/// run; whether the run has finished is decided on the root, outside the
/// parallel phase.
struct TrafficStats {
  MeasureWindow window;  // measured packets are those created inside
  std::uint64_t offered_flits = 0;      // created inside the window
  std::uint64_t accepted_flits = 0;     // received inside the window
  std::vector<std::uint64_t> accepted_by_source;
  std::vector<std::uint32_t> latencies; // measured packets
  /// Every received measured packet, when record_packets is set (tests).
  struct Delivery {
    topology::EndpointId source;
    topology::EndpointId destination;
    int hops;
    Cycle created;
    Cycle latency;
  };
  bool record_packets = false;
  std::vector<Delivery> deliveries;
  /// Latency per flow (key latency_by: source or flow), keyed by source x
  /// endpoints + destination; recorded only when record_flows is set.
  struct FlowLatency {
    std::uint64_t packets = 0;
    std::uint64_t sum = 0;
    std::uint32_t max = 0;
  };
  bool record_flows = false;
  std::unordered_map<std::uint64_t, FlowLatency> flows;
  std::uint64_t pending = 0;            // measured packets not yet received
  std::uint64_t created = 0;
  std::uint64_t received = 0;
  std::uint64_t integrity_errors = 0;
  std::string first_error;
  std::string config_error;             // a ConfigError raised inside a process
  int sources_running = 0;              // finite mode: sources still creating
  bool closed = false;                  // no measured packet will be created any more
  bool finished = false;                // all measured packets received after closing
  Cycle finish_cycle = 0;
  /// Ends the run (sc_stop) once closed and nothing measured is pending.
  void check_finished(Cycle now);
  void error(const std::string& what);

  // Threaded runs.
  TrafficStats* root = nullptr;   // a shard: the run's stats
  std::vector<std::unique_ptr<TrafficStats>> shards;  // the root: one per partition
  bool check_requested = false;   // a shard: a tail arrived in the parallel phase
  /// The root: `count` shards with this window and per-source size.
  void make_shards(int count);
  /// Sources still creating, over the root and its shards.
  [[nodiscard]] int running_sources() const;
  /// The root, after every threaded cycle: the checks the shards asked for.
  void cycle_end(Cycle now);
  /// The root, after the run: adds the shards' counts to its own (in
  /// partition order; the latencies are a multiset).
  void merge_shards();
};

class TrafficEndpoint final : public Clocked {
 public:
  sc_core::sc_port<LinkSenderIf> injection;
  sc_core::sc_port<LinkReceiverIf> ejection;

  TrafficEndpoint(const sc_core::sc_module_name& name, topology::EndpointId self, Network& network,
                  const TrafficConfig& config, const DestinationFn& destination, TrafficStats& stats);

 protected:
  Cycle evaluate(Cycle now) override;
  void end_of_elaboration() override;

 private:
  struct Pending {
    Cycle created;
    topology::EndpointId destination;
  };
  void receive(Cycle now);
  void create(Cycle now);
  bool send(Cycle now);
  /// A route hint with every dimension's half-way tie drawn at random.
  topology::RouteHint random_tie_hint();

  topology::EndpointId self_;
  Network& network_;
  TrafficConfig config_;
  DestinationFn destination_;
  TrafficStats& stats_;
  Random random_;
  double packet_probability_;
  bool silent_ = false;
  Cycle interval_ = 0;  // periodic creation
  Cycle next_creation_ = kNever;
  std::uint64_t created_ = 0;
  std::uint64_t sequence_ = 0;  // packets sent: serial numbers
  std::deque<Pending> queue_;
  // On small networks (kRouteMemoEndpoints endpoints or fewer) the last route
  // to each destination, so that a packet copies its route instead of
  // computing it (Network::create_packet: a route's computation costs more
  // than its copy; instructions per flit-hop: docs/performance.md); empty on
  // larger networks, whose every source's routes would not stay in the caches.
  static constexpr std::int32_t kRouteMemoEndpoints = 64;
  std::vector<Network::RouteMemo> route_memos_;
  InjectionChannel channel_;
  Link* injection_link_ = nullptr;
  Link* ejection_link_ = nullptr;
  bool sending_ = false;
  PacketId current_ = 0;
  std::uint16_t next_flit_ = 0;
  int vc_ = 0;
};

/// Closes the measurement window of an open-loop run at its end.
class TrafficControl final : public Clocked {
 public:
  TrafficControl(const sc_core::sc_module_name& name, TrafficStats& stats, bool open_loop);

 protected:
  Cycle evaluate(Cycle now) override;

 private:
  TrafficStats& stats_;
  bool open_loop_;
};

}  // namespace collnet::systemc
