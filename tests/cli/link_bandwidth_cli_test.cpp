// Links of different speeds (a link's bandwidth B = p/q flits per cycle,
// systemc/link/link.hpp) through the CLI, each against a closed form:
// - one hop of M flits over a link of bandwidth B takes M/B cycles plus the
//   pipeline of the same run at B = 1 (B = 1/4, 1/2: one source; B = 2, 4: B
//   sources of M/B flits each, so that the link is fed B flits a cycle, and
//   an ejection link of the same bandwidth);
// - ring-allreduce on a ring graph whose links all have bandwidth 1/2 takes
//   twice the cycles of the same ring at 1, within the pipeline part of the
//   run at 1;
// - a dragonfly with slow global cables saturates where its global cut
//   says: group-shift traffic on dragonfly:p=1 (2 endpoints a group, one
//   global cable between two groups) accepts B_global / 2 flits per
//   endpoint and cycle;
// - bad bandwidths (0, negative, not a number, a parameter the topology
//   does not have, an injection link above 1) exit 2 naming the key and the
//   accepted values.
// The golden figures at bandwidth 1 are tests/cli/golden_figures_test.cpp's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "tests/cli/cli_runner.hpp"

using namespace collnet::test;
using ::testing::HasSubstr;

namespace {

/// A star: endpoints d (endpoint 0) and s1..sK around router x; the cables
/// s_i - x have bandwidth 1, the cable x - d has `bandwidth`.
fs::path star_file(int sources, const std::string& bandwidth) {
  std::string text = "endpoints: [d";
  for (int i = 1; i <= sources; ++i) text += ", s" + std::to_string(i);
  text += "]\nrouters: [x]\nlinks:\n  - {between: [x, d], bandwidth: " + bandwidth + "}\n";
  for (int i = 1; i <= sources; ++i) text += "  - [s" + std::to_string(i) + ", x]\n";
  return write_file("graphs/star-" + std::to_string(sources) + "-" + std::to_string(std::hash<std::string>{}(bandwidth)) +
                        ".yaml",
                    text);
}

/// The cycle the last of the star's packets arrives at d: every source sends
/// one packet of `flits` flits to d (hotspot 0), all created in cycle 0.
long star_last_arrival(int sources, const std::string& bandwidth, int flits, const std::string& ejection) {
  const JsonRun r = run_words_json("run --set topology=graph:" + star_file(sources, bandwidth).string() +
                                       " --set traffic=hotspot --set hotspot_node=0 --set hotspot_fraction=1"
                                       " --set packets_per_node=1 --set injection_rate=1 --set injection_process="
                                       "periodic --set vcs=4 --set packet_flits=" +
                                       std::to_string(flits) + " --set ejection_bandwidth=" + ejection,
                                   "star.json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.json["integrity_errors"], 0) << r.out;
  return r.json["max_latency"].get<long>();
}

/// A ring of 8 endpoints, every cable of `bandwidth`.
fs::path ring_file(const std::string& bandwidth) {
  std::string text = "endpoints: [n0, n1, n2, n3, n4, n5, n6, n7]\nlinks:\n";
  for (int i = 0; i < 8; ++i)
    text += "  - {between: [n" + std::to_string(i) + ", n" + std::to_string((i + 1) % 8) + "], bandwidth: " +
            bandwidth + "}\n";
  return write_file("graphs/ring-" + std::to_string(std::hash<std::string>{}(bandwidth)) + ".yaml", text);
}

}  // namespace

TEST(LinkBandwidthCli, OneHopOfMFlitsTakesMOverBCyclesPlusThePipeline) {
  const int m = 64;
  // The pipeline: the same hop at bandwidth 1 (M flits in M cycles).
  const long pipeline = star_last_arrival(1, "1", m, "1") - m;
  ASSERT_GT(pipeline, 0);
  struct Case {
    std::string bandwidth;
    int numerator, denominator;
  };
  for (const Case& c : {Case{"1/4", 1, 4}, Case{"0.5", 1, 2}, Case{"2", 2, 1}, Case{"4", 4, 1}}) {
    // Above 1 the link is fed by B sources of M/B flits (each source sends
    // a flit a cycle, each packet on a VC of its own: vcs 4) and leaves
    // through an ejection link as fast.
    const int sources = std::max(1, c.numerator / c.denominator);
    const long expected = static_cast<long>(m) * c.denominator / c.numerator + pipeline;
    const long got = star_last_arrival(sources, c.bandwidth, m / sources, sources > 1 ? c.bandwidth : "1");
    EXPECT_EQ(got, expected) << "bandwidth " << c.bandwidth;
  }
}

TEST(LinkBandwidthCli, RingAllreduceAtHalfBandwidthTakesTwiceTheCycles) {
  const std::string common = "run --set algorithm=ring-allreduce --set elements=512 --set compare= --set topology=";
  const JsonRun one = run_words_json(common + "graph:" + ring_file("1").string(), "ring1.json");
  const JsonRun half = run_words_json(common + "graph:" + ring_file("1/2").string(), "ring-half.json");
  ASSERT_EQ(one.status, 0) << one.out << one.err;
  ASSERT_EQ(half.status, 0) << half.out << half.err;
  EXPECT_EQ(half.json["data_check"], "pass");
  const long t1 = one.json["cycles"].get<long>();
  const long t_half = half.json["cycles"].get<long>();
  // Ring allreduce on 8 ranks: 2 x 7 steps of 512 / 8 words (flits) each;
  // the run at 1 is those flits plus the pipeline of every step.
  const long flits = 2 * 7 * (512 / 8);
  const long pipeline = t1 - flits;
  ASSERT_GT(pipeline, 0);
  EXPECT_LE(std::labs(t_half - 2 * t1), pipeline) << "at 1: " << t1 << ", at 1/2: " << t_half;
  // Closer: the flits take twice the cycles, the pipeline as long (a cycle
  // a step for the serialization of a step's last flit).
  EXPECT_NEAR(static_cast<double>(t_half - pipeline), 2.0 * static_cast<double>(flits), 2 * 7)
      << "at 1: " << t1 << ", at 1/2: " << t_half;
  // Utilization is of each link's own rate, flits / (cycles x 1/2): the
  // same flits on every link, so u(1/2) = u(1) x t(1) / (t(1/2) x 1/2); and
  // its GB/s is utilization x bandwidth x flit_bytes x clock_ghz (8 x 1).
  const double u1 = one.json["link_utilization"]["max"].get<double>();
  const double u_half = half.json["link_utilization"]["max"].get<double>();
  EXPECT_NEAR(u_half, u1 * static_cast<double>(t1) / (static_cast<double>(t_half) * 0.5), 1e-9);
  EXPECT_NEAR(half.json["link_utilization"]["max_gbps"].get<double>(), u_half * 0.5 * 8, 1e-9);
}

TEST(LinkBandwidthCli, DragonflyWithSlowGlobalCablesSaturatesAtItsGlobalCut) {
  // dragonfly:p=1: 3 groups of 2 routers, one endpoint each, one global cable
  // between every two groups. group-shift sends every packet of group g to
  // group g+1: the 2 endpoints of a group share one global cable of
  // bandwidth B, so each accepts at most B / 2 flits a cycle.
  for (const auto& [bandwidth, b] : {std::pair<std::string, double>{"1/2", 0.5}, {"1/4", 0.25}}) {
    const JsonRun r = run_words_json("run --set topology=dragonfly:p=1,local_latency=2,global_latency=4,"
                                     "global_bandwidth=" +
                                         bandwidth +
                                         " --set traffic=group-shift --set injection_rate=1 --set warmup_cycles=1000"
                                         " --set measure_cycles=4000 --set drain_cycles=0",
                                     "dragonfly.json");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NEAR(r.json["accepted_rate"].get<double>(), b / 2, 0.01) << "global_bandwidth " << bandwidth;
    // The global cables are the busy ones: utilization of their own rate, 1.
    EXPECT_NEAR(r.json["link_utilization"]["max"].get<double>(), 1.0, 0.02);
    EXPECT_THAT(r.out, HasSubstr("link rates"));
  }
}

TEST(LinkBandwidthCli, BadBandwidthsExitTwoNamingTheKeyAndTheAcceptedValues) {
  struct Case {
    std::string options, expected;
  };
  const std::string bad_file = write_file("graphs/bad.yaml", "endpoints: [a, b]\nlinks:\n  - {between: [a, b], bandwidth: 0}\n").string();
  const std::string bad_text = write_file("graphs/bad-text.yaml", "endpoints: [a, b]\nlinks:\n  - {between: [a, b], bandwidth: fast}\n").string();
  for (const Case& c : {
           Case{"--set topology=graph:" + bad_file, "line 3: 'bandwidth': bandwidth 0 is out of range; accepted"},
           Case{"--set topology=graph:" + bad_text, "'fast' is not a bandwidth; accepted"},
           Case{"--set topology=dragonfly:p=1,global_bandwidth=0", "key 'global_bandwidth': bandwidth 0 is out of range"},
           Case{"--set topology=dragonfly:p=1,local_bandwidth=-1", "key 'local_bandwidth': '-1' is not a bandwidth"},
           Case{"--set topology=fattree:k=2,n=2,bandwidth_2=2", "key 'bandwidth_2': no level 2 with n=2; accepted"},
           Case{"--set topology=mesh:2x2,bandwidth_2=2", "unknown key 'bandwidth_2' (keys: bandwidth_0, bandwidth_1)"},
           Case{"--set topology=torus:4,bandwidth_0=1/0", "key 'bandwidth_0': bandwidth 1/0 is out of range"},
           Case{"--set topology=leafspine:p=6,uplink_bandwidth=17", "key 'uplink_bandwidth': bandwidth 17 is out of range"},
           Case{"--set injection_bandwidth=2", "key 'injection_bandwidth': bandwidth 2 is above 1; accepted"},
           Case{"--set ejection_bandwidth=x", "key 'ejection_bandwidth': 'x' is not a bandwidth; accepted"},
       }) {
    const CliRun r = run_words("run --set algorithm=ring-allreduce --set message_flits=8 " + c.options);
    EXPECT_EQ(r.status, 2) << c.options << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.expected)) << c.options;
  }
}

