// The switches' aggregation engine behind its cycle-model interface
// (systemc/switch/aggregator_block.hpp): the HLS class and the Verilated RTL
// the factory returns drive the same outputs in every cycle of a root
// switch's traffic (its up port looped into its down port), the words that
// go up and come down are the children's element-wise sums (computed here),
// a table of one slot still completes every block, and the table sizes
// neither kind is built with are refused naming the key.
#include "systemc/switch/aggregator_block.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/nic/rtl_blocks.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

constexpr unsigned kChildren = 3;
constexpr unsigned kWords = 4;
constexpr unsigned kBlocks = 6;

std::uint64_t word(unsigned child, unsigned block, unsigned w) {
  return (std::uint64_t{child + 1} << 32) + 1000u * block + 7u * w + child;
}

struct Trace {
  std::vector<hls::SwitchAggregatorOutputs> cycles;
  std::vector<std::vector<std::uint64_t>> up, down;  // packets in the order they left
};

/// Children send blocks 0..kBlocks-1 in order, child c's packet of a block
/// offered after child c-1's; a head refused in its second cycle is
/// withdrawn and the next child's offered (the contract). The up port is
/// looped into the down port (a root).
Trace run(SwitchAggregatorBlock& block) {
  Trace t;
  hls::SwitchAggregatorInputs in;
  for (const RegisterWrite& w : configuration_writes({static_cast<std::uint8_t>((1u << kChildren) - 1),
                                                      hls::switch_aggregator_reg::op_sum, kWords})) {
    in = {};
    in.cfg_we = true;
    in.cfg_addr = w.address;
    in.cfg_wdata = w.data;
    block.step(in);
  }
  std::vector<unsigned> next_block(kChildren, 0);
  unsigned child = 0, word_index = 0, head_cycles = 0;
  std::deque<std::pair<std::uint16_t, std::uint64_t>> loop;  // (key, word) gone up, to come down
  std::vector<std::uint64_t> up, down;
  for (int cycle = 0; cycle < 4000 && t.down.size() < kBlocks; ++cycle) {
    in = {};
    for (unsigned tries = 0; tries < kChildren && next_block[child] == kBlocks; ++tries) child = (child + 1) % kChildren;
    if (next_block[child] < kBlocks) {
      in.in_valid = true;
      in.in_child = static_cast<std::uint8_t>(child);
      in.in_key = static_cast<std::uint16_t>(next_block[child]);
      in.in_data = word(child, next_block[child], word_index);
    }
    in.up_ready = true;
    if (!loop.empty()) {
      in.dn_valid = true;
      in.dn_key = loop.front().first;
      in.dn_data = loop.front().second;
    }
    in.out_ready = true;
    const hls::SwitchAggregatorOutputs out = block.step(in);
    t.cycles.push_back(out);
    if (in.in_valid && out.in_ready) {
      head_cycles = 0;
      if (++word_index == kWords) {
        word_index = 0;
        ++next_block[child];
        child = (child + 1) % kChildren;
      }
    } else if (in.in_valid && word_index == 0 && ++head_cycles >= 2) {
      head_cycles = 0;
      child = (child + 1) % kChildren;
    }
    if (in.dn_valid && out.dn_ready) loop.pop_front();
    if (out.up_valid) {
      up.push_back(out.up_data);
      // the contract: a block comes down only once its up packet has gone
      if (out.up_last) {
        for (const std::uint64_t w : up) loop.emplace_back(out.up_key, w);
        t.up.push_back(std::exchange(up, {}));
      }
    }
    if (out.out_valid) {
      down.push_back(out.out_data);
      if (out.out_last) t.down.push_back(std::exchange(down, {}));
    }
  }
  return t;
}

void expect_sums(const Trace& t, const std::string& what) {
  ASSERT_EQ(t.up.size(), kBlocks) << what;
  ASSERT_EQ(t.down.size(), kBlocks) << what;
  for (unsigned b = 0; b < kBlocks; ++b) {
    std::vector<std::uint64_t> sum(kWords, 0);
    for (unsigned c = 0; c < kChildren; ++c)
      for (unsigned w = 0; w < kWords; ++w) sum[w] += word(c, b, w);
    EXPECT_EQ(t.up[b], sum) << what << " block " << b;
    EXPECT_EQ(t.down[b], sum) << what << " block " << b;
  }
}

}  // namespace

TEST(SwitchAggregatorBlock, HlsTablesOfEverySizeReduceTheChildren) {
  for (const int slots : {1, 2, 4, 8, 16, 32, 64}) {
    const auto block = make_switch_aggregator(SwitchBlocks::hls, slots);
    EXPECT_EQ(block->slots(), static_cast<unsigned>(slots));
    expect_sums(run(*block), "slots " + std::to_string(slots));
  }
}

TEST(SwitchAggregatorBlock, RtlDrivesTheHlsClassOutputsEveryCycle) {
  if (!rtl_blocks_built()) {
    EXPECT_NE(switch_aggregator_problem(SwitchBlocks::rtl, kRtlAggregationSlots).find("switch_blocks"),
              std::string::npos);
    return;
  }
  const auto hls_block = make_switch_aggregator(SwitchBlocks::hls, kRtlAggregationSlots);
  const auto rtl_block = make_switch_aggregator(SwitchBlocks::rtl, kRtlAggregationSlots);
  const Trace h = run(*hls_block), r = run(*rtl_block);
  expect_sums(r, "rtl");
  ASSERT_EQ(h.cycles.size(), r.cycles.size());
  for (std::size_t c = 0; c < h.cycles.size(); ++c) {
    const auto& a = h.cycles[c];
    const auto& b = r.cycles[c];
    ASSERT_TRUE(a.in_ready == b.in_ready && a.up_valid == b.up_valid && a.dn_ready == b.dn_ready &&
                a.out_valid == b.out_valid && a.busy == b.busy)
        << "cycle " << c;
    if (a.up_valid) {
      ASSERT_TRUE(a.up_key == b.up_key && a.up_data == b.up_data && a.up_last == b.up_last) << "cycle " << c;
    }
    if (a.out_valid) {
      ASSERT_TRUE(a.out_key == b.out_key && a.out_data == b.out_data && a.out_last == b.out_last) << "cycle " << c;
    }
  }
}

TEST(SwitchAggregatorBlock, TablesNotBuiltAreRefusedNamingTheKey) {
  for (const int slots : {0, 3, 128}) {
    try {
      (void)make_switch_aggregator(SwitchBlocks::hls, slots);
      ADD_FAILURE() << slots << " slots accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("key 'aggregation_slots': " + std::to_string(slots)), std::string::npos)
          << e.what();
    }
  }
  EXPECT_NE(switch_aggregator_problem(SwitchBlocks::rtl, 4).find("key 'aggregation_slots'"), std::string::npos);
  EXPECT_TRUE(switch_aggregator_problem(SwitchBlocks::hls, 4).empty());
}
