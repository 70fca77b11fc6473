// Router fairness of document 000 (spec a2a-hopgroup, "Router behaviour the
// document depends on", fact 5): nodes 1, 2, 3 of a line all send past node 3
// at saturation. A router that splits each output 50/50 between its own
// injection and through traffic gives the sources shares 0.25 / 0.25 / 0.50
// of the shared link; age-based arbitration gives 1/3 each.
#include <gtest/gtest.h>

#include <array>

#include "systemc/run/synthetic.hpp"
#include "tests/support/synthetic_fixtures.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// Accepted flits of sources 0, 1, 2 (the document's nodes 1, 2, 3) as shares.
/// Document 000 FIG. 5 (tests/support/synthetic_fixtures.hpp): each of
/// nodes 1..3 sends three hops ahead, so the link from node 3 to node 4
/// carries all three flows.
std::array<double, 3> shares(const std::string& arbitration, int vcs) {
  RouterConfig router;
  router.arbitration = arbitration;
  router.vcs = vcs;
  router.buffer_flits = 8;
  const test::LinkShares r = test::fig5_shares(test::fig5_line(router, 2000, 30000));
  // The shared link is the bottleneck and runs full.
  EXPECT_NEAR(r.load, 1.0, 0.01) << arbitration;
  return r.share;
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
