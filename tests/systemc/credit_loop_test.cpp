// The credit loop of one link and the VC buffers sized to it (key
// buffer_sizing). A VC sends a flit only against a credit, and a credit comes
// back RouterConfig::credit_round_trip(L) = 2 L + allocation_delay +
// traversal delay + credit_release_delay cycles after it was spent, so one
// VC with B flits of buffer carries min(1, B / (2 L + c)) flits a cycle over
// a link of latency L (the closed form checked here on a single link); the
// default, round-trip, gives each link at least that many flits, so that one
// VC keeps any link busy. On the dragonfly with p = 2 (global cables of 100
// cycles) the default buffers let minimal routing reach its closed-form
// bound under group-shift and UGAL spread that traffic past it, where the
// 8-flit buffers of buffer_sizing fixed hold both to the credit loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "systemc/run/synthetic.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// Flits per cycle that endpoint 0 of mesh:2 gets across the one link to
/// endpoint 1, offered a flit every cycle on one VC (1-flit packets).
double one_link_rate(int latency, int buffer, bool round_trip, int allocation_delay = 1,
                     int credit_release_delay = 0) {
  SyntheticScenario s;
  s.topology = "mesh:2";
  s.router.vcs = 1;
  s.router.link_latency = latency;
  s.router.buffer_flits = buffer;
  s.router.buffer_round_trip = round_trip;
  s.router.allocation_delay = allocation_delay;
  s.router.credit_release_delay = credit_release_delay;
  s.load.packet_flits = 1;
  s.load.injection_rate = 1.0;
  s.load.periodic = true;
  s.warmup_cycles = 1000;
  s.measure_cycles = 4000;
  s.drain_cycles = 0;
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId {
    return src == 0 ? 1 : topology::kNone;
  };
  const SyntheticResult r = run_synthetic(s);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
  return static_cast<double>(r.accepted_flits_by_source.at(0)) / static_cast<double>(r.window_cycles);
}

}  // namespace

TEST(CreditLoop, OneVcOverOneLinkCarriesItsBufferPerRoundTrip) {
  struct Case {
    int latency, buffer, allocation_delay, credit_release_delay;
  };
  for (const Case c : {Case{10, 8, 1, 0}, Case{25, 16, 1, 0}, Case{4, 3, 1, 0}, Case{10, 8, 2, 1}, Case{10, 21, 1, 0},
                       Case{30, 40, 1, 0}}) {
    RouterConfig rc;
    rc.allocation_delay = c.allocation_delay;
    rc.credit_release_delay = c.credit_release_delay;
    const int round_trip = 2 * c.latency + c.allocation_delay + c.credit_release_delay;
    ASSERT_EQ(rc.credit_round_trip(c.latency), round_trip);
    const double expected = std::min(1.0, static_cast<double>(c.buffer) / round_trip);
    const double got = one_link_rate(c.latency, c.buffer, false, c.allocation_delay, c.credit_release_delay);
    EXPECT_NEAR(got, expected, 0.01) << "latency " << c.latency << ", buffer " << c.buffer << ", allocation_delay "
                                     << c.allocation_delay << ", credit_release_delay " << c.credit_release_delay;
  }
}

TEST(CreditLoop, RoundTripSizingKeepsTheLinkBusyAndFixedSizingDoesNot) {
  RouterConfig rc;
  EXPECT_EQ(rc.link_buffer_flits(25), 51);   // 2 x 25 + 1: longer than buffer_flits 8
  EXPECT_EQ(rc.link_buffer_flits(1), 8);     // the round trip (3) is shorter: buffer_flits
  rc.buffer_round_trip = false;
  EXPECT_EQ(rc.link_buffer_flits(25), 8);
  EXPECT_NEAR(one_link_rate(25, 8, true), 1.0, 0.01);
  EXPECT_NEAR(one_link_rate(25, 8, false), 8.0 / 51, 0.01);
}

namespace {

SyntheticResult dragonfly_group_shift(const std::string& routing, bool round_trip) {
  SyntheticScenario s;
  s.topology = "dragonfly:p=2";
  s.router.routing = routing;
  s.router.vcs = 3;
  s.router.buffer_round_trip = round_trip;
  s.traffic.pattern = "group-shift";
  s.load.packet_flits = 4;
  s.load.injection_rate = 1.0;
  s.warmup_cycles = 3000;
  s.measure_cycles = 3000;
  s.drain_cycles = 0;
  return run_synthetic(s);
}

}  // namespace

// Group-shift sends every endpoint's packets to the next group. Minimal
// routing puts a group's traffic, 8 endpoints', on its one global cable to
// that group: at most 1/8 flit per endpoint and cycle. UGAL spreads it over
// the other groups' cables. With 8-flit buffers (fixed) a VC carries about
// 8 / 201 flits a cycle over a 100-cycle cable, and min's global hop has one
// VC class: its group gets no more than that through.
TEST(CreditLoop, OnTheDragonflyMinReachesItsBoundAndUgalPassesItWithRoundTripBuffers) {
  const double min_sized = dragonfly_group_shift("min", true).accepted_rate;
  const double ugal_sized = dragonfly_group_shift("ugal", true).accepted_rate;
  const double min_fixed = dragonfly_group_shift("min", false).accepted_rate;
  const double ugal_fixed = dragonfly_group_shift("ugal", false).accepted_rate;
  EXPECT_LE(min_sized, 1.0 / 8 * 1.02);
  EXPECT_GE(min_sized, 0.5 / 8);
  EXPECT_GE(ugal_sized, 2.0 * min_sized);
  EXPECT_LE(min_fixed, 8.0 / 201 / 8 * 1.1);
  EXPECT_LT(ugal_fixed, 0.5 * ugal_sized);
  EXPECT_LT(min_fixed, 0.25 * min_sized);
}
