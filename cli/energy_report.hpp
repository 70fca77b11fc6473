// The energy report of a run (docs/guide/energy.md): the JSON `energy`
// object and its text lines, from the run's event counts
// (collectives/energy.hpp) and the technology file of key `technology`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "collectives/energy.hpp"
#include "collectives/units.hpp"

namespace collnet::cli {

/// The JSON `energy` object: total_pj, dynamic_pj, static_pj,
/// per_flit_hop_pj, per_bit_delivered_pj, average_power_mw, pj_per_byte
/// (`collective_bytes` > 0: the bytes the collective reduces or moves, else
/// null), by_component, events, area, technology, link_mm, nic_link_mm.
nlohmann::json energy_json(const EnergyCounts& counts, const EnergySetting& setting, const Units& units,
                           double collective_bytes);

/// The report's lines "  energy ...", "  energy parts ...", "  area ...".
std::string energy_text(const nlohmann::json& energy);

/// "12.3 pJ", "4.56 nJ", "7.89 uJ", "1.23 mJ": an energy for the text reports.
std::string energy_pj_text(double pj);

}  // namespace collnet::cli