TEST(LinkBandwidthCli, AFasterLinkGetsBandwidthTimesItsCreditRoundTripOfBuffer) {
  // fattree:k=2,n=2 with the top level's cables at 4 flits a cycle and
  // links of 10 cycles: a credit round trip of 2 x 10 + 1 = 21 cycles, in
  // which a cable of bandwidth 4 carries 84 flits.
  const std::string common = "run --set algorithm=ring-allreduce --set elements=64 --set link_latency=10 --set compare= "
                             "--set topology=fattree:k=2,n=2,bandwidth_0=4 --set buffer_sizing=";
  const JsonRun round_trip = run_words_json(common + "round-trip", "round-trip.json");
  ASSERT_EQ(round_trip.status, 0) << round_trip.out << round_trip.err;
  EXPECT_THAT(round_trip.out, HasSubstr("21 flits on the 8 links of latency 10, 84 flits on the 8 links of latency 10 "
                                        "and bandwidth 4"));
  EXPECT_TRUE(round_trip.json["credit_loop"].is_null());
  const JsonRun fixed = run_words_json(common + "fixed", "fixed.json");
  ASSERT_EQ(fixed.status, 0) << fixed.out << fixed.err;
  const nlohmann::json& loop = fixed.json["credit_loop"];
  ASSERT_EQ(loop.size(), 2u) << loop;
  EXPECT_EQ(loop[1]["bandwidth"], "4");
  EXPECT_EQ(loop[1]["needed_flits"], 84);
  EXPECT_EQ(loop[1]["round_trip"], 21);
  EXPECT_THAT(fixed.out, HasSubstr("buffer_flits 84 keeps every link busy; a link of bandwidth B needs B x round trip"));
}
