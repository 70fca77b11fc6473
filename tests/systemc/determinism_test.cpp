// Same scenario and seed give the same cycle counts (architecture: the models
// are deterministic); another seed gives another run.
#include <gtest/gtest.h>

#include "systemc/run/synthetic.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {
SyntheticScenario scenario(std::uint64_t seed, const std::string& arbitration) {
  SyntheticScenario s;
  s.topology = "torus:4x4";
  s.router.arbitration = arbitration;
  s.load.injection_rate = 0.45;
  s.load.packet_flits = 3;
  s.load.seed = seed;
  s.warmup_cycles = 500;
  s.measure_cycles = 4000;
  s.record_packets = true;
  return s;
}
}  // namespace

TEST(Determinism, SameSeedSameCycles) {
  for (const char* arbitration : {"age", "round-robin", "local-through", "through-first"}) {
    const SyntheticResult a = run_synthetic(scenario(7, arbitration));
    const SyntheticResult b = run_synthetic(scenario(7, arbitration));
    EXPECT_EQ(a.cycles, b.cycles) << arbitration;
    EXPECT_EQ(a.accepted_flits_by_source, b.accepted_flits_by_source) << arbitration;
    EXPECT_EQ(a.link_utilization, b.link_utilization) << arbitration;
    ASSERT_EQ(a.packets.size(), b.packets.size()) << arbitration;
    for (std::size_t i = 0; i < a.packets.size(); ++i) {
      EXPECT_EQ(a.packets[i].created, b.packets[i].created);
      EXPECT_EQ(a.packets[i].latency, b.packets[i].latency);
      EXPECT_EQ(a.packets[i].source, b.packets[i].source);
    }
  }
}

TEST(Determinism, AnotherSeedAnotherRun) {
  const SyntheticResult a = run_synthetic(scenario(7, "age"));
  const SyntheticResult b = run_synthetic(scenario(8, "age"));
  EXPECT_NE(a.accepted_flits_by_source, b.accepted_flits_by_source);
}
