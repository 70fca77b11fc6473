// The registry of collective algorithms, by name: the one place that says
// what an algorithm is. Each entry carries everything the other layers need,
// so that no layer outside collectives/ compares an algorithm's name or reads
// its keys:
//   - its scenario keys, declared once as typed Keys (keys.hpp): they read,
//     validate and document the scenario (`collnet list`, README tables,
//     unknown-key and bad-value messages);
//   - the schedule builder;
//   - the NIC defaults (controller dispatch, what `controllers` defaults to);
//   - the name of the schedule engine that runs it (its entry in the engine
//     registry, driver/engines/NAME.cpp) and the typed values its loader
//     needs, a struct the algorithm's header declares;
//   - or, for a receipt-driven collective (tree-bcast, document 003), the
//     local view that software loads into each NIC's forwarding-rule block.
#pragma once

#include <any>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/keys.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

/// How the NIC hands an algorithm's SENDs to its controllers by default
/// (key `dispatch: auto`).
enum class Dispatch : std::uint8_t {
  named,      // the descriptor's controller field (per-dimension NICs)
  next_idle,  // spec a2a-optimal: "an idle controller takes the next queued send"
};

struct NicDefaults {
  Dispatch dispatch = Dispatch::named;
  /// What the key `controllers` defaults to, for the documentation; the
  /// number is Schedule::controllers.
  std::string controllers = "1";
};

/// What software loads into one node's NIC for a receipt-driven broadcast
/// (spec tree-broadcast): the NIC runs no program; on each receipt it asks
/// its forwarding-rule block (hls/tree_bcast_rule.hpp) which ports to
/// forward to. Ports are the node's link numbers in the topology's graph.
struct ForwardingNode {
  bool originates = false;          // the logical root: asks the rule with no sender at start
  std::int32_t parent_port = -1;    // port of the link to the parent; -1 at the physical root
  std::vector<std::int32_t> child_ports;
  /// port -> the tree neighbour on it (topology::kNone: no link); the NIC
  /// addresses a forward to this endpoint and knows an arrival's port by it.
  std::vector<topology::EndpointId> port_neighbour;
  std::uint32_t message_words = 0;  // the length of every forwarded SEND
};

/// What one endpoint of a run holds, for the size check before the run
/// (systemc/network/memory_estimate.hpp): words of node memory (the mean over the
/// endpoints where they differ, Schedule::node_memory_words), SENDs in its
/// program, and the keys that set them (named when a scenario is refused as
/// too big).
struct Footprint {
  std::uint64_t words = 0;
  std::uint64_t sends = 0;
  std::string keys;
};

/// The topologies an algorithm runs on, declared with it and checked before
/// anything of it runs (require_topology): a scenario that pairs it with
/// another topology is refused naming the key 'topology', the algorithm, the
/// topology and the accepted topologies. Kinds are the prefixes of the
/// topology forms (topology::topology_forms(): "torus", "mesh", "tree",
/// "boards", "leafspine", "leafspine-wiring", "graph"); no kind: every
/// topology. Further needs (a power-of-two endpoint count, ...) stay with
/// the builder, which refuses them naming the key.
struct TopologySupport {
  std::vector<std::string> kinds;
  int min_dims = 0;  // torus and mesh: the dimensions it runs on (0: any)
  int max_dims = 0;

  static TopologySupport any() { return {}; }
  static TopologySupport only(std::vector<std::string> kinds) { return {std::move(kinds), 0, 0}; }
  /// A mesh or torus of min_dims to max_dims dimensions.
  static TopologySupport grid(int min_dims, int max_dims) { return {{"torus", "mesh"}, min_dims, max_dims}; }
  [[nodiscard]] bool accepts(const topology::Topology& topology) const;
  /// The accepted topologies for messages, e.g. "a 2-D mesh or torus
  /// (torus:NXxNY, mesh:NXxNY)"; "any" for every topology.
  [[nodiscard]] std::string describe() const;
};

/// The kind of a topology: the prefix of its form ("torus" for torus:8x8).
std::string topology_kind(const topology::Topology& topology);

/// The data size of a run in words a rank: the length of the collective's
/// vector on one rank. `elements` = L: L (the reductions, broadcasts and
/// gathers); an all-to-all of n ranks with message_flits = M: n M (a block
/// for every rank, its own included); tree-bcast: message_flits; msccl: its
/// file's nchunksperloop chunks of chunk_words. `collnet run` reports it and
/// runs each `compare` baseline on the main run's, through the baseline's own
/// key (words_per_rank, apply_words_per_rank).
struct DataSize {
  /// The key that sets it ("elements", "message_flits"); empty where no key
  /// alone does (msccl: its file and chunk_words), so that a comparison
  /// cannot change it.
  std::string key;
  /// The key's value as the builder reads it (its default where unset).
  std::function<std::int64_t(const topology::Topology&, const Params&)> value;
  /// Words a rank per unit of the key: the ranks of an all-to-all; unset: 1.
  std::function<std::int64_t(const topology::Topology&, const Params&)> per_unit;
  /// Where `key` is empty: the words a rank, -1 where the run has none (an
  /// msccl program of coll "custom").
  std::function<std::int64_t(const topology::Topology&, const Params&)> words;
  /// Where `key` is empty: how the scenario sets it, for the reports ("8
  /// chunks of chunk_words=16"); otherwise the report says key=value.
  std::function<std::string(const topology::Topology&, const Params&)> text;

