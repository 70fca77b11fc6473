// Lowering a checked workload onto the machinery of a collective run: one
// collectives::Schedule whose endpoints run concurrent threads (the
// streams the MSCCL import's thread blocks use, schedule.hpp Thread),
// checked against the software reference like any other run.
//
// Each rank's nodes are laid on threads, a node after one of its
// dependencies (a path cover of the graph in topological order); a node's
// thread first WAITs for every dependency, then runs the node's body, then
// signals that it is done. A signal is a one-word local copy of a word onto
// itself (nothing in memory changes) with the node's own tag, which the
// NIC counts as an arrival; a dependent WAITs for that count. What a body is:
//   COMM_COLL_NODE  the registered algorithm for its collective type
//                   (keys allreduce_algorithm, ...) built for comm_size
//                   bytes a rank (flit_bytes bytes a word) on the network,
//                   or, for a process group of part of the ranks, on the
//                   shape mesh:Kx1 of its K ranks (member m, the m-th rank of
//                   the group ascending, runs the shape's rank m; its SENDs
//                   go to the members, on the network's routes); its program
//                   for the rank with memory and tags moved to the
//                   instance's own region and tag range; signals on every
//                   controller its SENDs used (each after them) and after
//                   its last WAIT.
//   COMM_SEND_NODE  one SEND of comm_size bytes to comm_dst, on controller 0,
//                   tag of the channel (source, destination, comm_tag); done
//                   when its last flit has left the NIC. It signals (on
//                   controller 0, after it) only where a dependent waits for
//                   it: a receive does not, nor a send right after it on its
//                   thread (controller 0 takes them in order); otherwise its
//                   finish is read from the message record.
//   COMM_RECV_NODE  a WAIT for the k-th message of its channel (arrivals are
//                   counted, so the k-th receive waits for k of them); no
//                   signal: a dependent waits for the same count. A receive
//                   waits for no send it depends on (its finish is reported
//                   no earlier), and a node right after a receive on its
//                   thread does not wait for it again.
//   COMP_NODE       duration_micros x clock_ghz x 1000 cycles on the rank's
//                   compute controller (the NIC controller after the
//                   communication ones): local copies of a scratch region
//                   onto itself, one word a cycle, the last one the signal.
//                   Compute nodes of a rank run one after another.
//   MEM_LOAD/STORE  the same as compute for their duration (zero: a signal).
//   METADATA_NODE   a signal only.
// Signals without other work run on a controller of their own (the last).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/topology.hpp"
#include "workload/workload.hpp"

namespace collnet::workload {

struct LowerOptions {
  double clock_ghz = 1.0;
  int flit_bytes = 4;
  double scale = 1.0;  // multiplies every comm_size (key workload_scale)
  /// Algorithm per collective type (keys allreduce_algorithm, ...).
  std::map<CollectiveType, std::string> algorithms;
  /// The scenario (the algorithms read their own keys from it).
  Params params;
};

/// What a node became, for the timing read back from the run.
struct LoweredNode {
  /// Done: `signals` arrivals of `signal_tag` at the rank (a receive: its
  /// channel's tag and its number on the channel).
  std::uint32_t signal_tag = 0;
  std::uint32_t signals = 1;
  std::int64_t compute_cycles = 0;  // COMP and MEM nodes: the cycles they take
  int collective = -1;              // COMM_COLL_NODE: index in Lowered::collectives
  int thread = 0;                   // the rank's thread that runs it (its lane in a timeline)
  /// A send no dependent waits for sends no signal: it is done when its
  /// message's last flit has left the NIC, the sent_index-th (from 0) of
  /// the messages tagged sent_tag that its rank sent.
  bool sent_side = false;
  std::uint32_t sent_tag = 0;
  std::uint32_t sent_index = 0;
};

/// One collective of the workload (the same instance on every rank of its group).
struct LoweredCollective {
  CollectiveType type = CollectiveType::all_reduce;
  std::string algorithm;
  std::string group;
  std::int64_t words_per_rank = 0;
  std::vector<int> ranks;                    // its process group's ranks, ascending
  std::vector<std::uint64_t> node_per_rank;  // the node id on each rank of the group, in `ranks`' order
};

struct Lowered {
  collectives::Schedule schedule;
  std::vector<std::vector<LoweredNode>> nodes;  // [rank][index in the rank's file]
  std::vector<LoweredCollective> collectives;
  /// Per rank: its nodes (indices in its file) in the topological order they were laid out.
  std::vector<std::vector<std::uint32_t>> orders;
  int compute_controller = 0;
  int signal_controller = 0;
  std::uint64_t messages = 0;  // point-to-point messages
};

/// The registered algorithms that implement `type` (empty: none runs it),
/// the default first.
const std::vector<std::string>& algorithms_for(CollectiveType type);
/// The key that chooses the algorithm of `type` ("allreduce_algorithm").
std::string algorithm_key_for(CollectiveType type);

/// Lowers `w` for `topology` (ranks = endpoints). Throws ConfigError
/// naming the key or the file and node: a collective type no algorithm
/// runs (or none runs on its group's shape), an algorithm that needs
/// barriers, memory or tags beyond the descriptor's fields.
Lowered lower(const Workload& w, const topology::Topology& topology, const LowerOptions& options);

}  // namespace collnet::workload
