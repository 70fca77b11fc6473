// Credit-based flow control, wormhole against virtual cut-through, checked
// against the closed form of the credit loop (router_config.hpp, link.hpp).
//
// One saturated flow over one link of latency L between two routers, one VC
// of B flits, P-flit packets, S = allocation + traversal cycles after the
// decision. A credit spent in cycle c comes back usable in cycle c + S + 2L
// (flit departs c+S, arrives c+S+L, leaves the downstream buffer in that
// cycle, credit arrives L later): the round trip R = S + 2L.
//   wormhole:  any credit lets a flit go, so B credits carry B flits per R
//              cycles: throughput min(1, B / R);
//   VCT:       a head needs P credits (room for the whole packet), so after
//              a packet's tail it waits for the tail's credit: one packet per
//              P - 1 + R cycles when B = P.
// Also: each endpoint gets one injection and one ejection port per NIC
// controller.
#include <gtest/gtest.h>

#include "systemc/kernel/kernel.hpp"
#include "systemc/network/network.hpp"
#include "systemc/run/synthetic.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

double one_flow_throughput(Switching switching, int buffer, int latency, int traversal, int packet) {
  SyntheticScenario s;
  s.topology = "mesh:2";
  s.router.vcs = 1;
  s.router.buffer_flits = buffer;
  s.router.buffer_round_trip = false;  // buffer_sizing fixed: the buffer under test on every link
  s.router.switching = switching;
  s.router.link_latency = latency;
  s.router.traversal_delay = traversal;
  s.load.packet_flits = packet;
  s.load.injection_rate = 1.0;
  s.warmup_cycles = 500;
  s.measure_cycles = 20000;
  s.drain_cycles = 0;
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId {
    return src == 0 ? 1 : topology::kNone;
  };
  const SyntheticResult r = run_synthetic(s);
  EXPECT_EQ(r.integrity_errors, 0u);
  return static_cast<double>(r.accepted_flits_by_source[0]) / static_cast<double>(r.window_cycles);
}

}  // namespace

TEST(FlowControl, WormholeThroughputIsCreditsOverRoundTrip) {
  struct Case {
    int buffer, latency, traversal;
  };
  for (const Case c : {Case{4, 3, 0}, Case{2, 1, 0}, Case{3, 2, 1}, Case{5, 4, 2}, Case{6, 4, 0}}) {
    const int round_trip = 1 + c.traversal + 2 * c.latency;
    const double expected = static_cast<double>(c.buffer) / round_trip;  // < 1 in every case
    // One packet of slack at the window's edges: 4 flits over 20000 cycles.
    EXPECT_NEAR(one_flow_throughput(Switching::wormhole, c.buffer, c.latency, c.traversal, 4), expected, 3e-4)
        << "B " << c.buffer << " L " << c.latency << " traversal " << c.traversal;
  }
}

TEST(FlowControl, VirtualCutThroughWaitsForRoomForThePacket) {
  for (int latency : {1, 2, 3}) {
    for (int packet : {2, 4, 6}) {
      const int round_trip = 1 + 2 * latency;
      const double vct = static_cast<double>(packet) / (packet - 1 + round_trip);
      const double measured_vct = one_flow_throughput(Switching::virtual_cut_through, packet, latency, 0, packet);
      EXPECT_NEAR(measured_vct, vct, 3e-4) << "L " << latency << " P " << packet;
      const double wormhole = static_cast<double>(packet) / round_trip;
      const double measured = one_flow_throughput(Switching::wormhole, packet, latency, 0, packet);
      // With B / R >= 1 the link is not the limit: the offered load (1 flit
      // per cycle, Bernoulli) is, and a critically loaded queue idles now and then.
      if (wormhole < 1.0) EXPECT_NEAR(measured, wormhole, 3e-4) << "L " << latency << " P " << packet;
      else EXPECT_GT(measured, 0.98) << "L " << latency << " P " << packet;
      EXPECT_GT(measured, measured_vct + 0.02) << "L " << latency << " P " << packet;
    }
  }
}

TEST(FlowControl, OneInjectionAndEjectionPortPerController) {
  const auto topo = topology::make_topology("torus:3x3");
  KernelSession session;
  Network net(*topo, RouterConfig{}, 3);
  run_for(1);  // elaboration binds the ports
  for (topology::NodeId n = 0; n < 9; ++n) {
    const Router& r = net.router(n);
    EXPECT_EQ(r.network_ports(), 4);
    EXPECT_EQ(r.ports(), 4 + 3);
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(r.input_link(4 + c), &net.injection(n, c));
      EXPECT_EQ(r.output_link(4 + c), &net.ejection(n, c));
    }
  }
  EXPECT_THROW(Network(*topo, RouterConfig{}, 0), ConfigError);
}

// The routers bind their links to one multiport per direction, in the
// order the network makes them (graph link order, which visits a router's
// ports out of order); each router port must still reach the link of the
// graph at that port, on a mesh (ports unconnected at the edges) and on a
// leaf/spine fabric of two radices.
TEST(FlowControl, EveryRouterPortReachesTheLinkOfTheGraphAtThatPort) {
  for (const char* name : {"mesh:4x3", "leafspine:p=6"}) {
    const auto topo = topology::make_topology(name);
    KernelSession session;
    Network net(*topo, RouterConfig{}, 1);
    run_for(1);
    const topology::Graph& g = topo->graph();
    std::vector<int> bound(g.node_count(), 0);
    for (std::size_t l = 0; l < g.link_count(); ++l) {
      const auto id = static_cast<topology::LinkId>(l);
      const topology::Link& gl = g.link(id);
      EXPECT_EQ(net.router(gl.src).output_link(gl.src_port), &net.link(id)) << name << " link " << l;
      EXPECT_EQ(net.router(gl.dst).input_link(gl.dst_port), &net.link(id)) << name << " link " << l;
      ++bound[static_cast<std::size_t>(gl.dst)];
    }
    for (std::size_t n = 0; n < g.node_count(); ++n) {
      const Router& r = net.router(static_cast<topology::NodeId>(n));
      int unconnected = 0;
      for (int p = 0; p < r.network_ports(); ++p) unconnected += r.input_link(p) == nullptr ? 1 : 0;
      EXPECT_EQ(unconnected, r.network_ports() - bound[n]) << name << " node " << n;
    }
  }
}

TEST(FlowControl, ARouterPortTakesOneLink) {
  const auto topo = topology::make_topology("mesh:2x2");
  KernelSession session;
  Network net(*topo, RouterConfig{}, 1);
  const topology::Link& gl = topo->graph().link(0);
  Router& r = net.router(gl.dst);
  EXPECT_THROW(r.bind_input(gl.dst_port, net.link(1)), std::logic_error);
  EXPECT_THROW(r.bind_output(r.ports(), net.link(1)), std::logic_error);  // no such port
}
