// MSCCL-IR export: every exportable collnet algorithm, written as MSCCL-IR,
// re-parsed by the importer (parse_msccl) and rebuilt (build_msccl), moves
// the original's data: the imported programs, run by the functional
// executor on the original's initial memory under every delivery order,
// leave what the original collective's definition (its `expected`) says.
// Algorithms with no MSCCL form are refused naming the algorithm and why.
#include "collectives/msccl_export.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/msccl.hpp"
#include "collectives/executor.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Case {
  std::string algorithm, topology;
  Params params;
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

std::vector<Case> exportable() {
  return {
      {"ring-allreduce", "torus:4x4", {}},
      {"ring-allgather", "torus:4x4", {}},
      {"ring-reduce-scatter", "torus:4x4", {}},
      {"rd-allreduce", "torus:4x4", {}},
      {"binomial-bcast", "torus:4x4", {}},
      {"binomial-reduce", "torus:4x4", {}},
      {"pairwise-alltoall", "torus:4x4", {}},
      {"a2a-optimal", "torus:4x4", {}},
      {"a2a-spread", "torus:4x4", {}},
      {"a2a-nd", "torus:4x4", {}},
      {"a2a-hopgroup-direct", "torus:4x4", {{"barriers", "false"}}},
      {"tree-bcast", "tree:kary=2,n=7", {}},
      {"twotree-flat", "leafspine:p=6", {}},
      {"twotree-hier", "leafspine:p=6", {}},
      {"hd-allreduce", "boards:2x2x2x2", {}},
      {"hd-allreduce-conventional", "boards:2x2x1x1", {}},
      {"tree-single", "tree:kary=2,n=7", {}},
  };
}

TEST(MscclExport, ImportedExportMovesTheOriginalsDataUnderEveryDeliveryOrder) {
  for (const Case& c : exportable()) {
    SCOPED_TRACE(c.algorithm + " on " + c.topology);
    Schedule original;
    const MscclExport ex = export_of(c, original);
    const fs::path file = fs::temp_directory_path() / ("collnet_export_" + c.algorithm + ".xml");
    std::ofstream(file) << ex.xml;
    const MscclProgram prog = parse_msccl(file.string());
    EXPECT_EQ(static_cast<std::size_t>(prog.ngpus), original.endpoints());
    EXPECT_EQ(prog.coll, "custom");
    MscclOptions o;
    o.chunk_words = ex.chunk_words;
    Schedule imported = build_msccl(prog, original.endpoints(), o);
    // The same messages: one per remote SEND and local copy of the original.
    std::int64_t sends = 0, imported_sends = 0;
    for (const auto& p : original.programs)
      for (const auto& d : p) sends += d.opcode == Opcode::send;
    for (const auto& p : imported.programs)
      for (const auto& d : p) imported_sends += d.opcode == Opcode::send;
    EXPECT_EQ(imported_sends, sends);
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
    fs::remove(file);
  }
}

TEST(MscclExport, ChunkIsTheGreatestCommonDivisorOfTheTransfers) {
  Schedule original;
  const MscclExport ex = export_of({"pairwise-alltoall", "torus:4x4", {{"message_flits", "24"}}}, original);
  EXPECT_EQ(ex.chunk_words, 24u);
  // Every step's cnt times the chunk is a SEND's length.
  const std::regex cnt("type=\"s\"[^>]*cnt=\"([0-9]+)\"");
  const std::string& x = ex.xml;
  int n = 0;
  for (auto it = std::sregex_iterator(x.begin(), x.end(), cnt); it != std::sregex_iterator(); ++it, ++n)
    EXPECT_EQ(std::stoi((*it)[1]) * 24, 24);
  EXPECT_EQ(n, 16 * 15);
}

TEST(MscclExport, BarriersAreRefusedNamingTheKeyThatTurnsThemOff) {
  Schedule original;
  try {
    export_of({"a2a-hopgroup-direct", "torus:4x4", {}}, original);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("a2a-hopgroup-direct"));
    EXPECT_THAT(e.what(), HasSubstr("BARRIER"));
    EXPECT_THAT(e.what(), HasSubstr("barriers=false"));
  }
}

TEST(MscclExport, ReceiveOperationsOtherThanCopyAndSumAreRefused) {
  Schedule original;
  try {
    export_of({"hd-allreduce", "boards:2x2x2x2", {{"op", "max"}}}, original);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("hd-allreduce"));
    EXPECT_THAT(e.what(), HasSubstr("'max'"));
  }
  try {
    export_of({"hd-allreduce", "boards:2x2x2x2", {{"dtype", "float64"}}}, original);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("float64"));
  }
}

TEST(MscclExport, DroppedFeaturesAreWarned) {
  Schedule original;
  const MscclExport ex = export_of({"a2a-spread", "torus:4x4", {}}, original);
  ASSERT_FALSE(ex.warnings.empty());
  EXPECT_THAT(ex.warnings.front(), HasSubstr("controllers"));
  const MscclExport ring = export_of({"ring-allreduce", "torus:4x4", {}}, original);
  EXPECT_TRUE(ring.warnings.empty());
}

}  // namespace
}  // namespace collnet::collectives
