// MSCCL-IR export: every collnet algorithm, written as MSCCL-IR, re-parsed
// by the importer (parse_msccl) and rebuilt (build_msccl), moves the
// original's data: the imported programs, run by the functional executor on
// the original's initial memory under every delivery order, leave what the
// original collective's definition (its `expected`) says. Where the export
// names the collective (coll allreduce, allgather, reduce_scatter, alltoall)
// the importer's own definition of that collective, on its own inputs,
// holds too. Barriers become token exchanges. Algorithms with no MSCCL form
// are refused naming the algorithm and why.
#include "collectives/msccl_export.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unistd.h>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/msccl.hpp"
#include "collectives/executor.hpp"
#include "tests/support/built_schedule.hpp"
#include "tests/support/error_message.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Case {
  std::string algorithm, topology;
  Params params;
  std::string coll;  // the collective the export must name
};

std::vector<std::string> key_names(const Algorithm& a) {
  std::vector<std::string> n;
  for (const auto& k : a.keys) n.push_back(k.name);
  return n;
}

MscclExport export_of(const Case& c, Schedule& original) {
  const auto topo = topology::make_topology(c.topology);
  const Algorithm& a = find_algorithm(c.algorithm);
  original = a.build(*topo, c.params);
  return export_msccl(original, a.name, key_names(a));
}

const std::string kFixtures = COLLNET_SOURCE_DIR "/examples/msccl/";

// One case per registered algorithm (the test below checks that none is
// missing), on small topologies. 32 elements on 16 ranks: equal chunks, so
// the ring collectives are MSCCL collectives; 15 (the default) on 16 ranks
// is not (one rank holds no chunk): custom.
std::vector<Case> every_algorithm() {
  const Params e32{{"elements", "32"}};
  return {
      {"ring-allreduce", "torus:4x4", e32, "allreduce"},
      {"ring-allreduce", "torus:4x4", {}, "allreduce"},
      {"ring-allgather", "torus:4x4", e32, "allgather"},
      {"ring-allgather", "torus:4x4", {}, "custom"},
      {"ring-reduce-scatter", "torus:4x4", e32, "reduce_scatter"},
      {"rd-allreduce", "torus:4x4", e32, "allreduce"},
      {"binomial-bcast", "torus:4x4", {}, "custom"},
      {"binomial-reduce", "torus:4x4", {}, "custom"},
      {"pairwise-alltoall", "torus:4x4", {}, "alltoall"},
      {"a2a-optimal", "torus:4x4", {}, "alltoall"},
      {"a2a-spread", "torus:4x4", {}, "alltoall"},
      {"a2a-nd", "torus:4x4", {}, "alltoall"},
      {"a2a-random", "torus:4x4", {}, "alltoall"},
      {"a2a-hopgroup", "torus:2x4", {}, "custom"},
      {"a2a-hopgroup-direct", "torus:2x4", {}, "alltoall"},
      {"a2a-hopgroup-direct", "torus:4x4", {{"barriers", "false"}}, "alltoall"},
      {"tree-bcast", "tree:kary=2,n=7", {}, "custom"},
      {"twotree-flat", "leafspine:p=6", {}, "allreduce"},
      {"tree-single", "tree:kary=2,n=7", {{"phase_barriers", "true"}}, "allreduce"},
      {"twotree-hier", "leafspine:p=6", {}, "allreduce"},
      {"hd-allreduce", "boards:2x1x1x1", {}, "custom"},
      {"hd-allreduce-conventional", "boards:2x2x1x1", {}, "custom"},
      {"tree-single", "tree:kary=2,n=7", {}, "allreduce"},
      {"ring-allreduce", "boards:2x1x1x1", {{"ranks", "main_units"}, {"elements", "32"}}, "custom"},
      {"msccl", "torus:4x4", {{"schedule", kFixtures + "allreduce_rdh_16.xml"}, {"chunk_words", "2"}}, "allreduce"},
      {"msccl", "torus:4x4", {{"schedule", kFixtures + "alltoall_allpairs_16.xml"}, {"chunk_words", "3"}}, "alltoall"},
  };
}

class EveryAlgorithm : public ::testing::TestWithParam<Case> {};

