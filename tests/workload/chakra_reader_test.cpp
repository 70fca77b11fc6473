// The Chakra reader and the workload checks: real traces read as the
// format's README decodes them, and every malformed input refused naming
// the file, the node and the field.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "collectives/params.hpp"
#include "workload/chakra.pb.h"
#include "workload/workload.hpp"

namespace collnet::workload {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = std::string(COLLNET_SOURCE_DIR) + "/examples/chakra/";

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void put(std::string& out, const google::protobuf::Message& m) {
  const std::string bytes = m.SerializeAsString();
  put_varint(out, bytes.size());
  out += bytes;
}

chakra::Node node(std::uint64_t id, NodeType type, std::vector<std::uint64_t> deps = {}) {
  chakra::Node n;
  n.set_id(id);
  n.set_name("n" + std::to_string(id));
  n.set_type(static_cast<int>(type));
  for (auto d : deps) n.add_data_deps(d);
  return n;
}

void attr(chakra::Node& n, const std::string& name, std::int64_t v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

std::string file_of(const std::vector<chakra::Node>& nodes) {
  std::string out;
  chakra::GlobalMetadata meta;
  meta.set_version("0.0.4");
  put(out, meta);
  for (const auto& n : nodes) put(out, n);
  return out;
}

/// The ConfigError message of reading `bytes` (empty: none).
std::string error_of(const std::string& bytes) {
  try {
    (void)read_rank_trace(bytes, "t.0.et");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ChakraReader, ReadsTheAllReduceMicrobenchmarkAsItsReadmeDecodesIt) {
  const RankTrace t = read_rank_file(kExamples + "all_reduce/4npus_1MB/all_reduce.0.et");
  EXPECT_EQ(t.version, "0.0.4");
  ASSERT_EQ(t.nodes.size(), 1u);
  EXPECT_EQ(t.nodes[0].id, 0u);
  EXPECT_EQ(t.nodes[0].name, "all_reduce_4npus_1MB");
  EXPECT_EQ(t.nodes[0].type, NodeType::comm_coll);
  EXPECT_EQ(t.nodes[0].comm_type, 0);  // ALL_REDUCE
  EXPECT_EQ(t.nodes[0].comm_size, 1048576);
  EXPECT_TRUE(t.nodes[0].data_deps.empty());
}

TEST(ChakraReader, ReadsTheCustomRingAs35NodesWithTheirDependencies) {
  const std::string prefix = kExamples + "custom_ring_allreduce_8npus_1MB/custom_allreduce";
  const Workload w = load_chakra(prefix, 8, "");
  ASSERT_EQ(w.ranks.size(), 8u);
  for (const RankTrace& t : w.ranks) {
    ASSERT_EQ(t.nodes.size(), 35u) << t.file;
    int sends = 0, recvs = 0, comps = 0;
    for (const Node& n : t.nodes) {
      sends += n.type == NodeType::comm_send;
      recvs += n.type == NodeType::comm_recv;
      comps += n.type == NodeType::comp;
    }
    // A ring allreduce on 8 ranks: 2 (n - 1) = 14 steps, each a send and a
    // receive; the reduce-scatter half's 7 receives are reduced by compute.
    EXPECT_EQ(sends, 14);
    EXPECT_EQ(recvs, 14);
    EXPECT_EQ(comps, 7);
  }
  // Rank 0's first send goes to rank 1, its first receive comes from rank 7, 1 MiB / 8 each.
  const RankTrace& r0 = w.ranks[0];
  EXPECT_EQ(r0.nodes[0].type, NodeType::comm_send);
  EXPECT_EQ(r0.nodes[0].comm_dst, 1);
  EXPECT_EQ(r0.nodes[0].comm_size, 131072);
  EXPECT_EQ(r0.nodes[1].type, NodeType::comm_recv);
  EXPECT_EQ(r0.nodes[1].comm_src, 7);
  EXPECT_EQ(r0.nodes[2].duration_micros, 7u);
  EXPECT_EQ(r0.nodes[2].data_deps, std::vector<std::uint64_t>{1});
}

TEST(ChakraReader, RefusesATruncatedMessageNamingTheNodeBeforeIt) {
  std::string bytes = file_of({node(0, NodeType::comp), node(1, NodeType::comp, {0})});
  bytes.resize(bytes.size() - 3);
  const std::string e = error_of(bytes);
  EXPECT_NE(e.find("t.0.et"), std::string::npos) << e;
  EXPECT_NE(e.find("the node after node 0"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated message"), std::string::npos) << e;
}

TEST(ChakraReader, RefusesGarbageThatIsNoNode) {
  std::string bytes = file_of({node(0, NodeType::comp)});
  bytes += std::string("\x03\xff\xff\xff", 4);
  const std::string e = error_of(bytes);
  EXPECT_NE(e.find("not a valid Node message"), std::string::npos) << e;
}

TEST(ChakraReader, RefusesAnUnknownDependencyNamingNodeAndField) {
  const std::string e = error_of(file_of({node(0, NodeType::comp), node(5, NodeType::comp, {17})}));
  EXPECT_NE(e.find("node 5 (n5)"), std::string::npos) << e;
  EXPECT_NE(e.find("field 'data_deps'"), std::string::npos) << e;
  EXPECT_NE(e.find("no node 17"), std::string::npos) << e;
}

TEST(ChakraReader, RefusesANodeTypeOutsideChakras) {
  const std::string e = error_of(file_of({node(3, static_cast<NodeType>(9))}));
  EXPECT_NE(e.find("node 3"), std::string::npos) << e;
  EXPECT_NE(e.find("field 'type'"), std::string::npos) << e;
}

TEST(ChakraReader, RefusesASendWithoutItsDestination) {
  chakra::Node s = node(2, NodeType::comm_send);
  attr(s, "comm_size", 64);
  const std::string e = error_of(file_of({s}));
  EXPECT_NE(e.find("field 'attr' comm_dst: missing"), std::string::npos) << e;
}

/// Writes rank files PREFIX.r.et under a scratch folder; returns the prefix.
std::string write_ranks(const std::string& name, const std::vector<std::string>& files) {
  const fs::path dir = fs::temp_directory_path() / ("collnet_workload_test_" + std::to_string(::getpid())) / name;
  fs::create_directories(dir);
  for (std::size_t r = 0; r < files.size(); ++r)
    std::ofstream(dir / ("w." + std::to_string(r) + ".et"), std::ios::binary) << files[r];
  return (dir / "w").string();
}

std::string load_error(const std::string& prefix, int ranks, const std::string& groups = "") {
  try {
    (void)load_chakra(prefix, ranks, groups);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ChakraWorkload, RefusesADependencyCycleNamingANodeOnIt) {
  // 0 -> 1 -> 2 -> 1: nodes 1 and 2 form the cycle.
  const std::string prefix = write_ranks(
      "cycle", {file_of({node(0, NodeType::comp), node(1, NodeType::comp, {0, 2}), node(2, NodeType::comp, {1})})});
  const std::string e = load_error(prefix, 1);
  EXPECT_NE(e.find("dependency cycle"), std::string::npos) << e;
  EXPECT_TRUE(e.find("node 1 (n1)") != std::string::npos || e.find("node 2 (n2)") != std::string::npos) << e;
}

TEST(ChakraWorkload, RefusesAnUnmatchedSendNamingItsNode) {
  chakra::Node s = node(4, NodeType::comm_send);
  attr(s, "comm_size", 64);
  attr(s, "comm_dst", 1);
  const std::string prefix = write_ranks("unmatched", {file_of({s}), file_of({node(0, NodeType::comp)})});
  const std::string e = load_error(prefix, 2);
  EXPECT_NE(e.find("w.0.et: node 4"), std::string::npos) << e;
  EXPECT_NE(e.find("unmatched send: rank 1 has no receive from rank 0"), std::string::npos) << e;
}

TEST(ChakraWorkload, RefusesAReceiveOfAnotherSizeThanItsSend) {
  chakra::Node s = node(0, NodeType::comm_send);
  attr(s, "comm_size", 64);
  attr(s, "comm_dst", 1);
  chakra::Node r = node(0, NodeType::comm_recv);
  attr(r, "comm_size", 128);
  attr(r, "comm_src", 0);
  const std::string e = load_error(write_ranks("sizes", {file_of({s}), file_of({r})}), 2);
  EXPECT_NE(e.find("w.1.et: node 0"), std::string::npos) << e;
  EXPECT_NE(e.find("field 'attr' comm_size"), std::string::npos) << e;
}

TEST(ChakraWorkload, RefusesCollectiveSizesThatDifferBetweenRanks) {
  std::vector<std::string> files;
  for (int r = 0; r < 2; ++r) {
    chakra::Node c = node(0, NodeType::comm_coll);
    attr(c, "comm_type", 0);
    attr(c, "comm_size", r == 0 ? 1024 : 2048);
    files.push_back(file_of({c}));
  }
  const std::string e = load_error(write_ranks("collsize", files), 2);
  EXPECT_NE(e.find("field 'attr' comm_size"), std::string::npos) << e;
  EXPECT_NE(e.find("collective sizes differ"), std::string::npos) << e;
}

TEST(ChakraWorkload, RefusesAMissingRankFileNamingIt) {
  const std::string prefix = write_ranks("missing", {file_of({node(0, NodeType::comp)})});
  const std::string e = load_error(prefix, 2);
  EXPECT_NE(e.find("w.1.et: the file of rank 1 is missing"), std::string::npos) << e;
}

TEST(ChakraWorkload, RefusesACollectiveOnAnUnknownGroupNamingRankNodeAndGroup) {
  std::vector<std::string> files;
  for (int r = 0; r < 2; ++r) {
    chakra::Node c = node(7, NodeType::comm_coll);
    attr(c, "comm_type", 0);
    attr(c, "comm_size", 1024);
    auto* a = c.add_attr();
    a->set_name("pg_name");
    a->set_string_val("5");
    files.push_back(file_of({c}));
  }
  const std::string e = load_error(write_ranks("group", files), 2);
  EXPECT_NE(e.find("w.0.et: node 7"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown process group '5' on rank 0"), std::string::npos) << e;
}

TEST(ChakraWorkload, TakesGroupsFromCommGroupsAndFromTheMetadataNode) {
  // Rank files of 4 ranks: a METADATA_NODE lists group "2" = {2, 3}; comm_groups gives "1" = {0, 1}.
  std::vector<std::string> files;
  for (int r = 0; r < 4; ++r) {
    chakra::Node meta = node(0, NodeType::metadata);
    meta.mutable_inputs()->set_values("[{'pg_name': '2', 'ranks': [2, 3]}, {'pg_name': '9', 'ranks': []}]");
    files.push_back(file_of({meta}));
  }
  const std::string prefix = write_ranks("groups", files);
  const fs::path groups = fs::path(prefix).parent_path() / "groups.json";
  std::ofstream(groups) << R"({"1": [1, 0]})";
  const Workload w = load_chakra(prefix, 4, groups.string());
  EXPECT_EQ(w.groups.at("1"), (std::vector<int>{0, 1}));
  EXPECT_EQ(w.groups.at("2"), (std::vector<int>{2, 3}));
  EXPECT_EQ(w.groups.at("9"), (std::vector<int>{0, 1, 2, 3}));  // empty ranks: every rank
  EXPECT_EQ(w.groups.at("0"), (std::vector<int>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace collnet::workload
