// `collnet check` on the tree and board collectives (documents 003 and 004):
// the new topology forms and algorithms run and pass the data check; bad
// input exits with status 2 and a message naming the key and the accepted
// values. Runs the real binary.
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using namespace collnet::test;

}  // namespace

TEST(TreesBoardsCli, TreeBroadcastWorkedExample) {
  const fs::path json = scratch() / "r.json";
  const CliRun o = run_check({"topology=tree:parents=-1,0,0,1,1,2,2", "algorithm=tree-bcast", "logical_root=4",
                           "message_flits=8"},
                          std::vector<std::string>{"--json", json.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = read_json(json);
  EXPECT_EQ(j["transfers"], 6);
  EXPECT_EQ(j["phases"], 4);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["static_time"], 32);
}

TEST(TreesBoardsCli, AllreduceOnBoardsAndItsBaseline) {
  for (const char* algorithm : {"algorithm=hd-allreduce", "algorithm=hd-allreduce-conventional"}) {
    const CliRun o = run_check({"topology=boards:2x2x2x2", algorithm, "op=max", "dtype=float64", "dim_order=bandwidth"});
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("data check        pass"), std::string::npos) << o.out;
  }
  const CliRun r = run_check({"topology=tree:random=40,seed=5,root=7", "algorithm=tree-bcast"});
  EXPECT_EQ(r.status, 0) << r.err;
}

// The run's JSON counts the flits on links between boards: on boards:2x1x1x1
// each of the 8 aggregation units sends half its B = L/4 words in the W
// halving and its held half in the doubling, one hop each: 8 B = 2 L. The
// document's aggregation unit moves the same words (in fewer cycles); other
// topologies report null.
TEST(TreesBoardsCli, RunReportsInterBoardFlits) {
  const int L = 64;
  std::vector<std::int64_t> cycles;
  for (const bool document : {false, true}) {
    const fs::path json = scratch() / "boards.json";
    std::vector<std::string> args{"run", "--set", "topology=boards:2x1x1x1", "--set", "algorithm=hd-allreduce",
                                  "--set", "elements=" + std::to_string(L), "--json", json.string()};
    if (document)
      for (const char* kv : {"plane_order=rotated", "link_controllers=per-link", "reduce_words_per_cycle=8"})
        args.insert(args.end(), {"--set", kv});
    const CliRun r = run_collnet(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = read_json(json);
    EXPECT_EQ(j["data_check"], "pass");
    EXPECT_EQ(j["inter_board_flits"], 2 * L) << document;
    EXPECT_EQ(j["controllers"], document ? 8 : 1);
    cycles.push_back(j["cycles"].get<std::int64_t>());
  }
  EXPECT_LT(cycles[1], cycles[0]);
  const fs::path json = scratch() / "torus.json";
  const CliRun t = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-optimal", "--set",
                                "message_flits=4", "--set", "compare=", "--json", json.string()});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_TRUE(read_json(json)["inter_board_flits"].is_null());
}

TEST(TreesBoardsCli, BadInputExitsWithStatusTwoNamingTheKey) {
  const CliRun size3 = run_check({"topology=boards:4x3x4x4", "algorithm=hd-allreduce"});
  EXPECT_EQ(size3.status, 2);
  EXPECT_NE(size3.err.find("key 'topology'"), std::string::npos) << size3.err;
  EXPECT_NE(size3.err.find("board size 3"), std::string::npos) << size3.err;
  EXPECT_NE(size3.err.find("1, 2, 4"), std::string::npos) << size3.err;
  const CliRun elements = run_check({"topology=boards:2x2x1x1", "algorithm=hd-allreduce", "elements=24"});
  EXPECT_EQ(elements.status, 2);
  EXPECT_NE(elements.err.find("key 'elements'"), std::string::npos) << elements.err;
  EXPECT_NE(elements.err.find("multiples of 16"), std::string::npos) << elements.err;
  const CliRun op = run_check({"topology=boards:2x2x1x1", "algorithm=hd-allreduce", "op=xor"});
  EXPECT_EQ(op.status, 2);
  EXPECT_NE(op.err.find("key 'op'"), std::string::npos) << op.err;
  const CliRun root = run_check({"topology=tree:kary=3,n=10", "algorithm=tree-bcast", "logical_root=10"});
  EXPECT_EQ(root.status, 2);
  EXPECT_NE(root.err.find("key 'logical_root'"), std::string::npos) << root.err;
  const CliRun form = run_check({"topology=tree:kary=3", "algorithm=tree-bcast"});
  EXPECT_EQ(form.status, 2);
  EXPECT_NE(form.err.find("accepted forms"), std::string::npos) << form.err;
}
