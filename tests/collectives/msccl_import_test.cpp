// algorithm msccl: MSCCL-IR import (collectives/algorithms/msccl.hpp).
// Independent expectations: the fixtures' step counts are counted in the
// file's text (not through the parser); each fixture's result under the
// functional executor (every delivery order) is compared with the
// collective's definition written out here from the initial memory alone;
// a malformed file is refused naming the gpu, thread block, step and line.
#include "collectives/algorithms/msccl.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kDir = COLLNET_SOURCE_DIR "/examples/msccl/";

struct Fixture {
  std::string file, coll;
  int ngpus;
};

const std::vector<Fixture>& fixtures() {
  static const std::vector<Fixture> f = {
      {"allreduce_ring_8.xml", "allreduce", 8},        {"allgather_ring_8.xml", "allgather", 8},
      {"alltoall_allpairs_16.xml", "alltoall", 16},    {"allreduce_rdh_16.xml", "allreduce", 16},
      {"hier_allreduce_4x4.xml", "allreduce", 16},     {"allreduce_ring_llp128_8ch_8.xml", "allreduce", 8},
      {"allreduce_allpairs_8.xml", "allreduce", 8},
  };
  return f;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

int attr(const std::string& text, const std::string& name) {
  std::smatch m;
  const std::regex re(name + "=\"([0-9]+)\"");
  if (!std::regex_search(text, m, re)) return -1;
  return std::stoi(m[1]);
}

Schedule build(const std::string& path, std::size_t endpoints, std::uint32_t chunk_words = 4, int controllers = 0) {
  MscclOptions o;
  o.chunk_words = chunk_words;
  o.controllers = controllers;
  return build_msccl(parse_msccl(path), endpoints, o);
}

/// The collective's definition from the initial memory: what rank r must
/// hold in its output (words from `out_base`), MSCCL's layout of buffers:
/// input first, then output unless in place.
std::vector<Word> definition(const Schedule& s, const std::string& coll, int n, int nchunks, std::uint32_t cw,
                             int r) {
  const auto in = [&](int q, std::uint32_t address) { return s.initial(static_cast<EndpointId>(q), address); };
  std::vector<Word> out;
  const int per = nchunks / n;
  if (coll == "allreduce") {
    for (std::uint32_t a = 0; a < static_cast<std::uint32_t>(nchunks) * cw; ++a) {
      Word x = 0;
      for (int q = 0; q < n; ++q) x += in(q, a);
      out.push_back(x);
    }
  } else if (coll == "allgather") {  // in place: rank q's input is its slot q of the output
    for (int q = 0; q < n; ++q)
      for (std::uint32_t w = 0; w < static_cast<std::uint32_t>(per) * cw; ++w)
        out.push_back(in(q, static_cast<std::uint32_t>(q * per) * cw + w));
  } else if (coll == "alltoall") {  // rank q's chunks for r sit at r*per in its input
    for (int q = 0; q < n; ++q)
      for (std::uint32_t w = 0; w < static_cast<std::uint32_t>(per) * cw; ++w)
        out.push_back(in(q, static_cast<std::uint32_t>(r * per) * cw + w));
  }
  return out;
}

TEST(MscclImport, EveryFixtureParses) {
  for (const Fixture& f : fixtures()) {
    const std::string text = slurp(kDir + f.file);
    const MscclProgram p = parse_msccl(kDir + f.file);
    EXPECT_EQ(p.ngpus, f.ngpus) << f.file;
    EXPECT_EQ(p.coll, f.coll) << f.file;
    EXPECT_EQ(p.nchunksperloop, attr(text, "nchunksperloop")) << f.file;
    EXPECT_EQ(p.nchannels, attr(text, "nchannels")) << f.file;
    int steps = 0, tbs = 0;
    for (const MscclGpu& g : p.gpus) {
      tbs += static_cast<int>(g.tbs.size());
      for (const auto& tb : g.tbs) steps += static_cast<int>(tb.steps.size());
    }
    EXPECT_EQ(steps, count(text, "<step ")) << f.file;
    EXPECT_EQ(tbs, count(text, "<tb ")) << f.file;
  }
}

// That the examples are unchanged copies of their sources is the CTest test
// msccl_examples_sha256 (examples/msccl/SHA256SUMS, tests/CMakeLists.txt).

TEST(MscclImport, ExecutorResultEqualsTheDefinitionForEveryFixture) {
  for (const Fixture& f : fixtures()) {
    const MscclProgram p = parse_msccl(kDir + f.file);
    const std::uint32_t cw = 3;
    MscclOptions o;
    o.chunk_words = cw;
    const std::size_t endpoints = static_cast<std::size_t>(f.ngpus) + 2;  // two idle endpoints
    const Schedule s = build_msccl(p, endpoints, o);
    ASSERT_EQ(s.endpoints(), endpoints);
    for (const auto& [order, seed] : std::vector<std::pair<DeliveryOrder, std::uint64_t>>{
             {DeliveryOrder::lazy, 1}, {DeliveryOrder::eager, 1}, {DeliveryOrder::random, 1},
             {DeliveryOrder::random, 7}, {DeliveryOrder::random, 99}}) {
      const ExecResult res = execute(s, {order, seed});
      EXPECT_TRUE(check_data(s, res.memory).pass) << f.file;
      for (int r = 0; r < f.ngpus; ++r) {
        const MscclGpu& g = p.gpus[static_cast<std::size_t>(r)];
        const std::uint32_t out_base = p.inplace ? 0 : static_cast<std::uint32_t>(g.i_chunks) * cw;
        const std::vector<Word> want = definition(s, f.coll, f.ngpus, p.nchunksperloop, cw, r);
        ASSERT_FALSE(want.empty());
        const auto& mem = res.memory[static_cast<std::size_t>(r)];
        ASSERT_GE(mem.size(), out_base + want.size());
        const std::vector<Word> got(mem.begin() + out_base, mem.begin() + out_base + want.size());
        EXPECT_EQ(got, want) << f.file << " rank " << r << " order " << static_cast<int>(order) << " seed " << seed;
      }
    }
    // The inputs are distinct words: a wrong result cannot hide behind equal data.
    EXPECT_NE(s.initial(0, 0), s.initial(1, 0));
  }
}

TEST(MscclImport, ChannelsMapToControllersModuloTheirNumber) {
  const Schedule all = build(kDir + "allreduce_ring_llp128_8ch_8.xml", 8);
  EXPECT_EQ(all.controllers, 8);
  std::set<int> used;
  for (const auto& d : all.programs[0])
    if (d.opcode == Opcode::send) used.insert(d.controller);
  EXPECT_EQ(used, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  const Schedule three = build(kDir + "allreduce_ring_llp128_8ch_8.xml", 8, 4, 3);
  EXPECT_EQ(three.controllers, 3);
  used.clear();
  for (const auto& d : three.programs[0])
    if (d.opcode == Opcode::send) used.insert(d.controller);
  EXPECT_EQ(used, (std::set<int>{0, 1, 2}));
  // A fused receive-send (rrs) is a WAIT followed by a SEND; the ring's
  // first step a plain SEND; every program ends with END.
  const Schedule ring = build(kDir + "allreduce_ring_8.xml", 8);
  EXPECT_EQ(ring.programs[0].front().opcode, Opcode::send);
  EXPECT_EQ(ring.programs[0][1].opcode, Opcode::wait);
  EXPECT_EQ(ring.programs[0][2].opcode, Opcode::send);
  EXPECT_EQ(ring.programs[0][2].op, ReceiveOp::sum);  // the peer's next step is rrs: reduce
  EXPECT_EQ(ring.programs[0].back().opcode, Opcode::end);
}

// The cycle model's threads: one per thread block of the file, each its
// thread block's steps in order. A fused step is a forwarding SEND (its
// forwards entry is the received message's tag) followed by the WAIT for that
// tag; its SEND is the send of the destination chunk the message lands in.
TEST(MscclImport, ThreadBlocksBecomeThreadsAndFusedStepsForward) {
  const Schedule ring = build(kDir + "allreduce_ring_8.xml", 8);
  ASSERT_EQ(ring.threads.size(), 8u);
  ASSERT_EQ(ring.threads[0].size(), 1u);
  const Thread& t = ring.threads[0][0];
  ASSERT_EQ(t.forwards.size(), t.program.size());
  // s; then rrs x6, rrcs, rcs x6 (SEND forwarding + WAIT each); then r; END.
  ASSERT_EQ(t.program.size(), 1u + 13u * 2u + 1u + 1u);
  EXPECT_EQ(t.program[0].opcode, Opcode::send);
  EXPECT_EQ(t.forwards[0], 0u);
  for (std::size_t i = 1; i < 27; i += 2) {
    EXPECT_EQ(t.program[i].opcode, Opcode::send) << i;
    EXPECT_EQ(t.program[i + 1].opcode, Opcode::wait) << i;
    EXPECT_NE(t.forwards[i], 0u) << i;
    EXPECT_EQ(t.forwards[i], t.program[i + 1].tag) << i;
    EXPECT_EQ(t.forwards[i + 1], 0u) << i;
  }
  // Step 1 (rrs) receives chunk 7 and forwards it: the SEND reads where the message landed.
  EXPECT_EQ(t.program[1].src_offset, 7u * 4u);  // chunk_words 4
  EXPECT_EQ(t.program[27].opcode, Opcode::wait);
  EXPECT_EQ(t.program.back().opcode, Opcode::end);
  // Every rank of the hierarchical allreduce gets one thread per thread block.
  const Schedule hier = build(kDir + "hier_allreduce_4x4.xml", 16);
  const std::string text = slurp(kDir + "hier_allreduce_4x4.xml");
  const std::string gpu0 = text.substr(0, text.find("<gpu id=\"1\""));
  std::size_t tbs = 0;
  for (std::size_t at = gpu0.find("<tb "); at != std::string::npos; at = gpu0.find("<tb ", at + 1)) ++tbs;
  EXPECT_EQ(hier.threads[0].size(), tbs);
}

TEST(MscclImport, PlacementPutsRanksOnTheNamedEndpoints) {
  const auto& a = find_algorithm("msccl");
  const auto topo = topology::make_topology("torus:4x4");
  Params params{{"schedule", kDir + "allreduce_ring_8.xml"}, {"placement", "15,14,13,12,11,10,9,8"},
                {"chunk_words", "2"}};
  const Schedule s = a.build(*topo, params);
  EXPECT_EQ(s.programs[0].size(), 1u);  // endpoint 0 runs no rank: END only
  EXPECT_GT(s.programs[15].size(), 1u);
  EXPECT_EQ(s.programs[15][0].dest, 14u);  // rank 0 sends to rank 1 on endpoint 14
  EXPECT_TRUE(check_data(s, execute(s).memory).pass);
  params.set("placement", "1,2,3");
  EXPECT_THROW((void)a.build(*topo, params), ConfigError);
  params.set("placement", "identity");
  EXPECT_THROW((void)a.build(*topology::make_topology("torus:2x2"), params), ConfigError);
}

TEST(MscclImport, CustomProgramIsCheckedAgainstTheExecutor) {
  const fs::path dir = fs::temp_directory_path() / ("msccl_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // gpu 0 sends its input chunk 1 to gpu 1's scratch chunk 0; gpu 1 copies it
  // to its output chunk 0 after the receive (a dependency across its blocks).
  std::ofstream(dir / "custom.xml")
      << "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"custom\" "
         "inplace=\"0\">\n"
         "<gpu id=\"0\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"0\">\n"
         "<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
         "<step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" "
         "deps=\"-1\" hasdep=\"0\"/>\n"
         "</tb></gpu>\n"
         "<gpu id=\"1\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"1\">\n"
         "<tb id=\"0\" send=\"-1\" recv=\"0\" chan=\"0\">\n"
         "<step s=\"0\" type=\"r\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" "
         "deps=\"-1\" hasdep=\"1\"/>\n"
         "</tb>\n"
         "<tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
         "<step s=\"0\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"0\" "
         "deps=\"0\" hasdep=\"0\"/>\n"
         "<step s=\"1\" type=\"cpy\" srcbuf=\"s\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" "
         "deps=\"-1\" hasdep=\"0\"/>\n"
         "</tb></gpu></algo>\n";
  const std::uint32_t cw = 2;
  const Schedule s = build((dir / "custom.xml").string(), 2, cw);
  const ExecResult res = execute(s, {DeliveryOrder::random, 3});
  EXPECT_TRUE(check_data(s, res.memory).pass);
  // gpu 1's output chunk 0 (after its 2 input chunks) = gpu 0's input chunk 1.
  for (std::uint32_t w = 0; w < cw; ++w) EXPECT_EQ(res.memory[1][2 * cw + w], s.initial(0, cw + w));
  fs::remove_all(dir);
}

struct Bad {
  std::string name, body, names;  // names: what the message must contain
};

std::string program(const std::string& gpu0_steps, const std::string& gpu1_steps, int ngpus = 2,
                    const std::string& extra_tb1 = "") {
  return "<algo name=\"bad\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"" + std::to_string(ngpus) +
         "\" coll=\"custom\" inplace=\"1\">\n"
         "  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n"
         "    <tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n" +
         gpu0_steps +
         "    </tb>\n"
         "  </gpu>\n"
         "  <gpu id=\"1\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n"
         "    <tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n" +
         gpu1_steps + "    </tb>\n" + extra_tb1 +
         "  </gpu>\n"
         "</algo>\n";
}

std::string step(int s, const std::string& type, int off = 0, int cnt = 1, int depid = -1, int deps = -1) {
  return "      <step s=\"" + std::to_string(s) + "\" type=\"" + type + "\" srcbuf=\"i\" srcoff=\"" +
         std::to_string(off) + "\" dstbuf=\"i\" dstoff=\"" + std::to_string(off) + "\" cnt=\"" + std::to_string(cnt) +
         "\" depid=\"" + std::to_string(depid) + "\" deps=\"" + std::to_string(deps) + "\" hasdep=\"0\"/>\n";
}

TEST(MscclImport, MalformedFilesAreRefusedNamingGpuThreadBlockStepAndLine) {
  const fs::path dir = fs::temp_directory_path() / ("msccl_bad_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string ok0 = step(0, "s", 0), ok1 = step(0, "r", 0);
  // Sanity: the good program these are made from is accepted.
  std::ofstream(dir / "good.xml") << program(ok0, ok1);
  EXPECT_NO_THROW((void)build((dir / "good.xml").string(), 2));
  // Lines: <algo> 1, <gpu> 2, <tb> 3, gpu 0's steps from 4; gpu 1's <tb> is
  // at 4 + (gpu 0's steps) + 2.
  const std::vector<Bad> cases = {
      {"unknown_type", program(step(0, "sx", 0), ok1), "gpu 0 tb 0 step 0: unknown step type 'sx'"},
      {"unmatched_send", program(ok0 + step(1, "s", 1), ok1), "line 5: gpu 0 tb 0 step 1: send to gpu 1"},
      {"unmatched_recv", program(ok0, ok1 + step(1, "r", 1)), "line 10: gpu 1 tb 0 step 1: receive from gpu 0"},
      {"chunk_range", program(step(0, "s", 1, 2), step(0, "r", 1, 2)),
       "line 4: gpu 0 tb 0 step 0: source chunks [1, 3)"},
      // Each rank first receives, then sends: a cycle of waits.
      {"cycle_recv", program(step(0, "r", 0) + step(1, "s", 1), step(0, "r", 1) + step(1, "s", 0)),
       "dependency cycle"},
      // A dependency on a step of another thread block that waits on this one.
      {"cycle_deps",
       program(ok0 + step(1, "r", 1), ok1 + step(1, "s", 1, 1, 1, 0),
               2,
               "    <tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"0\">\n" + step(0, "cpy", 0, 1, 0, 1) +
                   "    </tb>\n"),
       "dependency cycle"},
      {"dep_missing", program(step(0, "s", 0, 1, 4, 0), ok1), "line 4: gpu 0 tb 0 step 0: depends on tb 4 step 0"},
      {"not_xml", "<algo ngpus=\"2\">\n<gpu id=\"0\">\n</algo>\n", "line 3: not well-formed XML"},
  };
  for (const Bad& c : cases) {
    const fs::path file = dir / (c.name + ".xml");
    std::ofstream(file) << c.body;
    try {
      (void)build(file.string(), 2);
      ADD_FAILURE() << c.name << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_THAT(e.what(), HasSubstr(c.names)) << c.name;
      EXPECT_THAT(e.what(), HasSubstr("key 'schedule'")) << c.name;
    }
  }
  // The cycle message names a blocked step (gpu, thread block, step, line).
  std::ofstream(dir / "cycle.xml") << program(step(0, "r", 0) + step(1, "s", 1), step(0, "r", 1) + step(1, "s", 0));
  try {
    (void)build((dir / "cycle.xml").string(), 2);
    ADD_FAILURE() << "cycle accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("gpu 0 tb 0 step 0 (line 4"));
  }
  // A rank count the topology cannot place; a missing file.
  EXPECT_THROW((void)build((dir / "good.xml").string(), 1), ConfigError);
  try {
    (void)parse_msccl((dir / "missing.xml").string());
    ADD_FAILURE() << "missing file accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("missing or unreadable"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace collnet::collectives
