// RTL in the loop of the NIC: `nic_blocks=rtl` runs the
// Verilated packet pacers and schedule engine in place of the HLS classes and
// must give "same cycles and same data as nic_blocks=hls on a 4x4 torus for
// a2a-optimal and a2a-hopgroup". The HLS run is the independent expectation
// (the RTL is a second implementation of the same blocks); both must also
// pass the data check against the schedule's expectation and equal the
// functional executor word for word. Beyond cycles and memory, every flit on
// every network link must leave in the same cycle with the same header,
// virtual channel and payload: the pacer's gaps and the engine's start-up
// show up in those cycles.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "systemc/run/collective_run.hpp"
#include "systemc/nic/rtl_blocks.hpp"
#include "tests/support/ci_guard.hpp"
#include "tests/support/same_run.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

/// One flit leaving on a network link.
using FlitEvent = std::tuple<topology::LinkId, Cycle, topology::EndpointId, topology::EndpointId, std::uint32_t,
                             std::uint16_t, Cycle, std::uint16_t, std::uint8_t, std::uint64_t>;

struct Traced {
  CollectiveResult result;
  std::vector<FlitEvent> flits;
};

Traced run_traced(Params p, const std::string& blocks) {
  p.set("nic_blocks", blocks);
  CollectiveScenario s = collective_from(p);
  Traced t;
  s.flit_probe = [&t](const Link& link, const PacketHeader& h, const Flit& f, Cycle depart) {
    t.flits.emplace_back(link.graph_link(), depart, h.source, h.destination, h.offset, h.tag, h.inject_cycle, f.index,
                         f.vc, f.payload);
  };
  t.result = run_collective(s);
  return t;
}

void expect_same_run(const Params& p, const std::string& engine) {
  const Traced hls = run_traced(p, "hls");
  const Traced rtl = run_traced(p, "rtl");
  const CollectiveResult& h = hls.result;
  const CollectiveResult& r = rtl.result;
  ASSERT_TRUE(h.completed);
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(h.schedule_engine, "hls-" + engine);
  EXPECT_EQ(r.schedule_engine, "rtl-" + engine);
  EXPECT_EQ(h.nic_blocks, "hls");
  EXPECT_EQ(r.nic_blocks, "rtl");
  // Same memory: both equal the schedule's expectation and the executor.
  EXPECT_TRUE(h.data_check);
  EXPECT_TRUE(r.data_check);
  EXPECT_EQ(h.reference_mismatch_words, 0);
  EXPECT_EQ(r.reference_mismatch_words, 0);
  // Same cycles, link statistics and traffic, then flit by flit.
  test::expect_same_network_run(h, r);
  EXPECT_FALSE(hls.flits.empty());
  ASSERT_EQ(rtl.flits.size(), hls.flits.size());
  for (std::size_t i = 0; i < hls.flits.size(); ++i)
    ASSERT_EQ(rtl.flits[i], hls.flits[i]) << "network flit " << i << " differs";
}

class NicBlocksRtl : public ::testing::Test {
 protected:
  void SetUp() override {
    // (without Verilator nic_blocks=rtl is a ConfigError, tested below)
    if (!rtl_blocks_built())
      COLLNET_SKIP_OUTSIDE_CI("collnet built without Verilator (no RTL blocks)",
                              "verilator (then configure and build again)");
  }
};

TEST_F(NicBlocksRtl, A2aOptimalNct4On4x4TorusEqualsHls) {
  expect_same_run({{"topology", "torus:4x4"}, {"algorithm", "a2a-optimal"}, {"nct", "4"}, {"message_flits", "8"}},
                  "a2at");
}

TEST_F(NicBlocksRtl, A2aHopgroupOn4x4TorusEqualsHls) {
  // Pacing on (gap = hops - 1, slack 2): the pacers' countdowns decide the cycles.
  expect_same_run({{"topology", "torus:4x4"}, {"algorithm", "a2a-hopgroup"}, {"gap_slack", "2"}, {"message_flits", "8"}},
                  "hopgroup");
}

