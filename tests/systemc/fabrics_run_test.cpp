// Fat trees and dragonflies in the cycle model: lone packets take the
// closed-form zero-load latency over each cable's own latency (a dragonfly's
// local and global cables), every topology x routing carries uniform
// traffic at its saturation for 100,000 cycles without deadlock and delivers
// every packet, and the dragonfly's group-shift pattern reaches the next
// group only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>

#include "systemc/run/synthetic.hpp"
#include "tests/support/error_message.hpp"
#include "tests/support/synthetic_fixtures.hpp"
#include "topology/dragonfly.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

/// Least sum over the cables of a path of (router_delay + the cable's latency),
/// from one endpoint's node to every node (Dijkstra on the graph).
std::vector<long> path_cost(const topology::Graph& g, topology::NodeId from, const RouterConfig& rc) {
  std::vector<long> dist(g.node_count(), -1);
  using Item = std::pair<long, topology::NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  queue.push({0, from});
  while (!queue.empty()) {
    const auto [d, n] = queue.top();
    queue.pop();
    if (dist[static_cast<std::size_t>(n)] >= 0) continue;
    dist[static_cast<std::size_t>(n)] = d;
    for (topology::LinkId l : g.node(n).out_ports) {
      if (l == topology::kNone) continue;
      const int latency = g.link(l).latency > 0 ? g.link(l).latency : rc.link_latency;
      queue.push({d + rc.router_delay() + latency, g.link(l).dst});
    }
  }
  return dist;
}

}  // namespace

TEST(FabricsZeroLoad, LonePacketsTakeEachCablesOwnLatency) {
  RouterConfig rc;
  rc.link_latency = 2;
  rc.switching = Switching::virtual_cut_through;
  for (const std::string spec : {"dragonfly:p=2,local_latency=5,global_latency=40", "fattree:k=4,n=3"}) {
    const auto topo = topology::make_topology(spec);
    const int source = 3;
    const SyntheticResult r = run_synthetic(test::lone_packets(spec, topo->endpoint_count(), source, rc, 4, 1000));
    ASSERT_TRUE(r.completed) << spec;
    ASSERT_EQ(r.packets.size(), static_cast<std::size_t>(topo->endpoint_count() - 1));
    const auto cost = path_cost(topo->graph(), topo->graph().endpoint_node(source), rc);
    for (const auto& p : r.packets) {
      // The closed form of zero_load_test.cpp: every cable with its router
      // stage, the destination's router, the two NIC ports, the tail.
      const long expected = cost[static_cast<std::size_t>(topo->graph().endpoint_node(p.destination))] +
                            rc.router_delay() + 2 * rc.nic_latency + 3;
      EXPECT_EQ(static_cast<long>(p.latency), expected) << spec << " to " << p.destination;
    }
  }
}

// endpoint_attach direct: the NIC sends on the server's cable straight into
// its switch and receives from the switch's terminal port, so a packet skips
// the server's own router stage at both ends: every cable with the stage of
// the router it leaves (the server's none), the destination switch's stage on
// the way out, the tail. The cable has the scenario's link_latency (2 here,
// not the NIC port's 1), the packets the same hops less the two cables.
TEST(FabricsZeroLoad, DirectEndpointsSkipTheServerStageAtBothEnds) {
  RouterConfig rc;
  rc.link_latency = 2;
  rc.switching = Switching::virtual_cut_through;
  for (const std::string spec : {"dragonfly:p=2,local_latency=5,global_latency=40", "fattree:k=4,n=3",
                                 "leafspine:p=6"}) {
    const auto topo = topology::make_topology(spec);
    const int source = 3;
    SyntheticScenario server = test::lone_packets(spec, topo->endpoint_count(), source, rc, 4, 1000);
    // (its own scenario: the destination counter is shared by copies)
    SyntheticScenario direct = test::lone_packets(spec, topo->endpoint_count(), source, rc, 4, 1000);
    direct.endpoint_attach = EndpointAttach::direct;
    const SyntheticResult by_server = run_synthetic(server);
    const SyntheticResult r = run_synthetic(direct);
    ASSERT_TRUE(r.completed) << spec;
    ASSERT_EQ(r.packets.size(), static_cast<std::size_t>(topo->endpoint_count() - 1));
    ASSERT_EQ(by_server.packets.size(), r.packets.size());
    // Only the switches run: every endpoint of these fabrics is a server.
    EXPECT_EQ(r.routers, topo->graph().node_count() - static_cast<std::size_t>(topo->endpoint_count())) << spec;
    EXPECT_EQ(by_server.routers, topo->graph().node_count()) << spec;
    const auto cost = path_cost(topo->graph(), topo->graph().endpoint_node(source), rc);
    for (std::size_t i = 0; i < r.packets.size(); ++i) {
      const auto& p = r.packets[i];
      const long expected =
          cost[static_cast<std::size_t>(topo->graph().endpoint_node(p.destination))] - rc.router_delay() + 3;
      EXPECT_EQ(static_cast<long>(p.latency), expected) << spec << " to " << p.destination;
      EXPECT_EQ(p.destination, by_server.packets[i].destination);
      EXPECT_EQ(p.hops + 2, by_server.packets[i].hops) << spec << " to " << p.destination;
    }
  }
}

