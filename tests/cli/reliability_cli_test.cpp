// Reliability at the command line: a scenario too large for the machine is
// refused (exit 2) within a second, naming the estimate and the keys that
// drive it; link faults show in the report; a failed link is a deadlock
// (exit 3) naming the link; without retry the data check fails (exit 1).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "tests/cli/cli_runner.hpp"

using namespace collnet::test;

namespace {

/// Sets COLLNET_AVAILABLE_MEMORY (the documented override of the measured
/// available memory) for the collnet processes of one test.
struct AvailableMemory {
  explicit AvailableMemory(const char* value) { ::setenv("COLLNET_AVAILABLE_MEMORY", value, 1); }
  ~AvailableMemory() { ::unsetenv("COLLNET_AVAILABLE_MEMORY"); }
};

}  // namespace

// torus:128x128, 32-flit messages: 16384 nodes, each with 2 x 16384 x 32
// words of all-to-all memory (8 MiB): 128 GiB of node memories alone.
// "Before anything runs" is observed as time: a run that got past the check
// would at least plan 268 M messages and fill 128 GiB of node memories, which
// no machine does in 10 s (at 10 GB/s, zeroing them alone takes 13 s), while
// the refusal takes 0.02 s on a quiet machine. (The bound was 1 s; under the
// sanitizers on a loaded 2-core machine the refusal itself took 1.004 s.)
TEST(SizeLimit, AnAllToAllTooLargeForTheMachineIsRefusedBeforeItIsPlanned) {
  const AvailableMemory limit("64G");
  const CliRun r = run_words("run --set topology=torus:128x128 --set message_flits=32 --set algorithm=a2a-optimal");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_LT(r.seconds, 10.0);
  EXPECT_NE(r.err.find("more than the 64.0 GiB available"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("node memories 128.0 GiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("message_flits"), std::string::npos) << r.err;
}

// Same scenario against the machine's own available memory (this machine
// kind has far less than the 384 GiB the estimate counts).
TEST(SizeLimit, TheRefusalUsesTheMachinesMemoryByDefault) {
  const CliRun r = run_words("run --set topology=torus:128x128 --set message_flits=32");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_LT(r.seconds, 10.0);
  EXPECT_NE(r.err.find("available"), std::string::npos) << r.err;
}

TEST(SizeLimit, AScenarioThatFitsRunsAndOneThatDoesNotIsRefused) {
  {
    const AvailableMemory limit("1G");
    EXPECT_EQ(run_words("run --set topology=torus:4x4 --set algorithm=a2a-optimal").status, 0);
  }
  {
    // Synthetic traffic: the network's buffers alone (65536 routers x 16 VCs x 4096 flits).
    const AvailableMemory limit("1G");
    const CliRun r = run_words("run --set traffic=uniform --set topology=torus:256x256 --set vcs=16 --set buffer_flits=4096");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("network buffers"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("buffer_flits"), std::string::npos) << r.err;
  }
}

namespace {

/// The largest resident set of any collnet run this test process has waited
/// for, in bytes (RUSAGE_CHILDREN: the maximum over ended children).
double children_peak_bytes() {
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  return 1024.0 * static_cast<double>(u.ru_maxrss);
}

/// "needs at least 35.9 MiB" in a refusal -> bytes.
double refused_estimate_bytes(const std::string& err) {
  const std::string tag = "needs at least ";
  const auto at = err.find(tag);
  if (at == std::string::npos) return -1;
  std::istringstream in(err.substr(at + tag.size()));
  double value = 0;
  std::string unit;
  in >> value >> unit;
  const std::string units[] = {"B", "KiB", "MiB", "GiB"};
  for (int u = 0; u < 4; ++u)
    if (unit == units[u]) return value * static_cast<double>(std::uint64_t{1} << (10 * u));
  return -1;
}

}  // namespace

// The estimate against the measured peak of a run whose node memories are
// most of it (hd-allreduce, 48 endpoints x 65536 elements: the main units'
// arrays and the aggregation units' slots, 36 MiB): never above the peak (a
// refusal must not refuse a run that fits), and most of what the run adds to
// the resident set of a run with tiny memories (the binary, the libraries,
// the network of the same topology), so that it follows the footprint.
// AddressSanitizer keeps freed memory in quarantine (the functional
// executor's memories would stay resident under the NICs', a peak the
// program never has) and adds its shadow: where the collnet binary is built
// with it (COLLNET_CODE_UNDER_ASAN, tests/CMakeLists.txt) the runs go without
// quarantine, and the run adds about twice as much (shadow, redzones).
TEST(SizeLimit, TheEstimateIsBelowTheMeasuredPeakAndFollowsIt) {
#if COLLNET_CODE_UNDER_ASAN
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string saved = asan != nullptr ? asan : "";
  ::setenv("ASAN_OPTIONS", (saved + (saved.empty() ? "" : ":") + "quarantine_size_mb=0").c_str(), 1);
  struct Restore {
    std::string value;
    ~Restore() { ::setenv("ASAN_OPTIONS", value.c_str(), 1); }
  } restore{saved};
#endif
  const std::string scenario = "run --set topology=boards:2x2x1x1 --set algorithm=hd-allreduce --set elements=";
  ASSERT_EQ(run_words(scenario + "16").status, 0);
  const double base = children_peak_bytes();
  double estimate = 0;
  {
    const AvailableMemory limit("1");  // refused: the message names the estimate
    const CliRun r = run_words(scenario + "65536");
    ASSERT_EQ(r.status, 2) << r.err;
    estimate = refused_estimate_bytes(r.err);
    ASSERT_GT(estimate, 0) << r.err;
  }
  const CliRun r = run_words(scenario + "65536");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const double peak = children_peak_bytes();
#if COLLNET_CODE_UNDER_ASAN
  const double share = 0.35;
#else
  const double share = 0.7;
#endif
  EXPECT_LE(estimate, peak) << "estimate " << estimate << " B, peak " << peak << " B";
  EXPECT_GE(estimate, share * (peak - base)) << "estimate " << estimate << " B, peak " << peak << " B, base " << base;
}

TEST(LinkFaultsCli, GoBackNReportsCorruptedAndRetransmittedFlits) {
  const JsonRun r = run_words_json("run --set topology=torus:4x4 --set algorithm=a2a-optimal --set message_flits=64 "
                                   "--set link_error_rate=0.01 --set fault_seed=3",
                                   "faults.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.json.at("data_check"), "pass");
  EXPECT_GT(r.json.at("link_flits_corrupted").get<int>(), 0);
  EXPECT_GE(r.json.at("link_flits_retransmitted").get<int>(), r.json.at("link_flits_corrupted").get<int>());
  EXPECT_NE(r.out.find("link faults"), std::string::npos);
}

TEST(LinkFaultsCli, WithoutRetryTheRunExits1NamingTheWords) {
  const CliRun r = run_words("run --set topology=torus:4x4 --set algorithm=a2a-optimal --set link_error_rate=0.01 "
                             "--set link_retry=none");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("data check        FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("endpoint "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" word "), std::string::npos) << r.out;
}

TEST(LinkFaultsCli, ADownLinkIsADeadlockNamingTheLink) {
  const JsonRun r = run_words_json(
      "run --set topology=torus:4x4 --set algorithm=a2a-optimal --set link_down=r5:y+->r9@10", "down.json");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("LINK DOWN         r5:y+->r9 down since cycle 10"), std::string::npos) << r.out;
  ASSERT_TRUE(r.json.contains("deadlock") && r.json.at("deadlock").is_object()) << r.json.dump();
  EXPECT_NE(r.json.at("deadlock").at("down_links").at(0).get<std::string>().find("r5:y+->r9"), std::string::npos);
}

TEST(LinkFaultsCli, FaultKeysInASyntheticRunAreRefused) {
  const CliRun r = run_words("run --set traffic=uniform --set link_error_rate=0.01");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("key 'link_error_rate'"), std::string::npos) << r.err;
}
