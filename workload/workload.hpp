// A workload: per rank, a graph of nodes (compute, point-to-point transfers,
// collectives on process groups) read from Chakra execution traces
// (workload/chakra.proto: one `.et` file per rank, PREFIX.r.et), the
// format ASTRA-sim runs. This layer reads and checks the files and keeps
// what a run needs of every node; workload/lower.hpp turns a checked
// workload into descriptor programs.
//
// Every malformed input is a ConfigError (exit 2) naming the key
// 'workload', the file, the node id and the field: a truncated or
// unparsable message, a node type collnet does not know, a dependency on a
// node the file does not have, a dependency cycle, a send without its
// receive (or the reverse), a collective whose type or size differs between
// the ranks of its group, a rank file missing, a collective naming an
// unknown process group.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace collnet::workload {

/// Chakra's NodeType values (et_def.proto).
enum class NodeType : std::int32_t {
  invalid = 0,
  metadata = 1,
  mem_load = 2,
  mem_store = 3,
  comp = 4,
  comm_send = 5,
  comm_recv = 6,
  comm_coll = 7,
};
/// "COMP_NODE", ... as Chakra names them.
std::string_view node_type_name(NodeType type);

/// Chakra's CollectiveCommType values (attribute comm_type of a COMM_COLL_NODE).
enum class CollectiveType : std::int32_t {
  all_reduce = 0,
  reduce = 1,
  all_gather = 2,
  gather = 3,
  scatter = 4,
  broadcast = 5,
  all_to_all = 6,
  reduce_scatter = 7,
  reduce_scatter_block = 8,
  barrier = 9,
};
/// "ALL_REDUCE", ... as Chakra names them ("comm_type N" for another value).
std::string collective_type_name(std::int64_t type);

struct Node {
  std::uint64_t id = 0;
  std::string name;
  NodeType type = NodeType::invalid;
  std::vector<std::uint64_t> data_deps;
  std::vector<std::uint64_t> ctrl_deps;
  std::uint64_t duration_micros = 0;
  // Communication attributes (-1: absent).
  std::int64_t comm_type = -1;
  std::int64_t comm_size = -1;  // bytes
  std::int64_t comm_src = -1;
  std::int64_t comm_dst = -1;
  std::int64_t comm_tag = -1;
  std::string pg_name;  // the collective's process group; empty: every rank
};

/// A process group: its name and its ranks, ascending.
struct ProcessGroup {
  std::string name;
  std::vector<int> ranks;
};

/// One rank's file.
struct RankTrace {
  std::string file;
  std::string version;              // GlobalMetadata.version
  std::vector<Node> nodes;          // in file order
  std::vector<ProcessGroup> groups;  // from its METADATA_NODEs (empty ranks: every rank)
  /// Index in `nodes` of each node id.
  std::map<std::uint64_t, std::size_t> index;
};

struct Workload {
  std::string prefix;
  std::vector<RankTrace> ranks;
  /// Process groups by name: comm_groups and the METADATA_NODEs; "" and "0"
  /// are every rank.
  std::map<std::string, std::vector<int>> groups;
};

/// Reads one rank's trace from its bytes (`file` names it in messages):
/// the GlobalMetadata message, then nodes until the end. Checks what one
/// file can say wrong: a truncated or unparsable message, a node type
/// outside Chakra's, a node id given twice, a dependency on a node the file
/// does not have, a communication node without its attributes.
RankTrace read_rank_trace(std::string_view bytes, const std::string& file);
/// The same from the file.
RankTrace read_rank_file(const std::string& file);

/// One rank's nodes (indices in its file) in topological order, Kahn's:
/// among the nodes ready at once, file order first. Nodes on a dependency
/// cycle or behind one are left out.
std::vector<std::uint32_t> topological_order(const RankTrace& t);

/// ASTRA-sim's comm_groups file: {"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}.
/// Problems name the key 'comm_groups' and the file.
std::map<std::string, std::vector<int>> read_comm_groups(const std::string& file, int ranks);

/// Reads PREFIX.r.et for every rank r < ranks (a rank file missing is an
/// error naming it; a file PREFIX.<ranks>.et is one too: the trace has more
/// ranks than the network endpoints) and `comm_groups_file` (empty: none),
/// then checks the whole workload (check_workload).
Workload load_chakra(const std::string& prefix, int ranks, const std::string& comm_groups_file);

/// The checks across files: dependency cycles, every send matched by one
/// receive (source, destination, tag and size) and the reverse, the
/// collectives of a group the same type and size on every rank of the
/// group, every group known.
void check_workload(Workload& w);

/// The ranks of group `name` (every rank for "" and "0"); throws
/// ConfigError naming the rank, node and group when unknown.
const std::vector<int>& group_ranks(const Workload& w, int rank, const Node& node);

/// "key 'workload': FILE: node ID (NAME): " for messages.
std::string where(const RankTrace& trace, const Node& node);

}  // namespace collnet::workload
