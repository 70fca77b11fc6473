// The switch's aggregation engine (hls/switch_aggregator.hpp) on small,
// fully written-out cases: the reduced packet against collectives::combine
// of the children's packets, sent up only after the last child's packet;
// what a full table refuses and takes; a head taken in its second cycle
// (its table lookup in the first), so a packet of W words takes W + 1
// cycles. The Verilator bench (bench/verilator/switch_aggregator_bench.cpp)
// runs the random cases against the RTL.
#include "hls/switch_aggregator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "collectives/descriptor.hpp"
#include "collectives/executor.hpp"

namespace collnet::hls {
namespace {

namespace reg = switch_aggregator_reg;
using Aggregator = SwitchAggregator<>;

void write(Aggregator& a, std::uint8_t addr, std::uint32_t data) {
  SwitchAggregatorInputs in;
  in.cfg_we = true;
  in.cfg_addr = addr;
  in.cfg_wdata = data;
  a.step(in);
}

void configure(Aggregator& a, std::uint8_t child_mask, std::uint32_t op, unsigned words) {
  a.reset();
  write(a, reg::child_mask, child_mask);
  write(a, reg::op, op);
  write(a, reg::block_words, words);
  write(a, reg::control, 1);
}

/// Offers one packet (the head until taken, at most `limit` cycles), the
/// parent always ready; returns the cycles it took and appends every up
/// word taken meanwhile to `up`. Returns 0 when the head was refused for
/// `limit` cycles.
unsigned send(Aggregator& a, std::uint8_t child, std::uint16_t key, const std::vector<std::uint64_t>& words,
              std::vector<std::uint64_t>& up, unsigned limit = 8) {
  unsigned cycles = 0;
  for (std::size_t i = 0; i < words.size();) {
    SwitchAggregatorInputs in;
    in.in_valid = true;
    in.in_child = child;
    in.in_key = key;
    in.in_data = words[i];
    in.up_ready = true;
    const auto out = a.step(in);
    ++cycles;
    if (out.up_valid) up.push_back(out.up_data);
    if (out.in_ready) ++i;
    if (i == 0 && cycles >= limit) return 0;
  }
  return cycles;
}

/// Idle cycles with the parent and the children ready, collecting the up words.
void drain(Aggregator& a, std::vector<std::uint64_t>& up, unsigned cycles = 8) {
  for (unsigned c = 0; c < cycles; ++c) {
    SwitchAggregatorInputs in;
    in.up_ready = true;
    in.out_ready = true;
    const auto out = a.step(in);
    if (out.up_valid) up.push_back(out.up_data);
  }
}

/// The block's result comes down (W words of `key`), the children ready.
void come_down(Aggregator& a, std::uint16_t key, unsigned words) {
  for (unsigned i = 0; i < words;) {
    SwitchAggregatorInputs in;
    in.dn_valid = true;
    in.dn_key = key;
    in.dn_data = i;
    in.out_ready = true;
    if (a.step(in).dn_ready) ++i;
  }
  std::vector<std::uint64_t> none;
  drain(a, none, 2);
}

TEST(SwitchAggregator, ReducesTheChildrenAndGoesUpOnlyAfterTheLast) {
  const std::vector<std::vector<std::uint64_t>> packets{
      {5, std::uint64_t(-7), 1ull << 63, 40}, {3, 2, 1, 0}, {std::uint64_t(-1), 9, 4, 40}};
  for (const std::uint32_t op : {reg::op_sum, reg::op_max, reg::op_min}) {
    SCOPED_TRACE(op);
    Aggregator a;
    configure(a, 0b10110, op, 4);  // children on ports 1, 2 and 4
    std::vector<std::uint64_t> up;
    EXPECT_EQ(send(a, 1, 0x1005, packets[0], up), 5u);
    EXPECT_EQ(send(a, 4, 0x1005, packets[1], up), 5u);
    drain(a, up);
    EXPECT_TRUE(up.empty()) << "a block went up before its last child's packet";
    EXPECT_EQ(send(a, 2, 0x1005, packets[2], up), 5u);
    drain(a, up);
    std::vector<std::uint64_t> expected = packets[0];
    for (std::size_t p = 1; p < packets.size(); ++p)
      for (std::size_t i = 0; i < expected.size(); ++i)
        expected[i] = collectives::combine(static_cast<ReceiveOp>(op), DataType::int64, expected[i], packets[p][i]);
    EXPECT_EQ(up, expected);
    EXPECT_EQ(a.slots_in_use(), 1u) << "the slot is held until the result has come down";
    come_down(a, 0x1005, 4);
    EXPECT_EQ(a.slots_in_use(), 0u);
    EXPECT_FALSE(a.busy());
  }
}

TEST(SwitchAggregator, AFullTableRefusesANewBlockAndTakesTheBlocksItHolds) {
  Aggregator a;
  configure(a, 0b11, reg::op_sum, 2);
  std::vector<std::uint64_t> up;
  for (std::uint16_t b = 0; b < Aggregator::slots; ++b) ASSERT_EQ(send(a, 0, b, {b, b}, up), 3u) << b;
  EXPECT_EQ(a.slots_in_use(), Aggregator::slots);
  EXPECT_EQ(send(a, 0, 100, {1, 1}, up, 20), 0u) << "a new block was admitted into a full table";
  EXPECT_EQ(send(a, 1, 3, {10, 20}, up), 3u) << "a held block's packet was refused";
  drain(a, up);
  EXPECT_EQ(up, (std::vector<std::uint64_t>{13, 23}));
  come_down(a, 3, 2);
  EXPECT_EQ(a.slots_in_use(), Aggregator::slots - 1);
  EXPECT_EQ(send(a, 0, 100, {1, 1}, up), 3u) << "the freed slot was not given to the new block";
}

TEST(SwitchAggregator, APacketOfWWordsTakesWPlusOneCycles) {
  for (const unsigned words : {1u, 4u, 32u}) {
    Aggregator a;
    configure(a, 0b1, reg::op_sum, words);
    std::vector<std::uint64_t> up;
    EXPECT_EQ(send(a, 0, 7, std::vector<std::uint64_t>(words, 1), up), words + 1) << words;
  }
}

}  // namespace
}  // namespace collnet::hls
