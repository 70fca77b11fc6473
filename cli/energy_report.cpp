#include "cli/energy_report.hpp"

#include <fmt/format.h>

namespace collnet::cli {

namespace {
nlohmann::json ratio(double num, double den) { return den > 0 ? nlohmann::json(num / den) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json energy_json(const EnergyCounts& c, const EnergySetting& setting, const Units& units,
                           double collective_bytes) {
  const Energy e = compute_energy(c, setting, units);
  nlohmann::json j;
  j["technology"] = {{"file", setting.technology.file},
                     {"name", setting.technology.name},
                     {"node_nm", setting.technology.node_nm}};
  j["link_mm"] = setting.link_mm;
  j["nic_link_mm"] = setting.nic_link_mm;
  j["total_pj"] = e.total_pj;
  j["dynamic_pj"] = e.dynamic_pj;
  j["static_pj"] = e.static_pj;
  // Dynamic energy per flit crossing a router-to-router link (with its
  // share of router, NIC-link and NIC events).
  j["per_flit_hop_pj"] = ratio(e.dynamic_pj, static_cast<double>(c.network_link_flits));
  j["per_bit_delivered_pj"] = ratio(e.total_pj, static_cast<double>(c.delivered_flits) * flit_bits(units));
  j["average_power_mw"] = ratio(e.total_pj, e.time_ns);  // pJ / ns = mW
  j["collective_bytes"] = collective_bytes > 0 ? nlohmann::json(collective_bytes) : nlohmann::json(nullptr);
  j["pj_per_byte"] = ratio(e.total_pj, collective_bytes);
  nlohmann::json parts = nlohmann::json::object();
  for (const auto& k : e.components)
    parts[k.name] = {{"dynamic_pj", k.dynamic_pj}, {"static_pj", k.static_pj}, {"total_pj", k.dynamic_pj + k.static_pj}};
  j["by_component"] = parts;
  j["events"] = {{"buffer_writes", c.buffer_writes},
                 {"buffer_reads", c.buffer_reads},
                 {"crossbar_traversals", c.buffer_reads},
                 {"switch_allocations", c.buffer_reads},
                 {"vc_allocations", c.vc_allocations},
                 {"network_link_flits", c.network_link_flits},
                 {"nic_link_flits", c.nic_link_flits},
                 {"descriptors", c.descriptors},
                 {"dma_words", c.dma_words},
                 {"delivered_flits", c.delivered_flits}};
  j["area"] = {{"router_mm2", e.router_area_um2 * 1e-6},
               {"link_mm2", e.link_area_um2 * 1e-6},
               {"by_component",
                {{"buffer_mm2", e.components[0].area_um2 * 1e-6},
                 {"crossbar_mm2", e.components[1].area_um2 * 1e-6},
                 {"link_mm2", e.components[4].area_um2 * 1e-6}}}};
  return j;
}

std::string energy_pj_text(double pj) {
  if (pj < 1e3) return fmt::format("{:.3g} pJ", pj);
  if (pj < 1e6) return fmt::format("{:.3g} nJ", pj / 1e3);
  if (pj < 1e9) return fmt::format("{:.3g} uJ", pj / 1e6);
  return fmt::format("{:.3g} mJ", pj / 1e9);
}

std::string energy_text(const nlohmann::json& j) {
  const auto number = [](const nlohmann::json& v, const char* format) {
    return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : std::string("n/a");
  };
  std::string t = fmt::format("  energy            {} (dynamic {}, static {}) with {} ({})\n",
                              energy_pj_text(j["total_pj"].get<double>()), energy_pj_text(j["dynamic_pj"].get<double>()),
                              energy_pj_text(j["static_pj"].get<double>()),
                              j["technology"]["name"].get<std::string>(), j["technology"]["file"].get<std::string>());
  t += fmt::format("                    {} pJ per flit-hop, {} pJ per bit delivered, {} mW average{}\n",
                   number(j["per_flit_hop_pj"], "{:.4g}"), number(j["per_bit_delivered_pj"], "{:.3g}"),
                   number(j["average_power_mw"], "{:.4g}"),
                   j["pj_per_byte"].is_number() ? fmt::format(", {:.3g} pJ per byte of the collective",
                                                              j["pj_per_byte"].get<double>())
                                                : std::string());
  const double total = j["total_pj"].get<double>();
  std::string parts;
  for (const auto& [name, part] : j["by_component"].items())
    parts += fmt::format("{}{} {:.1f} %", parts.empty() ? "" : ", ", name,
                         total > 0 ? 100.0 * part["total_pj"].get<double>() / total : 0.0);
  t += "  energy parts      " + parts + "\n";
  t += fmt::format("  area              routers {:.4g} mm2 (buffers {:.4g}, crossbars {:.4g}), links {:.4g} mm2\n",
                   j["area"]["router_mm2"].get<double>(), j["area"]["by_component"]["buffer_mm2"].get<double>(),
                   j["area"]["by_component"]["crossbar_mm2"].get<double>(), j["area"]["link_mm2"].get<double>());
  return t;
}

}  // namespace collnet::cli
