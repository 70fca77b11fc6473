// Pipelined tree reductions and broadcasts as descriptor programs: the
// machinery that twotree-hier, twotree-flat and tree-single share
// (document 002, spec twotree-leafspine: pipelined reduce, composition).
//
// A collective is a list of **stages** run one after the other (reduce =
// local then global; broadcast = global then local; allreduce = local
// reduce, global reduce, global broadcast, local broadcast). A stage holds
// tree **instances** (one per group, or one among the representatives) that
// run at once with the same phase numbering. Phase numbers are global:
// stage s starts where stage s-1 ended (rounded up to even, so that the
// parity of a phase stays its color). tag = phase of every network SEND.
//
// Data of L elements (`elements`) per rank: tree t of a two-tree carries half
// t (T1 the first ceil(L/2) elements, T2 the rest; a single tree carries all
// L), cut into B blocks (`blocks`), block k of a half of H elements holding
// H/B elements, the first H mod B blocks one more. Blocks of 0 elements
// (H < B) are not sent at all.
//
// Memory of a process (words): [0, L) data (input, result); then, for every
// reduce stage s, two **slots** of L words at L*(1 + 2s + j), j = 0, 1. A
// child sends its partial block into slot j of its parent (j = its index
// among the parent's children in that stage: T1 children ascending, then T2),
// at the block's own offset, so no two messages ever write the same word.
// Fixed-order reduction (bit-identical float results): the parent, in
// ascending arrival phase, waits for the message (WAIT tag = its phase), then
// combines slot into data with a local SEND (dest = self, receive op = the
// reduction operator, tag = kLocalTagBase + arrival phase) and waits for that
// local copy before anything else. A broadcast stage copies blocks straight
// into the data region. A node's program lists, phase by phase, first its
// send of that phase, then its receive: a send only depends on arrivals of
// earlier phases, so no phase can deadlock (the transfers of one phase may
// form a cycle).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/descriptor.hpp"
#include "collectives/algorithms/leafspine_placement.hpp"
#include "collectives/schedule.hpp"
#include "collectives/algorithms/twotree.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

/// Tags of local combining copies: kLocalTagBase + the arrival phase. Network
/// phases stay below it.
inline constexpr std::uint32_t kLocalTagBase = 0x8000;

/// One pipelined tree (or two-tree) over some ranks: ranks[i] is position i.
struct TreeInstance {
  std::vector<int> ranks;
  PipelinedTrees shape;
};

enum class StageKind { reduce, broadcast };

struct Stage {
  StageKind kind = StageKind::reduce;
  std::string name;  // "local reduce", "global broadcast", ...
  std::vector<TreeInstance> instances;
};

/// One block of one tree over one edge.
struct Transfer {
  int sender = -1;    // rank
  int receiver = -1;  // rank
  int stage = 0;
  int tree = 0;       // 0 = T1 (first half), 1 = T2
  int block = 1;      // 1-based
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t phase = 0;  // global; = tag
  int color = 0;
  int slot = -1;            // reduce: the receiver's slot; -1 in a broadcast
  std::uint8_t route_hint = 0;
};

struct BlockRange {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
};

/// [tree][block-1]: the words block k of tree t covers.
std::vector<std::vector<BlockRange>> block_ranges(std::uint32_t elements, int trees, int blocks);

struct StagePhases {
  std::uint32_t first = 0;  // first global phase of the stage
  std::uint32_t count = 0;  // phases it spans (even)
};

/// Every transfer of every stage, in stage then phase order, and where each
/// stage sits in the global phase numbering.
///
/// Sequential stages (the document's composition, `pipelined` false): stage s
/// starts where stage s-1 ended. Stage pipelining (key stage_pipelining):
/// stage s starts at the smallest even phase at which every one of its sends
/// still comes after its sender holds that block from the earlier stages:
/// a transfer of block k of tree t sent by rank u in stage s has a phase
/// later than every transfer of block k of tree t that u receives in an
/// earlier stage (block k is reduced on the representative, or has arrived
/// there in the global broadcast). The stages then overlap; a rank may send
/// or receive more than once in a phase (the static checker counts it).
std::vector<Transfer> stage_transfers(const std::vector<Stage>& stages, std::uint32_t elements, int blocks,
                                      std::vector<StagePhases>* phases = nullptr, bool pipelined = false);

enum class Collective { reduce, broadcast, allreduce };

struct ReductionSetup {
  Collective collective = Collective::allreduce;
  ReceiveOp op = ReceiveOp::sum;
  DataType dtype = DataType::int64;
  std::uint32_t elements = 15;
  int blocks = 4;
  /// A BARRIER after every phase on every endpoint: the phases run in lock
  /// step, as the document's phase-time argument assumes (key phase_barriers).
  bool phase_barriers = false;
  /// Stage s+1 of block k starts as soon as block k is through stage s on
  /// the rank that sends it (key stage_pipelining; stage_transfers).
  bool stage_pipelining = false;
};

/// Initial data word `index` of `rank` (the schedule's own data): int64 sum /
/// min / max: a 64-bit hash; int64 product: the hash made odd (a product of
/// odd numbers never collapses to 0 mod 2^64); float64 sum / min / max:
/// k / 256 with |k| <= 2^20 (every sum of them is exact, so any order gives
/// the same bits); float64 product: +-2^e, e in {-1, 0, 1} (exact products).
Word reduction_input(const ReductionSetup& setup, int rank, std::uint32_t index);

/// The programs of `stages` on `topology` for the placed ranks, with the
/// route hints already in `transfers` (from stage_transfers + spine choice).
/// Expected results come from the collective's definition: reduce -> rank 0
/// holds the fold of every rank's data; broadcast -> every rank holds rank
/// 0's data; allreduce -> every rank holds the fold. Endpoints without a
/// process must keep all-zero memory. With setup.phase_barriers every
/// endpoint joins BARRIER j after its events of the j-th phase that has a
/// transfer, for every such phase.
Schedule tree_schedule(const topology::Topology& topology, const Placement& placement, const std::vector<Stage>& stages,
                       const std::vector<Transfer>& transfers, const ReductionSetup& setup, std::string algorithm);

}  // namespace collnet::collectives
