// `collnet run` of several jobs at once (key `jobs`): each job's cycles, data
// check and its run alone; jobs whose traffic cannot meet take exactly their
// alone cycles, jobs that share links no fewer; bad jobs refused naming them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

JsonRun run_scenario(const std::string& name, const std::string& yaml) {
  const fs::path file = write_file(name + ".yaml", yaml);
  return run_words_json("run " + file.string(), name + ".json");
}

CliRun refused(const std::string& name, const std::string& yaml) {
  const fs::path file = write_file(name + ".yaml", yaml);
  return run_words("run " + file.string());
}

}  // namespace

// mesh:4x4 routes dimension order (x, then y): a packet between two
// endpoints of rows 0-1 (endpoints 0-7) never leaves those rows, nor one of
// rows 2-3 (8-15). Two jobs on the two halves share no router or link, so
// each takes exactly the cycles it takes alone.
TEST(Jobs, JobsWhoseTrafficCannotMeetTakeTheirAloneCycles) {
  const JsonRun r = run_scenario("jobs_halves", R"(topology: mesh:4x4
jobs:
  - algorithm: ring-allreduce
    endpoints: 0-7
    elements: 256
  - algorithm: pairwise-alltoall
    endpoints: [8, 9, 10, 11, 12, 13, 14, 15]
    message_flits: 8
)");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.json.at("data_check"), "pass");
  const auto& jobs = r.json.at("jobs");
  ASSERT_EQ(jobs.size(), 2u);
  std::int64_t longest = 0;
  for (const auto& j : jobs) {
    SCOPED_TRACE(j.dump());
    EXPECT_EQ(j.at("data_check"), "pass");
    EXPECT_EQ(j.at("alone_data_check"), "pass");
    EXPECT_EQ(j.at("cycles"), j.at("alone_cycles"));
    EXPECT_DOUBLE_EQ(j.at("slowdown").get<double>(), 1.0);
    longest = std::max(longest, j.at("cycles").get<std::int64_t>());
  }
  EXPECT_EQ(jobs[0].at("endpoints").size(), 8u);
  EXPECT_EQ(jobs[0].at("shape"), "mesh:8x1");
  EXPECT_EQ(jobs[0].at("words_per_rank"), 256);
  // The run ends with its last job.
  EXPECT_EQ(r.json.at("cycles").get<std::int64_t>(), longest);
  EXPECT_THAT(r.out, HasSubstr("collnet run: 2 jobs on mesh:4x4"));
  EXPECT_THAT(r.out, HasSubstr("ring-allreduce on endpoints 0-7"));
}

// A job on every endpoint in order, shaped as the network itself, is the
// plain collective run: the same cycles and data.
TEST(Jobs, OneJobOnEveryEndpointIsThePlainRun) {
  const JsonRun plain = run_words_json(
      "run --set topology=mesh:4x4 --set algorithm=ring-allreduce --set elements=256 --set compare=", "jobs_plain.json");
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  const JsonRun r = run_scenario("jobs_one", R"(topology: mesh:4x4
jobs:
  - algorithm: ring-allreduce
    endpoints: 0-15
    shape: mesh:4x4
    elements: 256
)");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.json.at("jobs").at(0).at("cycles"), plain.json.at("cycles"));
  EXPECT_EQ(r.json.at("cycles"), plain.json.at("cycles"));
  EXPECT_EQ(r.json.at("flits"), plain.json.at("flits"));
}

// Interleaved jobs (even and odd endpoints) cross each other's rows and
// columns: each takes at least its alone cycles, and the contention shows.
TEST(Jobs, JobsThatShareLinksTakeAtLeastTheirAloneCycles) {
  const JsonRun r = run_scenario("jobs_shared", R"(topology: mesh:4x4
jobs:
  - algorithm: ring-allreduce
    endpoints: 0,2,4,6,8,10,12,14
    elements: 512
  - algorithm: ring-allreduce
    endpoints: 1,3,5,7,9,11,13,15
    elements: 512
)");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  bool slower = false;
  for (const auto& j : r.json.at("jobs")) {
    SCOPED_TRACE(j.dump());
    EXPECT_EQ(j.at("data_check"), "pass");
    EXPECT_GE(j.at("cycles").get<std::int64_t>(), j.at("alone_cycles").get<std::int64_t>());
    slower = slower || j.at("cycles").get<std::int64_t>() > j.at("alone_cycles").get<std::int64_t>();
  }
  EXPECT_TRUE(slower) << "two rings on interleaved endpoints share links";
}

TEST(Jobs, BadJobsAreRefusedNamingTheJob) {
  const auto expect = [](const CliRun& r, const std::vector<std::string>& named) {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    for (const auto& n : named) EXPECT_THAT(r.err, HasSubstr(n));
  };
  expect(refused("jobs_overlap", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, endpoints: 0-7}\n"
                                 "  - {algorithm: ring-allreduce, endpoints: 6-9}\n"),
         {"key 'jobs': job 1 (ring-allreduce): endpoint 6 is job 0's too"});
  expect(refused("jobs_range", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, endpoints: 12-19}\n"),
         {"key 'jobs': job 0 (ring-allreduce): endpoint 16 is not one of mesh:4x4's endpoints 0..15"});
  expect(refused("jobs_shape", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, endpoints: 0-7, "
                               "shape: torus:2x2}\n"),
         {"shape torus:2x2 has 4 endpoints and the job 8"});
  expect(refused("jobs_unknown", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduse, endpoints: 0-7}\n"),
         {"key 'jobs': job 0: unknown algorithm 'ring-allreduse'", "ring-allreduce"});
  expect(refused("jobs_bad_key", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, endpoints: 0-7, "
                                 "elements: -4}\n"),
         {"key 'jobs': job 0 (ring-allreduce): key 'elements'"});
  expect(refused("jobs_endpoints", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, endpoints: 7-3}\n"),
         {"endpoints: '7-3' is not an endpoint number or a range"});
  expect(refused("jobs_and_algorithm", "topology: mesh:4x4\nalgorithm: ring-allreduce\njobs:\n"
                                       "  - {algorithm: ring-allreduce, endpoints: 0-7}\n"),
         {"keys 'algorithm' and 'jobs' select different runs"});
  {
    const fs::path file = write_file("jobs_check.yaml", "topology: mesh:4x4\njobs:\n  - {algorithm: ring-allreduce, "
                                                        "endpoints: 0-7}\n");
    const CliRun check = run_words("check " + file.string());
    EXPECT_EQ(check.status, 2) << check.out << check.err;
    EXPECT_THAT(check.err, HasSubstr("key 'jobs': `collnet check` checks one algorithm's schedule"));
  }
  expect(refused("jobs_barrier", "topology: torus:4x4\njobs:\n  - {algorithm: a2a-hopgroup, endpoints: 0-15, "
                                 "shape: torus:4x4, message_flits: 4}\n"),
         {"key 'jobs': job 0 (a2a-hopgroup)", "barriers"});
}
