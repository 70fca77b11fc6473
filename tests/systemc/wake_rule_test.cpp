// The router's wake-up rule (router.hpp): after a cycle with
// requests a router runs again in the next cycle unless that cycle emptied
// it; otherwise it sleeps until a flit or (occupied) a credit arrives or a
// delay it waits for ends. A router that skipped a cycle it had to run in
// would delay a flit; one that ran for nothing costs an evaluation.
//
// The network: mesh:3x1, nodes 0 and 2 each send one 4-flit packet to node 1,
// both created in cycle 0. Their heads reach router 1 in the same cycle t on
// two input ports and want the ejection port, which has one VC: packet A
// takes it and leaves in cycles t .. t+3; B's head waits until A's tail has
// released the VC and then leaves with its body flits behind it. No flit
// reaches router 1 after t+3, so nothing but the wake-up rule makes router 1
// run when B may go. The NIC latency is 4 so that the ejection port's credits
// (back at router 1 from t+9 on) do not wake it earlier either.
//
// Zero-load latency (tests/systemc/zero_load_test.cpp), one hop:
//   L0 = (router_delay + link_latency) + router_delay + 2 * nic_latency + 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "systemc/run/synthetic.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct Outcome {
  std::vector<Cycle> latencies;  // sorted
  std::uint64_t router_evaluations = 0;
};

Outcome two_packets_into_one_port(const RouterConfig& router) {
  SyntheticScenario s;
  s.topology = "mesh:3x1";
  s.router = router;
  s.router.vcs = 1;
  s.router.nic_latency = 4;
  s.load.packet_flits = 4;
  s.load.injection_rate = 4.0 / 10000.0;
  s.load.periodic = true;
  s.load.packets_per_node = 1;
  s.record_packets = true;
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId {
    return src == 1 ? topology::kNone : 1;
  };
  const SyntheticResult r = run_synthetic(s);
  EXPECT_TRUE(r.completed);
  Outcome o;
  for (const auto& d : r.packets) o.latencies.push_back(d.latency);
  std::sort(o.latencies.begin(), o.latencies.end());
  o.router_evaluations = r.router_evaluations;
  return o;
}

Cycle zero_load(const RouterConfig& rc) {
  const int router_delay = rc.router_delay();
  return static_cast<Cycle>(router_delay + rc.link_latency + router_delay + 2 * 4 + 3);
}

/// B's latency is `b_wait` cycles above A's (= L0); `evaluations` in all.
void expect_run(const RouterConfig& rc, Cycle b_wait, std::uint64_t evaluations) {
  const Outcome o = two_packets_into_one_port(rc);
  const Cycle l0 = zero_load(rc);
  EXPECT_EQ(o.latencies, (std::vector<Cycle>{l0, l0 + b_wait}));
  EXPECT_EQ(o.router_evaluations, evaluations);
}

}  // namespace

// Combined VC and switch allocation: B's head takes the VC in the cycle after
// A's tail left (t+4), its tail leaves at t+7, four cycles after A's. Router 0
// and router 2 run in the 4 cycles their flits arrive and leave, router 1 in
// t .. t+7: 16 evaluations (not one more after each router's last flit).
TEST(WakeRule, HeadWaitingForAReleasedVcRunsTheNextCycle) { expect_run(RouterConfig{}, 4, 4u + 4u + 8u); }

// Separate VC allocation stage: the VC released by A's tail at t+3 is given
// to B at t+4 and B bids for the switch at t+5, so B's tail leaves at t+8.
// Router 1 still holds B's flits after t+3 and runs in t .. t+8 (9 cycles;
// at t+4 it has nothing to decide, which only costs that evaluation).
TEST(WakeRule, SeparateVcStageWaitsForTheReleasedVc) {
  RouterConfig rc;
  rc.separate_vc_allocation = true;
  expect_run(rc, 5, 4u + 4u + 9u);
}

// Own VC allocator, routing delay 1 (router delay 2): a head arriving in
// cycle a takes its output VC at a and bids for the switch from a+1. Routers
// 0 and 2 run at a .. a+4 (5 cycles). At router 1 A wins the VC at t and
// leaves at t+1 .. t+4; B's head asks the VC allocator at t+5 (the release of
// t+4 is seen in the next cycle), bids at t+6 and its tail leaves at t+9,
// five cycles after A's: router 1 runs in t .. t+9, 10 evaluations.
TEST(WakeRule, OwnVcAllocatorAsksAgainAfterTheRelease) {
  RouterConfig rc;
  rc.routing_delay = 1;
  rc.vc_allocator_own = true;
  expect_run(rc, 5, 5u + 5u + 10u);
}
