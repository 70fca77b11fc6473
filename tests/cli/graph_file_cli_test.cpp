// graph:FILE.yaml through the CLI: a 4x4 mesh written as a file, with a
// routing table of dimension-order routes written from the coordinates, runs
// in exactly the cycles of mesh:4x4 (an independent built-in); uniform
// traffic at saturation on an irregular graph runs 100,000 cycles with up*/
// down* routes and no deadlock; a bad file and an algorithm on a topology it
// does not run on are refused with exit 2 before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/cli/cli_runner.hpp"
#include "tests/support/mesh_graph_file.hpp"

using namespace collnet::test;
using ::testing::HasSubstr;

namespace {

std::string example(const std::string& name) { return std::string(COLLNET_SOURCE_DIR) + "/examples/graphs/" + name; }

/// mesh:4x4 as a graph file with X-then-Y routes in a table.
fs::path mesh_file() { return write_file("graphs/mesh-4x4-dor.yaml", collnet::test::mesh_4x4_dor_file()); }

}  // namespace

TEST(GraphFileCli, MeshFileWithDimensionOrderTableRunsInTheMeshsCycles) {
  const std::string mesh = mesh_file().string();
  for (const std::string collective : {"pairwise-alltoall", "ring-allreduce"}) {
    const std::string common = "run --set algorithm=" + collective + " --set message_flits=8 --set topology=";
    const JsonRun builtin = run_words_json(common + "mesh:4x4", "builtin.json");
    const JsonRun file = run_words_json(common + "graph:" + mesh, "file.json");
    ASSERT_EQ(builtin.status, 0) << builtin.out << builtin.err;
    ASSERT_EQ(file.status, 0) << file.out << file.err;
    EXPECT_EQ(file.json["topology"], "graph:" + mesh);
    EXPECT_GT(builtin.json["cycles"].get<long>(), 0);
    EXPECT_EQ(file.json["cycles"], builtin.json["cycles"]) << collective;
  }
  // Synthetic uniform traffic: the same packets on the same routes.
  const std::string synthetic =
      "run --set traffic=uniform --set injection_rate=0.2 --set warmup_cycles=500 --set measure_cycles=3000 "
      "--set topology=";
  const JsonRun builtin = run_words_json(synthetic + "mesh:4x4", "builtin_syn.json");
  const JsonRun file = run_words_json(synthetic + "graph:" + mesh, "file_syn.json");
  ASSERT_EQ(builtin.status, 0) << builtin.out << builtin.err;
  ASSERT_EQ(file.status, 0) << file.out << file.err;
  EXPECT_EQ(file.json["avg_latency"], builtin.json["avg_latency"]);
  EXPECT_EQ(file.json["accepted_rate"], builtin.json["accepted_rate"]);
  EXPECT_EQ(file.json["p99_latency"], builtin.json["p99_latency"]);
  // Link names come from the file: r0_0's + X link is r0_0:0->r1_0.
  EXPECT_TRUE(file.json["link_utilization"]["per_link"].contains("r0_0:0->r1_0"));
}

TEST(GraphFileCli, UniformTrafficAtSaturationOnAnIrregularGraphRunsWithoutDeadlock) {
  // Every endpoint offers a flit per cycle, far beyond what the network
  // accepts: 100,000 cycles of saturated up*/down* routes.
  const JsonRun r = run_words_json("run --set topology=graph:" + example("irregular.yaml") +
                                       " --set traffic=uniform --set injection_rate=1 --set warmup_cycles=1000 "
                                       "--set measure_cycles=99000 --set drain_cycles=0",
                                   "saturation.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(r.json["deadlock"].is_null());
  const double accepted = r.json["accepted_rate"].get<double>();
  EXPECT_GT(accepted, 0.05);
  EXPECT_LT(accepted, r.json["offered_rate"].get<double>() * 0.9);  // saturated: it accepts less than offered
  EXPECT_LT(r.cpu_seconds, 5.0);
}

TEST(GraphFileCli, BadFileIsRefusedNamingTheLineBeforeAnythingRuns) {
  const fs::path bad = write_file("graphs/bad.yaml", "endpoints: [a, b]\nlinks:\n  - [a, b]\n  - [a, x]\n");
  const CliRun r = run_words("run --set traffic=uniform --set topology=graph:" + bad.string());
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("graph file '" + bad.string() + "' line 4: unknown node 'x'"));
  const CliRun missing = run_words("check --set algorithm=ring-allreduce --set topology=graph:/nonexistent.yaml");
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("cannot open graph file '/nonexistent.yaml'"));
}

TEST(GraphFileCli, AlgorithmOnATopologyItDoesNotRunOnIsRefusedNamingBoth) {
  const std::string ring = "graph:" + example("ring-8.yaml");
  struct Case {
    std::string algorithm, topology, accepted;
  };
  for (const Case& c : {Case{"a2a-optimal", ring, "a 2-D mesh or torus (torus:NXxNY, mesh:NXxNY)"},
                        Case{"hd-allreduce", "torus:4x4", "boards:WxXxYxZ"},
                        Case{"twotree-hier", "mesh:4x4", "leafspine:p=P"},
                        Case{"tree-bcast", "torus:4x4", "tree:parents="}}) {
    const CliRun r = run_check({"topology=" + c.topology, "algorithm=" + c.algorithm});
    EXPECT_EQ(r.status, 2) << c.algorithm << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("key 'topology': algorithm '" + c.algorithm + "' does not run on '" + c.topology +
                                 "'; accepted topologies: "));
    EXPECT_THAT(r.err, HasSubstr(c.accepted));
  }
}

TEST(GraphFileCli, TreeBroadcastAndStandardCollectivesRunOnGraphFiles) {
  for (const std::string file : {"fat-tree-2level.yaml", "irregular.yaml", "star-table.yaml"})
    for (const std::string algorithm : {"tree-bcast", "binomial-bcast", "ring-allreduce"}) {
      const JsonRun r = run_words_json(
          "run --set algorithm=" + algorithm + " --set message_flits=8 --set topology=graph:" + example(file),
          "collective.json");
      ASSERT_EQ(r.status, 0) << file << " " << algorithm << r.out << r.err;
      EXPECT_EQ(r.json["data_check"], "pass") << file << " " << algorithm;
    }
}
