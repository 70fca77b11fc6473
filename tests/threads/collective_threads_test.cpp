// Threads (key `threads`) in collective runs: NICs with their controllers,
// descriptor sources and engines, the barrier network and the data check on 2
// and 3 worker threads (in each thread mode) must give every figure of the
// same run on one thread. The scenarios cross partitions with everything a NIC
// does to another node: delivery acknowledgements and zero-length messages to
// nodes of other workers, barrier entries and releases (ideal and
// recursive-doubling), the forwarding rule acting on arrivals, combining
// receives, several streams per node (an MSCCL import), leaf/spine and tree
// switches. This suite is also what scripts/tsan.sh runs under
// ThreadSanitizer.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "systemc/run/collective_run.hpp"
#include "thread_mode.hpp"

namespace collnet::systemc {
namespace {

struct Case {
  std::string name;
  std::vector<std::pair<std::string, std::string>> keys;
};

[[maybe_unused]] void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
  return {
      {"a2at_torus4_group_barriers",
       {{"algorithm", "a2a-optimal"}, {"topology", "torus:4x4"}, {"message_flits", "16"}, {"group_barriers", "true"}}},
      {"hopgroup_torus4_rdbarrier",
       {{"algorithm", "a2a-hopgroup"}, {"topology", "torus:4x4"}, {"message_flits", "8"},
        {"barrier", "recursive-doubling"}}},
      {"treebcast_rule_random20",
       {{"algorithm", "tree-bcast"}, {"topology", "tree:random=20,seed=3"}, {"message_flits", "16"},
        {"schedule_engine", "hls"}}},
      {"hd_boards2222",
       {{"algorithm", "hd-allreduce"}, {"topology", "boards:2x2x2x2"}, {"elements", "64"}}},
      {"twotree_hier_p6_lockstep",
       {{"algorithm", "twotree-hier"}, {"topology", "leafspine:p=6"}, {"elements", "48"},
        {"phase_barriers", "true"}}},
      {"ring_allreduce_mesh3x5",
       {{"algorithm", "ring-allreduce"}, {"topology", "mesh:3x5"}, {"elements", "60"}, {"op", "sum"}}},
  };
}

CollectiveResult run(const Case& c, int threads) {
  Params params;
  for (const auto& [key, value] : c.keys) params.set(key, value);
  params.set("threads", std::to_string(threads));
  return run_collective(collective_from(params));
}

class CollectiveThreads : public ::testing::TestWithParam<Case> {};

TEST_P(CollectiveThreads, EveryThreadCountGivesTheFiguresOfOne) {
  const CollectiveResult want = run(GetParam(), 1);
  ASSERT_EQ(want.threads, 1);
  ASSERT_TRUE(want.completed);
  ASSERT_TRUE(want.data_check);
  for (const ThreadVariant& v : thread_variants()) {
    SCOPED_TRACE(std::to_string(v.threads) + " threads, " + v.mode);
    const ScopedThreadMode mode(v.mode);
    const CollectiveResult got = run(GetParam(), v.threads);
    EXPECT_EQ(got.threads, v.threads);
    EXPECT_EQ(got.solo_cycles, v.solo_cycles(got.calendar_cycles));
    EXPECT_EQ(got.threads_note, "");
    EXPECT_EQ(got.cycles, want.cycles);
    EXPECT_EQ(got.completed, want.completed);
    EXPECT_EQ(got.data_check, want.data_check);
    EXPECT_EQ(got.reference_mismatch_words, 0);
    EXPECT_EQ(got.node_finish, want.node_finish);
    EXPECT_EQ(got.barriers, want.barriers);
    EXPECT_EQ(got.barrier_wait_cycles, want.barrier_wait_cycles);
    ASSERT_EQ(got.barrier_records.size(), want.barrier_records.size());
    for (std::size_t b = 0; b < want.barrier_records.size(); ++b) {
      EXPECT_EQ(got.barrier_records[b].first_entry, want.barrier_records[b].first_entry);
      EXPECT_EQ(got.barrier_records[b].last_release, want.barrier_records[b].last_release);
    }
    EXPECT_EQ(got.messages, want.messages);
    EXPECT_EQ(got.local_copies, want.local_copies);
    EXPECT_EQ(got.packets, want.packets);
    EXPECT_EQ(got.flits, want.flits);
    EXPECT_EQ(got.flit_hops, want.flit_hops);
    EXPECT_EQ(got.link_utilization, want.link_utilization);
    EXPECT_EQ(got.max_queue_flits, want.max_queue_flits);
    EXPECT_EQ(got.arbitration_conflicts, want.arbitration_conflicts);
    EXPECT_EQ(got.router_evaluations, want.router_evaluations);
    EXPECT_EQ(got.nic_evaluations, want.nic_evaluations);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, CollectiveThreads, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& c) { return c.param.name; });

// What one thread must do stays on one, and the run says why. (The
// nic_blocks=rtl runs are checked by GoldenThreads in tests/cli: Verilator's
// own thread pool writes its global context pointer from its threads, which
// ThreadSanitizer reports in any run that builds a Verilated model, so this
// suite builds none.)
TEST(CollectiveThreadsForcedToOne, AMonitorInsideTheCalendarRunsOnOneThreadAndSaysSo) {
  Case c{"monitor", {{"algorithm", "a2a-optimal"}, {"topology", "torus:4x4"}, {"message_flits", "8"},
                     {"watchdog_cycles", "50"}}};
  const CollectiveResult r = run(c, 2);
  EXPECT_EQ(r.threads, 1);
  EXPECT_NE(r.threads_note.find("watchdog_cycles below 64"), std::string::npos) << r.threads_note;
  EXPECT_TRUE(r.data_check);
  c.keys.back().second = "64";
  EXPECT_EQ(run(c, 2).threads, 2);
}

}  // namespace
}  // namespace collnet::systemc
