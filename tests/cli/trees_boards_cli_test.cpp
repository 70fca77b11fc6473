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
