// Deadlock of document 000 (spec a2a-hopgroup, fact 5): on a 6-node ring with
// 4-hop traffic, buffers of two packets, one VC and the 50/50 local-through
// policy, the cyclic buffer dependency locks the ring; the watchdog reports
// the waiting cycle and the run ends. Dateline VCs remove the cycle and the
// same traffic completes.
#include <gtest/gtest.h>

#include "systemc/kernel/kernel.hpp"
#include "systemc/run/synthetic.hpp"
#include "systemc/run/watchdog.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

SyntheticScenario ring_scenario(int vcs, bool dateline) {
  SyntheticScenario s;
  s.topology = "torus:6";
  s.router.vcs = vcs;
  s.router.dateline = dateline;
  s.router.buffer_flits = 8;  // two 4-flit packets
  s.router.arbitration = "local-through";
  s.traffic.pattern = "neighbour";
  s.traffic.shift = 4;
  s.load.route_hint = 0x55;  // + only: every packet takes 4 hops
  s.load.injection_rate = 1.0;
  s.load.packet_flits = 4;
  s.load.packets_per_node = 200;
  s.watchdog_cycles = 500;
  return s;
}

}  // namespace

TEST(Deadlock, OneVcRingLocksAndTheWatchdogReportsTheCycle) {
  const SyntheticResult r = run_synthetic(ring_scenario(1, false));
  ASSERT_TRUE(r.deadlock.has_value());
  EXPECT_FALSE(r.completed);
  const DeadlockReport& d = *r.deadlock;
  // Detected as soon as nothing moved for watchdog_cycles.
  EXPECT_EQ(d.detected_at, d.last_move + 500 + 1);
  EXPECT_EQ(r.cycles, d.detected_at);
  // The waiting cycle is the ring: every router's input from its - neighbour
  // waits for the next router's, six in all, each buffer full.
  ASSERT_EQ(d.cycle.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    const std::string& line = d.cycle[static_cast<std::size_t>(i)];
    EXPECT_NE(line.find(":x+->"), std::string::npos) << line;
    EXPECT_NE(line.find("vc0 [8 flits"), std::string::npos) << line;
  }
  // Each line's waited-for VC is the next line's waiting VC.
  for (std::size_t i = 0; i < 6; ++i) {
    const std::string& a = d.cycle[i];
    const std::string& b = d.cycle[(i + 1) % 6];
    EXPECT_EQ(a.substr(a.find(" waits for ") + 11), b.substr(0, b.find(" waits for "))) << a << "\n" << b;
  }
  EXPECT_LT(r.measured_packets, 1200u);
}

TEST(Deadlock, DatelineVirtualChannelsLetTheSameTrafficComplete) {
  const SyntheticResult r = run_synthetic(ring_scenario(2, true));
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.measured_packets, 6u * 200u);
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
}

TEST(Deadlock, TwoVcsWithoutDatelineStillLock) {
  // Two VCs that any packet may take do not break the cycle by themselves.
  SyntheticScenario s = ring_scenario(2, false);
  const SyntheticResult r = run_synthetic(s);
  EXPECT_TRUE(r.deadlock.has_value());
}

TEST(Deadlock, DatelineNeedsTwoVcsOnATorus) {
  SyntheticScenario s = ring_scenario(1, true);
  try {
    (void)run_synthetic(s);
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("vcs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dateline"), std::string::npos) << e.what();
  }
}

// The watchdog sleeps while the network is empty (a paced or waiting NIC keeps
// the run going with no flit inside): it wakes once per threshold + 1 cycles,
// and still fires exactly threshold + 1 cycles after the last move once flits
// are stuck.
TEST(Deadlock, WatchdogSleepsWhileTheNetworkIsEmptyAndFiresOnTime) {
  KernelSession session;
  NetworkActivity activity;
  Watchdog watchdog("watchdog", activity, 100);
  run_for(10'000);
  EXPECT_FALSE(watchdog.fired());
  // Cycles 0, 101, 202, ...: ceil(10000 / 101) evaluations.
  EXPECT_EQ(watchdog.evaluations(), (10'000u + 100u) / 101u);
  // A flit enters in cycle 10000 and never moves again.
  activity.flits_in_network = 1;
  activity.moved(10'000);
  run_for(1'000);
  ASSERT_TRUE(watchdog.fired());
  EXPECT_EQ(watchdog.fired_at(), 10'000u + 100u + 1u);
}
