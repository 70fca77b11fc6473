// Reading one rank's Chakra file: a stream of length-delimited messages
// (a varint length, then the message), the GlobalMetadata first, one Node
// after another until the end (workload/chakra.proto).
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>
#include <nlohmann/json.hpp>

#include "collectives/params.hpp"
#include "workload/chakra.pb.h"
#include "workload/workload.hpp"

namespace collnet::workload {

std::string_view node_type_name(NodeType type) {
  switch (type) {
    case NodeType::invalid: return "INVALID_NODE";
    case NodeType::metadata: return "METADATA_NODE";
    case NodeType::mem_load: return "MEM_LOAD_NODE";
    case NodeType::mem_store: return "MEM_STORE_NODE";
    case NodeType::comp: return "COMP_NODE";
    case NodeType::comm_send: return "COMM_SEND_NODE";
    case NodeType::comm_recv: return "COMM_RECV_NODE";
    case NodeType::comm_coll: return "COMM_COLL_NODE";
  }
  return "?";
}

std::string collective_type_name(std::int64_t type) {
  static const char* const names[] = {"ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER",  "SCATTER",
                                      "BROADCAST",  "ALL_TO_ALL",     "REDUCE_SCATTER",       "REDUCE_SCATTER_BLOCK",
                                      "BARRIER"};
  if (type >= 0 && type < 10) return names[type];
  return fmt::format("comm_type {}", type);
}

std::string where(const RankTrace& trace, const Node& node) {
  return fmt::format("key 'workload': {}: node {}{}: ", trace.file, node.id,
                     node.name.empty() ? "" : " (" + node.name + ")");
}

namespace {

/// An integer attribute of any of the schema's integer kinds; false for
/// another kind (a list, a string).
bool integer_value(const chakra::AttributeProto& a, std::int64_t& out) {
  using A = chakra::AttributeProto;
  switch (a.value_case()) {
    case A::kInt32Val: out = a.int32_val(); return true;
    case A::kInt64Val: out = a.int64_val(); return true;
    case A::kUint32Val: out = a.uint32_val(); return true;
    case A::kUint64Val:
      if (a.uint64_val() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
      out = static_cast<std::int64_t>(a.uint64_val());
      return true;
    case A::kSint32Val: out = a.sint32_val(); return true;
    case A::kSint64Val: out = a.sint64_val(); return true;
    case A::kFixed32Val: out = a.fixed32_val(); return true;
    case A::kFixed64Val:
      if (a.fixed64_val() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
      out = static_cast<std::int64_t>(a.fixed64_val());
      return true;
    case A::kSfixed32Val: out = a.sfixed32_val(); return true;
    case A::kSfixed64Val: out = a.sfixed64_val(); return true;
    default: return false;
  }
}

/// PyTorch's process-group list in a METADATA_NODE's inputs.values:
/// [{"pg_name": "1", "ranks": [0, 1]}, ...] (Python's single quotes taken
/// as JSON's double quotes). Empty ranks: every rank.
std::vector<ProcessGroup> metadata_groups(const std::string& values, const std::string& at) {
  std::string text = values;
  for (char& c : text)
    if (c == '\'') c = '"';
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    throw ConfigError(at + "field 'inputs.values': expected the process-group list [{\"pg_name\": NAME, \"ranks\": "
                           "[...]}, ...], got '" + values.substr(0, 80) + "'");
  std::vector<ProcessGroup> groups;
  for (const auto& g : j) {
    if (!g.is_object() || !g.contains("pg_name") || !g.contains("ranks") || !g["ranks"].is_array())
      throw ConfigError(at + "field 'inputs.values': every process group needs pg_name and ranks, got " +
                        g.dump().substr(0, 80));
    ProcessGroup pg;
    pg.name = g["pg_name"].is_string() ? g["pg_name"].get<std::string>() : g["pg_name"].dump();
    for (const auto& r : g["ranks"]) {
      if (!r.is_number_integer() || r.get<std::int64_t>() < 0 || r.get<std::int64_t>() > 1 << 20)
        throw ConfigError(at + "field 'inputs.values': group '" + pg.name + "' has rank " + r.dump() +
                          "; ranks are integers from 0");
      pg.ranks.push_back(r.get<int>());
    }
    groups.push_back(std::move(pg));
  }
  return groups;
}

Node to_node(const chakra::Node& m, const RankTrace& trace, std::vector<ProcessGroup>& groups) {
  Node n;
  n.id = m.id();
  n.name = m.name();
  if (m.type() < 0 || m.type() > static_cast<int>(NodeType::comm_coll) || m.type() == 0)
    throw ConfigError(where(trace, n) + fmt::format("field 'type': {} is not a node type; accepted values: 1 "
                                                    "(METADATA_NODE) to 7 (COMM_COLL_NODE)",
                                                    m.type()));
  n.type = static_cast<NodeType>(m.type());
  n.data_deps.assign(m.data_deps().begin(), m.data_deps().end());
  n.ctrl_deps.assign(m.ctrl_deps().begin(), m.ctrl_deps().end());
  n.duration_micros = m.duration_micros();
  for (const auto& a : m.attr()) {
    const std::string& name = a.name();
    std::int64_t* slot = name == "comm_type"   ? &n.comm_type
                         : name == "comm_size" ? &n.comm_size
                         : name == "comm_src"  ? &n.comm_src
                         : name == "comm_dst"  ? &n.comm_dst
                         : name == "comm_tag"  ? &n.comm_tag
                                               : nullptr;
    if (slot != nullptr) {
      if (!integer_value(a, *slot))
        throw ConfigError(where(trace, n) + "field 'attr' " + name + ": expected an integer value");
    } else if (name == "pg_name") {
      if (a.value_case() == chakra::AttributeProto::kStringVal) n.pg_name = a.string_val();
      else if (std::int64_t v = 0; integer_value(a, v)) n.pg_name = std::to_string(v);
      else throw ConfigError(where(trace, n) + "field 'attr' pg_name: expected a string");
    }
  }
  if (n.type == NodeType::metadata && !m.inputs().values().empty())
    for (auto& g : metadata_groups(m.inputs().values(), where(trace, n))) groups.push_back(std::move(g));
  // What each communication node needs.
  const auto need = [&](std::int64_t v, const char* field, std::int64_t lo) {
    if (v < lo)
      throw ConfigError(where(trace, n) + fmt::format("field 'attr' {}: {} of a {} {}", field,
                                                      v == -1 ? "missing" : "is " + std::to_string(v),
                                                      node_type_name(n.type),
                                                      lo == 0 ? "must be 0 or more" : "must be 1 or more"));
  };
  if (n.type == NodeType::comm_send || n.type == NodeType::comm_recv || n.type == NodeType::comm_coll)
    need(n.comm_size, "comm_size", 0);
  if (n.type == NodeType::comm_send) need(n.comm_dst, "comm_dst", 0);
  if (n.type == NodeType::comm_recv) need(n.comm_src, "comm_src", 0);
  if (n.type == NodeType::comm_coll) need(n.comm_type, "comm_type", 0);
  if ((n.type == NodeType::comm_send || n.type == NodeType::comm_recv) && n.comm_tag < 0) n.comm_tag = 0;
  return n;
}

}  // namespace

RankTrace read_rank_trace(std::string_view bytes, const std::string& file) {
  RankTrace trace;
  trace.file = file;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            static_cast<int>(std::min<std::size_t>(bytes.size(), INT32_MAX)));
  in.SetTotalBytesLimit(INT32_MAX);
  // The message after node `last` (its id, for messages): where a bad one is.
  const auto after = [&](std::size_t count) {
    if (count == 0) return std::string("the GlobalMetadata message");
    return trace.nodes.empty() ? std::string("the first node")
                               : fmt::format("the node after node {}", trace.nodes.back().id);
  };
  std::size_t count = 0;
  while (in.CurrentPosition() < static_cast<int>(bytes.size())) {
    const int at = in.CurrentPosition();
    std::uint32_t length = 0;
    if (!in.ReadVarint32(&length))
      throw ConfigError(fmt::format("key 'workload': {}: {} at byte {}: field 'length': truncated varint", file,
                                    after(count), at));
    if (static_cast<std::uint64_t>(in.CurrentPosition()) + length > bytes.size())
      throw ConfigError(fmt::format("key 'workload': {}: {} at byte {}: field 'length': truncated message ({} "
                                    "bytes announced, {} left in the file)",
                                    file, after(count), at, length, bytes.size() - in.CurrentPosition()));
    const auto limit = in.PushLimit(static_cast<int>(length));
    bool ok = false;
    chakra::Node node;
    if (count == 0) {
      chakra::GlobalMetadata meta;
      ok = meta.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
      trace.version = meta.version();
    } else {
      ok = node.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
    }
    in.PopLimit(limit);
    if (!ok)
      throw ConfigError(fmt::format("key 'workload': {}: {} at byte {}: field 'message': not a valid {} message", file,
                                    after(count), at, count == 0 ? "GlobalMetadata" : "Node"));
    if (count > 0) {
      Node n = to_node(node, trace, trace.groups);
      if (!trace.index.emplace(n.id, trace.nodes.size()).second)
        throw ConfigError(where(trace, n) + "field 'id': the file has another node with this id");
      trace.nodes.push_back(std::move(n));
    }
    ++count;
  }
  if (count == 0) throw ConfigError("key 'workload': " + file + ": field 'GlobalMetadata': the file is empty");
  for (const Node& n : trace.nodes)
    for (const auto* deps : {&n.data_deps, &n.ctrl_deps})
      for (const std::uint64_t d : *deps)
        if (trace.index.count(d) == 0)
          throw ConfigError(where(trace, n) + fmt::format("field '{}': unknown dependency: no node {} in the file",
                                                          deps == &n.data_deps ? "data_deps" : "ctrl_deps", d));
  return trace;
}

RankTrace read_rank_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError("key 'workload': cannot read '" + file + "' (missing or unreadable rank file)");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return read_rank_trace(bytes.str(), file);
}

}  // namespace collnet::workload
