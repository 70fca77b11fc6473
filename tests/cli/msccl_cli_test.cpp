// `collnet run` with algorithm msccl: every MSCCL-IR fixture (examples/msccl)
// runs in the cycle model on a torus sized to its ranks and on
// leafspine:p=6, with the data check passing; the messages and payload
// flits the network carried equal those counted in the XML text (every
// sending step is one message of cnt x chunk_words flits); bad input exits
// 2 naming the key, and for a malformed file the gpu, thread block and step.
// Runs the real binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
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
// 128 elements) on the same placement, both move the same messages and
// flits. collnet's ring forwards a chunk once it has arrived (WAIT, then SEND
// in the next cycle); the fixture's fused steps (rrs, rcs, rrcs) forward each
// packet as it arrives. With one packet per chunk (packet_flits = 16) both
// forward whole chunks, and the import is faster by exactly the one dispatch
// cycle of each fused step a rank runs (its SEND needs no WAIT before it);
// with 4-flit packets the import pipelines the chunks and runs within a few
// cycles of ring-allreduce's lower bound (a rank's 14 chunks on one link).
TEST(MscclCli, TheRingAllreduceFixtureAgainstRingAllreduce) {
  const std::string text = slurp(kDir + "allreduce_ring_8.xml");
  const std::string gpu0 = text.substr(0, text.find("<gpu id=\"1\""));
  const std::regex fused("type=\"(rrs|rcs|rrcs)\"");
  const long fused_steps = std::distance(std::sregex_iterator(gpu0.begin(), gpu0.end(), fused), std::sregex_iterator());
  ASSERT_EQ(fused_steps, 13);
  std::map<int, long> import_cycles, native_cycles;
  long lower_bound = 0;
  for (const int packet : {16, 4}) {
    const std::string pf = "packet_flits=" + std::to_string(packet);
    const fs::path imported = scratch() / "msccl_ring.json";
    const fs::path native = scratch() / "ring_allreduce.json";
    const CliRun a = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + kDir + "allreduce_ring_8.xml",
                                  "--set", "chunk_words=16", "--set", "topology=torus:4x2", "--set", pf, "--set",
                                  "compare=", "--json", imported.string()});
    ASSERT_EQ(a.status, 0) << a.err;
    const CliRun b = run_collnet({"run", "--set", "algorithm=ring-allreduce", "--set", "elements=128", "--set",
                                  "topology=torus:4x2", "--set", pf, "--set", "compare=", "--json", native.string()});
    ASSERT_EQ(b.status, 0) << b.err;
    const auto ja = read_json(imported);
    const auto jb = read_json(native);
    EXPECT_EQ(ja["data_check"], "pass");
    EXPECT_EQ(jb["data_check"], "pass");
    EXPECT_EQ(ja["messages"], jb["messages"]);
    EXPECT_EQ(ja["flits"], jb["flits"]);
    import_cycles[packet] = ja["cycles"].get<long>();
    native_cycles[packet] = jb["cycles"].get<long>();
    lower_bound = jb["lower_bound_cycles"].get<long>();
  }
  EXPECT_EQ(import_cycles[16], native_cycles[16] - fused_steps);
  EXPECT_EQ(native_cycles[4], native_cycles[16]);  // store-and-forward: the packet size does not matter
  EXPECT_EQ(lower_bound, 14 * 16);
  EXPECT_GE(import_cycles[4], lower_bound);
  EXPECT_LT(import_cycles[4], import_cycles[16]);
  EXPECT_LE(import_cycles[4], lower_bound + 16);  // within one chunk's serialisation of the bound
}

}  // namespace

namespace {

// Thread blocks as concurrent engines, fused steps forwarding packet by
// packet: small programs written here, run with a message trace.

struct Trace {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] long at(std::size_t row, const std::string& column) const {
    const auto it = std::find(header.begin(), header.end(), column);
    if (it == header.end()) throw std::runtime_error("no column " + column);
    return std::stol(rows.at(row).at(static_cast<std::size_t>(it - header.begin())));
  }
  /// The row of the message src -> dst (the test programs send one each).
  [[nodiscard]] std::size_t find(long src, long dst) const {
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (at(r, "src") == src && at(r, "dst") == dst) return r;
    throw std::runtime_error("no message " + std::to_string(src) + " -> " + std::to_string(dst));
  }
};

