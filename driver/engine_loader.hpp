// The software loader of the schedule engines: what a node's CPU writes into
// its NIC's schedule engine before a collective starts (the spec:
// "from what software loads into it before the collective starts"). One
// function turns a scenario (topology, algorithm, its Params) and an endpoint
// into the engine's configuration-port writes, CONTROL last.
//
// Why a layer of its own (driver/, between collectives/ and systemc/): the
// writes are computed from the software reference (the A2AT offset table
// comes from collectives::a2at_offset_groups; which engine runs an algorithm
// and the values it is loaded with (message words, nct, options) come from
// the algorithm's registry entry, collectives::Algorithm::engine and
// engine_params, read with the algorithm's own key declarations: the loader
// compares no algorithm name and reads no key), which hls/ may not include (hls/CMakeLists.txt:
// a block sees only the descriptor word); and the Verilator benches need the
// same writes without SystemC. So the HLS engines and the Verilated engines
// in the NIC (systemc/nic/descriptor_source.cpp) and the benches
// (bench/verilator/) all load through this one function.
//
// Which engine runs an algorithm is its registry entry; everything about
// an engine (name, limits, refusal, writes, HLS class) is its entry in the
// engine registry (engine_catalog.hpp), whose limits come from the constants
// rendered from hls/engine_registers.yaml
// (build/generated/hls/schedule_engine_registers.hpp): this loader
// validates every value against them and throws ConfigError naming the
// scenario key, so an engine is never loaded with a value its registers
// would truncate. The all-to-all engines also need 2*N*m <= 2^20 words
// (collectives::message_words); the hd engine's memory layout is checked by
// collectives::build_hd_allreduce, which a run builds first. The two-tree
// engine is loaded from the procedure tables of the plan the reference
// schedule is built from (collectives/algorithms/tree_collective.hpp), with
// per entry the tree, the child slot, the pipeline level and the partner's
// endpoint, and the spine hint of every SEND; a run hands the schedule's plan
// over (Schedule::engine_params), so the plan is built once per run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "driver/engine_catalog.hpp"
#include "hls/schedule_engine.hpp"
#include "topology/topology.hpp"

namespace collnet::driver {

/// The RTL module / HLS header name of the engine named `engine`
/// ("a2at": "schedule_engine_a2at").
std::string engine_block(std::string_view engine);

/// Why the engine of `algorithm` cannot run this scenario: "" when it can,
/// else a ConfigError message naming the key ("key 'topology': ...").
/// Algorithms no engine covers get a message naming the covered ones.
std::string engine_refusal(const std::string& algorithm, const topology::Topology& topology, const Params& params);

/// The name of the engine that runs this scenario, or nullopt
/// (engine_refusal says why).
std::optional<std::string> engine_covering(const std::string& algorithm, const topology::Topology& topology,
                                          const Params& params);

/// The algorithms each engine covers and the engines' limits, for messages
/// ("a2a-spread, a2a-nd (schedule_engine_a2a); ... (limits: ...)").
std::string covered_algorithms();
/// The algorithms each engine covers: "a2a-spread, a2a-nd (schedule_engine_a2a); ...".
std::string engine_coverage();

/// The writes that load `endpoint`'s collective into its engine and start
/// it (CONTROL last). Throws ConfigError naming the key when the scenario
/// exceeds the engine (engine_refusal).
std::vector<EngineWrite> engine_writes(const std::string& algorithm, const topology::Topology& topology,
                                       const Params& params, topology::EndpointId endpoint);

/// engine_writes of every endpoint, in endpoint order (what they share is
/// computed once).
std::vector<std::vector<EngineWrite>> engine_writes_all(const std::string& algorithm,
                                                        const topology::Topology& topology, const Params& params);

/// Every endpoint's writes for the engine named `engine` (a run's one load: with the
/// run's schedule, whose builder may have computed the loader values, e.g.
/// the two-tree plan). Throws ConfigError naming the key when the engine
/// cannot run the scenario.
std::vector<std::vector<EngineWrite>> load_engine(std::string_view engine, const LoadRequest& request);

}  // namespace collnet::driver
