#include "collectives/executor.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "collectives/static_check.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {
namespace {

// A ring shift on n nodes: node i sends its word 0 to node i+1's word 1.
// Written by hand, so the executor is tested without any algorithm.
Schedule ring_shift(int n, bool with_barrier) {
  Schedule s;
  s.algorithm = "test-ring-shift";
  s.memory_words = 2;
  s.programs.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& p = s.programs[static_cast<std::size_t>(i)];
    p.push_back(Descriptor::send(static_cast<std::uint32_t>((i + 1) % n), 0, 1, 1, 0));
    if (with_barrier) p.push_back(Descriptor::barrier(0));
    p.push_back(Descriptor::end());
  }
  s.initial = [](EndpointId e, std::uint32_t a) { return a == 0 ? Word(100 + e) : Word(0); };
  s.expected = [n](EndpointId e) {
    return std::vector<Region>{{1, {Word(100 + (e + n - 1) % n)}}};
  };
  return s;
}

}  // namespace

TEST(Executor, DeliversUnderEveryOrder) {
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const Schedule s = ring_shift(5, true);
    const ExecResult r = execute(s, {order, 7});
    EXPECT_TRUE(check_data(s, r.memory).pass);
    EXPECT_EQ(r.messages, 5);
    EXPECT_EQ(r.words_sent, 5);
    EXPECT_EQ(r.barriers, 1);
  }
}

TEST(Executor, CheckDataCatchesAMisplacedWord) {
  Schedule s = ring_shift(4, false);
  Descriptor moved = s.programs[2][0];
  moved.dst_offset = 0;  // node 2 now overwrites node 3's word 0 instead of word 1
  s.programs[2].set(0, moved);
  const ExecResult r = execute(s);
  const DataCheck c = check_data(s, r.memory);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.mismatches, 1);
}

// A buffer hazard: every node forwards what it received in the same phase,
// from the same word it receives into. Eager delivery forwards the new value,
// lazy delivery the old one: the executor exposes order-dependence.
TEST(Executor, EagerAndLazyOrdersExposeABufferHazard) {
  Schedule s;
  s.memory_words = 1;
  s.programs.resize(3);
  for (int i = 0; i < 3; ++i) {
    s.programs[static_cast<std::size_t>(i)] = {Descriptor::send(static_cast<std::uint32_t>((i + 1) % 3), 0, 0, 1, 0),
                                               Descriptor::end()};
  }
  s.initial = [](EndpointId e, std::uint32_t) { return Word(e); };
  const auto lazy = execute(s, {DeliveryOrder::lazy, 1});
  const auto eager = execute(s, {DeliveryOrder::eager, 1});
  EXPECT_EQ(lazy.memory[1][0], 0u);   // node 0's original value
  EXPECT_NE(eager.memory, lazy.memory);  // node 0 first sends, so node 1 forwards 0 instead of 1
}

// A message carries its sender's words as they were at the SEND, even when
// the sender's memory under them is written before the message is
// delivered (the executor then copies them just before that write). Lazy
// order: node 0 waits for node 1's message, which is delivered before node
// 2's (older first); node 0 then sends its word 0 to node 3, and node 2's
// message overwrites that word before node 0's message is delivered.
// Eager order delivers node 2's message before node 0 sends.
TEST(Executor, AMessageCarriesTheWordsOfItsSend) {
  Schedule s;
  s.memory_words = 2;
  s.programs.assign(4, Program{Descriptor::end()});
  s.programs[0].insert(s.programs[0].begin(), {Descriptor::wait(7, 1), Descriptor::send(3, 0, 0, 1, 1)});
  s.programs[1].insert(s.programs[1].begin(), Descriptor::send(0, 0, 1, 1, 7));  // to node 0's word 1
  s.programs[2].insert(s.programs[2].begin(), Descriptor::send(0, 0, 0, 1, 2));  // to node 0's word 0
  s.initial = [](EndpointId e, std::uint32_t a) { return Word(100 * e + a + 1); };
  const auto lazy = execute(s, {DeliveryOrder::lazy, 1});
  EXPECT_EQ(lazy.memory[0][0], 201u);  // node 2's word 0 landed on node 0's
  EXPECT_EQ(lazy.memory[3][0], 1u);    // node 0's word 0 at its SEND
  const auto eager = execute(s, {DeliveryOrder::eager, 1});
  EXPECT_EQ(eager.memory[3][0], 201u);
}

