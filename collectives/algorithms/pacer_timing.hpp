// Reference timing of a packet pacer (spec a2a-hopgroup, "Pacing"; spec
// README glossary, "gap"): the cycle at which every flit leaves the pacer,
// computed from the packets offered to it, when the controller offers each
// flit, and when the injection port is not ready.
//
// Written as an earliest-cycle recurrence, independently of the register
// model in hls/packet_pacer.hpp, so that the tests and the Verilator bench
// can check that class and rtl/packet_pacer.sv against it:
//
//   out(f) = the first cycle c >= max(offered(f), out(f-1) + 1, release(f))
//            at which the port is ready, where
//   release(head of packet j) = out(last flit of packet j-1) + 1
//                               + gap(j-1) x flits(j-1) + slack(j-1)
//   release(any other flit)   = 0.
//
// This is not synthesizable (vectors); it is the software reference.
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/schedule.hpp"

namespace collnet::collectives {

/// One packet offered to a pacer: its length and its SEND's pacing fields.
struct PacedPacket {
  std::uint32_t flits = 1;
  std::uint8_t gap = 0;
  std::uint8_t slack = 0;
  bool operator==(const PacedPacket&) const = default;
};

/// Cycle at which each flit (packets in order, flits in order) passes the
/// pacer's output. `offered[f]` is the first cycle the controller can offer
/// flit f (it offers flit f no earlier than the cycle after flit f-1 left;
/// missing entries mean 0). `port_stalled[c]` is true when the injection
/// port is not ready in cycle c (cycles past the end are ready).
std::vector<std::uint64_t> pacer_flit_cycles(const std::vector<PacedPacket>& packets,
                                             const std::vector<std::uint64_t>& offered,
                                             const std::vector<bool>& port_stalled);

/// The packets controller `controller` of endpoint `self` offers its pacer
/// when it runs `program`: its SENDs in program order, each cut into packets
/// of `max_packet_flits` payload words, the last one shorter if the length
/// is not a multiple; every packet carries its SEND's gap and slack. SENDs to
/// `self` (local copies) and SENDs of length 0 inject nothing.
std::vector<PacedPacket> controller_packets(const Program& program, EndpointId self, int controller,
                                            std::uint32_t max_packet_flits);

}  // namespace collnet::collectives
