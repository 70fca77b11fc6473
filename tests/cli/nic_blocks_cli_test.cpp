// `collnet run --set nic_blocks=rtl`: the NIC runs the
// Verilated pacers and schedule engine; the run exits 0 with the same cycles
// as nic_blocks=hls and the JSON report says which blocks ran. A value other
// than hls/rtl exits 2 naming the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "systemc/nic/rtl_blocks.hpp"
#include "tests/support/ci_guard.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

TEST(NicBlocksCli, RtlRunWritesNicBlocksAndMatchesHls) {
  if (!collnet::systemc::rtl_blocks_built())
    COLLNET_SKIP_OUTSIDE_CI("collnet built without Verilator (no RTL blocks)",
                            "verilator (then configure and build again)");
  nlohmann::json report[2];
  const char* blocks[2] = {"hls", "rtl"};
  for (int i = 0; i < 2; ++i) {
    const fs::path json = scratch() / (std::string("nic_blocks_") + blocks[i] + ".json");
    const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-hopgroup", "--set",
                                  "message_flits=4", "--set", std::string("nic_blocks=") + blocks[i], "--json",
                                  json.string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr(std::string(blocks[i]) + " blocks"));
    report[i] = read_json(json);
    EXPECT_EQ(report[i]["nic_blocks"], blocks[i]);
    EXPECT_EQ(report[i]["schedule_engine"], std::string(blocks[i]) + "-hopgroup");
    EXPECT_EQ(report[i]["data_check"], "pass");
  }
  EXPECT_EQ(report[1]["cycles"], report[0]["cycles"]);
  EXPECT_EQ(report[1]["link_utilization"], report[0]["link_utilization"]);
}

TEST(NicBlocksCli, BadValueExits2NamingTheKey) {
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-optimal", "--set",
                                "nic_blocks=verilog"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("'nic_blocks'"));
}

// schedule_engine: programmable runs any algorithm from its reference
// programs; a program longer than program_depth exits 2 naming the key.
TEST(NicBlocksCli, ProgrammableEngineRunsAnyAlgorithmAndRefusesLongPrograms) {
  const fs::path json = scratch() / "programmable.json";
  const CliRun ok = run_collnet({"run", "--set", "topology=torus:4x2", "--set", "algorithm=ring-allreduce", "--set",
                                 "schedule_engine=programmable", "--set", "compare=", "--json", json.string()});
  ASSERT_EQ(ok.status, 0) << ok.out << ok.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["schedule_engine"], "hls-programmable");
  EXPECT_EQ(j["data_check"], "pass");
  const CliRun refused = run_collnet({"run", "--set", "topology=torus:4x2", "--set", "algorithm=ring-allreduce",
                                      "--set", "schedule_engine=programmable", "--set", "program_depth=3", "--set",
                                      "compare="});
  EXPECT_EQ(refused.status, 2) << refused.out << refused.err;
  EXPECT_THAT(refused.out + refused.err, HasSubstr("key 'program_depth'"));
  EXPECT_THAT(refused.out + refused.err, HasSubstr("4096"));
}
