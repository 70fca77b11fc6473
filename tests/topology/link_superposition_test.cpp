// spec a2a-hopgroup, router behaviour: link superposition. On a line of six
// nodes where nodes 1, 2, 3 each send 3 hops ahead, the links 1-2 .. 5-6
// carry 1, 2, 3, 2, 1 flows (document 000, FIG. 5).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "topology/grid.hpp"

using namespace collnet::topology;

TEST(LinkSuperposition, ThreeHopFlowsOnALineOfSix) {
  const Grid line({6}, false);
  std::map<LinkId, int> flows;
  for (EndpointId src : {0, 1, 2})  // nodes 1, 2, 3 of the document
    for (const Hop& hop : line.route(src, src + 3)) ++flows[hop.link];
  std::vector<int> per_link;
  for (EndpointId node = 0; node + 1 < 6; ++node) {
    const LinkId l = line.link(node, 0, +1);
    ASSERT_NE(l, kNone);
    per_link.push_back(flows.count(l) ? flows.at(l) : 0);
  }
  EXPECT_EQ(per_link, (std::vector<int>{1, 2, 3, 2, 1}));
  // Only + links of the line are used.
  int total = 0;
  for (const auto& [link, n] : flows) {
    EXPECT_EQ(line.graph().link(link).dir, +1);
    total += n;
  }
  EXPECT_EQ(total, 9);
}