  /// Words a rank = the key's value, read by `key` (the reductions' `elements`).
  static DataSize of_key(const Key& key);
};

/// The collective a run computes and over how many ranks, for the
/// nccl-tests bus bandwidth (collectives/units.hpp, bus_bandwidth_factor).
struct CollectiveKind {
  /// allreduce, allgather, reduce-scatter, alltoall, broadcast, reduce; ""
  /// where the run is none of them (an msccl program of coll "custom").
  std::string name;
  std::int64_t ranks = 0;  // the ranks taking part (not every endpoint is one)
};

struct Algorithm {
  std::string name;         // contract: the value of the scenario key `algorithm`
  std::string document;     // "000", "001", ... (the seed it implements)
  std::string description;
  std::string topologies;   // which topologies it accepts, for humans
  /// Which topologies it runs on, checked: the registry runs every function
  /// below only on an accepted topology (require_topology).
  TopologySupport supports;
  std::vector<Key> keys;    // algorithm parameters it reads (besides common_keys())
  /// Builds the schedule; throws ConfigError for a topology or parameter it
  /// does not support, naming the key and the accepted values.
  std::function<Schedule(const topology::Topology&, const Params&)> build;
  NicDefaults nic;
  /// The name of the schedule engine that runs it ("": the reference
  /// programs only): its entry in the engine registry (driver/engines/).
  std::string engine;
  /// The engine's loader values, read from the scenario (ConfigError naming
  /// the key on bad input): the struct the algorithm's header declares for
  /// its engine (A2atEngineParams, ...), which that engine's loader reads.
  /// Set whenever `engine` is.
  std::function<std::any(const topology::Topology&, const Params&)> engine_params;
  /// Set for a receipt-driven collective: every endpoint's ForwardingNode
  /// (ConfigError naming the key on bad input). The NIC's rule block then
  /// replaces the schedule engine (key schedule_engine, nic_blocks); the
  /// schedule stays the reference for the data check.
  std::function<std::vector<ForwardingNode>(const topology::Topology&, const Params&)> forwarding_rule;
  /// One endpoint's memory and program size, from the keys alone (no
  /// schedule built; a lower estimate where the layout depends on the plan).
  std::function<Footprint(const topology::Topology&, const Params&)> footprint;
  /// Its data size (every algorithm declares one).
  DataSize size;
  /// Which collective it computes on this scenario, over how many ranks
  /// (every algorithm declares one).
  std::function<CollectiveKind(const topology::Topology&, const Params&)> collective;
};

/// The words a rank of `algorithm`'s run of this scenario (DataSize), -1
/// where it has none. Throws ConfigError naming the key as the builder does.
std::int64_t words_per_rank(const Algorithm& algorithm, const topology::Topology& topology, const Params& params);
/// How the scenario sets them, for the reports: "elements=128",
/// "message_flits=8", "8 chunks of chunk_words=16".
std::string words_per_rank_text(const Algorithm& algorithm, const topology::Topology& topology, const Params& params);
/// Sets `algorithm`'s size key in `params` (the scenario as given, for this
/// algorithm) so that it runs `words` words a rank: a `compare` baseline on
/// the size of the main run, of algorithm `main`. Throws
/// ConfigError naming the key, the words and why where none does: an
/// all-to-all whose ranks do not divide them, an algorithm whose size no key
/// sets (msccl) running another size, or the key set in the scenario to
/// another size (the key is not the main algorithm's).
void apply_words_per_rank(const Algorithm& algorithm, const topology::Topology& topology, Params& params,
                          std::int64_t words, const Algorithm& main);

/// `algorithm`'s collective on this scenario (CollectiveKind); throws
/// ConfigError naming the key as the builder does.
CollectiveKind collective_kind(const Algorithm& algorithm, const topology::Topology& topology, const Params& params);

const std::vector<Algorithm>& algorithms();
/// Throws ConfigError ("key 'topology': algorithm 'A' does not run on 'T';
/// accepted topologies: ...") unless `algorithm.supports` accepts `topology`.
void require_topology(const Algorithm& algorithm, const topology::Topology& topology);
/// Throws ConfigError naming `key` (default 'algorithm') and listing the accepted names.
const Algorithm& find_algorithm(std::string_view name, std::string_view key = "algorithm");
/// nullptr for an unknown name.
const Algorithm* lookup_algorithm(std::string_view name);
/// Every algorithm name, registry order.
std::vector<std::string> algorithm_names();

/// Keys shared by every algorithm: topology, algorithm, message_flits,
/// controllers, dispatch.
const std::vector<Key>& common_keys();
const Key& topology_key();
const Key& algorithm_key();
/// Payload words (= payload flits) of one message; limits per algorithm:
/// message_words (a2a_common.hpp).
const Key& message_flits_key();
/// Flits per packet, a key of the network model (systemc/network/model_keys.hpp)
/// that the a2a-optimal builder reads too (its pacing holds are per packet).
const Key& packet_flits_key();
/// NIC controllers per node (the NIC has at most 8).
const Key& controllers_key();
const Key& dispatch_key();

}  // namespace collnet::collectives
