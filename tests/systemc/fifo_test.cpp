// The NIC's descriptor FIFOs (systemc/kernel/fifo.hpp) give what a std::deque gives
// under any sequence of pushes and pops, across the ring's growth and
// wrap-around, and a moved-from FIFO is empty.
#include "systemc/kernel/fifo.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <deque>

using collnet::systemc::Fifo;

RC_GTEST_PROP(Fifo, GivesWhatADequeGives, ()) {
  Fifo<std::uint64_t> fifo;
  std::deque<std::uint64_t> reference;
  const int steps = *rc::gen::inRange(0, 500);
  for (int s = 0; s < steps; ++s) {
    if (reference.empty() || *rc::gen::inRange(0, 3) != 0) {
      const auto v = *rc::gen::arbitrary<std::uint64_t>();
      fifo.push_back(v);
      reference.push_back(v);
    } else {
      RC_ASSERT(fifo.front() == reference.front());
      fifo.pop_front();
      reference.pop_front();
    }
    RC_ASSERT(fifo.size() == reference.size());
    RC_ASSERT(fifo.empty() == reference.empty());
    if (!reference.empty()) RC_ASSERT(fifo.front() == reference.front());
  }
  Fifo<std::uint64_t> moved = std::move(fifo);
  EXPECT_TRUE(fifo.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  while (!reference.empty()) {
    RC_ASSERT(moved.front() == reference.front());
    moved.pop_front();
    reference.pop_front();
  }
  RC_ASSERT(moved.empty());
}

TEST(Fifo, KeepsTheOrderAcrossManyWrapArounds) {
  Fifo<int> fifo;
  for (int round = 0; round < 100; ++round) {
    fifo.push_back(round);
    fifo.push_back(-round);
    EXPECT_EQ(fifo.front(), round);
    fifo.pop_front();
    EXPECT_EQ(fifo.front(), -round);
    fifo.pop_front();
  }
  EXPECT_TRUE(fifo.empty());
}
