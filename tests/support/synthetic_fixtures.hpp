// Test helper (tests/support/: fixtures several suites share, written once):
// synthetic-traffic scenarios of the cycle model that more than one suite
// runs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "systemc/run/synthetic.hpp"

namespace collnet::test {

/// Document 000 FIG. 5 (spec a2a-hopgroup, router fact 5): on the line
/// mesh:6, nodes 1..3 (endpoints 0..2) all send three hops ahead at full
/// rate in 4-flit packets, so the link from node 3 to node 4 carries all
/// three flows; `warmup` cycles, then a window of `measure`, no drain.
inline systemc::SyntheticScenario fig5_line(const systemc::RouterConfig& router, systemc::Cycle warmup,
                                            systemc::Cycle measure) {
  systemc::SyntheticScenario s;
  s.topology = "mesh:6";
  s.router = router;
  s.warmup_cycles = warmup;
  s.measure_cycles = measure;
  s.drain_cycles = 0;
  s.load.injection_rate = 1.0;  // far above the 1/3 share: every source saturated
  s.load.packet_flits = 4;
  s.custom_destination = [](topology::EndpointId src, systemc::Random&) -> topology::EndpointId {
    return src <= 2 ? src + 3 : topology::kNone;
  };
  return s;
}

/// What the shared link of fig5_line carried in the window.
struct LinkShares {
  std::array<double, 3> share{};  // of sources 0, 1, 2 (the document's nodes 1, 2, 3)
  double load = 0;                // flits per cycle on the link
};

/// Runs a fig5_line scenario (no deadlock, no corrupted flit expected).
inline LinkShares fig5_shares(const systemc::SyntheticScenario& s) {
  const systemc::SyntheticResult r = systemc::run_synthetic(s);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_EQ(r.integrity_errors, 0u);
  double total = 0;
  for (std::size_t i = 0; i < 3; ++i) total += static_cast<double>(r.accepted_flits_by_source[i]);
  LinkShares out;
  for (std::size_t i = 0; i < 3; ++i) out.share[i] = static_cast<double>(r.accepted_flits_by_source[i]) / total;
  out.load = total / static_cast<double>(r.window_cycles);
  return out;
}

/// One source sends one packet to every other endpoint, one every `period`
/// cycles (far longer than any latency, so packets never meet); every
/// delivery is recorded.
inline systemc::SyntheticScenario lone_packets(const std::string& topology, int endpoints, int source,
                                               const systemc::RouterConfig& router, int packet_flits, int period) {
  systemc::SyntheticScenario s;
  s.topology = topology;
  s.router = router;
  s.load.packet_flits = packet_flits;
  s.load.injection_rate = static_cast<double>(packet_flits) / period;
  s.load.periodic = true;
  s.load.packets_per_node = static_cast<std::uint64_t>(endpoints - 1);
  s.record_packets = true;
  auto next = std::make_shared<int>(0);
  s.custom_destination = [=](topology::EndpointId src, systemc::Random&) -> topology::EndpointId {
    if (src != source) return topology::kNone;
    const int d = (*next)++;
    return d >= source ? d + 1 : d;
  };
  return s;
}

}  // namespace collnet::test
