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
#include "topology/graph.hpp"

namespace collnet::cli {

/// `link_utilization`'s `mean_gbps`, `max_gbps` and, beside its
/// `per_link`, `gbps`: each link's flits a cycle in GB/s. With links of
/// different bandwidths (`graph` and `utilization`, each link's utilization
/// of its own rate, given) a link carries utilization x bandwidth flits a
/// cycle; the mean and max are of the links' GB/s.
void add_link_gbps_json(nlohmann::json& links, const Units& units, const topology::Graph* graph = nullptr,
                        const std::vector<double>* utilization = nullptr);
/// The run's `link_gbps`: the GB/s of a link of the topology's bandwidth when
/// all its links share one, else of a link of bandwidth 1.
double link_gbps(const Units& units, const topology::Graph& graph);

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
