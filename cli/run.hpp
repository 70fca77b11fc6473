// `collnet run`: the cycle-accurate network (systemc/) under synthetic
// traffic (key `traffic`) or running a collective on the NICs (key
// `algorithm`, cli/run_collective.hpp). Keys: synthetic_keys(),
// router_keys() and the NIC/collective keys (listed by `collnet list`); with
// no scenario file, the embedded defaults below.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/params.hpp"
#include "systemc/kernel/run_progress.hpp"

namespace collnet::systemc {
struct RouterConfig;
struct DeadlockReport;
struct LinkLatencyCount;
unsigned process_cpus();  // systemc/run/synthetic.hpp
}

namespace collnet::topology {
class Graph;
class Topology;
}

namespace collnet::cli {

/// The JSON object `link_utilization.node_positions`: every node's name (as
/// in `per_link`) and its drawing coordinates [x, y], when the topology gives
/// every node coordinates (fat trees, dragonflies, graph files with `at` on
/// every node); null otherwise (grids, leaf/spine and boards have their own
/// drawings in `collnet plot --links`).
nlohmann::json node_positions_json(const topology::Graph& graph);

/// The JSON object `link_utilization.per_link` of both kinds of run: each
/// link's utilization by its name, and `node_positions` beside it into
/// `into` when the graph gives every node coordinates.
void add_per_link_json(nlohmann::json& into, const topology::Graph& graph, const std::vector<double>& utilization);

/// The speed fields both kinds of run report (docs/reference/json.md):
/// wall and CPU seconds, elaboration, router cycles a second, threads and
/// the CPUs the process may use, the kernel's solo and calendar cycles.
template <typename Result>
void add_speed_json(nlohmann::json& j, const Result& r) {
  j["sim_seconds"] = r.sim_seconds;
  j["sim_cpu_seconds"] = r.sim_cpu_seconds;
  j["elaboration_seconds"] = r.elaboration_seconds;
  j["router_cycles_per_second"] = r.router_cycles_per_second;
  j["threads"] = r.threads;
  j["cpus"] = systemc::process_cpus();
  j["solo_cycles"] = r.solo_cycles;
  j["calendar_cycles"] = r.calendar_cycles;
}

/// The JSON object `router` of both kinds of run: every router key as run.
nlohmann::json router_json(const systemc::RouterConfig& rc);

/// The JSON array `link_latencies` of both kinds of run: the network links
/// by latency, [{"latency": L, "links": n}, ...], shortest first.
nlohmann::json link_latencies_json(const std::vector<systemc::LinkLatencyCount>& counts);
/// The report's link latency: "1", or where the links differ "1 (12 links),
/// 10 (6), 100 (6)".
std::string link_latency_text(const std::vector<systemc::LinkLatencyCount>& counts, int configured);
/// The report line for links of another bandwidth than 1: "  link
/// rates        1 (48 links), 1/2 (24) flits per cycle\n"; empty where
/// every link has bandwidth 1.
std::string link_bandwidth_text(const std::vector<systemc::LinkLatencyCount>& counts);
/// What bounds a VC over a link whose buffers do not cover its credit round
/// trip (RouterConfig::credit_round_trip), as the reports word it.
inline constexpr const char* kCreditLoopRule =
    "a VC carries at most buffer_flits / credit round trip (2 x latency + pipeline) flits per cycle";
/// The report line for links whose credit round trip the VC buffers do not
/// cover (buffer_sizing fixed): a VC carries at most its buffer's flits per
/// round trip there. Empty where every link is covered.
std::string credit_loop_text(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc);
/// The JSON field `credit_loop` of both kinds of run: the links of
/// credit_loop_text, [{"latency": L, "links": n, "buffer_flits": B,
/// "round_trip": R, "vc_flits_per_cycle": B / R}, ...], or null where every
/// link is covered.
nlohmann::json credit_loop_json(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc);
/// The words of a run's JSON `credit_loop` for a summary: "0.039 on the 72
/// links of latency 100 (buffer_flits 203 keeps every link busy)"; empty for null.
std::string credit_loop_words(const nlohmann::json& credit_loop);
/// The report line for links whose VC buffers buffer_sizing round-trip made
/// deeper than buffer_flits ("  buffers  ..."), empty where none is.
std::string buffer_sizing_text(const std::vector<systemc::LinkLatencyCount>& counts, const systemc::RouterConfig& rc);

/// The report's count of the network: "64 endpoints, 64 routers" where every
/// node is a router with its endpoint (meshes, tori, graph files), "16
/// endpoints, 8 switches" where the endpoints are servers attached to
/// switches (fat trees, leaf/spine, dragonflies).
std::string network_size_text(const topology::Topology& topology);
/// The number of nodes that are not servers: the switches (or routers).
std::size_t switch_count(const topology::Graph& graph);
/// The report's VC-class words for the key `dateline`: ", dateline on|off"
/// on a torus, ", VC classes off (any VC)" where a non-torus run merges its
/// routing's VC classes (dateline: false), nothing otherwise.
std::string dateline_text(const systemc::RouterConfig& rc, const topology::Topology& topology);
/// The JSON object `deadlock` and the report lines of a network deadlock,
/// for both kinds of run. The report calls it a deadlock when the blocked
/// VCs form a waiting cycle, else a stall (the flits wait for something
/// outside the router buffers, e.g. a NIC that stopped receiving).
nlohmann::json deadlock_json(const systemc::DeadlockReport& d);
std::string deadlock_text(const systemc::DeadlockReport& d);

/// Embedded default of `collnet run`: A2AT next to the A2A baseline on an
/// 8x8 torus, every other key at its default (the scenario `collnet check`
/// checks with no keys).
extern const char* const kDefaultRunScenario;
/// Embedded default when an override names a synthetic-traffic key: uniform
/// random traffic on an 8x8 torus at a moderate load.
extern const char* const kDefaultSyntheticScenario;

/// The scenario of `collnet run`: the keys of the file at `path` (may be
/// empty) and the `--set key=value` overrides, completed by one rule that
/// treats both alike: with `algorithm`, that collective from the keys'
/// defaults; else with a synthetic-traffic key, synthetic traffic; else the
/// embedded default collective, the given keys replacing its own.
Params load_run_scenario(const std::string& path, const std::vector<std::string>& overrides);
/// The same, adding the problems of the file and the overrides to `problems`.
Params load_run_scenario(const std::string& path, const std::vector<std::string>& overrides,
                         std::vector<std::string>& problems);

/// The rule above applied to keys already loaded (a sweep point).
Params complete_run_scenario(const Params& given);

/// Every problem of a run's scenario (collective or synthetic), each naming
/// its key; checked before anything is built.
std::vector<std::string> run_problems(const Params& params);

struct RunOutcome {
  nlohmann::json json;  // contract fields: see README "collnet run"
  std::string text;
  int exit_status = 0;  // 0 ok, 1 a delivered flit or the data check failed, 3 deadlock
  /// Ended early by a stop request (SIGINT, SIGTERM): what was interrupted
  /// and at which cycle ("a2a-optimal on torus:8x8 at cycle 812"); empty
  /// when the run was not interrupted. The caller sets the exit status.
  std::string interrupted;
};

/// `collnet run --trace FILE.csv [--trace-links]` (docs/guide/traces.md):
/// path empty, no trace.
struct TraceRequest {
  std::string path;
  bool links = false;
  // How problems name the two: the options of `collnet run`, or the
  // arguments of the Python module's run().
  std::string path_option = "--trace";
  std::string links_option = "--trace-links";
  /// Workload runs: the nodes' timeline as Chrome trace-event JSON (empty: none).
  std::string timeline_path;
  std::string timeline_option = "--timeline-json";
};

/// The problems of a trace request, each naming its option: --trace-links
/// without --trace, an output file that cannot be written, a
/// synthetic-traffic scenario (only collective runs are traced).
std::vector<std::string> trace_problems(const Params& params, const TraceRequest& trace);

/// `vcd_path` empty: no waveform.
RunOutcome run_network(const Params& params, const std::string& vcd_path,
                       const systemc::RunProgressFn& progress = {}, const TraceRequest& trace = {});

}  // namespace collnet::cli
