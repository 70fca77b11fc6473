// Uniform random traffic with dimension-order routing:
// below saturation the accepted throughput equals the offered load; the 8x8
// torus saturates at a higher throughput than the 8x8 mesh (twice the
// bisection links); every delivered flit passes the payload check.
#include <gtest/gtest.h>

#include <cmath>

#include "systemc/run/synthetic.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

SyntheticResult uniform(const std::string& topology, double rate, int vcs = 2, Cycle measure = 20000,
                        Cycle drain = 50000) {
  SyntheticScenario s;
  s.drain_cycles = drain;
  s.topology = topology;
  s.router.vcs = vcs;
  s.load.injection_rate = rate;
  s.load.packet_flits = 4;
  s.warmup_cycles = 2000;
  s.measure_cycles = measure;
  return run_synthetic(s);
}

}  // namespace

TEST(Throughput, AcceptedEqualsOfferedBelowSaturationOn8x8Mesh) {
  constexpr double kNodes = 64;
  constexpr double kCycles = 20000;
  for (double rate : {0.05, 0.15, 0.25, 0.30}) {
    const SyntheticResult r = uniform("mesh:8x8", rate);
    ASSERT_FALSE(r.deadlock.has_value());
    EXPECT_TRUE(r.completed) << rate;
    EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
    EXPECT_EQ(r.window_cycles, 20000u);
    // Offered: packets are Bernoulli(rate/4) per node-cycle, so the offered
    // rate has standard deviation sqrt(4 rate (1 - rate/4) / (N T)); 5 sigma.
    const double sigma = std::sqrt(4.0 * rate * (1.0 - rate / 4.0) / (kNodes * kCycles));
    EXPECT_NEAR(r.offered_rate, rate, 5 * sigma) << rate;
    // Accepted - offered = (flits queued or in flight at the window's start -
    // at its end) / (N T). Below saturation that backlog is about rate x N x
    // latency (Little's law): < 0.3 x 64 x 40 = 768 flits, i.e. < 6e-4 of
    // N T = 1.28e6 flit slots. 0.003 leaves a factor 5.
    EXPECT_NEAR(r.accepted_rate, r.offered_rate, 0.003) << rate;
  }
}

TEST(Throughput, TorusSaturatesAboveMesh) {
  // Offered 1.0 is far beyond both saturation points; the accepted rate is
  // the saturation throughput. Same router in both networks.
  for (int vcs : {2, 4}) {
    // No drain: beyond saturation the measured packets would queue for long.
    const SyntheticResult mesh = uniform("mesh:8x8", 1.0, vcs, 8000, 0);
    const SyntheticResult torus = uniform("torus:8x8", 1.0, vcs, 8000, 0);
    EXPECT_FALSE(mesh.deadlock.has_value());
    EXPECT_FALSE(torus.deadlock.has_value());
    EXPECT_EQ(mesh.integrity_errors + torus.integrity_errors, 0u);
    // Channel-load bound of uniform traffic: 4/k = 0.5 for the 8-ary mesh,
    // 8/k = 1.0 for the torus; a real router stays below.
    EXPECT_LT(mesh.accepted_rate, 0.5);
    EXPECT_LT(torus.accepted_rate, 1.0);
    EXPECT_GT(mesh.accepted_rate, 0.3);
    EXPECT_GT(torus.accepted_rate, mesh.accepted_rate + 0.02) << "vcs " << vcs;
  }
}
