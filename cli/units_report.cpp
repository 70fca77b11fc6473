#include "cli/units_report.hpp"

#include <fmt/format.h>

namespace collnet::cli {

void add_link_gbps_json(nlohmann::json& links, const Units& units) {
  links["mean_gbps"] = units.gbps(links.value("mean", 0.0));
  links["max_gbps"] = units.gbps(links.value("max", 0.0));
  if (!links.contains("per_link")) return;
  nlohmann::json gbps = nlohmann::json::object();
  for (const auto& [name, utilization] : links["per_link"].items()) gbps[name] = units.gbps(utilization.get<double>());
  links["gbps"] = std::move(gbps);
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
