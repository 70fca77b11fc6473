// `collnet check` on the tree and board collectives (documents 003 and 004):
// the new topology forms and algorithms run and pass the data check; bad
// input exits with status 2 and a message naming the key and the accepted
// values. Runs the real binary.
#include <gtest/gtest.h>
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

namespace fs = std::filesystem;

fs::path scratch() { return fs::temp_directory_path() / ("collnet_trees_cli_" + std::to_string(::getpid())); }

// Removes the scratch directory when the test process ends.
const struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ignored;
    fs::remove_all(scratch(), ignored);
  }
} scratch_cleanup;

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `collnet check` with --set overrides; arguments contain no quotes.
Outcome check(const std::vector<std::string>& sets, const std::string& extra = "") {
  const fs::path dir = scratch();
  fs::create_directories(dir);
  std::string cmd = std::string(COLLNET_BINARY) + " check";
  for (const auto& s : sets) cmd += " --set '" + s + "'";
  cmd += " " + extra + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int raw = std::system(cmd.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  o.out = read_file(dir / "out");
  o.err = read_file(dir / "err");
  return o;
}

}  // namespace

TEST(TreesBoardsCli, TreeBroadcastWorkedExample) {
  const fs::path json = scratch() / "r.json";
  const Outcome o = check({"topology=tree:parents=-1,0,0,1,1,2,2", "algorithm=tree-bcast", "logical_root=4",
                           "message_flits=8"},
                          "--json " + json.string());
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(j["transfers"], 6);
  EXPECT_EQ(j["phases"], 4);
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(j["static_time"], 32);
}

TEST(TreesBoardsCli, AllreduceOnBoardsAndItsBaseline) {
  for (const char* algorithm : {"algorithm=hd-allreduce", "algorithm=hd-allreduce-conventional"}) {
    const Outcome o = check({"topology=boards:2x2x2x2", algorithm, "op=max", "dtype=float64", "dim_order=bandwidth"});
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("data check        pass"), std::string::npos) << o.out;
  }
  const Outcome r = check({"topology=tree:random=40,seed=5,root=7", "algorithm=tree-bcast"});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(TreesBoardsCli, BadInputExitsWithStatusTwoNamingTheKey) {
  const Outcome size3 = check({"topology=boards:4x3x4x4", "algorithm=hd-allreduce"});
  EXPECT_EQ(size3.status, 2);
  EXPECT_NE(size3.err.find("key 'topology'"), std::string::npos) << size3.err;
  EXPECT_NE(size3.err.find("board size 3"), std::string::npos) << size3.err;
  EXPECT_NE(size3.err.find("1, 2, 4"), std::string::npos) << size3.err;
  const Outcome elements = check({"topology=boards:2x2x1x1", "algorithm=hd-allreduce", "elements=24"});
  EXPECT_EQ(elements.status, 2);
  EXPECT_NE(elements.err.find("key 'elements'"), std::string::npos) << elements.err;
  EXPECT_NE(elements.err.find("multiples of 16"), std::string::npos) << elements.err;
  const Outcome op = check({"topology=boards:2x2x1x1", "algorithm=hd-allreduce", "op=xor"});
  EXPECT_EQ(op.status, 2);
  EXPECT_NE(op.err.find("key 'op'"), std::string::npos) << op.err;
  const Outcome root = check({"topology=tree:kary=3,n=10", "algorithm=tree-bcast", "logical_root=10"});
  EXPECT_EQ(root.status, 2);
  EXPECT_NE(root.err.find("key 'logical_root'"), std::string::npos) << root.err;
  const Outcome form = check({"topology=tree:kary=3", "algorithm=tree-bcast"});
  EXPECT_EQ(form.status, 2);
  EXPECT_NE(form.err.find("accepted forms"), std::string::npos) << form.err;
}
