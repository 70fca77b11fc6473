// The allocators as objects (systemc/router/allocator.hpp): the registries hold
// exactly the values of the keys `allocator` and `vc_allocator_stage`, an
// unknown name is refused naming the key and the accepted values, and the
// switch allocators decide a hand-worked case (the DOR turn of router.hpp)
// as derived by hand; the one-pass oldest-first allocator of the default
// router grants what the general input-first allocator grants with the
// `age` arbiters, on random request sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/router/allocator.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct Req {
  int in_port;
  int in_vc;
  int out_port;
  Cycle inject_cycle;
};

std::vector<std::string> names(const auto& list) {
  std::vector<std::string> out;
  for (const auto& e : list) out.push_back(e.name);
  return out;
}

/// Runs one decision of `allocator` over `requests` (ascending port, then
/// VC). An allocator that needs each input's oldest request alone
/// (oldest_request_per_input) is offered that one, as the router does: the
/// earliest injected, on a tie the lowest VC.
std::vector<SwitchGrant> decide(SwitchAllocator& allocator, int ports, int vcs, const std::vector<Req>& requests,
                                Cycle now) {
  AllocationScratch& s = AllocationScratch::local();
  s.fit(ports, vcs);
  s.active_inputs.clear();
  s.grants.clear();
  for (int p = 0; p < ports; ++p) {
    int n = 0;
    const Req* oldest = nullptr;
    for (const Req& r : requests)
      if (r.in_port == p && (oldest == nullptr || r.inject_cycle < oldest->inject_cycle)) oldest = &r;
    for (const Req& r : requests) {
      if (r.in_port != p) continue;
      if (allocator.oldest_request_per_input() && &r != oldest) continue;
      const auto at = static_cast<std::size_t>(p * vcs + n);
      s.candidate_requests[at] = ArbiterRequest{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(r.in_vc),
                                                false, r.inject_cycle};
      s.candidates[at] = SwitchGrant{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(r.in_vc),
                                     static_cast<std::uint16_t>(r.out_port), 0};
      ++n;
    }
    if (n == 0) continue;
    s.candidate_count[static_cast<std::size_t>(p)] = n;
    s.active_inputs.push_back(p);
  }
  allocator.decide(s, now);
  return {s.grants.begin(), s.grants.end()};
}

std::unique_ptr<SwitchAllocator> make(const std::string& name, int ports, int vcs, int iterations,
                                      bool every_vc_bids = true, int age_width = 0) {
  SwitchAllocatorSetup setup;
  setup.age_width = age_width;
  setup.ports = ports;
  setup.vcs = vcs;
  setup.iterations = iterations;
  setup.arbitration = "age";
  setup.every_vc_bids = every_vc_bids;
  return find_switch_allocator(name).make(setup);
}

std::vector<std::pair<int, int>> pairs(const std::vector<SwitchGrant>& grants) {
  std::vector<std::pair<int, int>> out;
  for (const SwitchGrant& g : grants) out.emplace_back(g.in_port * 100 + g.in_vc, g.out_port);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(AllocatorRegistry, HoldsExactlyTheKeyValues) {
  EXPECT_EQ(names(switch_allocators()), (std::vector<std::string>{"input-first", "output-first"}));
  EXPECT_EQ(names(vc_allocator_stages()), (std::vector<std::string>{"combined", "separate", "own-allocator"}));
  EXPECT_FALSE(find_vc_allocator_stage("combined").make);
  EXPECT_TRUE(find_vc_allocator_stage("separate").separate);
  EXPECT_TRUE(find_vc_allocator_stage("own-allocator").make);
}

TEST(AllocatorRegistry, AnUnknownNameNamesTheKeyAndTheValues) {
  try {
    (void)find_switch_allocator("wavefront");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'allocator'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'wavefront'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("input-first, output-first"), std::string::npos) << e.what();
  }
  try {
    (void)find_vc_allocator_stage("joint");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'vc_allocator_stage'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("combined, separate, own-allocator"), std::string::npos) << e.what();
  }
}

