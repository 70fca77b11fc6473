// `collnet check` on the leaf/spine collectives of document 002: the new
// topology forms (leafspine:p=P, leafspine-wiring:FILE) and algorithms
// (twotree-hier, twotree-flat, tree-single) run and pass the data check; the
// static report shows the hierarchical scheme free of contention and the flat
// two-tree colliding; bad input exits 2 naming the key. Runs the real binary.
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using namespace collnet::test;

struct Outcome {
  int status = -1;
  std::string out, err;
  nlohmann::json json;
};

Outcome check(const std::vector<std::string>& sets) {
  const fs::path json = scratch() / "r.json";
  fs::remove(json);
  const CliRun r = run_check(sets, {"--json", json.string()});
  Outcome o{r.status, r.out, r.err, {}};
  if (fs::exists(json)) o.json = read_json(json);
  return o;
}

int max_load(const nlohmann::json& j) {
  const auto loads = j["phase_max_link_load"].get<std::vector<int>>();
  return loads.empty() ? 0 : *std::max_element(loads.begin(), loads.end());
}

}  // namespace

// spec: P = 32 on p = 6; allreduce = local reduce (2(B+3-1) = 12 phases),
// global reduce (2(B+2-1) = 10), global and local broadcast: 44 phases.
TEST(TwoTreeCli, HierarchicalAllreduceOnP6) {
  const Outcome o = check({"topology=leafspine:p=6", "algorithm=twotree-hier", "processes=32"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.json["data_check"], "pass");
  EXPECT_EQ(o.json["phases"], 44);
  EXPECT_EQ(max_load(o.json), 1);
  EXPECT_EQ(o.json["nodes"], 36);
}

TEST(TwoTreeCli, FlatTwoTreeAndSingleTreeCollide) {
  for (const char* algorithm : {"algorithm=twotree-flat", "algorithm=tree-single"}) {
    const Outcome o = check({"topology=leafspine:p=6", algorithm, "processes=32", "collective=reduce"});
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.json["data_check"], "pass");
    EXPECT_EQ(max_load(o.json), 2) << algorithm;
  }
}

TEST(TwoTreeCli, FirstEmbodimentWiringFile) {
  const fs::path wiring = scratch() / "first.wiring";
  std::ofstream(wiring) << "server 11 leaf 21\nserver 12 leaf 21\nserver 13 leaf 22\nserver 14 leaf 22\n"
                           "server 15 leaf 23\nserver 16 leaf 23\nserver 17 leaf 24\nserver 18 leaf 24\n"
                           "uplink 21 25\nuplink 21 26\nuplink 22 25\nuplink 22 26\n"
                           "uplink 23 26\nuplink 23 27\nuplink 24 26\nuplink 24 27\n";
  const Outcome o = check({"topology=leafspine-wiring:" + wiring.string(), "algorithm=twotree-hier",
                           "op=max", "dtype=float64", "elements=9"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.json["data_check"], "pass");
  EXPECT_EQ(o.json["nodes"], 8);
  EXPECT_EQ(max_load(o.json), 1);
  std::ofstream(wiring) << "server 11 leaf 21\nuplink 21 11\n";
  const Outcome bad = check({"topology=leafspine-wiring:" + wiring.string(), "algorithm=twotree-hier"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("line 2"), std::string::npos) << bad.err;
}

TEST(TwoTreeCli, BadInputExitsTwoNamingTheKey) {
  struct Case {
    std::vector<std::string> sets;
    std::string names;
  };
  for (const Case& c : std::vector<Case>{
           {{"topology=leafspine:p=7", "algorithm=twotree-hier"}, "'p'"},
           {{"topology=leafspine:p=4", "algorithm=twotree-hier"}, "'p'"},
           {{"topology=leafspine:p=6", "algorithm=twotree-hier", "processes=37"}, "'processes'"},
           {{"topology=leafspine:p=6", "algorithm=twotree-hier", "spine_choice=ecmp"}, "'spine_choice'"},
           {{"topology=torus:4x4", "algorithm=twotree-hier"}, "'topology'"},
       }) {
    const Outcome o = check(c.sets);
    EXPECT_EQ(o.status, 2) << c.names << ": " << o.out;
    EXPECT_NE(o.err.find(c.names), std::string::npos) << o.err;
  }
}
