// `collnet run` with background traffic (key `traffic` beside `algorithm` or
// `workload`): the collective's cycles and data check, the background's
// rates and latency, the collective alone; bad keys refused naming them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

const std::string kRing =
    "run --set topology=mesh:4x4 --set algorithm=ring-allreduce --set elements=512 --set compare= ";

void expect_refused(const CliRun& r, const std::vector<std::string>& named) {
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "") << "a refused scenario must not run";
  for (const auto& n : named) EXPECT_THAT(r.err, HasSubstr(n));
}

}  // namespace

// More background load can only delay the collective's packets (they share
// the routers, links and VCs): its cycles never fall as the load rises, and
// every run is checked against the collective's own expectation.
TEST(BackgroundTraffic, NeverMakesTheCollectiveFaster) {
  const JsonRun alone = run_words_json(kRing, "bg_alone.json");
  ASSERT_EQ(alone.status, 0) << alone.out << alone.err;
  EXPECT_TRUE(alone.json.at("background").is_null());
  const std::int64_t alone_cycles = alone.json.at("cycles").get<std::int64_t>();
  std::int64_t previous = 0;
  for (const char* rate : {"0", "0.05", "0.2", "0.4"}) {
    SCOPED_TRACE(rate);
    const JsonRun r = run_words_json(kRing + "--set traffic=uniform --set injection_rate=" + rate,
                                     std::string("bg_") + rate + ".json");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.json.at("data_check"), "pass");
    const nlohmann::json& b = r.json.at("background");
    ASSERT_TRUE(b.is_object());
    const std::int64_t cycles = r.json.at("cycles").get<std::int64_t>();
    // The same collective without background traffic, run by the report itself.
    EXPECT_EQ(b.at("alone_cycles").get<std::int64_t>(), alone_cycles);
    EXPECT_DOUBLE_EQ(b.at("slowdown").get<double>(),
                     static_cast<double>(cycles) / static_cast<double>(alone_cycles));
    EXPECT_GE(cycles, previous);
    EXPECT_GE(cycles, alone_cycles);
    previous = cycles;
    EXPECT_EQ(b.at("integrity_errors"), 0);
    EXPECT_EQ(r.json.at("scenario").at("traffic"), "uniform");
    if (std::string(rate) == "0") {
      // No background packet: exactly the collective alone.
      EXPECT_EQ(cycles, alone_cycles);
      EXPECT_EQ(b.at("created_packets"), 0);
      EXPECT_TRUE(b.at("avg_latency").is_null());
      continue;
    }
    // Accepted no more than offered; the offered load near the key's
    // (Bernoulli creation over the run's cycles, 16 endpoints).
    const double offered = b.at("offered_rate").get<double>();
    EXPECT_NEAR(offered, std::stod(rate), 0.5 * std::stod(rate));
    EXPECT_LE(b.at("accepted_rate").get<double>(), offered + 1e-12);
    EXPECT_GT(b.at("received_packets").get<std::int64_t>(), 0);
    EXPECT_EQ(b.at("created_packets").get<std::int64_t>(),
              b.at("received_packets").get<std::int64_t>() + b.at("in_flight_packets").get<std::int64_t>());
    // A packet takes at least its 4 flits plus a router and link per hop.
    EXPECT_GE(b.at("avg_latency").get<double>(), 4.0);
    EXPECT_GE(b.at("max_latency").get<double>(), b.at("p99_latency").get<double>());
    EXPECT_THAT(r.out, HasSubstr("background        uniform at injection_rate"));
    EXPECT_THAT(r.out, HasSubstr("x the " + std::to_string(alone_cycles) + " cycles alone"));
  }
  EXPECT_GT(previous, alone_cycles) << "0.4 flits a cycle on every endpoint must slow the ring";
}

// A workload runs beside background traffic the same way.
TEST(BackgroundTraffic, AWorkloadRunsBesideIt) {
  const std::string prefix =
      std::string(COLLNET_SOURCE_DIR) + "/examples/chakra/all_reduce/4npus_1MB/all_reduce";
  const std::string run = "run --set workload=chakra:" + prefix +
                          " --set workload_scale=0.00390625 --set flit_bytes=4 --set topology=torus:2x2 ";
  const JsonRun alone = run_words_json(run, "bg_w_alone.json");
  ASSERT_EQ(alone.status, 0) << alone.out << alone.err;
  const JsonRun r = run_words_json(run + "--set traffic=uniform --set injection_rate=0.3", "bg_w.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.json.at("data_check"), "pass");
  EXPECT_EQ(r.json.at("background").at("alone_cycles"), alone.json.at("cycles"));
  EXPECT_GE(r.json.at("cycles").get<std::int64_t>(), alone.json.at("cycles").get<std::int64_t>());
  EXPECT_GT(r.json.at("background").at("received_packets").get<std::int64_t>(), 0);
}

TEST(BackgroundTraffic, BadKeysAreRefusedNamingThem) {
  expect_refused(run_words(kRing + "--set traffic=sideways"), {"key 'traffic'", "uniform"});
  expect_refused(run_words(kRing + "--set traffic=uniform --set injection_rate=2"), {"key 'injection_rate'"});
  expect_refused(run_words(kRing + "--set traffic=uniform --set warmup_cycles=10"),
                 {"key 'warmup_cycles' belongs to synthetic-traffic runs", "injection_rate"});
  expect_refused(run_words(kRing + "--set injection_rate=0.1"),
                 {"key 'injection_rate' sets background traffic, which key 'traffic' turns on"});
  // Its own NIC port after the controllers: at most 7 of them.
  expect_refused(run_words(kRing + "--set traffic=uniform --set controllers=8"),
                 {"key 'traffic'", "at most 7 controllers"});
}