TEST(FabricsEndpointAttach, DirectIsRefusedWhereEndpointsAreRouters) {
  for (const std::string spec : {"mesh:4x4", "torus:4x4"}) {
    SyntheticScenario s;
    s.topology = spec;
    s.endpoint_attach = EndpointAttach::direct;
    s.measure_cycles = 10;
    try {
      (void)run_synthetic(s);
      ADD_FAILURE() << spec << ": endpoint_attach direct accepted";
    } catch (const ConfigError& e) {
      EXPECT_THAT(e.what(), AllOf(HasSubstr("key 'endpoint_attach'"), HasSubstr(spec), HasSubstr("accepted here: server")));
    }
  }
}

struct Saturated {
  std::string topology;
  std::string routing;
  double rate;  // offered flits/endpoint/cycle: the network's measured saturation
  int vcs;
  int buffer_flits;
};

class FabricsAtSaturation : public ::testing::TestWithParam<Saturated> {};

TEST_P(FabricsAtSaturation, UniformTrafficFor100000CyclesDeliversEveryPacket) {
  const Saturated& c = GetParam();
  SyntheticScenario s;
  s.topology = c.topology;
  s.router.routing = c.routing;
  s.router.vcs = c.vcs;
  s.router.buffer_flits = c.buffer_flits;
  s.load.injection_rate = c.rate;
  s.load.packet_flits = 4;
  s.warmup_cycles = 0;
  s.measure_cycles = 100000;
  s.drain_cycles = 20000;
  const SyntheticResult r = run_synthetic(s);
  EXPECT_FALSE(r.deadlock.has_value()) << c.topology;
  EXPECT_TRUE(r.completed) << c.topology;
  EXPECT_EQ(r.unfinished_packets, 0u);
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
  EXPECT_GT(r.measured_packets, static_cast<std::uint64_t>(0.9 * c.rate / 4 * 100000 * r.endpoints));
}

