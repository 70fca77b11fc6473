// The routing functions in the cycle model (key `routing`): per-hop adaptive
// routing and Valiant's routing run deadlock-free at saturation and deliver
// every packet; min-adaptive takes minimal routes only, Valiant longer ones;
// adaptive routing raises the saturation of traffic that loads one dimension
// order unevenly; too few VCs or no VC classes are refused naming the key;
// a collective run's randomized routes follow the key `seed`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "collectives/params.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/run/synthetic.hpp"
#include "tests/support/error_message.hpp"
#include "topology/grid.hpp"

using namespace collnet;
using namespace collnet::systemc;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

SyntheticScenario closed(const std::string& topology, const std::string& routing, int vcs,
                         std::uint64_t packets_per_node) {
  SyntheticScenario s;
  s.topology = topology;
  s.router.routing = routing;
  s.router.vcs = vcs;
  s.traffic.pattern = "uniform";
  s.load.injection_rate = 1.0;  // every source saturates the network until its last packet
  s.load.packet_flits = 4;
  s.load.packets_per_node = packets_per_node;
  s.record_packets = true;
  return s;
}

// Minimal hops between two endpoints, from coordinates.
int minimal_hops(const topology::Grid& g, topology::EndpointId a, topology::EndpointId b) {
  const auto ca = g.coord(a);
  const auto cb = g.coord(b);
  int h = 0;
  for (int d = 0; d < g.dims(); ++d) {
    const int diff = std::abs(ca[static_cast<std::size_t>(d)] - cb[static_cast<std::size_t>(d)]);
    h += g.torus() ? std::min(diff, g.size(d) - diff) : diff;
  }
  return h;
}

struct Pair {
  std::string routing;
  std::string topology;
  int vcs;
  std::uint64_t packets;  // per node: enough for 100,000 saturated cycles
  bool vc_allocator_selects = false;  // output_selection vc-allocator (own VC allocator)
};

void PrintTo(const Pair& p, std::ostream* os) { *os << p.routing << " on " << p.topology; }

class RoutingAtSaturation : public ::testing::TestWithParam<Pair> {};

// 100,000 cycles or more of a saturated 4x4 network: no deadlock, every packet
// delivered, and the links carry exactly the hops the routing function is
// expected to take (min-adaptive: minimal; valiant: more).
TEST_P(RoutingAtSaturation, RunsDeadlockFreeAndDeliversEveryPacket) {
  const Pair& p = GetParam();
  const std::uint64_t packets = p.packets;
  SyntheticScenario s = closed(p.topology, p.routing, p.vcs, packets);
  if (p.vc_allocator_selects) {
    s.router.vc_allocator_own = true;
    s.router.vc_allocator_selects = true;
    s.router.routing_delay = 1;
  }
  const SyntheticResult r = run_synthetic(s);
  EXPECT_FALSE(r.deadlock.has_value());
  EXPECT_TRUE(r.completed);
  EXPECT_GE(r.cycles, 100000u);
  EXPECT_EQ(r.measured_packets, 16 * packets);
  EXPECT_EQ(r.unfinished_packets, 0u);
  EXPECT_EQ(r.integrity_errors, 0u);
  const topology::Grid g({4, 4}, p.topology.starts_with("torus"));
  std::uint64_t minimal = 0;
  for (const auto& d : r.packets) minimal += static_cast<std::uint64_t>(minimal_hops(g, d.source, d.destination));
  const std::uint64_t network_flits = r.router_traversals - 16 * packets * 4;  // minus the ejection links
  if (p.routing != "valiant") EXPECT_EQ(network_flits, 4 * minimal);
  else EXPECT_GT(network_flits, 4 * minimal + 4 * minimal / 2);  // a detour through a random router
}

