// `collnet run` of Chakra workloads (workload: chakra:PREFIX): each checked
// against an independent run or a closed form. The 1 MiB traces are run at
// workload_scale 1/64 (4096 words a rank): what is checked (a collective in
// a workload against the same collective run alone, the lowered ring
// against the registered ring, overlap against chaining) does not depend
// on the size, and a full-size run takes seconds on two cores.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <fstream>
#include <stdexcept>
#include <string>

#include <google/protobuf/util/delimited_message_util.h>
#include <gtest/gtest.h>

#include "../cli/cli_runner.hpp"
#include "workload/chakra.pb.h"
#include "workload/workload.hpp"

namespace fs = std::filesystem;

namespace collnet::test {
namespace {

const std::string kExamples = std::string(COLLNET_SOURCE_DIR) + "/examples/chakra/";
// 1/64 of each comm_size in 4-byte words: 4096 words a rank of 1 MiB.
constexpr const char* kScale = "workload_scale=0.015625 --set flit_bytes=4";

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
    // The report's own run of the collective alone is that direct run.
    const auto& c = w.json.at("workload").at("collectives").at(0);
    EXPECT_EQ(c.at("alone_cycles").get<std::int64_t>(), alone);
    EXPECT_DOUBLE_EQ(c.at("slowdown").get<double>(), static_cast<double>(in_workload) / static_cast<double>(alone));
  }
}

TEST(WorkloadRun, TheRingLoweredToSendsAndReceivesTakesTheCyclesOfTheRegisteredRing) {
  // custom_ring_allreduce_8npus_1MB is a ring allreduce of 1 MiB on 8 ranks
  // as 14 sends and receives of 1/8 each and 7 compute nodes of 7 us (the
  // reductions). collnet's NIC reduces on receipt, so the compute nodes are
  // made short (clock_ghz 0.001: 7 cycles each) and the two runs compare
  // the same transfers: the lowered ring waits for every step's receive
  // before its next send, as ring-allreduce's programs do.
  const std::string sets = "--set topology=torus:8 --set clock_ghz=0.001";
  const JsonRun ring =
      run_workload(kExamples + "custom_ring_allreduce_8npus_1MB/custom_allreduce", sets, "ring.json");
  ASSERT_EQ(ring.status, 0) << ring.out << ring.err;
  EXPECT_EQ(ring.json.at("data_check"), "pass");
  EXPECT_EQ(ring.json.at("workload").at("point_to_point_messages"), 8 * 14);
  const JsonRun all = run_workload(kExamples + "all_reduce/8npus_1MB/all_reduce", sets, "allreduce.json");
  ASSERT_EQ(all.status, 0) << all.out << all.err;
  const double lowered = ring.json.at("workload").at("total_cycles").get<double>();
  const double registered = all.json.at("workload").at("total_cycles").get<double>();
  EXPECT_NEAR(lowered / registered, 1.0, 0.05) << "lowered ring " << lowered << ", ring-allreduce " << registered;
  // Every one of the 14 steps moves 1/8 of the vector on every link of the ring at once.
  EXPECT_GE(lowered, 14 * 4096 / 8);
}

/// Appends `m` as a Chakra rank file holds it: its length as a varint, then
/// its bytes (protobuf's delimited form).
void append_delimited(std::string& out, const google::protobuf::Message& m) {
  std::ostringstream s;
  if (!google::protobuf::util::SerializeDelimitedToOstream(m, &s))
    throw std::runtime_error("serializing a Chakra message");
  out += s.str();
}

