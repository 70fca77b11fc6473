// Router fairness of document 000 (spec a2a-hopgroup, "Router behaviour the
// document depends on", fact 5): nodes 1, 2, 3 of a line all send past node 3
// at saturation. A router that splits each output 50/50 between its own
// injection and through traffic gives the sources shares 0.25 / 0.25 / 0.50
// of the shared link; age-based arbitration gives 1/3 each.
#include <gtest/gtest.h>

#include <array>

#include "systemc/synthetic.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// Accepted flits of sources 0, 1, 2 (the document's nodes 1, 2, 3) as shares.
std::array<double, 3> shares(const std::string& arbitration, int vcs) {
  SyntheticScenario s;
  s.topology = "mesh:6";
  s.router.arbitration = arbitration;
  s.router.vcs = vcs;
  s.router.buffer_flits = 8;
  s.load.injection_rate = 1.0;  // far above the 1/3 share: every source saturated
  s.load.packet_flits = 4;
  s.warmup_cycles = 2000;
  s.measure_cycles = 30000;
  s.drain_cycles = 0;
  // Document 000 FIG. 5: each of nodes 1..3 sends three hops ahead, so the
  // link from node 3 to node 4 carries all three flows.
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId {
    return src <= 2 ? src + 3 : topology::kNone;
  };
  const SyntheticResult r = run_synthetic(s);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_EQ(r.integrity_errors, 0u);
  double total = 0;
  for (std::size_t i = 0; i < 3; ++i) total += static_cast<double>(r.accepted_flits_by_source[i]);
  // The shared link is the bottleneck and runs full.
  EXPECT_NEAR(total / static_cast<double>(r.window_cycles), 1.0, 0.01) << arbitration;
  std::array<double, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) out[i] = static_cast<double>(r.accepted_flits_by_source[i]) / total;
  return out;
}

}  // namespace

TEST(Fairness, LocalThroughSplitGivesHalfToTheLastNode) {
  for (int vcs : {1, 2}) {
    const auto s = shares("local-through", vcs);
    EXPECT_NEAR(s[0], 0.25, 0.02) << "vcs " << vcs;
    EXPECT_NEAR(s[1], 0.25, 0.02) << "vcs " << vcs;
    EXPECT_NEAR(s[2], 0.50, 0.02) << "vcs " << vcs;
  }
}

TEST(Fairness, AgeArbitrationGivesEqualShares) {
  for (int vcs : {1, 2}) {
    const auto s = shares("age", vcs);
    for (double share : s) EXPECT_NEAR(share, 1.0 / 3.0, 0.02) << "vcs " << vcs;
  }
}
