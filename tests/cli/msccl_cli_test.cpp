// `collnet run` with algorithm msccl: every MSCCL-IR fixture (examples/msccl)
// runs in the cycle model on a torus sized to its ranks and on
// leafspine:p=6, with the data check passing; the messages and payload
// flits the network carried equal those counted in the XML text (every
// sending step is one message of cnt x chunk_words flits); bad input exits
// 2 naming the key, and for a malformed file the gpu, thread block and step.
// Runs the real binary.
#include <gtest/gtest.h>

#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using namespace collnet::test;

const std::string kDir = COLLNET_SOURCE_DIR "/examples/msccl/";

struct Counted {
  int ngpus = 0;
  long messages = 0, chunks = 0;
};

/// Sending steps (s, rrs, rcs, rrcs) and their chunks, from the text.
Counted count_sends(const std::string& text) {
  Counted c;
  std::smatch m;
  if (std::regex_search(text, m, std::regex("ngpus=\"([0-9]+)\""))) c.ngpus = std::stoi(m[1]);
  const std::regex step("type=\"(s|rrs|rcs|rrcs)\"[^>]*cnt=\"([0-9]+)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), step); it != std::sregex_iterator(); ++it) {
    ++c.messages;
    c.chunks += std::stol((*it)[2]);
  }
  return c;
}

TEST(MscclCli, EveryFixtureRunsInTheCycleModelWithItsDataCheckPassing) {
  for (const char* file : {"allreduce_ring_8.xml", "allgather_ring_8.xml", "alltoall_allpairs_16.xml",
                           "allreduce_rdh_16.xml", "hier_allreduce_4x4.xml", "allreduce_ring_llp128_8ch_8.xml",
                           "allreduce_allpairs_8.xml"}) {
    const Counted c = count_sends(slurp(kDir + file));
    ASSERT_GT(c.messages, 0) << file;
    const std::string torus = c.ngpus == 16 ? "torus:4x4" : "torus:4x2";
    for (const std::string& topology : {torus, std::string("leafspine:p=6"), std::string("fattree:k=4,n=2")}) {
      const fs::path json = scratch() / "msccl.json";
      fs::remove(json);
      const CliRun r = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + kDir + file, "--set",
                                    "topology=" + topology, "--set", "chunk_words=8", "--set", "compare=", "--json",
                                    json.string()});
      ASSERT_EQ(r.status, 0) << file << " on " << topology << ": " << r.err;
      const auto j = read_json(json);
      EXPECT_EQ(j["data_check"], "pass") << file << " on " << topology;
      EXPECT_EQ(j["completed"], true) << file << " on " << topology;
      EXPECT_EQ(j["reference_mismatch_words"], 0) << file << " on " << topology;
      EXPECT_EQ(j["messages"].get<long>(), c.messages) << file << " on " << topology;
      EXPECT_EQ(j["flits"].get<long>(), c.chunks * 8) << file << " on " << topology;
      EXPECT_GT(j["cycles"].get<long>(), 0);
      if (std::string(file) == "allreduce_ring_8.xml")
        std::cout << "msccl allreduce_ring_8.xml on " << topology << ": " << j["cycles"].get<long>()
                  << " cycles (chunk_words 8)\n";
    }
  }
}

TEST(MscclCli, BadInputExitsTwoNamingTheKeyAndTheStep) {
  const fs::path bad = write_file("bad.xml",
                                  "<algo name=\"b\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"2\" coll=\"custom\" "
                                  "inplace=\"1\">\n<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"0\" s_chunks=\"0\">\n"
                                  "<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
                                  "<step s=\"0\" type=\"push\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" "
                                  "cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n</tb></gpu>\n"
                                  "<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"0\" s_chunks=\"0\"/>\n</algo>\n");
  struct Case {
    std::vector<std::string> sets;
    std::vector<std::string> names;
  };
  for (const Case& c : std::vector<Case>{
           {{"schedule=" + bad.string()}, {"key 'schedule'", "line 4", "gpu 0 tb 0 step 0", "'push'"}},
           {{"schedule=" + (scratch() / "none.xml").string()}, {"key 'schedule'", "unreadable"}},
           {{}, {"key 'schedule'"}},
           {{"schedule=" + kDir + "allreduce_ring_8.xml", "placement=0,1,x"}, {"key 'placement'"}},
           {{"schedule=" + kDir + "allreduce_ring_8.xml", "placement=0,1,2"}, {"key 'placement'"}},
           {{"schedule=" + kDir + "alltoall_allpairs_16.xml", "topology=torus:4x2"}, {"key 'placement'", "16"}},
           {{"schedule=" + kDir + "allreduce_ring_8.xml", "chunk_words=0"}, {"key 'chunk_words'"}},
       }) {
    std::vector<std::string> args = {"run", "--set", "algorithm=msccl", "--set", "topology=torus:4x2", "--set",
                                     "compare="};
    for (const auto& s : c.sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    const CliRun r = run_collnet(args);
    EXPECT_EQ(r.status, 2) << c.names[0] << ": " << r.out << r.err;
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << n << " in: " << r.err;
    EXPECT_EQ(r.err.find("cycles"), std::string::npos);
  }
}

}  // namespace

namespace {

// MSCCLang's ring allreduce is the same reduce-scatter-then-allgather ring as
// collnet's ring-allreduce: with the same data per rank (8 chunks x 16 words =
// 128 elements) on the same placement, both move the same messages and flits
// and finish in the same cycle.
TEST(MscclCli, TheRingAllreduceFixtureTakesTheCyclesOfRingAllreduce) {
  const fs::path imported = scratch() / "msccl_ring.json";
  const fs::path native = scratch() / "ring_allreduce.json";
  const CliRun a = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + kDir + "allreduce_ring_8.xml",
                                "--set", "chunk_words=16", "--set", "topology=torus:4x2", "--set", "compare=", "--json",
                                imported.string()});
  ASSERT_EQ(a.status, 0) << a.err;
  const CliRun b = run_collnet({"run", "--set", "algorithm=ring-allreduce", "--set", "elements=128", "--set",
                                "topology=torus:4x2", "--set", "compare=", "--json", native.string()});
  ASSERT_EQ(b.status, 0) << b.err;
  const auto ja = read_json(imported);
  const auto jb = read_json(native);
  EXPECT_EQ(ja["data_check"], "pass");
  EXPECT_EQ(jb["data_check"], "pass");
  EXPECT_EQ(ja["messages"], jb["messages"]);
  EXPECT_EQ(ja["flits"], jb["flits"]);
  EXPECT_EQ(ja["cycles"], jb["cycles"]);
}

}  // namespace