// Endpoints may have memories of different sizes: each gets its own, and a
// SEND's destination range is checked against the receiver's.
TEST(Executor, EveryEndpointHasItsOwnMemorySize) {
  Schedule s;
  s.memory_words = 4;
  s.node_memory_words = {4, 2};
  s.programs = {{Descriptor::send(1, 2, 0, 2, 0), Descriptor::end()}, {Descriptor::end()}};
  s.initial = [](EndpointId e, std::uint32_t a) { return Word(10 * e + a); };
  const auto r = execute(s);
  ASSERT_EQ(r.memory[0].size(), 4u);
  ASSERT_EQ(r.memory[1].size(), 2u);
  EXPECT_EQ(r.memory[1], (std::vector<Word>{2, 3}));
  Descriptor beyond = s.programs[0][0];
  beyond.dst_offset = 1;  // [1, 3) is beyond node 1's two words
  s.programs[0].set(0, beyond);
  try {
    (void)execute(s);
    FAIL() << "expected a range error";
  } catch (const ExecutionError& e) {
    EXPECT_NE(std::string(e.what()).find("destination range [1, 3) exceeds memory of 2 words"), std::string::npos)
        << e.what();
  }
}

TEST(Executor, WaitBlocksUntilTaggedMessagesArrive) {
  // Node 0 waits for two messages tagged 3, then forwards word 0 (the sum) to node 3.
  Schedule s;
  s.memory_words = 1;
  s.programs = {
      {Descriptor::wait(3, 2), Descriptor::send(3, 0, 0, 1, 4), Descriptor::end()},
      {Descriptor::send(0, 0, 0, 1, 3), Descriptor::end()},
      {Descriptor::send(0, 0, 0, 1, 3), Descriptor::end()},
      {Descriptor::end()},
  };
  for (auto& p : s.programs) p.update([](Descriptor& d) { d.op = ReceiveOp::sum; });
  s.initial = [](EndpointId e, std::uint32_t) { return Word(10 * e); };
  s.expected = [](EndpointId e) {
    return e == 3 ? std::vector<Region>{{0, {Word(30 + 0 + 10 + 20)}}} : std::vector<Region>{};
  };
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random})
    EXPECT_TRUE(check_data(s, execute(s, {order, 3}).memory).pass);
}

TEST(Executor, ReportsADeadlockInsteadOfHanging) {
  Schedule s;
  s.memory_words = 1;
  s.programs = {{Descriptor::wait(1, 1), Descriptor::end()}, {Descriptor::end()}};
  try {
    (void)execute(s);
    FAIL() << "expected a deadlock";
  } catch (const ExecutionError& e) {
    EXPECT_NE(std::string(e.what()).find("endpoint 0 waits for 1 messages tagged 1"), std::string::npos) << e.what();
  }
}

TEST(Executor, RejectsMismatchedBarriersAndOutOfRangeAddresses) {
  Schedule s;
  s.memory_words = 1;
  s.programs = {{Descriptor::barrier(0), Descriptor::end()}, {Descriptor::barrier(1), Descriptor::end()}};
  EXPECT_THROW((void)execute(s), ExecutionError);
  s.programs = {{Descriptor::send(1, 0, 1, 1, 0), Descriptor::end()}, {Descriptor::end()}};
  EXPECT_THROW((void)execute(s), ExecutionError);
}

TEST(Executor, CombineFollowsTheOperators) {
  EXPECT_EQ(combine(ReceiveOp::sum, DataType::int64, 5, static_cast<Word>(-7)), static_cast<Word>(-2));
  EXPECT_EQ(combine(ReceiveOp::max, DataType::int64, 5, static_cast<Word>(-7)), 5u);
  EXPECT_EQ(combine(ReceiveOp::min, DataType::int64, 5, static_cast<Word>(-7)), static_cast<Word>(-7));
  EXPECT_EQ(combine(ReceiveOp::product, DataType::int64, 6, 7), 42u);
  EXPECT_EQ(combine(ReceiveOp::copy, DataType::int64, 6, 7), 7u);
  EXPECT_EQ(std::bit_cast<double>(combine(ReceiveOp::sum, DataType::float64, std::bit_cast<Word>(0.5),
                                          std::bit_cast<Word>(0.25))), 0.75);
}

// Static checker on a hand-made phase: on a 4-node + only ring, every node
// sends 2 hops ahead: each + link carries 2 flows, phase time 2 x length.
TEST(StaticCheck, CountsFlowsPerDirectedLink) {
  topology::Grid ring({4}, true);
  Schedule s;
  s.memory_words = 8;
  s.programs.resize(4);
  for (int i = 0; i < 4; ++i) {
    Descriptor d = Descriptor::send(static_cast<std::uint32_t>((i + 2) % 4), 0, 0, 8, 0);
    d.route_hint = topology::Grid::plus_only_hint();
    s.programs[static_cast<std::size_t>(i)] = {d, Descriptor::end()};
  }
  const StaticReport r = static_check(ring, s);
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].max_link_messages, 2);
  EXPECT_EQ(r.phases[0].links.size(), 4u);
  for (const auto& l : r.phases[0].links) {
    EXPECT_EQ(l.messages, 2);
    EXPECT_EQ(ring.graph().link(l.link).dir, +1);
  }
  EXPECT_EQ(r.static_time, 16);
  EXPECT_EQ(r.min_sends_per_node, 1);
  EXPECT_EQ(r.phases[0].max_receives_per_node, 1);
}

}  // namespace collnet::collectives