TEST_P(EveryAlgorithm, ImportedExportMovesTheOriginalsData) {
  const Case& c = GetParam();
  Schedule original;
  const MscclExport ex = export_of(c, original);
  const fs::path file = fs::temp_directory_path() /
                        ("collnet_export_" + c.algorithm + "_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file) << ex.xml;
  const MscclProgram prog = parse_msccl(file.string());
  fs::remove(file);
  EXPECT_EQ(static_cast<std::size_t>(prog.ngpus), original.endpoints());
  EXPECT_EQ(prog.coll, c.coll);
  EXPECT_EQ(ex.coll, c.coll);
  MscclOptions o;
  o.chunk_words = ex.chunk_words;
  Schedule imported = build_msccl(prog, original.endpoints(), o);
  // The same messages: one per remote SEND and local copy of the original,
  // and for each barrier one token per endpoint and round (ceil(log2 n)).
  std::int64_t sends = 0, imported_sends = 0, barriers = 0;
  for (const auto& p : original.programs)
    for (const auto& d : p) {
      sends += d.opcode == Opcode::send;
      barriers += d.opcode == Opcode::barrier;
    }
  for (const auto& p : imported.programs)
    for (const auto& d : p) imported_sends += d.opcode == Opcode::send;
  const auto n = static_cast<std::int64_t>(original.endpoints());
  std::int64_t rounds = 0;
  while ((std::int64_t{1} << rounds) < n) ++rounds;
  EXPECT_EQ(imported_sends, sends + barriers * rounds);  // barriers counts every endpoint's
  // The importer's own definition of the named collective, on its own inputs.
  if (c.coll != "custom") {
    const ExecResult own = execute(imported);
    const DataCheck d = check_data(imported, own.memory);
    EXPECT_TRUE(d.pass) << (d.first_errors.empty() ? "" : d.first_errors.front());
    EXPECT_GT(d.words_checked, 0);
  }
  // The original's data: its initial memory in, its definition out.
  imported.initial = [&original](EndpointId e, std::uint32_t a) -> Word {
    return a < original.memory_of(e) ? original.initial(e, a) : 0;
  };
  imported.expected = original.expected;
  for (const DeliveryOrder order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    for (std::uint64_t seed = 1; seed <= (order == DeliveryOrder::random ? 3u : 1u); ++seed) {
      const ExecResult r = execute(imported, {order, seed});
      const DataCheck d = check_data(imported, r.memory);
      EXPECT_TRUE(d.pass) << "order " << static_cast<int>(order) << " seed " << seed << ": "
                          << (d.first_errors.empty() ? "" : d.first_errors.front());
      EXPECT_GT(d.words_checked, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MscclExport, EveryAlgorithm, ::testing::ValuesIn(every_algorithm()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           std::string n = std::to_string(param.index) + "_" + param.param.algorithm;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// The algorithms MSCCL-IR has no form for (a switch that combines or
// multicasts packets): export refuses them, saying so.
TEST(MscclExport, EveryRegisteredAlgorithmHasARoundTripCaseOrIsRefusedSayingWhy) {
  std::set<std::string> covered;
  for (const Case& c : every_algorithm()) covered.insert(c.algorithm);
  for (const char* name : {"innet-allreduce", "innet-reduce", "innet-bcast"}) {
    const auto built = test::build_schedule(name, "fattree:k=4,n=2");
    const std::string why =
        test::error_message<ConfigError>([&] { (void)export_msccl(built.schedule, name, {}); });
    EXPECT_NE(why.find("no form for a switch"), std::string::npos) << name << ": " << why;
    covered.insert(name);
  }
  for (const std::string& name : algorithm_names()) EXPECT_TRUE(covered.count(name)) << name;
}

TEST(MscclExport, ChunkIsTheGreatestCommonDivisorOfTheTransfers) {
  // Endpoint 0 sends words [0, 6) and [15, 30) of its 30 to endpoint 1 and
  // [6, 15) to endpoint 2, at the same addresses: transfers of 6, 9 and 15
  // words, whose greatest common divisor (with the offsets 0, 6, 15) is 3.
  // Neither the smallest transfer (6) nor the largest divides them all.
  constexpr std::uint32_t kChunk = 3;
  Schedule original;
  original.algorithm = "unequal";
  original.memory_words = 30;
  original.programs = {
      {Descriptor::send(1, 0, 0, 6, 1), Descriptor::send(2, 6, 6, 9, 1), Descriptor::send(1, 15, 15, 15, 2),
       Descriptor::end()},
      {Descriptor::wait(1, 1), Descriptor::wait(2, 1), Descriptor::end()},
      {Descriptor::wait(1, 1), Descriptor::end()},
  };
  original.initial = [](EndpointId e, std::uint32_t a) -> Word { return e == 0 ? payload_word(0, 0, a) : 0; };
  original.expected = [](EndpointId e) {
    const auto words = [](std::uint32_t from, std::uint32_t to) {
      Region r{from, {}};
      for (std::uint32_t a = from; a < to; ++a) r.words.push_back(payload_word(0, 0, a));
      return r;
    };
    if (e == 0) return std::vector<Region>{words(0, 30)};
    if (e == 1) return std::vector<Region>{words(0, 6), words(15, 30)};
    return std::vector<Region>{words(6, 15)};
  };
  ASSERT_TRUE(check_data(original, execute(original).memory).pass);  // the expectation holds for the original
  const MscclExport ex = export_msccl(original, "unequal", {});
  EXPECT_EQ(ex.coll, "custom");
  EXPECT_EQ(ex.chunk_words, kChunk);
  // Every transfer's cnt is its length in chunks of 3 words: 2, 3 and 5.
  const std::regex cnt("type=\"s\"[^>]*cnt=\"([0-9]+)\"");
  const std::string& x = ex.xml;
  std::multiset<int> counts;
  for (auto it = std::sregex_iterator(x.begin(), x.end(), cnt); it != std::sregex_iterator(); ++it)
    counts.insert(std::stoi((*it)[1]));
  EXPECT_EQ(counts, (std::multiset<int>{6 / 3, 9 / 3, 15 / 3}));
  // The document carries its chunk, and imported with it (no chunk_words
  // given) it moves the original's words.
  const fs::path file = fs::temp_directory_path() / ("collnet_export_unequal_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file) << x;
  const MscclProgram prog = parse_msccl(file.string());
  fs::remove(file);
  EXPECT_EQ(prog.chunk_words, static_cast<int>(kChunk));
  MscclOptions o;
  o.chunk_words = static_cast<std::uint32_t>(prog.chunk_words);
  Schedule imported = build_msccl(prog, original.endpoints(), o);
  imported.initial = [&original](EndpointId e, std::uint32_t a) -> Word {
    return a < original.memory_of(e) ? original.initial(e, a) : 0;
  };
  imported.expected = original.expected;
  const DataCheck d = check_data(imported, execute(imported).memory);
  EXPECT_TRUE(d.pass) << (d.first_errors.empty() ? "" : d.first_errors.front());
  EXPECT_EQ(d.words_checked, 30 + 6 + 15 + 9);
}

TEST(MscclExport, BarriersBecomeDisseminationTokenExchanges) {
  // 16 endpoints: 4 rounds; round j sends from e to e + 2^j a 1-chunk token
  // from scratch to scratch, and a warning says so.
  Schedule original;
  const MscclExport ex = export_of({"a2a-hopgroup-direct", "torus:4x4", {}, "alltoall"}, original);
  std::int64_t barriers = 0;
  for (const auto& d : original.programs[0]) barriers += d.opcode == Opcode::barrier;
  ASSERT_GT(barriers, 0);
  bool warned = false;
  for (const auto& w : ex.warnings)
    warned = warned || w.find(std::to_string(barriers) + " barriers") != std::string::npos;
  EXPECT_TRUE(warned);
  const std::regex token("type=\"s\" srcbuf=\"s\"[^>]*dstbuf=\"s\"[^>]*cnt=\"1\"");
  const auto tokens = std::distance(std::sregex_iterator(ex.xml.begin(), ex.xml.end(), token), std::sregex_iterator());
  EXPECT_EQ(tokens, barriers * 16 * 4);
  // gpu 0's thread blocks sending to 1, 2, 4 and 8 carry its tokens; the one to 3 none.
  const std::string gpu0 = ex.xml.substr(0, ex.xml.find("</gpu>"));
  const auto tb_text = [&](int peer) {
    const auto at = gpu0.find("send=\"" + std::to_string(peer) + "\" recv=\"-1\"");
    return at == std::string::npos ? std::string() : gpu0.substr(at, gpu0.find("</tb>", at) - at);
  };
  for (int peer : {1, 2, 4, 8}) EXPECT_NE(tb_text(peer).find("srcbuf=\"s\""), std::string::npos) << peer;
  ASSERT_FALSE(tb_text(3).empty());
  EXPECT_EQ(tb_text(3).find("srcbuf=\"s\""), std::string::npos);
}

TEST(MscclExport, EndpointsJoiningDifferentBarriersAreRefused) {
  Schedule s;
  s.algorithm = "odd";
  s.memory_words = 1;
  s.programs = {{Descriptor::barrier(0), Descriptor::end()}, {Descriptor::end()}};
  s.initial = [](EndpointId, std::uint32_t) -> Word { return 0; };
  s.expected = [](EndpointId) { return std::vector<Region>{}; };
  try {
    (void)export_msccl(s, "odd", {});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'odd'"));
    EXPECT_THAT(e.what(), HasSubstr("barrier"));
  }
}

TEST(MscclExport, ReceiveOperationsOtherThanCopyAndSumAreRefused) {
  Schedule original;
  try {
    export_of({"hd-allreduce", "boards:2x2x2x2", {{"op", "max"}}, ""}, original);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("hd-allreduce"));
    EXPECT_THAT(e.what(), HasSubstr("'max'"));
  }
  try {
    export_of({"hd-allreduce", "boards:2x2x2x2", {{"dtype", "float64"}}, ""}, original);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("float64"));
  }
}

TEST(MscclExport, DroppedFeaturesAreWarned) {
  Schedule original;
  const MscclExport ex = export_of({"a2a-spread", "torus:4x4", {}, "alltoall"}, original);
  ASSERT_FALSE(ex.warnings.empty());
  EXPECT_THAT(ex.warnings.front(), HasSubstr("controllers"));
  const MscclExport ring = export_of({"ring-allreduce", "torus:4x4", {}, "allreduce"}, original);
  EXPECT_TRUE(ring.warnings.empty());
}

}  // namespace
}  // namespace collnet::collectives
