// `collnet export --format msccl`: every exportable algorithm, exported on
// a small topology and imported back (algorithm=msccl, without chunk_words:
// the file carries its chunk), runs in the cycle model with its data check
// passing, carrying the same messages and flits and, where the export names
// the collective, the same words a rank as the original run; the standard
// ring collectives (one controller, no pacing) take the same cycles. A
// chunk_words other than the file's exits 2 naming both. Bad options
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

/// The collective the export named (its first output line: "coll X").
std::string coll_of(const std::string& out) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("coll ([a-z_]+)"))) return m[1];
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
    EXPECT_NE(text.find("chunk_words=\"" + chunk + "\""), std::string::npos) << "the chunk is in the document";
    // The import re-parses the document (pugixml, every attribute checked),
    // its chunk from the file.
    const CliRun i = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + xml.string(), "--set",
                                  "topology=" + c.topology, "--set", "compare=", "--json", ij.string()});
    ASSERT_EQ(i.status, 0) << i.err;
    const auto oo = read_json(oj), ii = read_json(ij);
    EXPECT_EQ(ii["data_check"], "pass");
    EXPECT_EQ(ii["completed"], true);
    EXPECT_EQ(ii["messages"], oo["messages"]);
    EXPECT_EQ(ii["flits"], oo["flits"]);
    // A named collective has the original's words a rank (a custom one has none).
    ASSERT_FALSE(oo["words_per_rank"].is_null());
    if (coll_of(e.out) == "custom") {
      EXPECT_TRUE(ii["words_per_rank"].is_null());
    } else {
      EXPECT_EQ(ii["words_per_rank"], oo["words_per_rank"]) << coll_of(e.out);
    }
    if (c.same_cycles) {
      EXPECT_EQ(ii["cycles"], oo["cycles"]);
    }
  }
}

TEST(ExportCli, TheChunkTravelsInTheFile) {
  // ring-allreduce's default 15 elements on 16 ranks: chunks of 1 word. The
  // import without chunk_words runs the original's 15 words a rank, flits
  // and cycles (with the key's default 16 it ran 16 times the data); the
  // file's chunk given again is accepted, another one refused naming both.
  const fs::path xml = scratch() / "ring_chunk.xml";
  const CliRun e = run_collnet({"export", "--format", "msccl", "--set", "algorithm=ring-allreduce", "--set",
                                "topology=torus:4x4", "--out", xml.string()});
  ASSERT_EQ(e.status, 0) << e.err;
  ASSERT_EQ(chunk_of(e.out), "1") << e.out;
  EXPECT_EQ(e.out.find("chunk_words=1"), std::string::npos) << "the import needs no chunk_words: " << e.out;
  const fs::path oj = scratch() / "ring_chunk_original.json", ij = scratch() / "ring_chunk_imported.json";
  const CliRun o = run_collnet({"run", "--set", "algorithm=ring-allreduce", "--set", "topology=torus:4x4", "--set",
                                "compare=", "--json", oj.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  for (const std::string given : {"", "chunk_words=1"}) {
    std::vector<std::string> args = {"run", "--set", "algorithm=msccl", "--set", "schedule=" + xml.string(), "--set",
                                     "topology=torus:4x4", "--set", "compare=", "--json", ij.string()};
    if (!given.empty()) args.insert(args.end(), {"--set", given});
    const CliRun i = run_collnet(args);
    ASSERT_EQ(i.status, 0) << given << ": " << i.err;
    const auto oo = read_json(oj), ii = read_json(ij);
    EXPECT_EQ(oo["words_per_rank"], 15);
    EXPECT_EQ(oo["elements"], 15);
    EXPECT_EQ(ii["words_per_rank"], oo["words_per_rank"]) << given;
    EXPECT_EQ(ii["flits"], oo["flits"]) << given;
    EXPECT_EQ(ii["cycles"], oo["cycles"]) << given;
    EXPECT_EQ(ii["data_check"], "pass") << given;
    EXPECT_TRUE(ii["message_flits"].is_null());  // msccl reads no message_flits
  }
  const CliRun bad = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + xml.string(), "--set",
                                  "topology=torus:4x4", "--set", "compare=", "--set", "chunk_words=16"});
  EXPECT_EQ(bad.status, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("key 'chunk_words'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("16"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("chunk_words=\"1\""), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out.find("cycles"), std::string::npos) << "refused before anything ran";
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
