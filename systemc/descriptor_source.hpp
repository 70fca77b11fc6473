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
//               Its registers are loaded before cycle 0 (software configures
//               the NIC before the collective starts) by the one loader,
//               driver::engine_writes; its start-up cycles are simulated.
//   rtl         the same engine's Verilated RTL (rtl/schedule_engine_*.sv,
//               key nic_blocks=rtl), loaded with the same writes and stepped
//               in the same cycles (engine_block.hpp, rtl_blocks.hpp).
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
#include <vector>

#include "collectives/descriptor.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "driver/engine_loader.hpp"
#include "systemc/cycle.hpp"
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
};

/// Which source a run uses (keys `schedule_engine` and `nic_blocks`).
enum class SourceKind { reference, hls, rtl };

/// The source of endpoint `endpoint`'s descriptors. For SourceKind::hls and
/// rtl the caller has checked driver::engine_covering(), and `writes` are the
/// endpoint's driver::engine_writes, which load the engine.
std::unique_ptr<DescriptorSource> make_descriptor_source(SourceKind kind, const collectives::Schedule& schedule,
                                                         const std::vector<driver::EngineWrite>& writes,
                                                         topology::EndpointId endpoint);

}  // namespace collnet::systemc
