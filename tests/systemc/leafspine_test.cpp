// The leaf/spine switch is the same router core: on the
// multi-layer full mesh of document 002 every leaf and spine is a Router of
// radix p, routes follow Topology::route() with the spine taken from the
// route hint, the zero-load latency follows the pipeline's closed form
// (servers are endpoint nodes, so a route crosses H + 1 nodes), and uniform
// traffic below saturation is delivered at the offered rate.
#include <gtest/gtest.h>

#include <memory>

#include "systemc/kernel/kernel.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/synthetic.hpp"
#include "tests/support/synthetic_fixtures.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;

TEST(LeafSpine, SwitchesAreRoutersOfRadixP) {
  const auto topo = topology::make_topology("leafspine:p=6");
  KernelSession session;
  Network net(*topo, RouterConfig{}, 1);
  const auto& g = topo->graph();
  int leaves = 0;
  int spines = 0;
  for (std::size_t n = 0; n < g.node_count(); ++n) {
    const auto kind = g.node(static_cast<topology::NodeId>(n)).kind;
    const Router& r = net.router(static_cast<topology::NodeId>(n));
    if (kind == topology::NodeKind::leaf || kind == topology::NodeKind::spine) {
      EXPECT_EQ(r.ports(), 6) << g.node_name(static_cast<topology::NodeId>(n));  // no NIC ports on a switch
      (kind == topology::NodeKind::leaf ? leaves : spines)++;
    } else {
      EXPECT_EQ(r.network_ports(), 1);  // a server's one cable
      EXPECT_EQ(r.ports(), 2);          // + its NIC controller
    }
  }
  EXPECT_EQ(leaves, 12);
  EXPECT_EQ(spines, 6);
}

TEST(LeafSpine, ZeroLoadLatencyAndSpineFromTheHint) {
  const auto topo = topology::make_topology("leafspine:p=6");
  const auto& g = topo->graph();
  auto leaf_of = [&](topology::EndpointId e) {
    return g.link(g.node(g.endpoint_node(e)).out_ports.at(0)).dst;
  };
  const int n = topo->endpoint_count();
  RouterConfig rc;
  rc.routing_delay = 1;
  rc.traversal_delay = 1;
  rc.link_latency = 2;
  rc.vcs = 1;
  const int router_delay = rc.routing_delay + rc.allocation_delay + rc.traversal_delay;
  for (int source : {0, 17}) {
    const SyntheticResult r =
        run_synthetic(test::lone_packets("leafspine:p=6", n, source, rc, /*packet_flits=*/3, /*period=*/500));
    ASSERT_TRUE(r.completed);
    ASSERT_EQ(r.packets.size(), static_cast<std::size_t>(n - 1));
    for (const auto& d : r.packets) {
      // server -> leaf -> server, or server -> leaf -> spine -> leaf -> server
      const int h = leaf_of(d.source) == leaf_of(d.destination) ? 2 : 4;
      EXPECT_EQ(d.hops, h);
      EXPECT_EQ(d.latency, static_cast<Cycle>(h * (router_delay + rc.link_latency) + router_delay +
                                              2 * rc.nic_latency + 2))
          << d.source << "->" << d.destination;
    }
  }
  // Route hint k+1 sends every packet of a pair of servers on two leaves of
  // one column (which share all p/2 spines) up the leaf's uplink k.
  const topology::EndpointId a = 0;
  topology::EndpointId b = topology::kNone;
  for (topology::EndpointId e = 1; e < n && b == topology::kNone; ++e) {
    const auto la = leaf_of(a);
    const auto lb = leaf_of(e);
    if (la != lb && g.node(la).label / 10 == g.node(lb).label / 10) b = e;  // same column (label 2M + C col + layer)
  }
  ASSERT_NE(b, topology::kNone);
  for (int uplink = 0; uplink < 3; ++uplink) {
    SyntheticScenario s;
    s.topology = "leafspine:p=6";
    s.load.injection_rate = 0.2;
    s.load.route_hint = static_cast<topology::RouteHint>(uplink + 1);
    s.warmup_cycles = 0;
    s.measure_cycles = 1000;
    s.custom_destination = [=](topology::EndpointId src, Random&) -> topology::EndpointId {
      return src == a ? b : topology::kNone;
    };
    const SyntheticResult r = run_synthetic(s);
    const auto leaf = leaf_of(a);
    const auto& ports = g.node(leaf).out_ports;
    for (int k = 0; k < 3; ++k) {
      const double u = r.link_utilization[static_cast<std::size_t>(ports.at(static_cast<std::size_t>(3 + k)))];
      if (k == uplink) EXPECT_GT(u, 0.1) << "uplink " << k;
      else EXPECT_EQ(u, 0.0) << "uplink " << k << " with hint for " << uplink;
    }
  }
}

TEST(LeafSpine, UniformTrafficBelowSaturation) {
  SyntheticScenario s;
  s.topology = "leafspine:p=6";
  s.load.injection_rate = 0.3;
  s.warmup_cycles = 1000;
  s.measure_cycles = 10000;
  const SyntheticResult r = run_synthetic(s);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
  // Backlog bound as in throughput_test.cpp: 0.3 x 36 x 30 flits over 3.6e5 slots.
  EXPECT_NEAR(r.accepted_rate, r.offered_rate, 0.005);
}
