// `collnet run` of Chakra workloads (workload: chakra:PREFIX): each checked
// against an independent run or a closed form. The 1 MiB traces are run at
// workload_scale 1/64 (4096 words a rank): what is checked (a collective in
// a workload against the same collective run alone, the lowered ring
// against the registered ring, overlap against chaining) does not depend
// on the size, and a full-size run takes seconds on two cores.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "../cli/cli_runner.hpp"
#include "workload/chakra.pb.h"
#include "workload/workload.hpp"

namespace collnet::test {
namespace {

const std::string kExamples = std::string(COLLNET_SOURCE_DIR) + "/examples/chakra/";
constexpr const char* kScale = "workload_scale=0.015625";  // 1/64: 4096 words a rank of 1 MiB

JsonRun run_workload(const std::string& prefix, const std::string& sets, const std::string& name) {
  return run_words_json("run --set workload=chakra:" + prefix + " --set " + kScale + " " + sets, name);
}

std::int64_t cycles_of_collective(const nlohmann::json& j, std::size_t c) {
  return j.at("workload").at("collectives").at(c).at("cycles").get<std::int64_t>();
}

struct Micro {
  const char* folder;
  const char* file;
  const char* algorithm;
  const char* size;  // the algorithm's size key for 4096 words a rank
};

TEST(WorkloadRun, EachMicrobenchmarkTakesTheCyclesOfItsCollectiveRunDirectly) {
  // One COMM_COLL_NODE a rank: the workload's collective must take what the
  // same algorithm takes run alone on the same words a rank, up to the
  // cycles of the node's done signal (a one-word local copy after its last
  // WAIT and behind its last SEND).
  const Micro micros[] = {{"all_reduce", "all_reduce", "ring-allreduce", "elements=4096"},
                          {"all_gather", "all_gather", "ring-allgather", "elements=4096"},
                          {"reduce_scatter", "reduce_scatter", "ring-reduce-scatter", "elements=4096"},
                          {"all_to_all", "all_to_all", "pairwise-alltoall", "message_flits=1024"}};
  for (const Micro& m : micros) {
    SCOPED_TRACE(m.folder);
    const std::string prefix = kExamples + m.folder + "/4npus_1MB/" + m.file;
    const JsonRun w = run_workload(prefix, "--set topology=torus:2x2", std::string(m.folder) + "_w.json");
    ASSERT_EQ(w.status, 0) << w.out << w.err;
    EXPECT_EQ(w.json.at("data_check"), "pass");
    EXPECT_EQ(w.json.at("workload").at("collectives").at(0).at("algorithm"), m.algorithm);
    EXPECT_EQ(w.json.at("workload").at("collectives").at(0).at("words_per_rank"), 4096);
    const JsonRun d = run_words_json(std::string("run --set topology=torus:2x2 --set compare= --set algorithm=") +
                                         m.algorithm + " --set " + m.size,
                                     std::string(m.folder) + "_d.json");
    ASSERT_EQ(d.status, 0) << d.out << d.err;
    const std::int64_t alone = d.json.at("cycles").get<std::int64_t>();
    const std::int64_t in_workload = cycles_of_collective(w.json, 0);
    EXPECT_GE(in_workload, alone - 1) << "alone " << alone << ", in the workload " << in_workload;
    EXPECT_LE(in_workload, alone + 4) << "alone " << alone << ", in the workload " << in_workload;
  }
}
}  // namespace
}  // namespace collnet::test