// Input 0 holds a flow going on (VC 0 to output 1, injected at 10) and a
// flow turning (VC 1 to output 2, injected at 15); input 1 an older flow to
// output 1 (injected at 5). Input-first, one round: input 0 offers its oldest
// (to output 1), which goes to input 1: one grant, output 2 idles.
// Output-first: output 1 grants input 1, output 2 input 0: two grants.
// Input-first with a second round: input 0 retries output 2: two grants.
TEST(SwitchAllocators, DecideTheDorTurnAsWorkedByHand) {
  const std::vector<Req> turn = {{0, 0, 1, 10}, {0, 1, 2, 15}, {1, 0, 1, 5}};
  const Cycle now = 100;
  auto one_round = make("input-first", 3, 2, 1);
  EXPECT_EQ(pairs(decide(*one_round, 3, 2, turn, now)), (std::vector<std::pair<int, int>>{{100, 1}}));
  auto output_first = make("output-first", 3, 2, 1);
  EXPECT_EQ(pairs(decide(*output_first, 3, 2, turn, now)), (std::vector<std::pair<int, int>>{{1, 2}, {100, 1}}));
  auto two_rounds = make("input-first", 3, 2, 2);
  EXPECT_EQ(pairs(decide(*two_rounds, 3, 2, turn, now)), (std::vector<std::pair<int, int>>{{1, 2}, {100, 1}}));
}

// The default router's allocator (input-first, age, one round, every VC
// bidding) decides in one pass, offered each input's oldest request alone
// when ages are exact, every request when they saturate (age_width 2); the
// general input-first allocator with the age arbiters over every request
// (chosen here by one-VC-per-output bidding, which only changes which
// allocator object is made) must grant the same, in the same order.
class OldestFirstEquivalence : public ::testing::TestWithParam<int> {};

TEST_P(OldestFirstEquivalence, OnePassOldestFirstGrantsAsTheGeneralInputFirst) {
  const int age_width = GetParam();
  std::mt19937 random(7);
  const int ports = 5;
  const int vcs = 4;
  auto fast = make("input-first", ports, vcs, 1, true, age_width);
  auto general = make("input-first", ports, vcs, 1, false, age_width);
  EXPECT_EQ(fast->oldest_request_per_input(), age_width == 0);
  EXPECT_FALSE(general->oldest_request_per_input());
  int contested = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Req> requests;
    for (int p = 0; p < ports; ++p)
      for (int v = 0; v < vcs; ++v)
        if (random() % 2 == 0)
          requests.push_back({p, v, static_cast<int>(random() % ports), static_cast<Cycle>(random() % 8)});
    const std::vector<SwitchGrant> a = decide(*fast, ports, vcs, requests, 10);
    const std::vector<SwitchGrant> b = decide(*general, ports, vcs, requests, 10);
    ASSERT_EQ(a.size(), b.size()) << "trial " << trial;
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].in_port, b[k].in_port) << "trial " << trial;
      EXPECT_EQ(a[k].in_vc, b[k].in_vc) << "trial " << trial;
      EXPECT_EQ(a[k].out_port, b[k].out_port) << "trial " << trial;
    }
    // A match: at most one grant per input port and per output port.
    std::vector<int> in(ports, 0);
    std::vector<int> out(ports, 0);
    for (const SwitchGrant& g : a) {
      EXPECT_EQ(++in[g.in_port], 1);
      EXPECT_EQ(++out[g.out_port], 1);
    }
    if (a.size() < requests.size()) ++contested;
  }
  EXPECT_GT(contested, 1000);  // the cases exercise arbitration, not free choice
}

INSTANTIATE_TEST_SUITE_P(AgeWidths, OldestFirstEquivalence, ::testing::Values(0, 2));
