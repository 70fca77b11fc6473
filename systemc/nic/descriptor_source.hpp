// Where a NIC's descriptors come from (architecture: "the software reference
// emits them; the HLS schedule engine and its RTL emit them bit for bit the
// same; the SystemC NIC executes them"). The NIC asks its source for at most
// one descriptor per cycle; the source is pluggable:
//
//   reference   the endpoint's program from the algorithm's Schedule
//               (collectives/), one descriptor per cycle from cycle 0: an
//               ideal schedule engine with no start-up time.
//   hls         the synthesizable schedule engine of the algorithm (hls/),
//               stepped once per cycle, where one covers it
//               (driver/engine_loader.hpp lists them and their limits):
//                 hls/schedule_engine_a2a.hpp       a2a-spread, a2a-nd
//                 hls/schedule_engine_a2at.hpp      a2a-optimal
//                 hls/schedule_engine_hopgroup.hpp  a2a-hopgroup, a2a-hopgroup-direct
//                 hls/schedule_engine_hd.hpp        hd-allreduce, hd-allreduce-conventional
//                 hls/schedule_engine_twotree.hpp   twotree-hier, twotree-flat, tree-single
//               or (schedule_engine=programmable) the programmable engine
//               hls/schedule_engine_programmable.hpp loaded with the
//               endpoint's reference program, for any algorithm;
//               Its registers are loaded before cycle 0 (software configures
//               the NIC before the collective starts) by the one loader,
//               driver::engine_writes; its start-up cycles are simulated.
//   rtl         the same engine's Verilated RTL (rtl/schedule_engine_*.sv,
//               key nic_blocks=rtl), loaded with the same writes and stepped
//               in the same cycles (engine_block.hpp, rtl_blocks.hpp).
//   rule        a receipt-driven collective (tree-bcast, spec tree-broadcast):
//               no program. The NIC reports each complete arrival
//               (arrived()); the source presents it to the forwarding-rule
//               block (forwarding_rule.hpp: hls/tree_bcast_rule.hpp or its
//               RTL, by nic_blocks) as (from_port, the node's tree view)
//               and turns the answer's port mask into SENDs, one per cycle,
//               then END. See make_rule_source for the timing.
//   threads     (reference, when the schedule has Schedule::threads for the
//               endpoint) the endpoint's threads as concurrent streams, each
//               one descriptor per cycle (MSCCL thread blocks).
//
// Handshake with the NIC (the engines' valid/ready): peek(now) says which
// descriptor is offered in cycle `now` (nullopt: none yet), take(now) means
// the NIC accepted it in that cycle. A cycle in which the NIC does not call
// take() is a cycle with ready low; the source replays those cycles when the
// NIC next asks, so the NIC need not be evaluated while it has nothing to do.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/descriptor.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "driver/engine_loader.hpp"
#include "systemc/kernel/cycle.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

class DescriptorSource {
 public:
  virtual ~DescriptorSource() = default;
  /// The descriptor offered in cycle `now` (call with non-decreasing `now`).
  virtual std::optional<Descriptor> peek(Cycle now) = 0;
  /// The descriptor peek(now) returned is taken in cycle `now`.
  virtual void take(Cycle now) = 0;
  /// Descriptors taken so far.
  [[nodiscard]] virtual std::size_t taken() const = 0;
  /// No descriptor will ever be offered again.
  [[nodiscard]] virtual bool exhausted() const = 0;
  /// Nothing is offered until the next arrival (the NIC need not poll).
  [[nodiscard]] virtual bool waiting_for_arrival() const { return false; }
  /// A network message from `from` with tag `tag` has arrived complete in
  /// cycle `now`. Returns "" or what is wrong (a receipt the source cannot
  /// take: the NIC stops the run with it).
  virtual std::string arrived(topology::EndpointId /*from*/, std::uint32_t /*tag*/, Cycle /*now*/) { return ""; }

  // Concurrent streams (Schedule::threads, the reference source only): the
  // NIC polls every stream in every cycle it dispatches and takes at most
  // one descriptor a cycle from each; a WAIT blocks its own stream only.
  // Every other source is one stream, served by peek/take above.
  [[nodiscard]] virtual std::size_t streams() const { return 1; }
  virtual std::optional<Descriptor> peek_stream(Cycle now, std::size_t /*stream*/) { return peek(now); }
  virtual void take_stream(Cycle now, std::size_t /*stream*/) { take(now); }
  [[nodiscard]] virtual bool stream_exhausted(std::size_t /*stream*/) const { return exhausted(); }
  /// For the SEND stream `stream` offers: the tag of the message it forwards
  /// as it arrives (Thread::forwards), 0: a plain SEND.
  [[nodiscard]] virtual std::uint32_t forwards(std::size_t /*stream*/) const { return 0; }
  /// Some SEND of this source forwards (the NIC then records which message
  /// last wrote each word).
  [[nodiscard]] virtual bool cut_through() const { return false; }
};

/// Which source a run uses (keys `schedule_engine` and `nic_blocks`).
enum class SourceKind { reference, hls, rtl };


/// The source of endpoint `endpoint`'s descriptors. For SourceKind::hls and
/// rtl the caller has checked driver::engine_covering(), and `writes` are the
/// endpoint's driver::engine_writes, which load the engine.
std::unique_ptr<DescriptorSource> make_descriptor_source(SourceKind kind, const collectives::Schedule& schedule,
                                                         const std::vector<driver::EngineWrite>& writes,
                                                         topology::EndpointId endpoint);

/// The source of one endpoint whose descriptors come from engine `engine`
/// (kind hls or rtl), loaded with `writes` (driver::load_engine).
std::unique_ptr<DescriptorSource> make_engine_source(SourceKind kind, std::string_view engine,
                                                     const std::vector<driver::EngineWrite>& writes);

/// Why the forwarding-rule block cannot hold `node` ("" when it can): a
/// port beyond the block's 64 (hls/tree_bcast_rule.hpp), as a ConfigError
/// message naming the key `topology`.
std::string forwarding_rule_refusal(const std::vector<collectives::ForwardingNode>& nodes);

/// The receipt-driven source of one endpoint (kind hls or rtl: the rule
/// block's implementation). Timing: a request is presented to the block in
/// the cycle the message arrives (the logical root's in cycle 0, from none);
/// the block answers in the next cycle, in which the first SEND is offered
/// (the NIC latches the mask and walks it from port 0 up, one SEND per
/// cycle); END follows the last SEND. A forwarded SEND carries the arrival's
/// tag + 1 (the hop count from the logical root, which the reference
/// programs use as their phase tag); the logical root's carry 0.
std::unique_ptr<DescriptorSource> make_rule_source(SourceKind kind, const collectives::ForwardingNode& node,
                                                   topology::EndpointId endpoint);

}  // namespace collnet::systemc
