// Zero-load latency of a lone packet against the closed form of the router
// pipeline (router_config.hpp):
//
//   latency = H * (router_delay + link_latency) + router_delay + 2 * nic_latency + (P - 1)
//
// from the cycle the packet is created at its source NIC to the cycle its tail
// reaches the destination NIC: H network links, H + 1 routers (the source's
// router too), the NIC->router and router->NIC ports, and P - 1 cycles of
// serialization behind the head. router_delay = routing + allocation +
// traversal delay. The hop count H is computed here from coordinates, not
// from Topology::route().
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "systemc/run/synthetic.hpp"
#include "tests/support/synthetic_fixtures.hpp"
#include "topology/grid.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct Pipeline {
  int routing;
  int allocation;
  int traversal;
  int link;

  /// A router with these delays; 1-flit packets wormhole, 4-flit ones
  /// virtual cut-through.
  [[nodiscard]] RouterConfig router(int packet_flits) const {
    RouterConfig rc;
    rc.routing_delay = routing;
    rc.allocation_delay = allocation;
    rc.traversal_delay = traversal;
    rc.link_latency = link;
    rc.switching = packet_flits == 4 ? Switching::virtual_cut_through : Switching::wormhole;
    return rc;
  }

  /// The closed form of the file comment for `hops` links.
  [[nodiscard]] Cycle latency(int hops, const RouterConfig& rc, int packet_flits) const {
    const int router_delay = routing + allocation + traversal;
    return static_cast<Cycle>(hops * (router_delay + link) + router_delay + 2 * rc.nic_latency + (packet_flits - 1));
  }
};

/// Minimal hops between two grid nodes, from their coordinates.
int grid_hops(const std::vector<int>& sizes, bool torus, int a, int b) {
  int hops = 0;
  for (int n : sizes) {
    const int x = a % n;
    const int y = b % n;
    a /= n;
    b /= n;
    const int d = std::abs(x - y);
    hops += torus ? std::min(d, n - d) : d;
  }
  return hops;
}

/// One source sends one packet to every other endpoint, one every 1000 cycles
/// (far longer than any latency here, so packets never meet).
std::vector<TrafficStats::Delivery> lone_packets(const std::string& topology, int endpoints, int source,
                                                 const RouterConfig& router, int packet_flits) {
  const SyntheticResult r = run_synthetic(test::lone_packets(topology, endpoints, source, router, packet_flits, 1000));
  EXPECT_TRUE(r.completed) << topology;
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
  return r.packets;
}

}  // namespace

TEST(ZeroLoad, LatencyEqualsClosedFormForEveryPipeline) {
  const std::vector<Pipeline> pipelines = {
      {0, 1, 0, 1}, {1, 1, 0, 1}, {0, 1, 2, 1}, {2, 1, 1, 3}, {0, 2, 0, 2}, {3, 3, 3, 5},
  };
  struct Net {
    std::vector<int> sizes;
    bool torus;
    std::vector<int> sources;
  };
  const std::vector<Net> nets = {
      {{4, 3}, false, {0, 5, 11}},
      {{4, 4}, true, {0, 6}},
      {{5}, true, {2}},
      {{3, 2, 2}, false, {0, 7}},
      {{3, 3, 2}, true, {4}},
  };
  int checked = 0;
  for (const Pipeline& p : pipelines)
    for (const Net& net : nets) {
      std::string name = net.torus ? "torus:" : "mesh:";
      int endpoints = 1;
      for (std::size_t d = 0; d < net.sizes.size(); ++d) {
        name += (d ? "x" : "") + std::to_string(net.sizes[d]);
        endpoints *= net.sizes[d];
      }
      for (int packet_flits : {1, 4}) {
        RouterConfig rc = p.router(packet_flits);
        rc.buffer_flits = 4;
        rc.vcs = 2;
        for (int source : net.sources) {
          const auto packets = lone_packets(name, endpoints, source, rc, packet_flits);
          ASSERT_EQ(packets.size(), static_cast<std::size_t>(endpoints - 1)) << name;
          for (const auto& d : packets) {
            const int h = grid_hops(net.sizes, net.torus, d.source, d.destination);
            EXPECT_EQ(d.hops, h) << name << " " << d.source << "->" << d.destination;
            EXPECT_EQ(d.latency, p.latency(h, rc, packet_flits))
                << name << " " << d.source << "->" << d.destination << " routing " << p.routing << " allocation "
                << p.allocation << " traversal " << p.traversal << " link " << p.link << " flits " << packet_flits;
            ++checked;
          }
        }
      }
    }
  EXPECT_GT(checked, 1000);
}

// The own VC allocator (vc_allocator_stage: own-allocator) runs in the last
// cycle of routing_delay and round-robin VC bids change only which VC bids:
// a lone packet still sees the closed form above.
TEST(ZeroLoad, OwnVcAllocatorKeepsTheClosedForm) {
  const std::vector<Pipeline> pipelines = {{1, 1, 0, 1}, {2, 1, 1, 2}, {3, 2, 1, 3}};
  int checked = 0;
  for (const Pipeline& p : pipelines)
    for (const bool torus : {false, true})
      for (int packet_flits : {1, 4}) {
        RouterConfig rc = p.router(packet_flits);
        rc.credit_release_delay = 1;
        rc.vc_allocator_own = true;
        rc.round_robin_vc_bid = true;
        rc.dateline_whole_dimension = torus;
        const std::vector<int> sizes = {4, 3};
        const auto packets = lone_packets(torus ? "torus:4x3" : "mesh:4x3", 12, 5, rc, packet_flits);
        ASSERT_EQ(packets.size(), 11u);
        for (const auto& d : packets) {
          const int h = grid_hops(sizes, torus, d.source, d.destination);
          EXPECT_EQ(d.latency, p.latency(h, rc, packet_flits))
              << (torus ? "torus " : "mesh ") << d.source << "->" << d.destination << " routing " << p.routing;
          ++checked;
        }
      }
  EXPECT_EQ(checked, 3 * 2 * 2 * 11);
}

// Idle modules do not run (architecture, "Cycle-accurate models"): a lone
// packet crossing an 8x8 mesh wakes only the routers on its path, for a few
// cycles each, instead of 64 routers in every one of 10,000 cycles.
TEST(ZeroLoad, IdleRoutersAreNotEvaluated) {
  SyntheticScenario s;
  s.topology = "mesh:8x8";
  s.load.packet_flits = 4;
  s.load.injection_rate = 4.0 / 10000.0;
  s.load.periodic = true;
  s.load.packets_per_node = 1;
  s.custom_destination = [](topology::EndpointId src, Random&) -> topology::EndpointId {
    return src == 0 ? 63 : topology::kNone;
  };
  const SyntheticResult r = run_synthetic(s);
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(r.measured_packets, 1u);
  // 15 routers on the route (14 hops). Each is evaluated in the 4 cycles in
  // which a flit arrives and leaves again, not in the cycle after the tail
  // (it is empty then, nothing can request); credits returning after that
  // find it empty and do not wake it. Every other router never runs.
  EXPECT_EQ(r.router_evaluations, 15u * 4u);
}
