// The physical figures of the run reports (docs/guide/run.md, "Physical
// units"): times in ns beside cycles, rates in GB/s beside flits per cycle,
// and a collective's algorithm and bus bandwidth as nccl-tests define them
// (collectives/units.hpp). Computed from the cycle model's figures and the
// keys clock_ghz and flit_bytes only.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "collectives/algorithm.hpp"
#include "collectives/units.hpp"

namespace collnet::cli {

/// `link_utilization`'s `mean_gbps`, `max_gbps` and, beside its
/// `per_link`, `gbps`: each link's flits a cycle in GB/s.
void add_link_gbps_json(nlohmann::json& links, const Units& units);

/// A collective's bandwidths (null where not defined: no words a rank, a
/// run that did not finish, a collective without a bus-bandwidth factor).
struct CollectiveBandwidth {
  double time_ns = 0;
  nlohmann::json bytes_per_rank;  // words a rank x flit_bytes
  nlohmann::json algorithm_gbps;  // bytes a rank / time
  nlohmann::json bus_factor;      // nccl-tests' factor of the collective over its ranks
  nlohmann::json bus_gbps;        // algorithm bandwidth x factor
};

CollectiveBandwidth collective_bandwidth(const Units& units, std::uint64_t cycles, bool completed,
                                         std::int64_t words_per_rank, const collectives::CollectiveKind& kind);

/// "1.5 GB/s" (3 significant digits), "n/a" for null.
std::string gbps_text(const nlohmann::json& gbps);

}  // namespace collnet::cli
