// The software loader of the schedule engines: what a node's CPU writes into
// its NIC's schedule engine before a collective starts (issue 6, item 1:
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
// in the NIC (systemc/descriptor_source.cpp) and the benches
// (testbench/verilator/) all load through this one function.
//
// The register maps are one description, hls/engine_registers.yaml, rendered
// at build time into hls/schedule_engine_registers.hpp (build/generated/); the
// tables' sizes are documented in the
// engines' headers (hls/schedule_engine_a2a.hpp, _a2at.hpp, _hopgroup.hpp,
// _hd.hpp, _twotree.hpp);
// this loader validates every value against those sizes and throws
// ConfigError naming the scenario key, so an engine is never loaded with a
// value its registers would truncate.
//
//   engine                      algorithms                        limits
//   schedule_engine_a2a         a2a-spread, a2a-nd                1-4 dims, nct 1..4, N <= 65536
//   schedule_engine_a2at        a2a-optimal                       2-D, sides <= 64, N - 1 <= 256 offsets
//   schedule_engine_hopgroup    a2a-hopgroup (1-3 dims),          sides <= 64
//                               a2a-hopgroup-direct (1-4 dims)
//   schedule_engine_hd          hd-allreduce,                     boards:WxXxYxZ (sizes 1, 2, 4),
//                               hd-allreduce-conventional         L a multiple of A x boards
//   schedule_engine_twotree     twotree-hier, twotree-flat,       <= 65536 endpoints, <= 1024 SENDs
//                               tree-single                       per rank (route hint table)
// The all-to-all engines also need 2*N*m <= 2^20 words
// (collectives::message_words); the hd engine's memory layout is checked by
// collectives::build_hd_allreduce, which a run builds first.
// The two-tree engine is loaded from the procedure tables of the plan the
// reference schedule is built from (collectives/algorithms/tree_collective.hpp), with
// per entry the tree, the child slot, the pipeline level and the partner's
// endpoint, and the spine hint of every SEND; tree_schedule checks its
// memory and phase limits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectives/engine_params.hpp"
#include "collectives/params.hpp"
#include "hls/schedule_engine.hpp"
#include "topology/topology.hpp"

namespace collnet::driver {

/// The engines (collectives/engine_params.hpp); which one runs an algorithm
/// is the algorithm's registry entry (collectives::Algorithm::engine).
using EngineKind = collectives::EngineKind;

/// The RTL module / HLS header name of the engine ("schedule_engine_a2at").
std::string engine_block(EngineKind kind);
/// Short name used in reports ("a2at").
using collectives::engine_short_name;

/// One write of an engine's configuration port (cfg_we high for one cycle).
using EngineWrite = hls::EngineWrite;

/// Why the engine of `algorithm` cannot run this scenario: "" when it can,
/// else a ConfigError message naming the key ("key 'topology': ...").
/// Algorithms no engine covers get a message naming the covered ones.
std::string engine_refusal(const std::string& algorithm, const topology::Topology& topology, const Params& params);

/// The engine that runs this scenario, or nullopt (engine_refusal says why).
std::optional<EngineKind> engine_covering(const std::string& algorithm, const topology::Topology& topology,
                                          const Params& params);

/// The algorithms some engine covers, for error messages.
std::string covered_algorithms();

/// The writes that load `endpoint`'s collective into its engine and start
/// it (CONTROL last). Throws ConfigError naming the key when the scenario
/// exceeds the engine (engine_refusal).
std::vector<EngineWrite> engine_writes(const std::string& algorithm, const topology::Topology& topology,
                                       const Params& params, topology::EndpointId endpoint);

/// engine_writes of every endpoint, in endpoint order (the two-tree engine's
/// plan is built once for all of them).
std::vector<std::vector<EngineWrite>> engine_writes_all(const std::string& algorithm,
                                                        const topology::Topology& topology, const Params& params);

}  // namespace collnet::driver
