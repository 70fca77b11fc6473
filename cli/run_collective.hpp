// `collnet run` for collectives: when the scenario names an
// `algorithm`, the algorithm's descriptor programs run on the cycle-accurate
// network with one NIC per endpoint (systemc/run/collective_run.hpp). The key
// `compare` runs further algorithms on the same scenario and prints them side
// by side. Exit status: 0 ok, 1 a data check failed, 3 a run deadlocked (or
// did not finish within max_cycles).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

#include "collectives/params.hpp"
#include "collectives/units.hpp"
#include "cli/run.hpp"
#include "systemc/run/collective_run.hpp"

namespace collnet::cli {

/// Whether `key` is read only by synthetic-traffic runs (it selects the
/// synthetic default scenario, and a collective scenario rejects it).
bool synthetic_only_key(const std::string& key);

/// The synthetic keys that background traffic reads beside a collective or
/// a workload (key `traffic` turns it on; systemc::BackgroundTraffic).
const std::vector<std::string>& background_keys();

/// The JSON fields and text lines of one run of the cycle model that is no
/// single algorithm (several jobs): as a collective run's, without a
/// collective operation; into `out` (json replaced, text appended).
void report_model_run(const systemc::CollectiveResult& r, const systemc::RouterConfig& rc, const Units& units,
                      RunOutcome& out);

/// Every problem of a collective run's keys (synthetic-only keys, the
/// algorithm's and the compared algorithms' keys, the models' keys).
std::vector<std::string> collective_run_problems(const Params& params);

/// The threads of a run's speed line: "1 thread", "2 threads", or with the
/// share of the calendar's cycles the main thread evaluated alone
/// (WakeScheduler: a worker that had to wait for a core).
std::string threads_text(int threads, std::uint64_t solo_cycles, std::uint64_t calendar_cycles);

/// `vcd_path` empty: no waveform (a waveform is written for the first
/// algorithm only).
/// `trace`: the message trace (and links file) of the first algorithm too.
RunOutcome run_collective_scenario(const Params& params, const std::string& vcd_path,
                                   const systemc::RunProgressFn& progress = {}, const TraceRequest& trace = {});

/// Every problem of a workload run's keys (workload: chakra:PREFIX):
/// algorithm or compare beside it, the workload keys, the network, NIC and
/// run keys as for a collective run of the workload's algorithms.
std::vector<std::string> workload_run_problems(const Params& params);

/// `collnet run` of a workload (docs/guide/workloads.md): the traces read
/// and checked, lowered onto descriptor programs (workload/lower.hpp), run
/// on the cycle model, timed per node (workload/timing.hpp). `trace` also
/// carries --timeline-json. Exit status as for a collective.
RunOutcome run_workload_scenario(const Params& params, const std::string& vcd_path,
                                 const systemc::RunProgressFn& progress = {}, const TraceRequest& trace = {});

/// A run of a schedule given by the caller (the Python module's
/// run_schedule) instead of an algorithm's: `params` holds the network, NIC
/// and run keys (no `algorithm`; checked like a collective run's, every
/// problem naming its key), `name` is reported as the algorithm, `build`
/// makes the schedule for the topology. The descriptors come from the
/// reference programs (no schedule engine covers a given schedule).
/// `vcd_path`, `progress` and `trace` as for run_collective_scenario.
RunOutcome run_given_schedule(const Params& params, const std::string& name,
                              const std::function<collectives::Schedule(const topology::Topology&)>& build,
                              const std::string& vcd_path = "", const systemc::RunProgressFn& progress = {},
                              const TraceRequest& trace = {});

}  // namespace collnet::cli
