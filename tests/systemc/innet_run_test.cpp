// In-network collectives in the cycle model (systemc/switch/innet_fabric.hpp):
// the switches' aggregation units with the engine's HLS class and its
// Verilated RTL compute the collective's definition (the run's data check,
// and the functional executor's words) in the same cycles; every endpoint
// cable carries the vector once each way (the closed form: the parts rounded
// up to whole blocks, against 2(n-1)/n of the vector for a ring allreduce);
// a table of one slot with more trees and blocks than slots completes; bad
// keys are refused naming the key.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "collectives/params.hpp"
#include "systemc/nic/rtl_blocks.hpp"
#include "systemc/run/collective_run.hpp"
#include "tests/support/error_message.hpp"
#include "topology/graph.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

Params scenario(const std::string& algorithm, const std::string& topology, const std::string& elements) {
  return Params{{"algorithm", algorithm}, {"topology", topology}, {"elements", elements}, {"compare", ""}};
}

void expect_pass(const CollectiveResult& r, const std::string& what) {
  EXPECT_TRUE(r.completed) << what;
  EXPECT_TRUE(r.data_check) << what << ": " << (r.check.first_errors.empty() ? "" : r.check.first_errors[0]);
  EXPECT_EQ(r.reference_mismatch_words, 0) << what;
}

}  // namespace

TEST(InNetworkRun, AllreduceHlsAndRtlComputeTheReductionInTheSameCycles) {
  for (const char* topology : {"leafspine:p=6", "fattree:k=4,n=2"}) {
    Params p = scenario("innet-allreduce", topology, "96");
    const CollectiveResult hls = run_collective(collective_from(p));
    expect_pass(hls, std::string(topology) + " hls");
    if (!rtl_blocks_built()) continue;  // (without Verilator switch_blocks=rtl is refused, below)
    p.set("switch_blocks", "rtl");
    const CollectiveResult rtl = run_collective(collective_from(p));
    expect_pass(rtl, std::string(topology) + " rtl");
    EXPECT_EQ(rtl.cycles, hls.cycles) << topology;
  }
}

TEST(InNetworkRun, ReduceAndBcastOnTreesAndFatTrees) {
  Params reduce = scenario("innet-reduce", "fattree:k=4,n=2", "40");
  reduce.set("root", "6");
  expect_pass(run_collective(collective_from(reduce)), "innet-reduce");
  Params bcast = scenario("innet-bcast", "tree:kary=3,n=13", "40");
  bcast.set("root", "11");
  expect_pass(run_collective(collective_from(bcast)), "innet-bcast");
}

TEST(InNetworkRun, EndpointCablesCarryTheVectorOnceEachWay) {
  // leafspine:p=6, 36 endpoints, L = 600 words in blocks of 16: 38 blocks
  // (the last one padded), 608 flits on every endpoint cable in each
  // direction. A ring allreduce puts 2(n-1)/n L = 1166.7 words on each.
  const Params p = scenario("innet-allreduce", "leafspine:p=6", "600");
  CollectiveScenario s = collective_from(p);
  auto flits = std::make_shared<std::map<topology::LinkId, std::uint64_t>>();
  s.flit_probe = [flits](const Link& link, const PacketHeader&, const Flit&, Cycle) { ++(*flits)[link.graph_link()]; };
  const CollectiveResult r = run_collective(s);
  expect_pass(r, "probed run");
  const auto topo = topology::make_topology("leafspine:p=6");
  const topology::Graph& g = topo->graph();
  int cables = 0;
  for (topology::LinkId l = 0; l < static_cast<topology::LinkId>(g.link_count()); ++l) {
    const topology::Link& link = g.link(l);
    if (g.node(link.src).kind != topology::NodeKind::server && g.node(link.dst).kind != topology::NodeKind::server)
      continue;
    ++cables;
    EXPECT_EQ((*flits)[l], 608u) << g.link_name(l);
  }
  EXPECT_EQ(cables, 72);
  EXPECT_LT(608.0, 2.0 * 35 / 36 * 600);
}

TEST(InNetworkRun, OneSlotWithMoreTreesAndBlocksThanSlotsCompletes) {
  for (const char* words : {"16", "2"}) {
    Params p = scenario("innet-allreduce", "fattree:k=4,n=2", "300");
    p.set("aggregation_slots", "1");
    p.set("block_words", words);
    expect_pass(run_collective(collective_from(p)), std::string("block_words ") + words);
  }
  Params reduce = scenario("innet-reduce", "leafspine:p=6", "200");
  reduce.set("aggregation_slots", "1");
  reduce.set("root", "35");
  expect_pass(run_collective(collective_from(reduce)), "innet-reduce, one slot");
}

TEST(InNetworkRun, BadKeysAreRefusedNamingTheKey) {
  const auto refusal = [](Params p) {
    return test::error_message<ConfigError>([&] { (void)run_collective(collective_from(p)); });
  };
  Params slots = scenario("innet-allreduce", "leafspine:p=6", "60");
  slots.set("aggregation_slots", "0");
  EXPECT_NE(refusal(slots).find("aggregation_slots"), std::string::npos) << refusal(slots);
  slots.set("aggregation_slots", "3");
  EXPECT_NE(refusal(slots).find("key 'aggregation_slots': 3"), std::string::npos) << refusal(slots);
  Params rtl_slots = scenario("innet-allreduce", "leafspine:p=6", "60");
  rtl_slots.set("switch_blocks", "rtl");
  rtl_slots.set("aggregation_slots", "4");
  EXPECT_NE(refusal(rtl_slots).find("aggregation_slots"), std::string::npos) << refusal(rtl_slots);
  Params root = scenario("innet-reduce", "fattree:k=4,n=2", "60");
  root.set("root", "16");
  EXPECT_NE(refusal(root).find("key 'root'"), std::string::npos) << refusal(root);
  EXPECT_NE(refusal(scenario("innet-allreduce", "torus:4x4", "60")).find("key 'topology'"), std::string::npos);
  Params vcs = scenario("innet-allreduce", "leafspine:p=6", "60");
  vcs.set("vcs", "1");
  EXPECT_NE(refusal(vcs).find("key 'vcs'"), std::string::npos) << refusal(vcs);
}