Trace read_trace(const fs::path& path) {
  Trace t;
  std::stringstream in(slurp(path));
  std::string line;
  const auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::stringstream s(l);
    std::string x;
    while (std::getline(s, x, ',')) f.push_back(x);
    return f;
  };
  if (std::getline(in, line)) t.header = split(line);
  while (std::getline(in, line))
    if (!line.empty()) t.rows.push_back(split(line));
  return t;
}

struct TracedRun {
  nlohmann::json json;
  Trace trace;
};

TracedRun run_traced(const std::string& name, const std::string& xml, const std::vector<std::string>& sets) {
  const fs::path file = write_file(name + ".xml", xml);
  const fs::path json = scratch() / (name + ".json");
  const fs::path trace = scratch() / (name + ".csv");
  std::vector<std::string> args = {"run",     "--set", "algorithm=msccl", "--set", "schedule=" + file.string(),
                                   "--set",   "compare=", "--json", json.string(), "--trace", trace.string()};
  for (const auto& s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  const CliRun r = run_collnet(args);
  EXPECT_EQ(r.status, 0) << name << ": " << r.out << r.err;
  TracedRun t;
  if (r.status != 0) return t;
  t.json = read_json(json);
  t.trace = read_trace(trace);
  EXPECT_EQ(t.json["data_check"], "pass") << name;
  return t;
}

std::string step(int s, const std::string& type, int off, int cnt, int depid = -1, int deps = -1) {
  return "<step s=\"" + std::to_string(s) + "\" type=\"" + type + "\" srcbuf=\"i\" srcoff=\"" + std::to_string(off) +
         "\" dstbuf=\"i\" dstoff=\"" + std::to_string(off) + "\" cnt=\"" + std::to_string(cnt) + "\" depid=\"" +
         std::to_string(depid) + "\" deps=\"" + std::to_string(deps) + "\" hasdep=\"0\"/>\n";
}

std::string algo(int ngpus, int nchannels, int chunks, const std::vector<std::string>& gpus) {
  std::string x = "<algo name=\"t\" proto=\"Simple\" nchannels=\"" + std::to_string(nchannels) +
                  "\" nchunksperloop=\"" + std::to_string(chunks) + "\" ngpus=\"" + std::to_string(ngpus) +
                  "\" coll=\"custom\" inplace=\"1\">\n";
  for (std::size_t g = 0; g < gpus.size(); ++g)
    x += "<gpu id=\"" + std::to_string(g) + "\" i_chunks=\"" + std::to_string(chunks) +
         "\" o_chunks=\"0\" s_chunks=\"0\">\n" + gpus[g] + "</gpu>\n";
  return x + "</algo>\n";
}

std::string tb(int id, int send, int recv, int chan, const std::string& steps) {
  return "<tb id=\"" + std::to_string(id) + "\" send=\"" + std::to_string(send) + "\" recv=\"" +
         std::to_string(recv) + "\" chan=\"" + std::to_string(chan) + "\">\n" + steps + "</tb>\n";
}

// A 2-hop relay 0 -> 1 -> 2 (neighbours on torus:4x2) of one 16-word chunk,
// rank 1 forwarding with a fused step. A lone message of L words over one
// link takes (router_delay + link_latency) + router_delay + 2 + (L - 1)
// cycles from its first flit's injection to its last flit's delivery (the
// zero-load closed form, tests/cli/trace_cli_test.cpp); a store-and-forward
// relay takes two of them. Forwarding packet by packet, the relayed message
// leaves before the chunk has arrived and the relay beats that bound, while
// with one packet per chunk (packet_flits = chunk_words) packet granularity
// is chunk granularity and the bound holds.
TEST(MscclCli, AFusedStepForwardsEachPacketBeforeItsChunkHasArrived) {
  constexpr long kWords = 16;
  const long lone = (1 + 1) + 1 + 2 + (kWords - 1);
  for (const std::string type : {"rcs", "rrs", "rrcs"}) {
    const std::string xml = algo(3, 1, 1,
                                 {tb(0, 1, -1, 0, step(0, "s", 0, 1)), tb(0, 2, 0, 0, step(0, type, 0, 1)),
                                  tb(0, -1, 1, 0, step(0, type == "rcs" ? "r" : "rrc", 0, 1))});
    for (const long packet : {4L, kWords}) {
      const std::string name = "relay_" + type + "_" + std::to_string(packet);
      const TracedRun t = run_traced(name, xml,
                                     {"topology=torus:4x2", "placement=0,1,2", "chunk_words=16", "router_delay=1",
                                      "link_latency=1", "packet_flits=" + std::to_string(packet)});
      ASSERT_EQ(t.trace.rows.size(), 2u) << name;
      const std::size_t in = t.trace.find(0, 1), out = t.trace.find(1, 2);
      EXPECT_EQ(t.trace.at(in, "deliver_cycle") - t.trace.at(in, "inject_cycle"), lone) << name;
      const long relay = t.trace.at(out, "deliver_cycle") - t.trace.at(in, "inject_cycle");
      if (packet < kWords) {
        EXPECT_LT(t.trace.at(out, "inject_cycle"), t.trace.at(in, "deliver_cycle")) << name;
        EXPECT_LT(relay, 2 * lone) << name;
      } else {
        EXPECT_GE(t.trace.at(out, "inject_cycle"), t.trace.at(in, "deliver_cycle")) << name;
        EXPECT_GE(relay, 2 * lone) << name;
      }
    }
  }
}

// Rank 0 runs two thread blocks: tb 0 receives 4 chunks from rank 1 (or
// sends 4 chunks to rank 1), tb 1 sends one chunk to rank 2 on another
// channel. With depid/deps on tb 0's step, tb 1's send leaves only once that
// step completed (the receive delivered; the send's last flit injected);
// without, the two thread blocks run at once and tb 1's send leaves first.
TEST(MscclCli, AThreadBlockWaitingOnAnotherThreadBlocksStepDoesNotStartEarly) {
  constexpr long kWords = 4 * 8;  // 4 chunks of chunk_words 8
  for (const bool receive : {true, false}) {
    for (const bool depends : {true, false}) {
      const std::string first = receive ? tb(0, -1, 1, 0, step(0, "r", 0, 4)) : tb(0, 1, -1, 0, step(0, "s", 0, 4));
      const std::string second = tb(1, 2, -1, 1, step(0, "s", 4, 1, depends ? 0 : -1, depends ? 0 : -1));
      const std::string peer = receive ? tb(0, 0, -1, 0, step(0, "s", 0, 4)) : tb(0, -1, 0, 0, step(0, "r", 0, 4));
      const std::string xml = algo(3, 2, 5, {first + second, peer, tb(0, -1, 0, 1, step(0, "r", 4, 1))});
      const std::string name = std::string("dep_") + (receive ? "recv_" : "send_") + (depends ? "on" : "off");
      const TracedRun t = run_traced(name, xml, {"topology=torus:4x2", "placement=0,1,2", "chunk_words=8"});
      ASSERT_EQ(t.trace.rows.size(), 2u) << name;
      const std::size_t big = receive ? t.trace.find(1, 0) : t.trace.find(0, 1), small = t.trace.find(0, 2);
      // What completes tb 0's step: the receive's delivery, or the send's last flit leaving.
      const long done = receive ? t.trace.at(big, "deliver_cycle") : t.trace.at(big, "inject_cycle") + kWords - 1;
      if (depends)
        EXPECT_GE(t.trace.at(small, "inject_cycle"), done) << name;
      else
        EXPECT_LT(t.trace.at(small, "inject_cycle"), t.trace.at(big, "inject_cycle") + 2) << name;
    }
  }
}

// compare beside msccl: ring-allreduce runs on the fixture's words a rank
// (nchunksperloop 8 chunks of chunk_words 16 = 128, as elements=128), so
// both move the 1792 flits that the same ring of 8 ranks moves (the test
// above); the header names each run's size and no message_flits. A baseline
// that cannot hold that size, a size key set to another, and a custom
// program (no words a rank) are refused with exit 2 before anything runs.
TEST(MscclCli, CompareRunsTheBaselinesOnTheSameWordsARank) {
  const std::string file = kDir + "allreduce_ring_8.xml";
  std::smatch m;
  const std::string text = slurp(file);
  ASSERT_TRUE(std::regex_search(text, m, std::regex("nchunksperloop=\"([0-9]+)\"")));
  const long words = std::stol(m[1]) * 16;
  ASSERT_EQ(words, 128);
  const fs::path json = scratch() / "msccl_compare.json";
  const CliRun r = run_collnet({"run", "--set", "algorithm=msccl", "--set", "schedule=" + file, "--set",
                                "topology=torus:4x2", "--set", "compare=ring-allreduce", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  ASSERT_EQ(j["compare"].size(), 1u);
  const auto& ring = j["compare"][0];
  EXPECT_EQ(j["algorithm"], "msccl");
  EXPECT_EQ(ring["algorithm"], "ring-allreduce");
  EXPECT_EQ(j["words_per_rank"], words);
  EXPECT_EQ(ring["words_per_rank"], words);
  EXPECT_EQ(ring["elements"], words);
  EXPECT_EQ(j["scenario"]["elements"], words);  // the value the baseline ran with
  EXPECT_TRUE(j["message_flits"].is_null());
  EXPECT_TRUE(j["elements"].is_null());
  EXPECT_TRUE(ring["message_flits"].is_null());
  EXPECT_EQ(j["data_check"], "pass");
  EXPECT_EQ(ring["data_check"], "pass");
  EXPECT_EQ(j["flits"], 1792);
  EXPECT_EQ(ring["flits"], 1792);
  const auto header = r.out.find("Same scenario, side by side");
  ASSERT_NE(header, std::string::npos) << r.out;
  const std::string line = r.out.substr(header, r.out.find('\n', header) - header);
  EXPECT_NE(line.find("128 words a rank"), std::string::npos) << line;
  EXPECT_NE(line.find("chunk_words=16"), std::string::npos) << line;
  EXPECT_NE(line.find("elements=128"), std::string::npos) << line;
  EXPECT_EQ(r.out.find("flit messages"), std::string::npos) << r.out;

  struct Refused {
    std::vector<std::string> sets;
    std::vector<std::string> names;
  };
  const std::string custom = (write_file("custom.xml", algo(2, 1, 1, {tb(0, 1, -1, 0, step(0, "s", 0, 1)),
                                                                      tb(0, -1, 0, 0, step(0, "r", 0, 1))})))
                                 .string();
  for (const Refused& c : std::vector<Refused>{
           // 8 chunks of 5 words: 40 words a rank, not a multiple of the 16 ranks of torus:4x4.
           {{"schedule=" + file, "chunk_words=5", "topology=torus:4x4", "compare=pairwise-alltoall"},
            {"pairwise-alltoall", "40 words a rank", "key 'message_flits'", "16"}},
           {{"schedule=" + file, "topology=torus:4x2", "compare=ring-allreduce", "elements=15"},
            {"ring-allreduce", "key 'elements'", "128", "15"}},
           {{"schedule=" + custom, "topology=torus:4x2", "compare=ring-allreduce"}, {"key 'compare'", "custom"}},
       }) {
    std::vector<std::string> args = {"run", "--set", "algorithm=msccl"};
    for (const auto& s : c.sets) args.insert(args.end(), {"--set", s});
    const CliRun bad = run_collnet(args);
    EXPECT_EQ(bad.status, 2) << c.names[0] << ": " << bad.out << bad.err;
    for (const auto& n : c.names) EXPECT_NE(bad.err.find(n), std::string::npos) << n << " in: " << bad.err;
    EXPECT_EQ(bad.out.find("cycles"), std::string::npos) << bad.out;
  }
}

}  // namespace
