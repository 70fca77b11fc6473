// Threads (key `threads`, systemc/kernel/clocked.hpp): a synthetic run on 2 or 3
// worker threads (in each thread mode) must give every figure of the same run
// on one thread. The scenarios cover open and closed runs, a saturated network
// (full buffers: credits crossing partitions every cycle), virtual
// cut-through, a torus (wrap links between the first and last partition) and
// far wake-ups (a low injection rate: sources sleep beyond the calendar's
// horizon). This suite is also what scripts/tsan.sh runs under
// ThreadSanitizer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "systemc/run/synthetic.hpp"
#include "thread_mode.hpp"

namespace collnet::systemc {
namespace {

struct Case {
  std::string name;
  SyntheticScenario scenario;
};

SyntheticScenario base(const std::string& topology, double rate) {
  SyntheticScenario s;
  s.topology = topology;
  s.load.injection_rate = rate;
  s.warmup_cycles = 200;
  s.measure_cycles = 300;
  s.drain_cycles = 600;
  return s;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"mesh8_uniform", base("mesh:8x8", 0.3)});
  all.push_back({"torus8_saturated", base("torus:8x8", 1.0)});
  all.push_back({"mesh8_sparse", base("mesh:8x8", 0.01)});
  {
    Case c{"torus6x4_vct", base("torus:6x4", 0.4)};
    c.scenario.router.switching = Switching::virtual_cut_through;
    c.scenario.router.buffer_flits = 8;
    c.scenario.router.link_latency = 2;
    c.scenario.traffic.pattern = "tornado";
    all.push_back(c);
  }
  {
    Case c{"mesh4_closed", base("mesh:4x4", 0.5)};
    c.scenario.load.packets_per_node = 30;
    all.push_back(c);
  }
  return all;
}

class Threads : public ::testing::TestWithParam<Case> {};

TEST_P(Threads, EveryThreadCountGivesTheFiguresOfOne) {
  SyntheticScenario one = GetParam().scenario;
  one.threads = 1;
  const SyntheticResult want = run_synthetic(one);
  ASSERT_EQ(want.threads, 1);
  ASSERT_GT(want.measured_packets, 0u);
  for (const ThreadVariant& v : thread_variants()) {
    SCOPED_TRACE(std::to_string(v.threads) + " threads, " + v.mode);
    SyntheticScenario s = GetParam().scenario;
    s.threads = v.threads;
    const ScopedThreadMode mode(v.mode);
    const SyntheticResult got = run_synthetic(s);
    EXPECT_EQ(got.threads, v.threads);
    EXPECT_EQ(got.solo_cycles, v.solo_cycles(got.calendar_cycles));
    EXPECT_EQ(got.cycles, want.cycles);
    EXPECT_EQ(got.completed, want.completed);
    EXPECT_EQ(got.deadlock.has_value(), want.deadlock.has_value());
    EXPECT_EQ(got.measured_packets, want.measured_packets);
    EXPECT_EQ(got.unfinished_packets, want.unfinished_packets);
    EXPECT_EQ(got.offered_rate, want.offered_rate);
    EXPECT_EQ(got.accepted_rate, want.accepted_rate);
    EXPECT_EQ(got.avg_latency, want.avg_latency);
    EXPECT_EQ(got.p99_latency, want.p99_latency);
    EXPECT_EQ(got.max_latency, want.max_latency);
    EXPECT_EQ(got.link_utilization, want.link_utilization);
    EXPECT_EQ(got.accepted_flits_by_source, want.accepted_flits_by_source);
    EXPECT_EQ(got.router_traversals, want.router_traversals);
    EXPECT_EQ(got.integrity_errors, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Threads, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& c) { return c.param.name; });

// The automatic choice: the cores, at most one thread per kRoutersPerThread
// routers; an explicit number is taken up to one thread per router.
TEST(ThreadCount, AutomaticIsCappedByTheNetworkSizeAndExplicitIsKept) {
  EXPECT_EQ(synthetic_threads(0, 64, 2), 1);
  EXPECT_EQ(synthetic_threads(0, 2 * kRoutersPerThread, 2), 2);
  EXPECT_EQ(synthetic_threads(0, 1024, 2), 2);
  EXPECT_EQ(synthetic_threads(0, 1024, 64), static_cast<int>(1024 / kRoutersPerThread));
  EXPECT_EQ(synthetic_threads(3, 64, 2), 3);
  EXPECT_EQ(synthetic_threads(8, 4, 2), 4);
  EXPECT_EQ(synthetic_threads(1, 4096, 64), 1);
}

}  // namespace
}  // namespace collnet::systemc
