// Synthetic traffic patterns (traffic_pattern.hpp) against their textbook
// definitions, computed here from coordinates and bits.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "systemc/run/synthetic.hpp"
#include "systemc/run/traffic_pattern.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;
using topology::EndpointId;

namespace {
DestinationFn pattern(const std::string& topo, const std::string& name, int shift = 1) {
  static std::map<std::string, std::unique_ptr<topology::Topology>> keep;
  auto& t = keep[topo];
  if (!t) t = topology::make_topology(topo);
  TrafficOptions o;
  o.pattern = name;
  o.shift = shift;
  return make_pattern(*t, o);
}
}  // namespace

TEST(TrafficPattern, PermutationsMatchTheirDefinitions) {
  Random r(1, 0);
  auto complement = pattern("torus:8x8", "bit-complement");
  auto reverse = pattern("torus:8x8", "bit-reverse");
  auto shuffle = pattern("torus:8x8", "shuffle");
  auto transpose = pattern("mesh:8x8", "transpose");
  auto tornado = pattern("torus:8x8", "tornado");
  auto neighbour = pattern("torus:8x8", "neighbour");
  for (EndpointId s = 0; s < 64; ++s) {
    EXPECT_EQ(complement(s, r), 63 - s);
    int rev = 0;
    for (int b = 0; b < 6; ++b) rev |= ((s >> b) & 1) << (5 - b);
    EXPECT_EQ(reverse(s, r), rev);
    EXPECT_EQ(shuffle(s, r), ((s << 1) | (s >> 5)) & 63);
    const int x = s % 8, y = s / 8;
    EXPECT_EQ(transpose(s, r), x * 8 + y);
    EXPECT_EQ(tornado(s, r), (x + 3) % 8 + 8 * ((y + 3) % 8));  // ceil(8/2) - 1 = 3
    EXPECT_EQ(neighbour(s, r), (x + 1) % 8 + 8 * ((y + 1) % 8));
  }
  auto ring = pattern("torus:6", "neighbour", 4);
  for (EndpointId s = 0; s < 6; ++s) EXPECT_EQ(ring(s, r), (s + 4) % 6);
  auto odd = pattern("torus:5x3", "tornado");
  EXPECT_EQ(odd(0, r), 2 + 5 * 1);  // ceil(5/2) - 1 = 2, ceil(3/2) - 1 = 1
}

TEST(TrafficPattern, UniformAndHotspotDistributions) {
  auto uniform = pattern("torus:4x4", "uniform");
  Random r(3, 5);
  std::map<EndpointId, int> count;
  constexpr int kDraws = 150000;
  for (int i = 0; i < kDraws; ++i) ++count[uniform(5, r)];
  EXPECT_EQ(count.count(5), 0u);  // never itself
  EXPECT_EQ(count.size(), 15u);
  for (const auto& [d, c] : count) EXPECT_NEAR(c, kDraws / 15.0, 5 * std::sqrt(kDraws / 15.0)) << d;

  const auto topo = topology::make_topology("torus:4x4");
  TrafficOptions o;
  o.pattern = "hotspot";
  o.hotspot_node = 9;
  o.hotspot_fraction = 0.3;
  auto hot = make_pattern(*topo, o);
  int to_hot = 0;
  for (int i = 0; i < kDraws; ++i) to_hot += hot(2, r) == 9;
  // 0.3 directly plus 0.7 / 15 through the uniform part.
  const double p = 0.3 + 0.7 / 15;
  EXPECT_NEAR(to_hot, p * kDraws, 5 * std::sqrt(kDraws * p * (1 - p)));
  for (int i = 0; i < 1000; ++i) EXPECT_NE(hot(9, r), 9);  // the hotspot itself sends uniformly
}

TEST(TrafficPattern, TopologiesAPatternCannotServeAreConfigErrors) {
  const auto bad = [](const std::string& topo, const std::string& name) {
    const auto t = topology::make_topology(topo);
    TrafficOptions o;
    o.pattern = name;
    EXPECT_THROW((void)make_pattern(*t, o), ConfigError) << topo << " " << name;
  };
  bad("mesh:5x5", "bit-complement");  // 25 endpoints: not a power of two
  bad("mesh:3x3", "shuffle");
  bad("mesh:4x2", "transpose");       // not square
  bad("mesh:4x4x4", "transpose");     // not 2-D
  bad("leafspine:p=6", "tornado");    // no coordinates
  bad("torus:4x4", "zipf");
  const auto t = topology::make_topology("torus:4x4");
  TrafficOptions o;
  o.pattern = "hotspot";
  o.hotspot_node = 16;
  EXPECT_THROW((void)make_pattern(*t, o), ConfigError);
}

TEST(TrafficPattern, SilentNodesOfAPermutationInjectNothing) {
  // Transpose on 4x4: the diagonal maps to itself, so 4 of 16 nodes are
  // silent and the offered rate is 12/16 of the injection rate.
  SyntheticScenario s;
  s.topology = "torus:4x4";
  s.traffic.pattern = "transpose";
  s.load.injection_rate = 0.2;
  s.warmup_cycles = 500;
  s.measure_cycles = 20000;
  const SyntheticResult r = run_synthetic(s);
  for (int d = 0; d < 4; ++d) EXPECT_EQ(r.accepted_flits_by_source[static_cast<std::size_t>(d * 5)], 0u);
  EXPECT_NEAR(r.offered_rate, 0.2 * 12 / 16, 0.006);
  EXPECT_NEAR(r.accepted_rate, r.offered_rate, 0.003);
}
