#include "collectives/energy.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace collnet {

namespace {

std::string technology_problem(const std::string& path) {
  if (path.empty()) return "";
  try {
    (void)load_technology(path);
  } catch (const ConfigError& e) {
    // The key check names the key itself.
    const std::string what = e.what();
    const std::string prefix = "key 'technology': ";
    return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
  }
  return "";
}

// The entries of a technology file, in documentation order.
struct EntryField {
  const char* name;
  TechnologyEntry Technology::*field;
};
constexpr EntryField kEntries[] = {
    {"buffer_write_pj_per_bit", &Technology::buffer_write_pj_per_bit},
    {"buffer_read_pj_per_bit", &Technology::buffer_read_pj_per_bit},
    {"crossbar_pj_per_bit", &Technology::crossbar_pj_per_bit},
    {"crossbar_ports", &Technology::crossbar_ports},
    {"switch_allocation_pj", &Technology::switch_allocation_pj},
    {"vc_allocation_pj", &Technology::vc_allocation_pj},
    {"link_pj_per_bit_mm", &Technology::link_pj_per_bit_mm},
    {"nic_descriptor_pj", &Technology::nic_descriptor_pj},
    {"dma_pj_per_bit", &Technology::dma_pj_per_bit},
    {"buffer_leakage_nw_per_bit", &Technology::buffer_leakage_nw_per_bit},
    {"crossbar_leakage_nw_per_crosspoint_bit", &Technology::crossbar_leakage_nw_per_crosspoint_bit},
    {"link_leakage_nw_per_bit_mm", &Technology::link_leakage_nw_per_bit_mm},
    {"buffer_area_um2_per_bit", &Technology::buffer_area_um2_per_bit},
    {"crossbar_area_um2_per_crosspoint_bit", &Technology::crossbar_area_um2_per_crosspoint_bit},
    {"link_area_um2_per_bit_mm", &Technology::link_area_um2_per_bit_mm},
};

std::string entry_names() {
  std::string names = "name, node_nm";
  for (const auto& e : kEntries) names += std::string(", ") + e.name;
  return names;
}

}  // namespace

const std::vector<Key>& energy_keys() {
  static const std::vector<Key> keys = {
      Key::text("technology",
                "technology file (YAML, docs/guide/energy.md) of per-event energies, leakage and area with their "
                "published sources, e.g. examples/technology/65nm.yaml; set: the report gives the run's energy "
                "(JSON energy) and the routers' and links' area; empty: no energy report. No cycle count depends "
                "on it",
                "", "a readable technology file (a path relative to the working directory), or empty",
                technology_problem),
      Key::real("link_mm",
                "length of a router-to-router link for the energy model (link energy and leakage per bit and mm; "
                "read only with technology)",
                1.0, 0.0, 1e6, "mm"),
      Key::real("nic_link_mm",
                "length of a NIC's injection and ejection link for the energy model (read only with technology)",
                0.5, 0.0, 1e6, "mm"),
  };
  return keys;
}

Technology load_technology(const std::string& path) {
  const std::string where = "key 'technology': file '" + path + "'";
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw ConfigError(where + " does not exist");
  if (std::filesystem::is_directory(status)) throw ConfigError(where + " is a directory, not a technology file");
  if (!std::filesystem::is_regular_file(status)) throw ConfigError(where + " is not a regular file");
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ConfigError(where + " cannot be read");
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}: not YAML: line {}: {}", where, e.mark.line + 1, e.msg));
  } catch (const std::exception& e) {
    throw ConfigError(fmt::format("{} cannot be read: {}", where, e.what()));
  }
  if (!root.IsMap()) throw ConfigError(where + ": not a map of entries; accepted entries: " + entry_names());
  Technology t;
  t.file = path;
  for (const auto& item : root) {
    const auto name = item.first.as<std::string>();
    const bool known = name == "name" || name == "node_nm" ||
                       std::any_of(std::begin(kEntries), std::end(kEntries),
                                   [&](const EntryField& e) { return name == e.name; });
    if (!known)
      throw ConfigError(fmt::format("{}: line {}: unknown entry '{}'; accepted entries: {}", where,
                                    item.first.Mark().line + 1, name, entry_names()));
  }
  if (!root["name"] || !root["name"].IsScalar()) throw ConfigError(where + ": entry 'name' is missing (the node's name)");
  t.name = root["name"].as<std::string>();
  try {
    t.node_nm = root["node_nm"] ? root["node_nm"].as<double>() : -1;
  } catch (const YAML::Exception&) {
    t.node_nm = -1;
  }
  if (t.node_nm <= 0) throw ConfigError(where + ": entry 'node_nm' is missing or not a positive number (the process node, nm)");
  for (const auto& e : kEntries) {
    const YAML::Node node = root[e.name];
    if (!node)
      throw ConfigError(fmt::format("{}: entry '{}' is missing (each entry: value: a number >= 0, source: the "
                                    "published source it comes from)",
                                    where, e.name));
    const std::string at = fmt::format("{}: line {}: entry '{}'", where, node.Mark().line + 1, e.name);
    if (!node.IsMap() || !node["value"] || !node["source"])
      throw ConfigError(at + ": needs value: a number >= 0 and source: the published source it comes from");
    TechnologyEntry& entry = t.*(e.field);
    try {
      entry.value = node["value"].as<double>();
    } catch (const YAML::Exception&) {
      throw ConfigError(fmt::format("{}: value '{}' is not a number; accepted values: a number >= 0", at,
                                    node["value"].IsScalar() ? node["value"].Scalar() : std::string("(not a scalar)")));
    }
    if (!(entry.value >= 0) || entry.value > 1e12)
      throw ConfigError(fmt::format("{}: value {} is out of range; accepted values: a number >= 0", at, entry.value));
    entry.source = node["source"].IsScalar() ? node["source"].Scalar() : "";
    if (entry.source.empty()) throw ConfigError(at + ": source is empty; name the published source of the value");
  }
  if (t.crossbar_ports.value < 1)
    throw ConfigError(fmt::format("{}: entry 'crossbar_ports': value {} is out of range; accepted values: a number >= 1",
                                  where, t.crossbar_ports.value));
  return t;
}

