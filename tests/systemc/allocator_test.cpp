// The router's switch allocators (router.hpp step 3, keys `allocator` and
// `allocator_iterations`) and atomic VC allocation (step 2, key
// `vc_allocation`): the keys and their errors; the router-fairness
// facts of document 000 hold under the output-first allocator as under the
// input-first one; collectives land every word under it; and on the DOR turn
// of A2AT's (i, i) groups (document 001) it keeps the turning input port
// busy where the one-round input-first allocator lets it idle.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>

#include "collectives/descriptor.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/run/synthetic.hpp"
#include "tests/support/synthetic_fixtures.hpp"
#include "topology/grid.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

RouterConfig allocator(Allocator a, int iterations) {
  RouterConfig c;
  c.allocator = a;
  c.allocator_iterations = iterations;
  return c;
}

/// Document 000 FIG. 5 (tests/support/synthetic_fixtures.hpp): the sources'
/// shares of the link the three flows share, and its load.
test::LinkShares shares(RouterConfig router, const std::string& arbitration) {
  router.arbitration = arbitration;
  router.buffer_flits = 8;
  return test::fig5_shares(test::fig5_line(router, 2000, 20000));
}

/// Every node sends one message of `words` to offset (+2, +2) on the 8x8
/// torus, node e starting e mod 5 cycles late (a local copy first). Each +x
/// and +y link carries exactly two of the flows, so the bound is 2 x words
/// flit times; at every router the input from -x holds the flow going on in
/// +x and the flow turning to +y, both outputs contested by a second flow.
CollectiveResult diagonal_flows(const RouterConfig& router, std::uint32_t words) {
  CollectiveScenario s;
  s.topology = "torus:8x8";
  s.algorithm = "a2a-optimal";
  s.router = router;
  s.router.vcs = 4;
  s.router.buffer_flits = 16;
  s.nic.controllers = 1;
  s.dispatch = "named";
  s.schedule_engine = "reference";
  s.custom_schedule = [words](const topology::Topology& t) {
    const auto& grid = dynamic_cast<const topology::Grid&>(t);
    const auto n = static_cast<std::uint32_t>(t.endpoint_count());
    collectives::Schedule sc;
    sc.algorithm = "diagonal";
    sc.memory_words = 2 * n * words;
    sc.programs.resize(n);
    for (std::uint32_t e = 0; e < n; ++e) {
      const std::uint32_t late = e % 5;
      if (late > 0) {
        Descriptor copy;
        copy.opcode = Opcode::send;
        copy.dest = e;
        copy.dst_offset = n * words;
        copy.length = late;
        copy.tag = 1;
        sc.programs[e].push_back(copy);
      }
      Descriptor d;
      d.opcode = Opcode::send;
      const std::array<int, 2> offset{2, 2};
      d.dest = static_cast<std::uint32_t>(grid.shifted(static_cast<topology::EndpointId>(e), offset));
      d.src_offset = 0;
      d.dst_offset = n * words;
      d.length = words;
      sc.programs[e].push_back(d);
      sc.programs[e].push_back(Descriptor::end());
    }
    sc.expected = [](topology::EndpointId) { return std::vector<collectives::Region>{}; };
    return sc;
  };
  return run_collective(s);
}

}  // namespace

