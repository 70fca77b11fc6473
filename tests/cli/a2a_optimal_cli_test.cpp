// The `collnet` command line on document 001's algorithms: the issue's
// acceptance command, a YAML scenario, and bad input (exit status 2 with a
// message naming the key and the accepted values). Runs the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/algorithm.hpp"

using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using namespace collnet::test;

std::int64_t default_message_flits() {
  for (const auto& k : collnet::collectives::common_keys())
    if (k.name == "message_flits") return std::stoll(k.default_value);
  return -1;
}

}  // namespace

// Acceptance: `collnet check --set topology=torus:8x8 --set
// algorithm=a2a-optimal --set nct=4` reports static_time = lower_bound and
// data_check pass. The bound is the spec's torus 8x8 total, 64 messages.
TEST(CliA2aOptimal, Torus8x8AtNct4ReachesTheBound) {
  const fs::path json = scratch() / "torus8x8.json";
  const CliRun r = run_collnet({"check", "--set", "topology=torus:8x8", "--set", "algorithm=a2a-optimal", "--set",
                            "nct=4", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j.at("data_check"), "pass");
  EXPECT_EQ(j.at("static_time"), j.at("lower_bound"));
  EXPECT_EQ(j.at("lower_bound").get<std::int64_t>(), 64 * default_message_flits());
  EXPECT_EQ(j.at("nodes"), 64);
  EXPECT_EQ(j.at("sends_per_node").at("min"), 63);
  EXPECT_EQ(j.at("sends_per_node").at("max"), 63);
  const auto loads = j.at("phase_max_link_load").get<std::vector<std::int64_t>>();
  EXPECT_EQ(j.at("phases").get<std::size_t>(), loads.size());
  EXPECT_EQ(std::accumulate(loads.begin(), loads.end(), std::int64_t{0}) * default_message_flits(),
            j.at("static_time").get<std::int64_t>());
}

// A YAML scenario: spec fact 2, mesh 5x3 per-group loads [1,1,2,2,4,4,4].
TEST(CliA2aOptimal, YamlScenarioGivesTheSpecGroupLoads) {
  const fs::path scenario =
      write_file("mesh5x3.yaml", "topology: mesh:5x3\nalgorithm: a2a-optimal\nmessage_flits: 1\nnct: 2\n");
  const fs::path json = scratch() / "mesh5x3.json";
  const CliRun r = run_collnet({"check", scenario.string(), "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j.at("phase_max_link_load").get<std::vector<int>>(), (std::vector<int>{1, 1, 2, 2, 4, 4, 4}));
  EXPECT_EQ(j.at("static_time"), 18);
  EXPECT_EQ(j.at("lower_bound"), 18);
  EXPECT_EQ(j.at("data_check"), "pass");
}

TEST(CliA2aOptimal, BaselinesRunAndPass) {
  for (const std::string algorithm : {"a2a-spread", "a2a-nd"}) {
    const fs::path json = scratch() / (algorithm + ".json");
    const CliRun r = run_collnet({"check", "--set", "topology=mesh:4x3x2", "--set", "algorithm=" + algorithm, "--json",
                              json.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(j.at("data_check"), "pass");
    EXPECT_GE(j.at("static_time").get<std::int64_t>(), j.at("lower_bound").get<std::int64_t>());
  }
}

TEST(CliA2aOptimal, ListShowsTheAlgorithmsAndTheirKeys) {
  const CliRun r = run_collnet({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("a2a-optimal"), HasSubstr("a2a-spread"), HasSubstr("a2a-nd"), HasSubstr("nct"),
                           HasSubstr("group_order")));
}

// The router's registries are listed entry by entry with what each does.
TEST(CliA2aOptimal, ListShowsTheArbitrationAndAllocatorRegistries) {
  const CliRun r = run_collnet({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("arbitration age"), HasSubstr("arbitration round-robin"),
                           HasSubstr("allocator input-first"), HasSubstr("allocator output-first"),
                           HasSubstr("vc_allocator_stage combined"), HasSubstr("vc_allocator_stage own-allocator")));
}

// Bad input: exit status 2, one message naming the key and what it accepts.
TEST(CliA2aOptimal, BadInputExitsWithStatusTwoNamingTheKey) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> message;
  };
  const fs::path malformed = write_file("malformed.yaml", "topology: [torus:4x4\nalgorithm: a2a-optimal\n");
  const fs::path unknown = write_file("unknown.yaml", "topology: torus:4x4\ncontrolers: 4\n");
  const std::vector<Case> cases = {
      {{"check", "--set", "bogus_key=1"}, {"unknown key 'bogus_key'", "accepted keys", "nct", "topology"}},
      {{"check", "--set", "algorithm=a2a-nope"},
       {"key 'algorithm'", "unknown algorithm 'a2a-nope'", "a2a-optimal", "a2a-spread", "a2a-nd"}},
      {{"check", "--set", "topology=torus:0x4", "--set", "algorithm=a2a-optimal"}, {"key 'topology'", "at least 1"}},
      {{"check", "--set", "topology=mesh:4x4x4", "--set", "algorithm=a2a-optimal"},
       {"key 'topology'", "a2a-optimal", "2-D mesh or torus", "mesh:4x4x4"}},
      {{"check", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-optimal", "--set", "nct=5"},
       {"key 'nct'", "1 to 4"}},
      {{"check", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-nd", "--set", "nct=0"},
       {"key 'nct'", "1 to 4"}},
      {{"check", "--set", "algorithm=a2a-optimal", "--set", "group_order=sorted"},
       {"key 'group_order'", "printed, reordered"}},
      {{"check", "--set", "algorithm=a2a-spread", "--set", "message_flits=0"}, {"key 'message_flits'", "1 to 65536"}},
      {{"check", malformed.string()}, {malformed.string(), "malformed YAML"}},
      {{"check", unknown.string()}, {"unknown key 'controlers'", "accepted keys", "nct"}},
  };
  for (const Case& c : cases) {
    const CliRun r = run_collnet(c.args);
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    EXPECT_EQ(r.status, 2) << shown << "\n" << r.err;
    for (const auto& m : c.message) EXPECT_THAT(r.err, HasSubstr(m)) << shown;
  }
}