/// A workload of 4 ranks, each: compute A (5 us), an ALL_REDUCE of 16 KiB
/// after A, compute B (5 us) after A (`overlap`) or after the allreduce.
std::string overlap_workload(bool overlap) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch() / (overlap ? "overlap" : "chained");
  fs::create_directories(dir);
  for (int r = 0; r < 4; ++r) {
    std::string out;
    const auto put = [&](const google::protobuf::Message& m) { append_delimited(out, m); };
    chakra::GlobalMetadata meta;
    meta.set_version("0.0.4");
    put(meta);
    chakra::Node a, x, b;
    a.set_id(0), a.set_name("A"), a.set_type(4), a.set_duration_micros(5);
    x.set_id(1), x.set_name("X"), x.set_type(7), x.add_data_deps(0);
    auto* t = x.add_attr();
    t->set_name("comm_type"), t->set_int64_val(0);
    auto* z = x.add_attr();
    z->set_name("comm_size"), z->set_int64_val(16384 * 64);  // 4096 words at workload_scale 1/64
    b.set_id(2), b.set_name("B"), b.set_type(4), b.set_duration_micros(5), b.add_data_deps(overlap ? 0 : 1);
    put(a), put(x), put(b);
    std::ofstream(dir / ("step." + std::to_string(r) + ".et"), std::ios::binary) << out;
  }
  return (dir / "step").string();
}

TEST(WorkloadRun, ACollectiveThatOverlapsComputeFinishesEarlierAndIsLessExposed) {
  const std::string sets = "--set topology=torus:2x2";
  const JsonRun chained = run_workload(overlap_workload(false), sets, "chained.json");
  const JsonRun overlap = run_workload(overlap_workload(true), sets, "overlap.json");
  ASSERT_EQ(chained.status, 0) << chained.out << chained.err;
  ASSERT_EQ(overlap.status, 0) << overlap.out << overlap.err;
  const auto& c = chained.json.at("workload");
  const auto& o = overlap.json.at("workload");
  const auto total = [](const nlohmann::json& w) { return w.at("total_cycles").get<std::int64_t>(); };
  const auto exposed = [](const nlohmann::json& w) { return w.at("exposed_communication_cycles").get<std::int64_t>(); };
  EXPECT_LE(total(o), total(c));
  EXPECT_LT(exposed(o), exposed(c));
  // Closed forms, X the allreduce's cycles in the run: chained A + X + B,
  // overlapped A + max(X, B); exposed: X, and X - B where X > B.
  const std::int64_t x = c.at("collectives").at(0).at("cycles").get<std::int64_t>();
  ASSERT_GT(x, 5000) << "the allreduce must outlast B for the check below";
  EXPECT_NEAR(static_cast<double>(total(c)), 5000.0 + static_cast<double>(x) + 5000.0, 10.0);
  EXPECT_NEAR(static_cast<double>(total(o)), 5000.0 + static_cast<double>(x), 10.0);
  EXPECT_NEAR(static_cast<double>(exposed(c)), static_cast<double>(x), 10.0);
  EXPECT_NEAR(static_cast<double>(exposed(o)), static_cast<double>(x) - 5000.0, 10.0);
  EXPECT_EQ(o.at("compute_cycles"), 10000);
}

