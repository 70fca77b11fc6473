// Dragonfly, `dragonfly:p=P[,a=A,h=H,g=G][,local_latency=L][,global_latency=L]
// [,local_bandwidth=B][,global_bandwidth=B]`
// (Kim, Dally, Scott and Abts,
// "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA 2008).
//
// G groups of A routers; the routers of a group are fully connected by local
// cables; each router has P endpoints and H global cables to other groups.
// Defaults: A = 2P, H = P, G = A*H + 1 (the balanced dragonfly, one global
// cable between every two groups): p=2 gives 9 groups of 4 routers, 72
// endpoints, BookSim2's `topology = dragonflynew` with k = 2.
//   Endpoints: each is a server node (NodeKind::server) on one terminal port
//   of its router; endpoint e is on router e / P (router id = group*A +
//   index in group), terminal port e % P.
//   Router ports: 0..P-1 terminals, P..P+A-2 local (the cable to router j of
//   the group is port P + j, or P + j - 1 above the router's own index),
//   P+A-1..P+A+H-2 global.
//   Global wiring (BookSim2's dragonflynew, "consecutive" arrangement): the
//   A*H global ports of group G are numbered router by router, t = index*H +
//   global port; port t leads to group t if t < G, else t + 1. So groups G and
//   D < G are joined by G's port D and D's port G - 1. With G < A*H + 1 the
//   last global ports stay unconnected.
// Labels: servers are their endpoint ids; router (group, index) is
// S + group*B + index, S and B the smallest powers of ten above the endpoint
// count and A - 1. p=2: routers 100..183, "132" = group 3, router 2.
// Latency: local cables local_latency, global cables global_latency (cycles;
// defaults 10 and 100, BookSim2's dragonflynew); server cables the scenario's
// link_latency.
// Bandwidth: local cables local_bandwidth, global cables global_bandwidth
// (flits per cycle, each way; default 1: graph.hpp, Bandwidth); server
// cables 1 (the NIC's own keys injection_bandwidth and ejection_bandwidth
// set the NIC ports').
//
// Routing (key `routing`, topology/routing/dragonfly.cpp and ugal.cpp; the
// route hint, when not 0, fixes Valiant's intermediate group: hint - 1):
//   min      (default) local hop to the router holding the cable to the destination
//            group, the global cable, local hop to the destination router.
//            VC class 0 before the global cable, 1 from it on (2 classes);
//            the endpoint cables at both ends take any VC (kAnyVcClass), as
//            BookSim2's injection channels do.
//   valiant  a packet between two groups first goes minimally to a random
//            intermediate group (neither source nor destination group; drawn
//            per packet from the packet's random word, itself drawn from
//            the run's seed), then minimally on.
//            Classes 0, 1 from the first global cable, 2 from the second
//            (3 classes). Within one group the route is minimal.
//   ugal     UGAL-L, per hop: the source router picks the minimal or a
//            Valiant path by its output's queue x the path's hops
//            (topology/routing/ugal.cpp; 3 classes).
// The classes only ever increase along a route, so routes are deadlock free
// when each class has a VC of its own (vcs >= the class count).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "topology/topology.hpp"

namespace collnet::topology {

class Dragonfly final : public Topology {
 public:
  /// vc_class of the endpoint cables' hops (into the source router, out of
  /// the destination router): any VC, as a router reads class 0xFF
  /// (systemc/router/router.hpp). No buffer waits on those in a cycle: an endpoint's
  /// node only injects, and always drains what it receives.
  static constexpr std::uint8_t kAnyVcClass = 0xFF;

  struct Shape {
    int p = 2, a = 4, h = 2, g = 9;
    int local_latency = 10, global_latency = 100;
    Bandwidth local_bandwidth{}, global_bandwidth{};
  };

  explicit Dragonfly(Shape shape);

  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] int router_count() const { return shape_.a * shape_.g; }
  /// Graph node of router `index` of `group`.
  [[nodiscard]] NodeId router_node(int group, int index) const;
  /// Group of an endpoint.
  [[nodiscard]] int group_of(EndpointId e) const { return e / (shape_.p * shape_.a); }
  /// Group and index in group of a router node (-1 for a server).
  [[nodiscard]] int group(NodeId node) const;
  [[nodiscard]] int index(NodeId node) const;
  [[nodiscard]] bool is_global(LinkId link) const;
  /// Router (index in group) of `group` holding the global cable to group
  /// `to`, and that cable's port.
  [[nodiscard]] std::pair<int, int> gateway(int group, int to) const;

  static constexpr int kMaxEndpoints = 65536;
  static constexpr long kMaxCables = 500000;  // endpoint, local and global cables (memory of the graph and model)

 private:
  Shape shape_;
  NodeId first_router_ = 0;
};

/// Parses the spec form above.
std::unique_ptr<Topology> make_dragonfly(std::string_view spec);

}  // namespace collnet::topology