bool energy_setting_from(const Params& params, EnergySetting& setting) {
  const auto& keys = energy_keys();
  const std::string path = keys[0].text(params);
  if (path.empty()) return false;
  setting.technology = load_technology(path);
  setting.link_mm = keys[1].real(params);
  setting.nic_link_mm = keys[2].real(params);
  return true;
}

double flit_bits(const Units& units) { return 8.0 * static_cast<double>(units.flit_bytes); }

Energy compute_energy(const EnergyCounts& c, const EnergySetting& s, const Units& units) {
  const Technology& t = s.technology;
  const double bits = flit_bits(units);
  Energy e;
  e.time_ns = units.ns(static_cast<double>(c.cycles));
  // Leakage x time: nW x ns = 1e-18 J = 1e-6 pJ.
  const auto leak_pj = [&](double nw) { return nw * e.time_ns * 1e-6; };
  const double ports = t.crossbar_ports.value;
  const double link_bit_mm = bits * (static_cast<double>(c.network_links) * s.link_mm +
                                     static_cast<double>(c.nic_links) * s.nic_link_mm);
  const double buffer_bits = static_cast<double>(c.buffer_flit_slots) * bits;
  const double crosspoint_bits = c.crosspoints * bits;

  ComponentEnergy buffer{"buffer"};
  buffer.dynamic_pj = bits * (static_cast<double>(c.buffer_writes) * t.buffer_write_pj_per_bit.value +
                              static_cast<double>(c.buffer_reads) * t.buffer_read_pj_per_bit.value);
  buffer.static_pj = leak_pj(buffer_bits * t.buffer_leakage_nw_per_bit.value);
  buffer.area_um2 = buffer_bits * t.buffer_area_um2_per_bit.value;

  ComponentEnergy crossbar{"crossbar"};
  crossbar.dynamic_pj = bits * c.crossbar_radix_flits / ports * t.crossbar_pj_per_bit.value;
  crossbar.static_pj = leak_pj(crosspoint_bits * t.crossbar_leakage_nw_per_crosspoint_bit.value);
  crossbar.area_um2 = crosspoint_bits * t.crossbar_area_um2_per_crosspoint_bit.value;

  ComponentEnergy sa{"switch_allocator"};
  sa.dynamic_pj = static_cast<double>(c.buffer_reads) * t.switch_allocation_pj.value;
  ComponentEnergy va{"vc_allocator"};
  va.dynamic_pj = static_cast<double>(c.vc_allocations) * t.vc_allocation_pj.value;

  ComponentEnergy link{"link"};
  link.dynamic_pj = bits *
                    (static_cast<double>(c.network_link_flits) * s.link_mm +
                     static_cast<double>(c.nic_link_flits) * s.nic_link_mm) *
                    t.link_pj_per_bit_mm.value;
  link.static_pj = leak_pj(link_bit_mm * t.link_leakage_nw_per_bit_mm.value);
  link.area_um2 = link_bit_mm * t.link_area_um2_per_bit_mm.value;

  ComponentEnergy nic{"nic"};
  nic.dynamic_pj = static_cast<double>(c.descriptors) * t.nic_descriptor_pj.value +
                   static_cast<double>(c.dma_words) * bits * t.dma_pj_per_bit.value;

  e.components = {buffer, crossbar, sa, va, link, nic};
  for (const auto& k : e.components) {
    e.dynamic_pj += k.dynamic_pj;
    e.static_pj += k.static_pj;
  }
  e.total_pj = e.dynamic_pj + e.static_pj;
  e.router_area_um2 = buffer.area_um2 + crossbar.area_um2;
  e.link_area_um2 = link.area_um2;
  return e;
}

}  // namespace collnet
