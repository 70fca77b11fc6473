#include "collectives/algorithms/pacer_timing.hpp"

#include <algorithm>

#include "collectives/params.hpp"

namespace collnet::collectives {

std::vector<std::uint64_t> pacer_flit_cycles(const std::vector<PacedPacket>& packets,
                                             const std::vector<std::uint64_t>& offered,
                                             const std::vector<bool>& port_stalled) {
  std::vector<std::uint64_t> cycles;
  const auto stalled = [&](std::uint64_t c) { return c < port_stalled.size() && port_stalled[c]; };
  std::uint64_t next_free = 0;  // out(f-1) + 1
  std::uint64_t release = 0;    // earliest cycle of the next head flit
  for (const PacedPacket& packet : packets) {
    for (std::uint32_t i = 0; i < packet.flits; ++i) {
      const std::size_t f = cycles.size();
      std::uint64_t c = std::max(next_free, f < offered.size() ? offered[f] : 0);
      if (i == 0) c = std::max(c, release);
      while (stalled(c)) ++c;
      cycles.push_back(c);
      next_free = c + 1;
    }
    if (packet.flits != 0)
      release = next_free + std::uint64_t{packet.gap} * packet.flits + packet.slack;
  }
  return cycles;
}

std::vector<PacedPacket> controller_packets(const Program& program, EndpointId self, int controller,
                                            std::uint32_t max_packet_flits) {
  if (max_packet_flits == 0) throw ConfigError("max_packet_flits: must be at least 1 (accepted values: 1..2^20-1)");
  std::vector<PacedPacket> packets;
  for (const Descriptor& d : program) {
    if (d.opcode != Opcode::send || d.controller != controller || static_cast<EndpointId>(d.dest) == self) continue;
    for (std::uint32_t sent = 0; sent < d.length; sent += max_packet_flits)
      packets.push_back({std::min(max_packet_flits, d.length - sent), d.gap, d.slack});
  }
  return packets;
}

}  // namespace collnet::collectives
