// `collnet run` of several jobs at once (key `jobs`): each job a registered
// algorithm on endpoints of its own, all on one network
// (docs/guide/workloads.md, "Several jobs on one network").
//
//   jobs:
//     - algorithm: ring-allreduce
//       endpoints: 0-7
//       elements: 512
//     - algorithm: pairwise-alltoall
//       endpoints: 8-15
//       message_flits: 16
//
// A job's keys are its algorithm's (elements, message_flits, ...); the
// scenario's other keys (topology, the router, NIC and run keys, traffic)
// are the network's and every job's. Its `endpoints` (ranges "0-7,12", or a
// list) are its ranks in the order given: rank r runs on the r-th. Its
// algorithm is built for `shape` (a topology value with as many endpoints as
// the job has; default mesh:Kx1 for K endpoints) and its SENDs are then
// addressed to the endpoints of the ranks, on the network's own routes (the
// shape's route hints are dropped). Jobs never share an endpoint, so each
// NIC runs one job's program; the jobs meet only in the routers and links.
//
// The run reports each job's cycles (from 0 to the last of its endpoints'
// finish, inclusive), its data check, and the same job run alone on the same
// network and endpoints (the other endpoints idle): alone_cycles and
// slowdown = cycles / alone_cycles.
#pragma once

#include <string>
#include <vector>

#include "cli/run.hpp"
#include "collectives/keys.hpp"
#include "collectives/params.hpp"

namespace collnet::cli {

/// The key `jobs` (a YAML list of maps; empty: none).
const Key& jobs_key();
/// The key names a job's map reads besides its algorithm's keys.
const std::vector<std::string>& job_own_keys();

/// Every problem of a scenario with `jobs`, each naming the key and job.
std::vector<std::string> jobs_run_problems(const Params& params);

RunOutcome run_jobs_scenario(const Params& params, const std::string& vcd_path,
                             const systemc::RunProgressFn& progress = {}, const TraceRequest& trace = {});

}  // namespace collnet::cli
