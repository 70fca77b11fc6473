// Selection rules (topology/routing/selection.hpp): the option each rule
// picks from port states written out here, against the choice worked out by
// hand from the rule's definition.
#include "topology/routing/selection.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

using namespace collnet::topology;

namespace {

// A decision of `options` on ports 0..2 (option i on port i), each port
// with its free-VC mask and the credits of its VCs (4 VCs of depth 8 each);
// one VC class holding every VC.
struct Decision {
  std::vector<HopOption> options;
  std::vector<std::array<std::int32_t, 4>> credits;
  std::vector<std::uint16_t> free;

  int pick(const std::string& rule, int need = 1, bool any_credits = false, long threshold = 0) {
    std::vector<std::int32_t> flat;
    for (const auto& c : credits) flat.insert(flat.end(), c.begin(), c.end());
    const std::uint16_t every_vc[2] = {0b1111, 0b1111};
    Selection s;
    s.options = options.data();
    s.count = static_cast<int>(options.size());
    s.free_vcs = free.data();
    s.class_vcs = every_vc;
    s.credits = flat.data();
    s.vcs = 4;
    const std::vector<std::int32_t> depths(credits.size(), 8);
    s.depths = depths.data();
    s.need = need;
    s.any_credits = any_credits;
    s.threshold = threshold;
    return find_selection(rule).select(s);
  }
};

}  // namespace

TEST(Selection, MostCreditsTakesTheNonEscapeOptionWhoseFreeVcHoldsTheMostCredits) {
  Decision d;
  d.options = {{0, 1, false}, {1, 1, false}, {2, 0, true}};
  // Option 0: free VCs 2, 3 with 3 and 5 credits; option 1: free VC 1 with 6
  // credits (VC 0, not free, holds 8); the escape option holds 8.
  d.credits = {{8, 8, 3, 5}, {8, 6, 1, 1}, {8, 8, 8, 8}};
  d.free = {0b1100, 0b0010, 0b1111};
  EXPECT_EQ(d.pick("most-credits"), 1);
  // A tie goes to the first listed.
  d.credits[0][3] = 6;
  EXPECT_EQ(d.pick("most-credits"), 0);
  // A VC with fewer credits than the head needs does not count (vct: 7).
  EXPECT_EQ(d.pick("most-credits", 7), 2);
  // ... unless the own VC allocator stage takes free VCs whatever their credits.
  EXPECT_EQ(d.pick("most-credits", 7, true), 0);
  // No free VC on a non-escape option: the escape option; none listed: the first.
  d.free = {0, 0, 0};
  EXPECT_EQ(d.pick("most-credits"), 2);
  d.options[2].escape = false;
  EXPECT_EQ(d.pick("most-credits"), 0);
}

TEST(Selection, QueuedTimesHopsTakesTheLeastQueuedFlitsTimesPathHops) {
  Decision d;
  // Minimal path of 3 hops, 4 + 2 = 6 flits queued (credits not given back):
  // cost 18; non-minimal path of 5 hops, 3 queued: cost 15.
  d.options = {{0, 1, false, 3}, {1, 0, false, 5}};
  d.credits = {{4, 6, 8, 8}, {8, 5, 8, 8}};
  d.free = {0, 0};  // whatever the VCs' state
  EXPECT_EQ(d.pick("queued-x-hops"), 1);
  // The threshold is added to every option but the first: 15 + 3 = 18 ties, the first wins.
  EXPECT_EQ(d.pick("queued-x-hops", 1, false, 3), 0);
  EXPECT_EQ(d.pick("queued-x-hops", 1, false, 2), 1);
  // Options without hop weights (a router after the source's) are not its
  // to weigh: the key output_selection's rule decides.
  EXPECT_TRUE(find_selection("queued-x-hops").applies(d.options.data(), 2));
  d.options = {{0, 0, false}, {0, 1, false}};
  EXPECT_FALSE(find_selection("queued-x-hops").applies(d.options.data(), 2));
}

TEST(Selection, VcAllocatorLeavesTheChoiceToTheVcAllocatorAndUnknownNamesAreRefused) {
  EXPECT_EQ(find_selection("vc-allocator").select, nullptr);
  EXPECT_TRUE(find_selection("queued-x-hops").reads_threshold);
  EXPECT_FALSE(find_selection("most-credits").reads_threshold);
  try {
    (void)find_selection("coin-toss");
    FAIL() << "no error";
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find("'coin-toss'; accepted: most-credits, vc-allocator, queued-x-hops"),
              std::string::npos)
        << e.what();
  }
}

TEST(Selection, EveryRuleARoutingFunctionNamesExists) {
  for (const auto& f : routing_functions()) {
    if (!f.selection.empty()) {
      EXPECT_NO_THROW((void)find_selection(f.selection)) << f.name;
    }
  }
  EXPECT_EQ(find_routing("ugal", *make_topology("dragonfly:p=2")).selection, "queued-x-hops");
}
