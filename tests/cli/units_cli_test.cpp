// The units keys clock_ghz and flit_bytes (collectives/units.hpp): accepted
// by every kind of run (collective, synthetic traffic, sweep points,
// `collnet check`); a value outside the declared range, zero, negative or
// not a number, is refused before anything runs with exit status 2, naming
// the key and its accepted range.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

constexpr const char* kCollective = "run --set algorithm=ring-allreduce --set topology=torus:2x2 --set elements=16";
constexpr const char* kSynthetic =
    "run --set traffic=uniform --set topology=torus:2x2 --set warmup_cycles=10 --set measure_cycles=50";
constexpr const char* kCheck = "check --set algorithm=ring-allreduce --set topology=torus:2x2 --set elements=16";

}  // namespace

TEST(UnitsCli, BadValuesAreRefusedNamingTheKeyAndItsRange) {
  for (const char* run : {kCollective, kSynthetic, kCheck})
    for (const char* bad : {"0", "-1", "fast", "", "1e9"}) {
      const CliRun r = run_words(std::string(run) + " --set clock_ghz=" + bad);
      EXPECT_EQ(r.status, 2) << run << " clock_ghz=" << bad << "\n" << r.out << r.err;
      EXPECT_EQ(r.out, "") << "a refused scenario must not run";
      EXPECT_THAT(r.err, HasSubstr("key 'clock_ghz': expected a number from 0.001 to 1000")) << run;
    }
  for (const char* run : {kCollective, kSynthetic, kCheck})
    for (const char* bad : {"0", "-8", "8.5", "wide", "4097"}) {
      const CliRun r = run_words(std::string(run) + " --set flit_bytes=" + bad);
      EXPECT_EQ(r.status, 2) << run << " flit_bytes=" << bad << "\n" << r.out << r.err;
      EXPECT_THAT(r.err, HasSubstr("key 'flit_bytes': expected an integer from 1 to 4096")) << run;
    }
}

TEST(UnitsCli, GoodValuesAreAcceptedByEveryKindOfRun) {
  for (const char* run : {kCollective, kSynthetic, kCheck}) {
    const CliRun r = run_words(std::string(run) + " --set clock_ghz=2.5 --set flit_bytes=16");
    EXPECT_EQ(r.status, 0) << run << "\n" << r.out << r.err;
  }
}

TEST(UnitsCli, SweepPointsAreCheckedForTheUnitKeys) {
  const auto sweep = write_file("units_sweep/sweep.yaml",
                                "base: {topology: torus:2x2, algorithm: ring-allreduce, elements: 16}\n"
                                "axes:\n  clock_ghz: [1, 0]\n");
  const auto out = sweep.parent_path() / "r.jsonl";
  const CliRun r = run_collnet({"sweep", sweep.string(), "--out", out.string()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("point 2 {\"clock_ghz\":0}: key 'clock_ghz': expected a number from 0.001 to 1000"));
  EXPECT_FALSE(fs::exists(out));
}
