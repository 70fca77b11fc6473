// collnet run --progress: cycles, messages delivered and
// router-cycles/s on stderr while a run lasts, and exactly the same run.
#include <gtest/gtest.h>

#include "tests/cli/cli_runner.hpp"

namespace collnet::test {
namespace {

void same_run_with_and_without_progress(const std::vector<std::string>& sets, const std::string& name) {
  std::vector<std::string> plain{"run", "--json", (scratch() / (name + "_plain.json")).string()};
  std::vector<std::string> shown{"run", "--json", (scratch() / (name + "_shown.json")).string(), "--progress",
                                 "--progress-delay", "0"};
  for (const auto& s : sets) {
    for (auto* v : {&plain, &shown}) {
      v->push_back("--set");
      v->push_back(s);
    }
  }
  const auto a = run_collnet(plain);
  const auto b = run_collnet(shown);
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  // Not a terminal and no --progress: nothing extra.
  EXPECT_EQ(a.err, "");
  EXPECT_NE(b.err.find("run: cycle "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(" delivered, "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(" M router-cycles/s"), std::string::npos) << b.err;
  auto ja = read_json(scratch() / (name + "_plain.json"));
  auto jb = read_json(scratch() / (name + "_shown.json"));
  for (auto* j : {&ja, &jb})
    for (const char* timing : {"sim_seconds", "elaboration_seconds", "router_cycles_per_second", "sim_cpu_seconds",
                               "router_cycles_per_cpu_second"})
      j->erase(timing);
  EXPECT_EQ(ja, jb) << "a run with the progress display simulated something else";
}

TEST(RunProgress, CollectiveShownAndUnchanged) {
  same_run_with_and_without_progress({"topology=torus:8x8", "algorithm=a2a-optimal", "message_flits=64"},
                                     "collective");
}

TEST(RunProgress, SyntheticShownAndUnchanged) {
  same_run_with_and_without_progress({"topology=mesh:8x8", "traffic=uniform", "injection_rate=0.3"}, "synthetic");
}

}  // namespace
}  // namespace collnet::test
