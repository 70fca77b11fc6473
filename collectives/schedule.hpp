// A schedule: for every endpoint an ordered program of descriptors, the
// memory each endpoint needs, its initial contents and what it must hold at
// the end. This is the golden model every other layer is checked against.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectives/descriptor.hpp"
#include "collectives/program.hpp"
#include "topology/graph.hpp"

namespace collnet::collectives {

using Word = std::uint64_t;
using topology::EndpointId;

/// Words an endpoint must hold at `offset` when the collective has finished.
struct Region {
  std::uint32_t offset = 0;
  std::vector<Word> words;
};

/// One of several descriptor programs an endpoint's NIC runs concurrently
/// (an MSCCL thread block, collectives/algorithms/msccl.hpp). Each thread
/// takes its descriptors in order, at most one a cycle, and blocks on its
/// own WAITs only; the threads share the node's controllers and arrivals.
struct Thread {
  Program program;  // ends with END
  /// Per descriptor of `program`: for a SEND, the tag of the message it
  /// forwards as that message arrives (cut-through at packet granularity:
  /// each packet leaves once the words it reads have been written by that
  /// message); 0 for every other descriptor. Empty: none forwards.
  std::vector<std::uint32_t> forwards;
};

/// The SEND destination that names the aggregation trees of the switches
/// (in-network collectives, collectives/algorithms/innet.cpp): a SEND to
/// kInNetwork contributes its `length` words at src_offset to the reduction
/// (or multicast) of its block, named by its tag and dst_offset, on
/// aggregation tree `route_hint` (topology/aggregation.hpp); the result
/// lands at dst_offset of the receivers the schedule's InNetwork names, as
/// one arrival of the tag.
inline constexpr std::uint32_t kInNetwork = 0xFFFF;

/// What the switches do with the SENDs to kInNetwork (software loads it into
/// their aggregation engines with the collective).
struct InNetwork {
  enum class Kind : std::uint8_t {
    allreduce,  // every endpoint contributes; every endpoint receives the reduction
    reduce,     // every endpoint contributes; `root` receives the reduction
    bcast,      // `root` contributes; every other endpoint receives its words
  };
  Kind kind = Kind::allreduce;
  EndpointId root = 0;              // reduce, bcast
  ReceiveOp op = ReceiveOp::sum;    // sum, max or min of int64 words (the engines' OP)
  std::uint32_t block_words = 1;    // words of a reduction packet (the engines' BLOCK_WORDS, 1..32)
  int trees = 1;                    // aggregation trees the SENDs' route hints name (0..trees-1)
  /// The endpoints that contribute to (receive) each tag.
  [[nodiscard]] bool contributes(EndpointId e) const { return kind != Kind::bcast || e == root; }
  [[nodiscard]] bool receives(EndpointId e) const {
    return kind == Kind::allreduce || (kind == Kind::reduce ? e == root : e != root);
  }
};

struct Schedule {
  std::string algorithm;
  std::vector<Program> programs;      // one per endpoint, each ends with END
  /// Where an endpoint runs concurrent threads (the cycle model's reference
  /// source runs these instead of programs[e]): index e, empty for an
  /// endpoint without. Empty: every endpoint runs programs[e]. programs[e]
  /// stays one valid sequential order of the same transfers (the
  /// functional executor, the static checks and the schedule engines use it).
  std::vector<std::vector<Thread>> threads;
  std::uint32_t memory_words = 0;     // words of memory every endpoint needs (the largest, see below)
  /// Where endpoints need different amounts: the words of endpoint e at
  /// index e (none above memory_words). Empty: memory_words for every one.
  std::vector<std::uint32_t> node_memory_words;
  int controllers = 1;                // NIC controllers the programs address
  /// The algorithm's lower bound on completion, in flit times (payload
  /// words), or -1 where the document gives none.
  std::int64_t lower_bound = -1;
  /// Words per rank where the message size comes from the key `elements`
  /// (tree collectives, hd-allreduce), -1 where it is message_flits.
  std::int64_t elements = -1;
  /// Initial memory: word at `address` of endpoint `e` (0 where unused).
  std::function<Word(EndpointId e, std::uint32_t address)> initial;
  /// What each endpoint must hold at the end (computed independently of the
  /// programs: from the definition of the collective, not from the schedule).
  std::function<std::vector<Region>(EndpointId e)> expected;
  /// The loader values of the algorithm's schedule engine when the builder
  /// computed them on the way (the two-tree plan); empty: the loader reads
  /// them from the scenario (Algorithm::engine_params).
  std::any engine_params;
  /// The in-network collective the SENDs to kInNetwork take part in; unset:
  /// the schedule has none.
  std::optional<InNetwork> innet;

  [[nodiscard]] std::size_t endpoints() const { return programs.size(); }
  /// Words of memory endpoint e has.
  [[nodiscard]] std::uint32_t memory_of(EndpointId e) const {
    return node_memory_words.empty() ? memory_words : node_memory_words[static_cast<std::size_t>(e)];
  }
};

/// The payload word number `index` of the data that `origin` sends to
/// `target` (D(O->T) in the specs): a hash, so that every word of a run is
/// distinct and a misplaced or duplicated word is always caught.
constexpr Word payload_word(std::uint64_t origin, std::uint64_t target, std::uint64_t index) {
  std::uint64_t z = (origin << 42) ^ (target << 21) ^ index ^ 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace collnet::collectives
