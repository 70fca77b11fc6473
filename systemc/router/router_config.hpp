// Parameters of the router microarchitecture (SST Merlin style: each one
// declared once, as a Key of RouterKeys in systemc/network/model_keys.hpp, with its
// default and accepted values; the CLI validates scenarios against them).
//
// Pipeline (what the zero-load test checks): a head flit that arrives in an
// input VC in cycle a (or becomes the front of its VC then) is routed for
// routing_delay cycles and may win allocation from cycle a + routing_delay on.
// Allocation (VC and switch together, one decision per cycle) picks it in some
// cycle c; it then spends allocation_delay + traversal_delay cycles in the
// allocation and crossbar pipeline and departs on the output link in cycle
// c + allocation_delay + traversal_delay, reaching the next input VC
// link_latency cycles later. Body flits skip routing. At zero load a flit
// therefore spends router_delay() = routing + allocation + traversal cycles
// in every router. The credit for a flit is sent upstream in the cycle it wins
// allocation (its buffer slot is read out then). Scenario keys: router_delay
// (the total), routing_delay and allocation_delay; traversal takes the rest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "topology/graph.hpp"

namespace collnet::systemc {

enum class Switching : std::uint8_t {
  wormhole,             // a free downstream VC with one credit suffices
  virtual_cut_through,  // the downstream VC must have room for the whole packet
};

enum class Allocator : std::uint8_t {
  input_first,   // each input picks one VC, then each output one input
  output_first,  // every VC requests, each output grants one, each input accepts one
};

struct RouterConfig {
  int vcs = 2;                 // virtual channels per input port
  int buffer_flits = 8;        // depth of each VC buffer (with buffer_round_trip: the least)
  /// Key buffer_sizing round-trip: the VC buffers at the end of a link hold
  /// at least the link's credit round trip (link_buffer_flits), so that one
  /// VC can keep any link busy; false (fixed): buffer_flits everywhere.
  bool buffer_round_trip = true;
  Switching switching = Switching::wormhole;
  int routing_delay = 0;       // cycles, head flits only, before allocation
  int allocation_delay = 1;    // cycles from the allocation decision (>= 1)
  int traversal_delay = 0;     // crossbar cycles after allocation
  int link_latency = 1;        // cycles on every network link, flits and credits
  int nic_latency = 1;         // cycles between a NIC controller and its router port
  /// Flits per cycle of each NIC controller's injection link (at most 1: a
  /// controller offers one flit a cycle) and ejection link (keys
  /// injection_bandwidth, ejection_bandwidth; link.hpp).
  topology::Bandwidth injection_bandwidth{};
  topology::Bandwidth ejection_bandwidth{};
  std::string arbitration = "age";
  int age_width = 0;           // bits of the age counter; 0 = exact
  bool dateline = true;        // VC classes from the topology's dateline
  /// Dateline class 1 for the whole of a dimension whose route wraps (chosen
  /// when the packet enters the dimension), instead of from the wrap link on.
  bool dateline_whole_dimension = false;
  /// Cycles from the allocation decision to the release of the flit's buffer
  /// slot and the departure of its credit upstream (0: at the decision).
  int credit_release_delay = 0;
  /// VC allocation as a pipeline stage of its own before switch allocation
  /// (a head bids for the switch the cycle after it won its output VC), not
  /// one decision for both.
  bool separate_vc_allocation = false;
  /// VC allocation with an allocator of its own (vc_allocator_stage:
  /// own-allocator): a routed head takes a free output VC (credits or not) in
  /// the last cycle of routing_delay, holds it, and bids for the switch from
  /// the next cycle on, like a body flit.
  bool vc_allocator_own = false;
  /// One VC per input port and output bids for the switch, chosen by a
  /// rotating pointer per input port (key vc_bid), instead of every ready VC.
  bool round_robin_vc_bid = false;
  /// Per-hop routing: every free VC of every allowed output is requested and
  /// the VC allocator decides (key output_selection vc-allocator), instead of
  /// the router picking one output first; needs vc_allocator_own.
  bool vc_allocator_selects = false;
  /// Weighed options (ugal): added to every option's cost but the first
  /// (the minimal path) before the least is taken (key ugal_threshold).
  long weighed_threshold = 0;
  /// Weighed options (key ugal_rule booksim2): BookSim2's ugal_dragonflynew
  /// rule, the minimal path's queue x 1 against the other's x 2 (plus the
  /// threshold), weighed once when the head is routed and kept while it
  /// waits; false (queue-hops): queue x the path's hops, weighed again every
  /// cycle until the head leaves.
  bool weighed_once = false;
  Allocator allocator = Allocator::input_first;
  bool atomic_vc_allocation = false;  // a VC is reallocated only once its downstream buffer is empty
  int allocator_iterations = 1;  // rounds of switch allocation per cycle (router.hpp step 3)
  /// Routing function by name (key `routing`, topology/routing.hpp); empty:
  /// the topology's default.
  std::string routing;
  /// Seed of the per-packet random words of randomized routing (valiant,
  /// nca-random, ugal): the scenario key `seed`, in both kinds of run.
  std::uint64_t routing_seed = 1;

  [[nodiscard]] int router_delay() const { return routing_delay + allocation_delay + traversal_delay; }
  /// Cycles between the allocation decision and departure on the link.
  [[nodiscard]] int pipeline_delay() const { return allocation_delay + traversal_delay; }
  /// Cycles from a flit's allocation decision at the sending router to the
  /// moment its credit can be spent there again, over a link of `latency`
  /// cycles, when the receiving router forwards it at once (a body flit, no
  /// contention): the pipeline to the link, the link, the credit's release
  /// after the receiver's decision, the credit's way back. A VC with B
  /// flits of buffer carries at most min(1, B / credit_round_trip) flits a
  /// cycle over the link.
  [[nodiscard]] int credit_round_trip(int latency) const {
    return 2 * latency + pipeline_delay() + credit_release_delay;
  }
  /// The depth of each VC buffer at the end of a link of `latency` cycles
  /// and `bandwidth` flits per cycle: buffer_flits, or with
  /// buffer_round_trip at least the flits the link carries in a credit round
  /// trip, ceil(bandwidth x credit_round_trip) on a link faster than a flit a
  /// cycle, credit_round_trip on any other (a slower link keeps the depth of
  /// bandwidth 1).
  [[nodiscard]] int link_buffer_flits(int latency, topology::Bandwidth bandwidth = {}) const {
    if (!buffer_round_trip) return buffer_flits;
    const std::int64_t trip = credit_round_trip(latency);
    const std::int64_t flits =
        bandwidth.flits > bandwidth.cycles ? (trip * bandwidth.flits + bandwidth.cycles - 1) / bandwidth.cycles : trip;
    return std::max(buffer_flits, static_cast<int>(std::min<std::int64_t>(flits, 65535)));
  }
  /// Throws ConfigError naming the key for a value out of range.
  void validate() const;
};

/// Reads the router keys (RouterKeys, systemc/network/model_keys.hpp) from a scenario.
RouterConfig router_config_from(const Params& params);

}  // namespace collnet::systemc