TEST(WorkloadRun, TheTimelineHoldsOneCompleteEventPerNodeAndRankInMicroseconds) {
  const fs::path file = scratch() / "timeline.json";
  const JsonRun r = run_words_json("run --set workload=chakra:" + overlap_workload(true) + " --set " + kScale +
                                       " --set topology=torus:2x2 --set clock_ghz=2 --timeline-json " + file.string(),
                                   "timeline_run.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const nlohmann::json t = read_json(file);
  int complete = 0;
  for (const auto& e : t.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    ++complete;
    const auto& node = r.json.at("workload").at("per_rank").at(e.at("pid").get<std::size_t>()).at("nodes").at(
        e.at("args").at("id").get<std::size_t>());
    // 2 GHz: 2000 cycles a microsecond.
    EXPECT_DOUBLE_EQ(e.at("ts").get<double>(), node.at("start_cycle").get<double>() / 2000.0);
    EXPECT_DOUBLE_EQ(e.at("dur").get<double>(),
                     (node.at("finish_cycle").get<double>() - node.at("start_cycle").get<double>()) / 2000.0);
    EXPECT_EQ(e.at("name"), node.at("name"));
  }
  EXPECT_EQ(complete, 4 * 3);
  // 5 us of compute at 2 GHz: 10000 cycles.
  EXPECT_EQ(r.json.at("workload").at("per_rank").at(0).at("compute_cycles"), 20000);
}

// The links' load in the timeline: one counter per link that carried a
// flit, a value per bin; the busy cycles they add up to are the run's
// flit-hops (a flit leaves on a link in one cycle, one flit a cycle).
TEST(WorkloadRun, TheTimelineCountsEveryFlitHopInTheLinksLoad) {
  const fs::path file = scratch() / "timeline_links.json";
  const JsonRun r = run_words_json("run --set workload=chakra:" + kExamples + "all_reduce/4npus_1MB/all_reduce --set " +
                                       kScale + " --set topology=torus:2x2 --timeline-json " + file.string(),
                                   "timeline_links_run.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const nlohmann::json t = read_json(file);
  const std::int64_t total = r.json.at("workload").at("total_cycles").get<std::int64_t>();
  const std::int64_t width = (total + 99) / 100;
  std::map<std::string, std::vector<double>> counters;
  bool named = false;
  for (const auto& e : t.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("args").at("name") == "links") named = e.at("pid") == 4;
    if (e.at("ph") != "C") continue;
    EXPECT_EQ(e.at("pid"), 4);
    const double busy = e.at("args").at("busy").get<double>();
    EXPECT_GE(busy, 0.0);
    EXPECT_LE(busy, 1.0);
    counters[e.at("name").get<std::string>()].push_back(busy);
  }
  EXPECT_TRUE(named);
  ASSERT_FALSE(counters.empty());
  double cycles = 0;
  for (const auto& [link, bins] : counters) {
    ASSERT_EQ(static_cast<std::int64_t>(bins.size()), (total + width - 1) / width) << link;
    EXPECT_TRUE(r.json.at("link_utilization").at("per_link").contains(link)) << link;
    for (std::size_t b = 0; b < bins.size(); ++b)
      cycles += bins[b] * static_cast<double>(std::min<std::int64_t>(width, total - static_cast<std::int64_t>(b) * width));
  }
  EXPECT_NEAR(cycles, r.json.at("flit_hops").get<double>(), 1e-6);
}

/// 8 ranks, each one ALL_REDUCE of 4096 words (at workload_scale 1/64) on
/// its half's process group: "1" = ranks 0-3, "2" = ranks 4-7 (comm_groups).
std::string halves_workload() {
  namespace fs = std::filesystem;
  const fs::path dir = scratch() / "halves";
  fs::create_directories(dir);
  for (int r = 0; r < 8; ++r) {
    std::string out;
    const auto put = [&](const google::protobuf::Message& m) { append_delimited(out, m); };
    chakra::GlobalMetadata meta;
    meta.set_version("0.0.4");
    put(meta);
    chakra::Node x;
    x.set_id(1), x.set_name("X"), x.set_type(7);
    auto* t = x.add_attr();
    t->set_name("comm_type"), t->set_int64_val(0);
    auto* z = x.add_attr();
    z->set_name("comm_size"), z->set_int64_val(16384 * 64);
    auto* g = x.add_attr();
    g->set_name("pg_name"), g->set_string_val(r < 4 ? "1" : "2");
    put(x);
    std::ofstream(dir / ("half." + std::to_string(r) + ".et"), std::ios::binary) << out;
  }
  std::ofstream(dir / "groups.json") << R"({"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]})";
  return dir.string();
}

