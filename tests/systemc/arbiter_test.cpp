// The arbitration policies on their own (arbiter.hpp), against the rules
// they state: one testbench per block, fairness included.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/router/arbiter.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

std::unique_ptr<Arbiter> make(const std::string& name, ArbiterStage stage, int slots, int age_width = 0) {
  return find_arbitration(name).make(stage, slots, ArbiterOptions{age_width});
}

/// Picks and grants once; returns the winner.
ArbiterRequest grant(Arbiter& a, const std::vector<ArbiterRequest>& requests, Cycle now = 1000) {
  const std::size_t w = a.pick(requests, now);
  EXPECT_LT(w, requests.size());
  a.granted(requests[w]);
  return requests[w];
}

}  // namespace

TEST(Arbiter, AgeOldestFirstTiesByPortThenVc) {
  auto a = make("age", ArbiterStage::output, 5);
  EXPECT_EQ(grant(*a, {{0, 0, false, 50}, {1, 0, false, 20}, {2, 0, true, 30}}).port, 1);
  // Equal ages: lower port, then lower VC.
  EXPECT_EQ(grant(*a, {{3, 1, false, 20}, {2, 1, false, 20}, {2, 0, true, 20}}).port, 2);
  EXPECT_EQ(grant(*a, {{3, 1, false, 20}, {2, 1, false, 20}, {2, 0, true, 20}}).vc, 0);
  // Age arbitration keeps no state: the same requests give the same winner.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(grant(*a, {{4, 0, false, 10}, {0, 0, false, 11}}).port, 4);
}

TEST(Arbiter, SaturatingAgeWidthMakesOldPacketsTie) {
  // 4-bit age counter: ages saturate at 15, so at cycle 1000 packets created
  // at 900 and 950 are equally old and the lower port wins.
  auto narrow = make("age", ArbiterStage::output, 4, 4);
  EXPECT_EQ(grant(*narrow, {{2, 0, false, 900}, {1, 0, false, 950}}, 1000).port, 1);
  // Within the counter's range the older one still wins.
  EXPECT_EQ(grant(*narrow, {{2, 0, false, 990}, {1, 0, false, 995}}, 1000).port, 2);
  auto exact = make("age", ArbiterStage::output, 4, 0);
  EXPECT_EQ(grant(*exact, {{2, 0, false, 900}, {1, 0, false, 950}}, 1000).port, 2);
}

TEST(Arbiter, RoundRobinRotatesAndIsFair) {
  auto a = make("round-robin", ArbiterStage::output, 4);
  const std::vector<ArbiterRequest> all = {{0, 0, false, 0}, {1, 0, false, 0}, {2, 0, false, 0}, {3, 0, false, 0}};
  std::vector<int> order;
  for (int i = 0; i < 8; ++i) order.push_back(grant(*a, all).port);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
  // The pointer moves past the last winner: after port 1, port 3 beats port 0.
  auto b = make("round-robin", ArbiterStage::output, 4);
  EXPECT_EQ(grant(*b, {{1, 0, false, 0}}).port, 1);
  EXPECT_EQ(grant(*b, {{0, 0, false, 0}, {3, 0, false, 0}}).port, 3);
  // Input stage: the slots are VCs.
  auto v = make("round-robin", ArbiterStage::input, 3);
  std::vector<int> vcs;
  for (int i = 0; i < 6; ++i) vcs.push_back(grant(*v, {{2, 0, false, 0}, {2, 1, false, 0}, {2, 2, false, 0}}).vc);
  EXPECT_EQ(vcs, (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(Arbiter, LocalThroughSplitsFiftyFifty) {
  // One local (injection) port and three through ports always requesting:
  // local gets every other grant, the through ports share the rest equally.
  auto a = make("local-through", ArbiterStage::output, 5);
  const std::vector<ArbiterRequest> all = {
      {0, 0, false, 0}, {1, 0, false, 0}, {2, 0, false, 0}, {4, 0, true, 0}};
  std::map<int, int> wins;
  for (int i = 0; i < 600; ++i) ++wins[grant(*a, all).port];
  EXPECT_EQ(wins[4], 300);
  EXPECT_EQ(wins[0], 100);
  EXPECT_EQ(wins[1], 100);
  EXPECT_EQ(wins[2], 100);
  // Without contention between the classes the single class is served.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(grant(*a, {{1, 0, false, 0}, {2, 0, false, 0}}).local);
  EXPECT_TRUE(grant(*a, {{4, 0, true, 0}}).local);
}

TEST(Arbiter, ThroughFirstStarvesLocalUnderContention) {
  auto a = make("through-first", ArbiterStage::output, 5);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(grant(*a, {{4, 0, true, 0}, {1, 0, false, 5000}}).local);
  EXPECT_TRUE(grant(*a, {{4, 0, true, 0}}).local);
}

TEST(Arbiter, RegistryNamesEveryPolicyAndRejectsOthers) {
  std::vector<std::string> names;
  for (const auto& p : arbitration_policies()) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"age", "round-robin", "local-through", "through-first"}));
  try {
    (void)find_arbitration("fifo");
    FAIL();
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("arbitration"), std::string::npos);
    EXPECT_NE(m.find("local-through"), std::string::npos);
  }
}
