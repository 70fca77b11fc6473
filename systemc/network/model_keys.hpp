// The scenario keys of the cycle-accurate models, each declared once as a
// typed Key (collectives/keys.hpp): name, meaning, default, accepted values
// and unit. The same declaration reads the key (router_config_from,
// synthetic_from, collective_from, barrier_config_from, link_faults_from)
// and documents it (`collnet list`, the unknown-key message, the README key
// tables through cli/key_tables.cpp). Keys an algorithm declares (and
// packet_flits, which the a2a-optimal builder reads too) live in
// collectives/.
#pragma once

#include <vector>

#include "collectives/keys.hpp"

namespace collnet::systemc {

/// Router microarchitecture (systemc/router/router_config.hpp).
struct RouterKeys {
  Key vcs, buffer_flits, buffer_sizing, switching, arbitration, age_width, router_delay, routing_delay, allocation_delay,
      link_latency, allocator, vc_allocation, allocator_iterations, dateline, credit_release_delay,
      vc_allocator_stage, vc_bid, dateline_class, routing, output_selection,
      ugal_threshold, ugal_rule, injection_bandwidth, ejection_bandwidth;
  RouterKeys();
  /// Documentation order.
  [[nodiscard]] std::vector<Key> list() const;
};

/// Keys both kinds of run (synthetic traffic and collectives) read.
struct RunKeys {
  const Key& packet_flits;  // collectives::packet_flits_key(): a2a-optimal reads it too
  Key watchdog_cycles, vcd_flow_window, seed, threads;
  RunKeys();
  [[nodiscard]] std::vector<Key> list() const;
};

/// Synthetic traffic of `collnet run` (systemc/run/synthetic.hpp); only the
/// synthetic-traffic run reads these.
struct SyntheticKeys {
  Key traffic, injection_rate, injection_process, warmup_cycles, measure_cycles, drain_cycles, packets_per_node,
      route_direction, traffic_shift, hotspot_node, hotspot_fraction, self_packets, latency_by,
      endpoint_attach;
  SyntheticKeys();
  [[nodiscard]] std::vector<Key> list() const;
};

/// The NIC (controllers and dispatch are declared with the algorithms, whose
/// registry entries give their defaults: collectives/algorithm.hpp).
struct NicKeys {
  Key descriptor_queue, reduce_words_per_cycle;
  NicKeys();
  [[nodiscard]] std::vector<Key> list() const;
};

/// The side-band barrier network (systemc/nic/barrier_network.hpp).
struct BarrierKeys {
  Key barrier, barrier_latency;
  BarrierKeys();
  [[nodiscard]] std::vector<Key> list() const;
};

/// Link errors and failures (systemc/link/link_faults.hpp).
struct LinkFaultKeys {
  Key link_error_rate, link_retry, link_replay_flits, fault_seed, link_down;
  LinkFaultKeys();
  [[nodiscard]] std::vector<Key> list() const;
};

// Each struct's one instance is declared<Keys>() (collectives/keys.hpp), its
// list declared_list<Keys>().

}  // namespace collnet::systemc