// A collective on a group of part of the ranks runs on those ranks alone:
// on mesh:4x2 (x then y) the two rows never share a link, so each group's
// allreduce takes what ring-allreduce takes as a job on the same four
// endpoints (cli/run_jobs: the same algorithm placed by other code), up to
// the cycles of its done signal.
TEST(WorkloadRun, ACollectiveOnPartOfTheRanksRunsOnThoseRanks) {
  const std::string dir = halves_workload();
  const JsonRun w = run_workload(dir + "/half", "--set topology=mesh:4x2 --set comm_groups=" + dir + "/groups.json",
                                 "halves_w.json");
  ASSERT_EQ(w.status, 0) << w.out << w.err;
  EXPECT_EQ(w.json.at("data_check"), "pass");
  const fs::path jobs = scratch() / "halves_jobs.yaml";
  std::ofstream(jobs) << "topology: mesh:4x2\nflit_bytes: 4\njobs:\n"
                         "  - {algorithm: ring-allreduce, endpoints: 0-3, elements: 4096}\n"
                         "  - {algorithm: ring-allreduce, endpoints: 4-7, elements: 4096}\n";
  const JsonRun j = run_words_json("run " + jobs.string(), "halves_jobs.json");
  ASSERT_EQ(j.status, 0) << j.out << j.err;
  const auto& colls = w.json.at("workload").at("collectives");
  ASSERT_EQ(colls.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    SCOPED_TRACE(c);
    EXPECT_EQ(colls[c].at("ranks"), c == 0 ? nlohmann::json({0, 1, 2, 3}) : nlohmann::json({4, 5, 6, 7}));
    EXPECT_EQ(colls[c].at("words_per_rank"), 4096);
    EXPECT_TRUE(colls[c].at("alone_cycles").is_null());
    const std::int64_t job = j.json.at("jobs").at(c).at("cycles").get<std::int64_t>();
    const std::int64_t in_workload = colls[c].at("cycles").get<std::int64_t>();
    EXPECT_GE(in_workload, job - 1) << "as a job " << job << ", in the workload " << in_workload;
    EXPECT_LE(in_workload, job + 4) << "as a job " << job << ", in the workload " << in_workload;
  }
}

TEST(WorkloadRun, RunFromItsReportRunsTheSameWorkloadAgain) {
  const JsonRun first = run_workload(kExamples + "all_reduce/4npus_1MB/all_reduce",
                                     "--set topology=torus:2x2 --set clock_ghz=2", "from_first.json");
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.json.at("scenario").at("workload_scale"), 0.015625);
  EXPECT_EQ(first.json.at("scenario").at("allreduce_algorithm"), "ring-allreduce");
  const fs::path saved = scratch() / "from_saved.json";
  std::ofstream(saved) << first.json.dump();
  const JsonRun again = run_words_json("run --from " + saved.string(), "from_again.json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.json.at("cycles"), first.json.at("cycles"));
  EXPECT_EQ(again.json.at("workload").at("total_cycles"), first.json.at("workload").at("total_cycles"));
  EXPECT_EQ(again.json.at("scenario"), first.json.at("scenario"));
}

TEST(WorkloadRun, RefusesBadInputWithExitStatus2NamingItBeforeAnythingRuns) {
  const std::string ring = "workload=chakra:" + kExamples + "all_reduce/4npus_1MB/all_reduce";
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const Case cases[] = {
      {{"run", "--set", ring, "--set", "algorithm=ring-allreduce", "--set", "topology=torus:2x2"},
       "keys 'algorithm' and 'workload' select different runs"},
      {{"run", "--set", "workload=trace.et", "--set", "topology=torus:2x2"}, "key 'workload': 'trace.et' is not a workload"},
      {{"run", "--set", ring, "--set", "allreduce_algorithm=a2a-spread", "--set", "topology=torus:2x2"},
       "key 'allreduce_algorithm'"},
      {{"run", "--set", ring, "--set", "topology=torus:2x4"}, "all_reduce.4.et: the file of rank 4 is missing"},
      {{"run", "--set", ring, "--set", "topology=torus:2x2", "--set", "workload_scale=0"}, "key 'workload_scale'"},
      {{"run", "--set", "algorithm=ring-allreduce", "--set", "topology=torus:2x2", "--timeline-json", "t.json"},
       "--timeline-json: goes with a workload run"},
      {{"run", "--set", ring, "--set", "topology=torus:2x2", "--set", "comm_groups=/nonexistent.json"},
       "key 'comm_groups': cannot read '/nonexistent.json'"},
      {{"check", "--set", ring, "--set", "topology=torus:2x2"}, "key 'workload': `collnet check` checks one"},
  };
  for (const Case& c : cases) {
    const CliRun r = run_collnet(c.args);
    EXPECT_EQ(r.status, 2) << c.expected << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace collnet::test