TEST(Allocator, KeysReadAndBadValuesNameTheKey) {
  const RouterConfig d = router_config_from(Params{});
  EXPECT_EQ(d.allocator, Allocator::input_first);
  EXPECT_EQ(d.allocator_iterations, 1);
  const RouterConfig c = router_config_from(Params{{"allocator", "output-first"}, {"allocator_iterations", "3"}});
  EXPECT_EQ(c.allocator, Allocator::output_first);
  EXPECT_EQ(c.allocator_iterations, 3);
  const auto fails = [](Params p, const std::string& key) {
    try {
      (void)router_config_from(p);
      ADD_FAILURE() << "no error for " << key;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  EXPECT_FALSE(d.atomic_vc_allocation);
  EXPECT_TRUE(router_config_from(Params{{"vc_allocation", "atomic"}}).atomic_vc_allocation);
  fails({{"vc_allocation", "eager"}}, "vc_allocation");
  fails({{"allocator", "wavefront"}}, "allocator");
  fails({{"allocator_iterations", "0"}}, "allocator_iterations");
  fails({{"allocator_iterations", "5"}}, "allocator_iterations");
  RouterConfig bad;
  bad.allocator_iterations = 0;
  EXPECT_THROW(bad.validate(), ConfigError);
}

// Spec a2a-hopgroup router fact 5 under the output-first allocator and under
// atomic VC allocation: age gives 1/3 each, local-through 0.25 / 0.25 / 0.50,
// and the shared link runs full.
TEST(Allocator, RouterFairnessFactsHoldOutputFirstAndAtomic) {
  for (int iterations : {1, 2, 0}) {
    RouterConfig router = allocator(Allocator::output_first, std::max(iterations, 1));
    router.atomic_vc_allocation = iterations == 0;  // 0: atomic VCs, output-first, one round
    const auto age = shares(router, "age");
    for (double share : age.share) EXPECT_NEAR(share, 1.0 / 3.0, 0.02) << "iterations " << iterations;
    EXPECT_NEAR(age.load, 1.0, 0.01);
    const auto split = shares(router, "local-through");
    EXPECT_NEAR(split.share[0], 0.25, 0.02) << "iterations " << iterations;
    EXPECT_NEAR(split.share[1], 0.25, 0.02) << "iterations " << iterations;
    EXPECT_NEAR(split.share[2], 0.50, 0.02) << "iterations " << iterations;
    EXPECT_NEAR(split.load, 1.0, 0.01);
  }
}

// Every word lands where the functional executor puts it, under both
// allocators, one and several rounds, non-atomic and atomic VC allocation, for the all-to-alls of documents 000 and 001.
TEST(Allocator, CollectivesLandEveryWordUnderEveryAllocator) {
  for (const std::string allocator_name : {"input-first", "output-first"})
    for (const std::string iterations : {"1", "3"})
      for (const std::string topology : {"torus:4x4", "mesh:5x3"})
        for (const std::string algorithm : {"a2a-optimal", "a2a-hopgroup", "a2a-spread"})
          for (const std::string arbitration : {"age", "round-robin"}) {
            const CollectiveResult r = run_collective(collective_from(Params{{"topology", topology},
                                                                             {"algorithm", algorithm},
                                                                             {"arbitration", arbitration},
                                                                             {"allocator", allocator_name},
                                                                             {"allocator_iterations", iterations},
                                                                             {"vc_allocation",
                                                                              iterations == "1" ? "non-atomic"
                                                                                                : "atomic"},
                                                                             {"message_flits", "12"}}));
            const std::string what = allocator_name + " x" + iterations + " " + topology + " " + algorithm + " " +
                                     arbitration;
            EXPECT_TRUE(r.data_check) << what;
            EXPECT_EQ(r.reference_mismatch_words, 0) << what;
            EXPECT_FALSE(r.deadlocked()) << what;
          }
}

// The DOR turn of document 001's (i, i) groups: output-first with two rounds
// finishes the two-flows-per-link pattern in fewer cycles than one round of
// input-first (which lets the -x input idle; router.hpp), and neither beats
// the bound of 2 x words flit times.
TEST(Allocator, OutputFirstKeepsTheTurningInputBusy) {
  constexpr std::uint32_t words = 256;
  const CollectiveResult input_first = diagonal_flows(allocator(Allocator::input_first, 1), words);
  const CollectiveResult output_first = diagonal_flows(allocator(Allocator::output_first, 2), words);
  ASSERT_TRUE(input_first.completed);
  ASSERT_TRUE(output_first.completed);
  EXPECT_GE(input_first.cycles, 2 * words);
  EXPECT_GE(output_first.cycles, 2 * words);
  EXPECT_LT(output_first.cycles, input_first.cycles);
}

namespace {

CollectiveResult a2a_with_vcs(const std::string& vcs) {
  return run_collective(collective_from(Params{{"topology", "torus:4x4"},
                                               {"algorithm", "a2a-optimal"},
                                               {"vcs", vcs},
                                               {"allocator", "output-first"},
                                               {"allocator_iterations", "2"},
                                               {"message_flits", "32"}}));
}

}  // namespace

// The allocator's scratch is shared by every router of the process: a later
// network with the same radix and more VCs must get room for them (it once
// kept the first network's size and wrote past it). Same run before and
// after a run with more VCs: same cycles, same data.
TEST(Allocator, ScratchGrowsForALaterNetworkWithMoreVcs) {
  const CollectiveResult first = a2a_with_vcs("2");
  const CollectiveResult more = a2a_with_vcs("16");
  const CollectiveResult again = a2a_with_vcs("2");
  ASSERT_TRUE(first.data_check);
  ASSERT_TRUE(more.data_check);
  ASSERT_TRUE(again.data_check);
  EXPECT_EQ(again.cycles, first.cycles);
  EXPECT_EQ(again.node_finish, first.node_finish);
}
