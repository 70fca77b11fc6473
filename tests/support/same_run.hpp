// Test helper (tests/support/: fixtures several suites share, written once):
// two collective runs of the cycle model that must be the same run.
#pragma once

#include <gtest/gtest.h>

#include "systemc/run/collective_run.hpp"

namespace collnet::test {

/// Expects `b` to be the run `a` is, cycle for cycle: the same finish cycle
/// of every endpoint, the same traffic and barriers, and the same link
/// statistics (queue peak, arbitration conflicts, utilization of every link).
inline void expect_same_network_run(const systemc::CollectiveResult& a, const systemc::CollectiveResult& b) {
  EXPECT_EQ(b.cycles, a.cycles);
  EXPECT_EQ(b.node_finish, a.node_finish);
  EXPECT_EQ(b.packets, a.packets);
  EXPECT_EQ(b.flits, a.flits);
  EXPECT_EQ(b.barriers, a.barriers);
  EXPECT_EQ(b.barrier_wait_cycles, a.barrier_wait_cycles);
  EXPECT_EQ(b.max_queue_flits, a.max_queue_flits);
  EXPECT_EQ(b.arbitration_conflicts, a.arbitration_conflicts);
  EXPECT_EQ(b.link_utilization, a.link_utilization);
}

}  // namespace collnet::test
