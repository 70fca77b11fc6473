// `collnet export --format msccl`: every exportable algorithm, exported on
// a small topology and imported back (algorithm=msccl), runs in the cycle
// model with its data check passing, carrying the same messages and flits
// as the original run; the standard ring collectives (one controller, no
// pacing) take the same cycles. Bad options
// exit 2 naming the option or key; barriers become token exchanges. Runs
// the real binary.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace collnet::test;

struct Case {
  std::string algorithm, topology;
  bool same_cycles;
};

/// The chunk the export chose (its first output line: "chunk = N words").
std::string chunk_of(const std::string& out) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("chunk = ([0-9]+) words"))) return m[1];
  return "";
}

TEST(ExportCli, EveryExportableAlgorithmRoundTripsThroughMscclIr) {
  const std::vector<Case> cases = {
      {"ring-allreduce", "torus:4x4", true},      {"ring-allgather", "torus:4x4", true},
      {"ring-reduce-scatter", "torus:4x4", true}, {"rd-allreduce", "torus:4x4", false},
      {"binomial-bcast", "torus:4x4", true},      {"binomial-reduce", "torus:4x4", true},
      {"pairwise-alltoall", "torus:4x4", false},  {"a2a-optimal", "torus:4x4", false},
      {"a2a-spread", "torus:4x4", false},         {"a2a-nd", "torus:4x4", false},
      {"twotree-flat", "leafspine:p=6", false},   {"twotree-hier", "leafspine:p=6", false},
      {"tree-single", "tree:kary=2,n=7", false},  {"tree-bcast", "tree:kary=2,n=7", false},
      {"hd-allreduce", "boards:2x2x2x2", false},   {"rd-allreduce", "leafspine:p=6", false},  // 36: a fold
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algorithm + " on " + c.topology);
    const fs::path xml = scratch() / (c.algorithm + ".xml");
    const CliRun e = run_collnet({"export", "--format", "msccl", "--set", "algorithm=" + c.algorithm, "--set",
                                  "topology=" + c.topology, "--out", xml.string()});
    ASSERT_EQ(e.status, 0) << e.err;
    const std::string text = slurp(xml);
    const std::string chunk = chunk_of(e.out);
    ASSERT_FALSE(chunk.empty()) << e.out;
    // MSCCL's rule: a thread block names one send peer and one receive peer.
    EXPECT_EQ(std::regex_search(text, std::regex("<tb [^>]*send=\"[0-9]+\"[^>]*recv=\"[0-9]+\"")), false);
    const fs::path oj = scratch() / "original.json", ij = scratch() / "imported.json";
    const CliRun o = run_collnet({"run", "--set", "algorithm=" + c.algorithm, "--set", "topology=" + c.topology,
                                  "--set", "compare=", "--json", oj.string()});
    ASSERT_EQ(o.status, 0) << o.err;
    // The import re-parses the document (pugixml, every attribute checked).
    const CliRun i = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + xml.string(), "--set",
                                  "chunk_words=" + chunk, "--set", "topology=" + c.topology, "--set", "compare=",
                                  "--json", ij.string()});
    ASSERT_EQ(i.status, 0) << i.err;
    const auto oo = read_json(oj), ii = read_json(ij);
    EXPECT_EQ(ii["data_check"], "pass");
    EXPECT_EQ(ii["completed"], true);
    EXPECT_EQ(ii["messages"], oo["messages"]);
    EXPECT_EQ(ii["flits"], oo["flits"]);
    if (c.same_cycles) {
      EXPECT_EQ(ii["cycles"], oo["cycles"]);
    }
  }
}

TEST(ExportCli, BarriersExportAsTokenExchangesAndTheCollectiveIsNamed) {
  // a2a-hopgroup-direct joins a barrier after every hop group: each becomes
  // ceil(log2 8) = 3 rounds of one 1-chunk token per gpu. The import runs
  // with its data check (the importer's own all-to-all definition) passing
  // and carries the original's messages plus the tokens.
  const fs::path xml = scratch() / "barriers.xml";
  const CliRun e = run_collnet({"export", "--format", "msccl", "--set", "algorithm=a2a-hopgroup-direct", "--set",
                                "topology=torus:2x4", "--out", xml.string()});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_NE(e.out.find("coll alltoall"), std::string::npos) << e.out;
  EXPECT_NE(e.err.find("dissemination barriers"), std::string::npos) << e.err;
  EXPECT_NE(slurp(xml).find("coll=\"alltoall\""), std::string::npos);
  const fs::path oj = scratch() / "barriers_original.json", ij = scratch() / "barriers_imported.json";
  const CliRun o = run_collnet({"run", "--set", "algorithm=a2a-hopgroup-direct", "--set", "topology=torus:2x4", "--set",
                                "compare=", "--json", oj.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const CliRun i = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + xml.string(), "--set",
                                "chunk_words=" + chunk_of(e.out), "--set", "topology=torus:2x4", "--set", "compare=",
                                "--json", ij.string()});
  ASSERT_EQ(i.status, 0) << i.err;
  const auto oo = read_json(oj), ii = read_json(ij);
  EXPECT_EQ(ii["data_check"], "pass");
  const std::int64_t barriers = oo["barriers"].get<std::int64_t>();
  ASSERT_GT(barriers, 0);
  EXPECT_EQ(ii["barriers"], 0);
  EXPECT_EQ(ii["messages"].get<std::int64_t>(), oo["messages"].get<std::int64_t>() + barriers * 8 * 3);
  // The ring allreduce is named allreduce when its chunks are equal (32
  // elements on 16 ranks), and its import checks the allreduce's sums.
  const fs::path ring = scratch() / "ring32.xml";
  const CliRun r = run_collnet({"export", "--format", "msccl", "--set", "algorithm=ring-allreduce", "--set",
                                "topology=torus:4x4", "--set", "elements=32", "--out", ring.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("coll allreduce"), std::string::npos) << r.out;
  const CliRun ri = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + ring.string(), "--set",
                                 "chunk_words=" + chunk_of(r.out), "--set", "topology=torus:4x4", "--set", "compare="});
  EXPECT_EQ(ri.status, 0) << ri.err;
}

TEST(ExportCli, BadOptionsExit2NamingThem) {
  const fs::path xml = scratch() / "bad.xml";
  CliRun r = run_collnet({"export", "--format", "nccl", "--set", "algorithm=ring-allreduce", "--out", xml.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("'nccl'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("msccl"), std::string::npos) << r.err;
  r = run_collnet({"export", "--format", "msccl", "--set", "algorithm=ring-allreduce"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  r = run_collnet({"export", "--format", "msccl", "--set", "algorithm=ring-allreduce", "--out",
                   (scratch() / "no_such_dir" / "x.xml").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no_such_dir"), std::string::npos) << r.err;
  r = run_collnet({"export", "--format", "msccl", "--set", "algorithm=ring-allreduce", "--set", "colour=blue",
                   "--out", xml.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("colour"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(xml));
}

}  // namespace
