// Link faults (systemc/link/link_faults.hpp): the flit CRC finds every
// single- and double-bit error; go-back-n costs exactly one round trip per
// error on a back-to-back stream and every collective still passes its data
// check; without retry the data check fails and names the spoiled words;
// error rate 0 is cycle-identical to a run without the keys; a failed link
// ends the run in a deadlock report naming it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "systemc/run/collective_run.hpp"
#include "systemc/link/link_faults.hpp"
#include "tests/support/same_run.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

Flit flip(Flit f, unsigned bit) {
  unsigned char bytes[sizeof(Flit)];
  std::memcpy(bytes, &f, sizeof f);
  bytes[bit / 8] = static_cast<unsigned char>(bytes[bit / 8] ^ (1u << (bit % 8)));
  std::memcpy(&f, bytes, sizeof f);
  return f;
}

Flit any_flit() {
  Flit f;
  f.packet = *rc::gen::arbitrary<std::uint32_t>();
  f.index = *rc::gen::arbitrary<std::uint16_t>();
  f.vc = *rc::gen::arbitrary<std::uint8_t>();
  f.flags = *rc::gen::arbitrary<std::uint8_t>();
  f.payload = *rc::gen::arbitrary<std::uint64_t>();
  return f;
}

}  // namespace

RC_GTEST_PROP(LinkCrc, DetectsEverySingleBitError, ()) {
  const Flit f = any_flit();
  const auto bit = *rc::gen::inRange(0u, 128u);
  RC_ASSERT(flit_crc(flip(f, bit)) != flit_crc(f));
}

RC_GTEST_PROP(LinkCrc, DetectsEveryDoubleBitError, ()) {
  const Flit f = any_flit();
  const auto a = *rc::gen::inRange(0u, 128u);
  const auto b = *rc::gen::distinctFrom(rc::gen::inRange(0u, 128u), a);
  RC_ASSERT(flit_crc(flip(flip(f, a), b)) != flit_crc(f));
}

// Exhaustive over the 128 + 128*127/2 patterns of one flit, so that the
// property holds for every position, not only those RapidCheck drew.
TEST(LinkCrc, EveryOneAndTwoBitPatternOfAFlitIsDetected) {
  Flit f;
  f.packet = 0x1234567;
  f.index = 3;
  f.vc = 1;
  f.flags = Flit::kTail;
  f.payload = 0xDEADBEEFCAFEF00Dull;
  const std::uint32_t good = flit_crc(f);
  for (unsigned a = 0; a < 128; ++a) {
    ASSERT_NE(flit_crc(flip(f, a)), good) << a;
    for (unsigned b = a + 1; b < 128; ++b) ASSERT_NE(flit_crc(flip(flip(f, a), b)), good) << a << "," << b;
  }
}

// A back-to-back stream on one link: without errors flit k crosses in cycle
// k; each corrupted traversal sets the rest of the stream back by the round
// trip 2L (NAK at t + 2L, replay from there), so the last of N flits crosses
// in cycle N - 1 + 2L x corrupted.
TEST(GoBackN, EachErrorCostsOneRoundTripOnABackToBackStream) {
  for (const int latency : {1, 3, 10}) {
    LinkFaultConfig c;
    c.error_rate = 0.01;
    c.seed = 7;
    c.enabled = true;
    LinkFaults link(c, latency, 0, kNever);
    const Cycle n = 20000;
    Cycle last = 0, previous = 0;
    for (Cycle k = 0; k < n; ++k) {
      Flit f;
      f.payload = k;
      last = link.transmit(f, k);
      ASSERT_EQ(f.payload, k) << "go-back-n delivers intact flits only";
      if (k > 0) {
        ASSERT_GT(last, previous) << "flits cross in order, one per cycle at most";
      }
      previous = last;
    }
    EXPECT_GT(link.corrupted(), 100u);  // 20000 x 0.01
    EXPECT_LT(link.corrupted(), 300u);
    EXPECT_EQ(last, n - 1 + 2 * static_cast<Cycle>(latency) * link.corrupted()) << "latency " << latency;
    // The corrupted flit and the flits sent while its NAK was on the way.
    EXPECT_GE(link.retransmitted(), link.corrupted());
    EXPECT_LE(link.retransmitted(), link.corrupted() * 2 * static_cast<std::uint64_t>(latency));
  }
}