TEST_F(NicBlocksRtl, BackPressureAndOtherEnginesEqualHls) {
  // Short buffers and one VC: the injection port refuses flits, so the pacers
  // see out_ready low mid-packet.
  expect_same_run({{"topology", "torus:4x4"},
                   {"algorithm", "a2a-optimal"},
                   {"nct", "4"},
                   {"message_flits", "8"},
                   {"packet_flits", "3"},
                   {"buffer_flits", "2"}},
                  "a2at");
  expect_same_run({{"topology", "mesh:3x4"}, {"algorithm", "a2a-hopgroup-direct"}, {"message_flits", "5"}}, "hopgroup");
  expect_same_run({{"topology", "torus:2x2x3"}, {"algorithm", "a2a-hopgroup"}, {"mode3d", "concurrent"}}, "hopgroup");
  expect_same_run({{"topology", "torus:4x4"}, {"algorithm", "a2a-spread"}, {"nct", "3"}}, "a2a");
  expect_same_run({{"topology", "mesh:2x3x2"}, {"algorithm", "a2a-nd"}}, "a2a");
  expect_same_run({{"topology", "boards:2x2x1x1"}, {"algorithm", "hd-allreduce"}, {"op", "average"}}, "hd");
  expect_same_run({{"topology", "boards:2x1x2x1"},
                   {"algorithm", "hd-allreduce-conventional"},
                   {"dtype", "float64"},
                   {"aggregation_units", "2"}},
                  "hd");
}

// The two-tree engine in the NIC's loop (document 002 on a leaf/spine
// fabric): loaded by the driver from the procedure tables, its RTL runs the
// same cycles and traffic as its HLS class, and every rank ends with the
// reduction the reference expects.
TEST_F(NicBlocksRtl, TwotreeEngineEqualsHlsOnLeafSpine) {
  expect_same_run({{"topology", "leafspine:p=6"},
                   {"algorithm", "twotree-hier"},
                   {"processes", "18"},
                   {"elements", "16"},
                   {"blocks", "2"}},
                  "twotree");
  expect_same_run({{"topology", "leafspine:p=6"},
                   {"algorithm", "tree-single"},
                   {"collective", "reduce"},
                   {"op", "max"},
                   {"processes", "11"}},
                  "twotree");
}

// The programmable engine (schedule_engine: programmable) replays each
// endpoint's reference program: its RTL runs the same cycles and flits as its
// HLS class, and the data check passes, on algorithms with a dedicated engine,
// without one, and on an imported MSCCL schedule.
TEST_F(NicBlocksRtl, ProgrammableEngineEqualsHls) {
  expect_same_run({{"topology", "torus:4x4"}, {"algorithm", "a2a-optimal"}, {"message_flits", "4"},
                   {"schedule_engine", "programmable"}},
                  "programmable");
  expect_same_run({{"topology", "torus:4x2"}, {"algorithm", "ring-allreduce"}, {"schedule_engine", "programmable"}},
                  "programmable");
  expect_same_run({{"topology", "torus:4x2"},
                   {"algorithm", "msccl"},
                   {"schedule", COLLNET_SOURCE_DIR "/examples/msccl/allreduce_ring_8.xml"},
                   {"chunk_words", "4"},
                   {"schedule_engine", "programmable"}},
                  "programmable");
}

// The tree-bcast forwarding rule: with nic_blocks=rtl
// every NIC asks the Verilated rtl/tree_bcast_rule.sv on each receipt; same
// cycles, flits and data as the HLS class, on trees where the logical root
// is a leaf, an interior node and the physical root, with the physical root
// moved by `root`, and with concurrent sends on several controllers.
TEST_F(NicBlocksRtl, TreeBcastRuleEqualsHls) {
  expect_same_run({{"topology", "tree:parents=-1,0,0,1,1,2,2"}, {"algorithm", "tree-bcast"}, {"logical_root", "4"},
                   {"message_flits", "8"}},
                  "tree_bcast_rule");
  expect_same_run({{"topology", "tree:random=30,seed=5"}, {"algorithm", "tree-bcast"}, {"logical_root", "11"},
                   {"root", "7"}, {"message_flits", "9"}},
                  "tree_bcast_rule");
  expect_same_run({{"topology", "tree:kary=3,n=13"}, {"algorithm", "tree-bcast"}, {"logical_root", "0"},
                   {"controllers", "4"}, {"dispatch", "next-idle"}, {"message_flits", "16"}},
                  "tree_bcast_rule");
}

