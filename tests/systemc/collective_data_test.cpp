// Every all-to-all of documents 000 and 001 run flit by flit on the NICs and
// routers: on 2x2, 3x3, 4x4, 5x3 and 8x8
// (torus and mesh) and 4x4x4, 3x4x5, under every arbitration policy (none of
// them deadlocks here: dateline VCs on the torus, dimension order on the
// mesh), the memory of every node equals the schedule's expectation (the
// definition of the collective: area O of node T holds D(O->T)) and, word
// for word, the functional executor's result. Small messages keep it fast;
// message lengths that are not a multiple of the packet length exercise
// short last packets, and 3-D lengths not divisible by 3 give unequal pieces.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "systemc/run/collective_run.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct Variant {
  std::string name;     // test label
  std::string algorithm;
  Params extra;         // algorithm and NIC keys
};

std::vector<Variant> variants_2d() {
  return {
      {"hopgroup", "a2a-hopgroup", {}},
      {"hopgroup_unpaced", "a2a-hopgroup", {{"pacing", "false"}}},
      {"hopgroup_both_descending", "a2a-hopgroup", {{"directions", "both"}, {"hop_order", "descending"}}},
      {"direct", "a2a-hopgroup-direct", {}},
      {"direct_no_barriers_unpaced", "a2a-hopgroup-direct", {{"barriers", "false"}, {"pacing", "false"}}},
      {"optimal_nct1", "a2a-optimal", {{"nct", "1"}}},
      {"optimal_nct2", "a2a-optimal", {{"nct", "2"}}},
      {"optimal_nct3", "a2a-optimal", {{"nct", "3"}}},
      {"optimal_nct4", "a2a-optimal", {{"nct", "4"}}},
      {"optimal_printed_reference", "a2a-optimal", {{"group_order", "printed"}, {"schedule_engine", "reference"}}},
      {"spread", "a2a-spread", {}},
      {"nd", "a2a-nd", {}},
  };
}

std::vector<Variant> variants_3d() {
  return {
      {"hopgroup_literal", "a2a-hopgroup", {{"mode3d", "literal"}}},
      {"hopgroup_concurrent", "a2a-hopgroup", {{"mode3d", "concurrent"}}},
      {"hopgroup_concurrent_one_controller", "a2a-hopgroup",
       {{"mode3d", "concurrent"}, {"controllers", "1"}, {"dispatch", "next-idle"}}},
      {"hopgroup_unpaced", "a2a-hopgroup", {{"pacing", "false"}}},
      {"direct", "a2a-hopgroup-direct", {}},
      {"direct_no_barriers_unpaced", "a2a-hopgroup-direct", {{"barriers", "false"}, {"pacing", "false"}}},
      {"spread", "a2a-spread", {{"nct", "3"}}},
      {"nd_reference", "a2a-nd", {{"schedule_engine", "reference"}}},
  };
}

const std::vector<std::string> kPolicies = {"age", "round-robin", "local-through", "through-first"};

void expect_exact(const std::string& topology, const Variant& v, int message_flits, int packet_flits) {
  for (const std::string& policy : kPolicies) {
    Params p = v.extra;
    p.set("topology", topology);
    p.set("algorithm", v.algorithm);
    p.set("message_flits", std::to_string(message_flits));
    p.set("packet_flits", std::to_string(packet_flits));
    p.set("arbitration", policy);
    const CollectiveResult r = run_collective(collective_from(p));
    const std::string what = v.name + " on " + topology + " under " + policy;
    ASSERT_FALSE(r.deadlocked()) << what;
    ASSERT_TRUE(r.completed) << what;
    EXPECT_TRUE(r.check.pass) << what << ": " << (r.check.first_errors.empty() ? "" : r.check.first_errors[0]);
    EXPECT_GT(r.check.words_checked, 0) << what;
    EXPECT_EQ(r.reference_mismatch_words, 0) << what << " differs from the functional executor";
    EXPECT_TRUE(r.data_check) << what;
    // Every payload flit of every network message was injected once: the
    // messages are N(N-1) for the direct algorithms (one per ordered pair).
    if (v.algorithm != "a2a-hopgroup") {
      EXPECT_EQ(r.messages, r.endpoints * (r.endpoints - 1)) << what;
      EXPECT_EQ(r.flits, r.messages * static_cast<std::uint64_t>(message_flits)) << what;
    }
  }
}

std::string grid_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string s = param.param;
  for (char& c : s)
    if (c == ':') c = '_';
  return s;
}

class Collective2d : public ::testing::TestWithParam<std::string> {};
class Collective3d : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(Collective2d, EveryNodeHoldsExactlyItsDataUnderEveryPolicy) {
  for (const Variant& v : variants_2d()) expect_exact(GetParam(), v, 5, 2);
}

TEST_P(Collective3d, EveryNodeHoldsExactlyItsDataUnderEveryPolicy) {
  for (const Variant& v : variants_3d()) expect_exact(GetParam(), v, 7, 2);
}

INSTANTIATE_TEST_SUITE_P(Grids, Collective2d,
                         ::testing::Values("torus:2x2", "torus:3x3", "torus:4x4", "torus:5x3", "torus:8x8",
                                           "mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:5x3", "mesh:8x8"),
                         grid_name);

INSTANTIATE_TEST_SUITE_P(Grids, Collective3d, ::testing::Values("torus:4x4x4", "torus:3x4x5", "mesh:3x4x5"),
                         grid_name);
