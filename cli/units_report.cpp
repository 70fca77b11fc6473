#include "cli/units_report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collnet::cli {

void add_link_gbps_json(nlohmann::json& links, const Units& units, const topology::Graph* graph,
                        const std::vector<double>* utilization) {
  const bool mixed = graph != nullptr && utilization != nullptr && utilization->size() == graph->link_count() &&
                     std::any_of(graph->links().begin(), graph->links().end(),
                                 [](const topology::Link& l) { return !l.bandwidth.unit(); });
  if (mixed) {
    // A link carries its utilization x its bandwidth flits a cycle.
    nlohmann::json gbps = nlohmann::json::object();
    double sum = 0, max = 0;
    for (std::size_t l = 0; l < utilization->size(); ++l) {
      const auto id = static_cast<topology::LinkId>(l);
      const double g = units.gbps((*utilization)[l] * graph->link(id).bandwidth.value());
      sum += g;
      max = std::max(max, g);
      gbps[graph->link_name(id)] = g;
    }
    links["mean_gbps"] = utilization->empty() ? 0.0 : sum / static_cast<double>(utilization->size());
    links["max_gbps"] = max;
    if (links.contains("per_link")) links["gbps"] = std::move(gbps);
    return;
  }
  links["mean_gbps"] = units.gbps(links.value("mean", 0.0));
  links["max_gbps"] = units.gbps(links.value("max", 0.0));
  if (!links.contains("per_link")) return;
  nlohmann::json gbps = nlohmann::json::object();
  for (const auto& [name, u] : links["per_link"].items()) gbps[name] = units.gbps(u.get<double>());
  links["gbps"] = std::move(gbps);
}

double link_gbps(const Units& units, const topology::Graph& graph) {
  const auto& links = graph.links();
  if (links.empty()) return units.gbps(1.0);
  const topology::Bandwidth b = links.front().bandwidth;
  const bool one = std::all_of(links.begin(), links.end(), [&](const topology::Link& l) { return l.bandwidth == b; });
  return units.gbps(one ? b.value() : 1.0);
}

CollectiveBandwidth collective_bandwidth(const Units& units, std::uint64_t cycles, bool completed,
                                         std::int64_t words_per_rank, const collectives::CollectiveKind& kind) {
  CollectiveBandwidth b;
  b.time_ns = units.ns(static_cast<double>(cycles));
  if (words_per_rank >= 0) b.bytes_per_rank = words_per_rank * units.flit_bytes;
  const double factor = bus_bandwidth_factor(kind.name, kind.ranks);
  if (factor >= 0) b.bus_factor = factor;
  if (!completed || cycles == 0 || words_per_rank < 0) return b;
  const double algbw = units.bytes_gbps(static_cast<double>(words_per_rank * units.flit_bytes), static_cast<double>(cycles));
  b.algorithm_gbps = algbw;
  if (factor >= 0) b.bus_gbps = algbw * factor;
  return b;
}

std::string gbps_text(const nlohmann::json& gbps) {
  return gbps.is_number() ? fmt::format("{:.3g} GB/s", gbps.get<double>()) : "n/a";
}

}  // namespace collnet::cli