INSTANTIATE_TEST_SUITE_P(Pairs, RoutingAtSaturation,
                         ::testing::Values(Pair{"min-adaptive", "mesh:4x4", 2, 17500},
                                           Pair{"min-adaptive", "torus:4x4", 3, 22000},
                                           Pair{"dor-vc-adaptive", "torus:4x4", 3, 20500, true},
                                           Pair{"valiant", "mesh:4x4", 2, 8800}, Pair{"valiant", "torus:4x4", 4, 10000}),
                         [](const ::testing::TestParamInfo<Pair>& p) {
                           std::string n = p.param.routing + "_" + p.param.topology.substr(0, p.param.topology.find(':'));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

double saturation(const std::string& routing, int vcs, bool vc_allocator_selects = false) {
  SyntheticScenario s;
  s.router.vc_allocator_own = vc_allocator_selects;
  s.router.vc_allocator_selects = vc_allocator_selects;
  s.router.routing_delay = vc_allocator_selects ? 1 : 0;
  s.topology = "mesh:8x8";
  s.router.routing = routing;
  s.router.vcs = vcs;
  s.traffic.pattern = "transpose";
  s.load.injection_rate = 1.0;
  s.load.packet_flits = 4;
  s.warmup_cycles = 1000;
  s.measure_cycles = 3000;
  s.drain_cycles = 0;
  return run_synthetic(s).accepted_rate;
}

// Transpose on a mesh: dimension order sends every packet of a row through
// its turn at the diagonal; minimal adaptive spreads them over both
// productive directions and accepts more.
TEST(RoutingRun, MinAdaptiveAcceptsMoreTransposeTrafficThanDimensionOrder) {
  const double dor = saturation("dor", 2);
  const double adaptive = saturation("min-adaptive", 2);
  EXPECT_GT(adaptive, 1.2 * dor) << "dor " << dor << ", min-adaptive " << adaptive;
}

// dor-vc-adaptive keeps dimension order's hops and only chooses the VC class:
// on transpose it stays within a few percent of dimension order with as
// many VCs, well below min-adaptive, whichever way its output is selected.
TEST(RoutingRun, DorVcAdaptiveAcceptsTransposeTrafficLikeDimensionOrder) {
  const double dor = saturation("dor", 2);
  const double adaptive = saturation("min-adaptive", 2);
  for (bool vc_allocator_selects : {false, true}) {
    const double dor_vc = saturation("dor-vc-adaptive", 2, vc_allocator_selects);
    EXPECT_NEAR(dor_vc, dor, 0.1 * dor) << "vc-allocator " << vc_allocator_selects;
    EXPECT_GT(adaptive, 1.2 * dor_vc) << "vc-allocator " << vc_allocator_selects;
  }
}

TEST(RoutingRun, OutputSelectionByTheVcAllocatorNeedsItsOwnAllocatorAndPerHopRouting) {
  SyntheticScenario s = closed("torus:4x4", "min-adaptive", 3, 1);
  s.router.vc_allocator_selects = true;
  const std::string no_own = collnet::test::error_message<ConfigError>([&] { (void)run_synthetic(s); });
  EXPECT_THAT(no_own, AllOf(HasSubstr("key 'output_selection'"), HasSubstr("own-allocator")));
  s = closed("torus:4x4", "dor", 2, 1);
  s.router.vc_allocator_own = true;
  s.router.vc_allocator_selects = true;
  s.router.routing_delay = 1;
  const std::string one_route = collnet::test::error_message<ConfigError>([&] { (void)run_synthetic(s); });
  EXPECT_THAT(one_route, AllOf(HasSubstr("key 'output_selection'"), HasSubstr("routing dor")));
}

TEST(RoutingRun, TooFewVcsOrNoClassesAreRefusedNamingTheKey) {
  SyntheticScenario s = closed("torus:4x4", "min-adaptive", 2, 1);
  try {
    (void)run_synthetic(s);
    FAIL() << "vcs 2 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'vcs': routing min-adaptive on torus:4x4 needs at least 3"),
              std::string::npos)
        << e.what();
  }
  s = closed("torus:4x4", "min-adaptive", 3, 1);
  s.router.dateline = false;
  try {
    (void)run_synthetic(s);
    FAIL() << "dateline false accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'dateline'"), std::string::npos) << e.what();
  }
  s = closed("torus:4x4", "valiant", 3, 1);
  try {
    (void)run_synthetic(s);
    FAIL() << "valiant with 3 VCs on a torus accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'vcs'"), std::string::npos) << e.what();
  }
}

// Valiant's intermediate routers come from the per-packet random words of
// the run's `seed` in a collective run too: another seed sends the packets
// through other routers (other link crossings), the same seed repeats the
// run, and the data arrive either way.
TEST(RoutingRun, CollectiveRunsDrawValiantsIntermediatesFromTheSeed) {
  const auto run = [](const std::string& seed) {
    return run_collective(collective_from(Params{{"topology", "mesh:4x4"},
                                                 {"routing", "valiant"},
                                                 {"vcs", "2"},
                                                 {"algorithm", "pairwise-alltoall"},
                                                 {"message_flits", "8"},
                                                 {"seed", seed}}));
  };
  const CollectiveResult one = run("1");
  const CollectiveResult again = run("1");
  const CollectiveResult two = run("2");
  for (const CollectiveResult* r : {&one, &two}) {
    EXPECT_TRUE(r->completed);
    EXPECT_TRUE(r->data_check);
  }
  EXPECT_EQ(one.flit_hops, again.flit_hops);
  EXPECT_EQ(one.cycles, again.cycles);
  EXPECT_NE(one.flit_hops, two.flit_hops);
}

}  // namespace