TEST_F(NicBlocksRtl, ReferenceProgramsWithRtlPacersEqualHls) {
  // schedule_engine reference: only the pacers are RTL; the reference
  // programs of tree-bcast (whose rule block is not asked) run too.
  for (const Params& p : {Params{{"topology", "tree:kary=2,n=7"}, {"algorithm", "tree-bcast"}, {"message_flits", "9"},
                                 {"schedule_engine", "reference"}},
                          Params{{"topology", "torus:4x4"}, {"algorithm", "a2a-hopgroup"}, {"schedule_engine", "reference"}}}) {
    const Traced hls = run_traced(p, "hls");
    const Traced rtl = run_traced(p, "rtl");
    ASSERT_TRUE(rtl.result.completed);
    EXPECT_EQ(rtl.result.schedule_engine, "reference");
    EXPECT_EQ(rtl.result.nic_blocks, "rtl");
    EXPECT_EQ(rtl.result.cycles, hls.result.cycles);
    EXPECT_TRUE(rtl.result.data_check);
    EXPECT_EQ(rtl.flits, hls.flits);
  }
}

void expect_config_error(const Params& p, const std::string& key, const std::string& mentions) {
  try {
    (void)run_collective(collective_from(p));
    ADD_FAILURE() << "no ConfigError for key " << key;
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + key + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(mentions), std::string::npos) << what;
  }
}

TEST(NicBlocksKey, BadInputNamesTheKey) {
  expect_config_error({{"topology", "torus:4x4"}, {"algorithm", "a2a-optimal"}, {"nic_blocks", "vhdl"}}, "nic_blocks",
                      "rtl");
  if (!rtl_blocks_built()) {
    expect_config_error({{"topology", "torus:4x4"}, {"algorithm", "a2a-optimal"}, {"nic_blocks", "rtl"}},
                        "nic_blocks", "Verilator");
    return;
  }
  // No block can run the scenario (tree-bcast: the rule block has 64 ports,
  // a node here has 64 children): the error names the key and the limit.
  expect_config_error({{"topology", "tree:kary=64,n=66"}, {"algorithm", "tree-bcast"}, {"nic_blocks", "rtl"}},
                      "nic_blocks", "at most 63 children");
  // An engine runs it, but the scenario exceeds its tables.
  expect_config_error({{"topology", "torus:20x20"}, {"algorithm", "a2a-optimal"}, {"nic_blocks", "rtl"}},
                      "nic_blocks", "at most 256 offsets");
  expect_config_error({{"topology", "torus:70"}, {"algorithm", "a2a-hopgroup"}, {"nic_blocks", "rtl"}}, "nic_blocks",
                      "at most 64");
  // Asking for the engine explicitly names schedule_engine.
  expect_config_error(
      {{"topology", "torus:70"}, {"algorithm", "a2a-hopgroup"}, {"nic_blocks", "rtl"}, {"schedule_engine", "hls"}},
      "schedule_engine", "at most 64");
}

}  // namespace

namespace {

// The RTL's assertions are live in the loop: a controller that withdraws an
// offered flit (hls/packet_pacer.hpp, "The controller must keep in_valid and
// the flit stable until in_ready") is reported, not silently accepted.
TEST_F(NicBlocksRtl, RtlPacerAssertionsAreLive) {
  auto pacer = make_rtl_pacer();
  hls::PacketPacerInputs offered;
  offered.in_valid = true;
  offered.in_data = 42;
  offered.in_last = true;
  offered.out_ready = false;                    // the port refuses ...
  EXPECT_NO_THROW(pacer->step(offered));
  EXPECT_THROW(pacer->step(hls::PacketPacerInputs{}), std::logic_error);  // ... and the flit is withdrawn
  // A legal transfer after a reset reports nothing.
  pacer->reset();
  offered.out_ready = true;
  EXPECT_NO_THROW(pacer->step(offered));
  EXPECT_NO_THROW(pacer->step(hls::PacketPacerInputs{}));
}

}  // namespace