INSTANTIATE_TEST_SUITE_P(
    Fabrics, FabricsAtSaturation,
    // Rates: the accepted rate of each network at an offered load of 1.0
    // (collnet run, default router, 4-flit packets, 16-flit buffers).
    ::testing::Values(Saturated{"fattree:k=2,n=3", "nca", 0.73, 2, 16},
                      Saturated{"fattree:k=2,n=3", "nca-random", 0.72, 2, 16},
                      Saturated{"fattree:k=2,n=3", "nca-adaptive", 0.72, 2, 16},
                      Saturated{"dragonfly:p=1,a=2,h=2,g=5,local_latency=2,global_latency=8", "min", 0.71, 2, 16},
                      Saturated{"dragonfly:p=1,a=2,h=2,g=5,local_latency=2,global_latency=8", "valiant", 0.51, 3,
                                16},
                      Saturated{"dragonfly:p=1,a=2,h=2,g=5,local_latency=2,global_latency=8", "ugal", 0.76, 3,
                                16},
                      Saturated{"dragonfly:p=1,a=2,h=2,g=5,local_latency=2,global_latency=8", "ugal-booksim2", 0.75,
                                4, 16}),
    [](const ::testing::TestParamInfo<Saturated>& point) {
      std::string name = point.param.topology.substr(0, point.param.topology.find(':')) + "_" + point.param.routing;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

namespace {

SyntheticResult dragonfly_run(const std::string& routing, const std::string& pattern, double rate,
                              long ugal_threshold = 0, int vcs = 3) {
  SyntheticScenario s;
  s.router.weighed_threshold = ugal_threshold;
  // 5 groups of 4 routers with 1 endpoint each, one global cable per router:
  // one between every two groups.
  s.topology = "dragonfly:p=1,a=4,h=1,g=5,local_latency=2,global_latency=8";
  s.router.routing = routing;
  s.router.vcs = vcs;
  s.router.buffer_flits = 16;
  s.traffic.pattern = pattern;
  s.load.injection_rate = rate;
  s.load.packet_flits = 4;
  s.warmup_cycles = 1000;
  s.measure_cycles = 3000;
  s.drain_cycles = 0;
  return run_synthetic(s);
}

}  // namespace

// UGAL's known behaviour (Kim et al., ISCA 2008): under group-shift every
// packet of a group wants the one global cable to the next group, which
// caps minimal routing at 1 / (endpoints per group) = 0.25 here, while
// Valiant paths spread the load over every global cable (two per packet, 4
// per group: at most 0.5); UGAL sends packets non-minimally as the minimal
// cable's queue grows and accepts clearly more than min. Under uniform
// traffic at low load the queues stay short, UGAL takes the minimal path
// nearly always and its latency stays close to min's, far from Valiant's.
TEST(FabricsUgal, BeatsMinUnderGroupShiftAndStaysCloseToItUnderLowUniformLoad) {
  const double min_shift = dragonfly_run("min", "group-shift", 1.0).accepted_rate;
  const double ugal_shift = dragonfly_run("ugal", "group-shift", 1.0).accepted_rate;
  EXPECT_NEAR(min_shift, 0.25, 0.03);
  EXPECT_GT(ugal_shift, 1.5 * min_shift) << "min " << min_shift << ", ugal " << ugal_shift;
  const double min_uniform = dragonfly_run("min", "uniform", 0.1).avg_latency;
  const double ugal_uniform = dragonfly_run("ugal", "uniform", 0.1).avg_latency;
  const double valiant_uniform = dragonfly_run("valiant", "uniform", 0.1).avg_latency;
  EXPECT_GT(valiant_uniform, 1.3 * min_uniform);  // the detour costs (else the comparison says nothing)
  EXPECT_LT(ugal_uniform, min_uniform + 0.3 * (valiant_uniform - min_uniform))
      << "min " << min_uniform << ", ugal " << ugal_uniform << ", valiant " << valiant_uniform;
  EXPECT_LT(ugal_uniform, 1.1 * min_uniform) << "min " << min_uniform << ", ugal " << ugal_uniform;
}

// ugal-booksim2 (BookSim2's paths: the intermediate a random router of the
// whole network, 4 VC classes ordering every path) under full group-shift
// load: no deadlock, every flit intact, and more accepted than min, whose
// one global cable per group pair caps it at 0.25; less than ugal's, since a
// draw in the source or destination group (2 in 5 here) crosses the minimal
// cable whatever the queues say.
TEST(FabricsUgal, BookSim2PathsAreDeadlockFreeAndSitBetweenMinAndUgalUnderGroupShift) {
  const SyntheticResult r = dragonfly_run("ugal-booksim2", "group-shift", 1.0, 0, 4);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_EQ(r.integrity_errors, 0u) << r.first_integrity_error;
  const double min_shift = dragonfly_run("min", "group-shift", 1.0).accepted_rate;
  const double ugal_shift = dragonfly_run("ugal", "group-shift", 1.0, 0, 4).accepted_rate;
  EXPECT_GT(r.accepted_rate, 1.2 * min_shift) << "min " << min_shift << ", ugal-booksim2 " << r.accepted_rate;
  EXPECT_LT(r.accepted_rate, ugal_shift) << "ugal " << ugal_shift << ", ugal-booksim2 " << r.accepted_rate;
}

// The threshold keeps the minimal path until the Valiant one is clearly
// emptier: at low uniform load UGAL's latency comes down to min's (queues of
// a few flits never outweigh it), while under group-shift the minimal cable's
// queue grows past it and UGAL still spreads the load.
TEST(FabricsUgal, AThresholdKeepsTheMinimalPathAtLowLoadAndStillSpreadsGroupShift) {
  const double min_uniform = dragonfly_run("min", "uniform", 0.1).avg_latency;
  const double plain = dragonfly_run("ugal", "uniform", 0.1).avg_latency;
  const double biased = dragonfly_run("ugal", "uniform", 0.1, 30).avg_latency;
  EXPECT_LT(biased, plain) << "threshold 0 " << plain << ", 30 " << biased;
  EXPECT_LT(biased, 1.02 * min_uniform) << "min " << min_uniform << ", ugal with threshold 30 " << biased;
  const double min_shift = dragonfly_run("min", "group-shift", 1.0).accepted_rate;
  const double biased_shift = dragonfly_run("ugal", "group-shift", 1.0, 30).accepted_rate;
  EXPECT_GT(biased_shift, 1.5 * min_shift) << "min " << min_shift << ", ugal with threshold 30 " << biased_shift;
}

TEST(FabricsUgal, TheThresholdIsRefusedWithRoutingThatDoesNotWeighPaths) {
  SyntheticScenario s;
  s.topology = "dragonfly:p=2";
  s.router.routing = "min";
  s.router.weighed_threshold = 30;
  EXPECT_THAT(collnet::test::error_message<ConfigError>([&] { (void)run_synthetic(s); }),
              AllOf(HasSubstr("key 'ugal_threshold'"), HasSubstr("routing min")));
}

TEST(FabricsUgal, TheBookSim2RuleIsRefusedWithRoutingThatDoesNotWeighPaths) {
  SyntheticScenario s;
  s.topology = "dragonfly:p=2";
  s.router.routing = "valiant";
  s.router.vcs = 3;
  s.router.weighed_once = true;
  EXPECT_THAT(collnet::test::error_message<ConfigError>([&] { (void)run_synthetic(s); }),
              AllOf(HasSubstr("key 'ugal_rule'"), HasSubstr("routing valiant")));
}

TEST(FabricsVcs, TooFewVcsForTheDragonflysClassesAreRefused) {
  SyntheticScenario s;
  s.topology = "dragonfly:p=2";
  s.router.routing = "valiant";
  s.router.vcs = 2;
  try {
    (void)run_synthetic(s);
    FAIL() << "vcs 2 accepted for 3 VC classes";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'vcs': routing valiant on dragonfly:p=2 needs at least 3 VCs"),
              std::string::npos)
        << e.what();
  }
}

TEST(GroupShift, SendsToTheNextGroupOnlyAndIsRefusedElsewhere) {
  const auto topo = topology::make_topology("dragonfly:p=2");
  const auto& fly = dynamic_cast<const topology::Dragonfly&>(*topo);
  TrafficOptions o;
  o.pattern = "group-shift";
  const DestinationFn next = make_pattern(*topo, o);
  Random random(5, 0);
  std::vector<int> hits(static_cast<std::size_t>(topo->endpoint_count()), 0);
  for (topology::EndpointId s = 0; s < topo->endpoint_count(); ++s)
    for (int i = 0; i < 200; ++i) {
      const topology::EndpointId d = next(s, random);
      EXPECT_EQ(fly.group_of(d), (fly.group_of(s) + 1) % 9);
      ++hits[static_cast<std::size_t>(d)];
    }
  // Each endpoint is drawn by the 8 sources of the group before it.
  for (int h : hits) EXPECT_GT(h, 0);
  try {
    (void)make_pattern(*topology::make_topology("fattree:k=4,n=2"), o);
    FAIL() << "group-shift accepted on a fat tree";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'group-shift' needs a dragonfly"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("fattree:k=4,n=2"), std::string::npos);
  }
}