// A replay buffer of D flits lets D flits be on their way per round trip:
// error-free throughput D / 2L.
TEST(GoBackN, ASmallReplayBufferThrottlesTheLink) {
  LinkFaultConfig c;
  c.replay_flits = 2;
  c.enabled = true;
  LinkFaults link(c, 4, 0, kNever);  // round trip 8
  std::vector<Cycle> t;
  for (Cycle k = 0; k < 6; ++k) {
    Flit f;
    t.push_back(link.transmit(f, k));
  }
  EXPECT_EQ(t, (std::vector<Cycle>{0, 1, 8, 9, 16, 17}));
}

TEST(LinkDownModel, FlitsFromTheFailureCycleOnAreHeld) {
  LinkFaultConfig c;
  c.enabled = true;
  LinkFaults link(c, 1, 0, 5);
  Flit f;
  for (Cycle k = 0; k < 5; ++k) EXPECT_EQ(link.transmit(f, k), k);
  EXPECT_EQ(link.transmit(f, 5), kNever);
  EXPECT_EQ(link.transmit(f, 9), kNever);
  EXPECT_EQ(link.held(), 2u);
}

namespace {

struct Case {
  std::string topology;
  std::string algorithm;
  Params extra;
};

// Every collective of the five documents on a small network.
std::vector<Case> every_collective() {
  return {
      {"torus:4x4", "a2a-optimal", {}},
      {"mesh:4x4", "a2a-optimal", {}},
      {"torus:4x4", "a2a-spread", {}},
      {"torus:4x4", "a2a-nd", {}},
      {"torus:4x4", "a2a-hopgroup", {}},
      {"torus:4x4", "a2a-hopgroup-direct", {}},
      {"leafspine:p=6", "twotree-hier", {{"processes", "16"}, {"elements", "64"}}},
      {"leafspine:p=6", "twotree-flat", {{"processes", "16"}, {"elements", "64"}}},
      {"leafspine:p=6", "tree-single", {{"processes", "16"}, {"elements", "64"}}},
      {"tree:kary=2,n=15", "tree-bcast", {{"logical_root", "9"}}},
      {"boards:2x2x2x2", "hd-allreduce", {}},
      {"boards:2x2x2x2", "hd-allreduce-conventional", {}},
  };
}

CollectiveResult run(const Case& c, const Params& faults) {
  Params p = c.extra;
  p.set("topology", c.topology);
  p.set("algorithm", c.algorithm);
  p.set("message_flits", "16");
  for (const auto& [k, v] : faults.values()) p.set(k, v);
  return run_collective(collective_from(p));
}

}  // namespace

TEST(LinkFaultsCycleModel, GoBackNDeliversEveryCollectiveIntactUnderErrors) {
  for (const Case& c : every_collective()) {
    const CollectiveResult clean = run(c, {});
    ASSERT_TRUE(clean.data_check) << c.algorithm;
    std::uint64_t corrupted = 0;
    for (const char* rate : {"1e-4", "1e-3"}) {
      for (const char* seed : {"1", "2", "3"}) {
        const CollectiveResult r = run(c, {{"link_error_rate", rate}, {"fault_seed", seed}});
        SCOPED_TRACE(c.algorithm + " on " + c.topology + ", rate " + rate + ", seed " + seed);
        EXPECT_TRUE(r.completed);
        EXPECT_TRUE(r.data_check) << (r.check.first_errors.empty() ? "" : r.check.first_errors[0]);
        EXPECT_EQ(r.reference_mismatch_words, 0);
        EXPECT_GE(r.link_flits_retransmitted, r.link_flits_corrupted);
        if (r.link_flits_corrupted == 0) {
          EXPECT_EQ(r.cycles, clean.cycles);
        }
        corrupted += r.link_flits_corrupted;
      }
    }
    EXPECT_GT(corrupted, 0u) << c.algorithm << ": the errors did happen";
  }
}

