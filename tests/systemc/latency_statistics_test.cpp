// The latency statistics of a synthetic run: the percentiles and the
// histogram against a second computation from every measured packet's own
// record (record_packets), the histogram's bin width against its rule, and a
// window none of whose packets arrives: no latency sample, and the run is
// saturated, not completed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <vector>

#include "systemc/run/synthetic.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// Nearest rank: the smallest value with at least q of the sorted samples
/// at or below it (computed here by index, not by selection).
double nearest_rank(const std::vector<Cycle>& sorted, double q) {
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[std::max<std::size_t>(rank, 1) - 1]);
}

}  // namespace

TEST(LatencyHistogram, WidthIsTheNarrowestOneTwoFiveStepGivingAtMost100Bins) {
  struct Case {
    std::uint32_t max;
    std::uint32_t width;
  };
  for (const Case c : {Case{0, 1}, Case{49, 1}, Case{99, 1}, Case{100, 2}, Case{199, 2}, Case{200, 5},
                       Case{499, 5}, Case{500, 10}, Case{999, 10}, Case{1000, 20}, Case{123456, 2000}}) {
    const std::vector<std::uint32_t> latencies{0, c.max / 2, c.max};
    const LatencyHistogram h = latency_histogram(latencies);
    EXPECT_EQ(h.bin_width, c.width) << c.max;
    EXPECT_EQ(h.counts.size(), c.max / c.width + 1) << c.max;
    EXPECT_LE(h.counts.size(), kLatencyBins) << c.max;
    EXPECT_EQ(std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0}), 3u) << c.max;
    EXPECT_EQ(h.counts.front(), c.max < c.width ? 3u : 1u) << c.max;
  }
  EXPECT_EQ(latency_histogram({}).bin_width, 0u);
  EXPECT_TRUE(latency_histogram({}).counts.empty());
}

TEST(LatencyStatistics, PercentilesAndHistogramEqualThoseOfThePacketRecords) {
  SyntheticScenario s;
  s.topology = "mesh:4x4";
  s.load.injection_rate = 0.3;
  s.load.packet_flits = 4;
  s.warmup_cycles = 200;
  s.measure_cycles = 3000;
  s.drain_cycles = 20000;
  s.record_packets = true;
  const SyntheticResult r = run_synthetic(s);
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(r.packets.size(), r.measured_packets);
  ASSERT_GT(r.measured_packets, 1000u);
  std::vector<Cycle> sorted;
  for (const auto& d : r.packets) sorted.push_back(d.latency);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(r.p50_latency, nearest_rank(sorted, 0.5));
  EXPECT_EQ(r.p90_latency, nearest_rank(sorted, 0.9));
  EXPECT_EQ(r.p99_latency, nearest_rank(sorted, 0.99));
  EXPECT_EQ(r.p999_latency, nearest_rank(sorted, 0.999));
  EXPECT_EQ(r.max_latency, static_cast<double>(sorted.back()));
  EXPECT_LT(r.p50_latency, r.p99_latency);  // a loaded network spreads them
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  EXPECT_NEAR(r.avg_latency, mean, 1e-9);
  // The histogram counts each record in the bin of its latency.
  ASSERT_GT(r.latency_histogram.bin_width, 0u);
  std::vector<std::uint64_t> counts(r.latency_histogram.counts.size(), 0);
  for (Cycle l : sorted) {
    const auto bin = static_cast<std::size_t>(l / r.latency_histogram.bin_width);
    ASSERT_LT(bin, counts.size());
    ++counts[bin];
  }
  EXPECT_EQ(r.latency_histogram.counts, counts);
}

// Every source sends to the node opposite in a line at full rate; the window
// closes before any packet can cross it and the drain is 0: nothing is
// measured, the run did not drain, and no latency is made up.
TEST(LatencyStatistics, AWindowWhosePacketsDoNotArriveHasNoSample) {
  SyntheticScenario s;
  s.topology = "mesh:8";
  s.load.injection_rate = 1.0;
  s.load.packet_flits = 4;
  s.warmup_cycles = 0;
  s.measure_cycles = 3;  // shorter than the 7 hops of the farthest packets
  s.drain_cycles = 0;
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId { return 7 - src; };
  const SyntheticResult r = run_synthetic(s);
  EXPECT_FALSE(r.completed);
  EXPECT_FALSE(r.interrupted);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_EQ(r.measured_packets, 0u);
  EXPECT_GT(r.unfinished_packets, 0u);
  EXPECT_EQ(r.latency_histogram.bin_width, 0u);
}

// latency_by flow: every (source, destination) pair's packets, mean and
// largest latency equal those computed from the packet records.
TEST(LatencyStatistics, PerFlowLatencyEqualsThatOfThePacketRecords) {
  SyntheticScenario s;
  s.topology = "torus:4x4";
  s.load.injection_rate = 0.4;
  s.load.packet_flits = 4;
  s.warmup_cycles = 200;
  s.measure_cycles = 3000;
  s.drain_cycles = 20000;
  s.record_packets = true;
  s.latency_by = "flow";
  const SyntheticResult r = run_synthetic(s);
  ASSERT_TRUE(r.completed);
  struct Flow {
    std::uint64_t packets = 0;
    double sum = 0;
    double max = 0;
  };
  std::map<std::pair<int, int>, Flow> flows;
  for (const auto& d : r.packets) {
    Flow& f = flows[{d.source, d.destination}];
    ++f.packets;
    f.sum += static_cast<double>(d.latency);
    f.max = std::max(f.max, static_cast<double>(d.latency));
  }
  ASSERT_EQ(r.flow_latencies.size(), flows.size());
  EXPECT_GT(flows.size(), 200u);  // most of the 240 pairs of 16 endpoints
  std::uint64_t packets = 0;
  for (const auto& f : r.flow_latencies) {
    const Flow& want = flows.at({f.source, f.destination});
    EXPECT_EQ(f.packets, want.packets);
    EXPECT_NEAR(f.avg_latency, want.sum / static_cast<double>(want.packets), 1e-9);
    EXPECT_EQ(f.max_latency, want.max);
    packets += f.packets;
  }
  EXPECT_EQ(packets, r.measured_packets);
}