TEST(LinkFaultsCycleModel, ErrorsCostCyclesThatGrowWithTheRate) {
  const Case c{"torus:4x4", "a2a-optimal", {{"message_flits", "64"}}};
  const Cycle clean = run(c, {}).cycles;
  const CollectiveResult low = run(c, {{"link_error_rate", "1e-3"}, {"message_flits", "64"}});
  const CollectiveResult high = run(c, {{"link_error_rate", "2e-2"}, {"message_flits", "64"}});
  EXPECT_TRUE(low.data_check);
  EXPECT_TRUE(high.data_check);
  EXPECT_GT(high.link_flits_corrupted, low.link_flits_corrupted);
  EXPECT_GT(high.cycles, clean);
  EXPECT_GE(high.cycles, low.cycles);
}

TEST(LinkFaultsCycleModel, WithoutRetryTheDataCheckFailsAndNamesTheSpoiledWords) {
  for (const Case& c : {Case{"torus:4x4", "a2a-optimal", {}}, Case{"leafspine:p=6", "twotree-hier", {{"processes", "16"}, {"elements", "64"}}}}) {
    const CollectiveResult r = run(c, {{"link_error_rate", "1e-2"}, {"link_retry", "none"}, {"fault_seed", "4"}});
    SCOPED_TRACE(c.algorithm);
    ASSERT_GT(r.link_flits_corrupted, 0u);
    EXPECT_EQ(r.link_flits_retransmitted, 0u);
    EXPECT_TRUE(r.completed);
    EXPECT_FALSE(r.data_check);
    EXPECT_GT(r.check.mismatches, 0);
    ASSERT_FALSE(r.check.first_errors.empty());
    EXPECT_NE(r.check.first_errors[0].find("endpoint "), std::string::npos);
    EXPECT_NE(r.check.first_errors[0].find(" word "), std::string::npos);
    // All-to-all moves every word once: a corrupted flit spoils one word.
    if (c.algorithm == "a2a-optimal") {
      EXPECT_LE(static_cast<std::uint64_t>(r.check.mismatches), r.link_flits_corrupted);
    }
  }
}

// Rate 0 with the fault model switched on (a replay buffer of one round trip)
// is the fault-free link, cycle for cycle.
TEST(LinkFaultsCycleModel, RateZeroIsCycleIdenticalToNoFaultKeys) {
  for (const Case& c : every_collective()) {
    for (const char* latency : {"1", "3"}) {
      Params base{{"link_latency", latency}};
      const CollectiveResult plain = run(c, base);
      Params faults = base;
      faults.set("link_error_rate", "0");
      faults.set("link_retry", "go-back-n");
      faults.set("fault_seed", "99");
      faults.set("link_replay_flits", std::to_string(2 * std::stoi(latency)));
      const CollectiveResult off = run(c, faults);
      SCOPED_TRACE(c.algorithm + ", link latency " + latency);
      test::expect_same_network_run(plain, off);
      EXPECT_TRUE(off.data_check);
      EXPECT_EQ(off.link_flits_corrupted, 0u);
    }
  }
}

TEST(LinkFaultsCycleModel, ADownLinkEndsInADeadlockReportNamingIt) {
  const Case c{"torus:4x4", "a2a-optimal", {}};
  const CollectiveResult r = run(c, {{"link_down", "r0:x+->r1@10"}});
  EXPECT_TRUE(r.deadlocked());
  EXPECT_FALSE(r.completed);
  ASSERT_EQ(r.down_links.size(), 1u);
  EXPECT_EQ(r.down_links[0].rfind("r0:x+->r1 down since cycle 10", 0), 0u) << r.down_links[0];
}

TEST(LinkFaultsCycleModel, BadFaultKeysAreRefusedNamingTheKey) {
  const Case c{"torus:4x4", "a2a-optimal", {}};
  auto message = [&](const Params& p) {
    try {
      run(c, p);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({{"link_down", "r0:x+->r9@5"}}).find("key 'link_down'"), std::string::npos);
  EXPECT_NE(message({{"link_down", "r0:x+->r1"}}).find("key 'link_down'"), std::string::npos);
  EXPECT_NE(message({{"link_error_rate", "0.9"}}).find("key 'link_error_rate'"), std::string::npos);
  EXPECT_NE(message({{"link_retry", "selective"}}).find("go-back-n, none"), std::string::npos);
  EXPECT_NE(message({{"link_replay_flits", "0"}}).find("key 'link_replay_flits'"), std::string::npos);
}
