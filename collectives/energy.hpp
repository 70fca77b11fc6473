// The energy and area of a run of the cycle model: an event-based model in
// the manner of ORION 2.0 and DSENT. The cycle model counts the events (a
// flit written into and read out of a router's input buffer, its crossbar
// traversal and switch allocation, a head's VC allocation, a flit crossing
// a link, a NIC's SEND descriptor and the words its DMA moves); a
// technology file (key `technology`, YAML) gives each event's energy, the
// leakage of buffers, crossbars and links, and their area per bit. Energy =
// sum over events of count x energy + leakage x the run's time. Nothing here
// changes a cycle count: without the key no energy is reported.
//
// Units: energies in pJ, leakage in nW, areas in um^2; bits are flit_bytes
// x 8 per flit (the header's sideband bits are not counted); a link's
// length in mm from the keys link_mm (router to router) and nic_link_mm
// (NIC to router).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/keys.hpp"
#include "collectives/units.hpp"

namespace collnet {

/// Key `technology` (a technology file; empty: no energy report), `link_mm`
/// and `nic_link_mm`, in documentation order.
const std::vector<Key>& energy_keys();

/// One entry of a technology file: its value and the published source it
/// comes from.
struct TechnologyEntry {
  double value = 0;
  std::string source;
};

/// A technology file (docs/guide/energy.md): per-event energies, leakage
/// and area of one process node.
struct Technology {
  std::string file;
  std::string name;
  double node_nm = 0;
  // Dynamic, pJ per bit (per event where named _pj).
  TechnologyEntry buffer_write_pj_per_bit, buffer_read_pj_per_bit, crossbar_pj_per_bit, switch_allocation_pj,
      vc_allocation_pj, link_pj_per_bit_mm, nic_descriptor_pj, dma_pj_per_bit;
  /// The router radix the crossbar entries are given for: a traversal of a
  /// radix-p crossbar costs crossbar_pj_per_bit x p / crossbar_ports (its
  /// input and output lines grow with p), its leakage and area per
  /// crosspoint scale with p^2.
  TechnologyEntry crossbar_ports;
  // Leakage, nW per bit of storage, per crosspoint bit, per bit and mm of link.
  TechnologyEntry buffer_leakage_nw_per_bit, crossbar_leakage_nw_per_crosspoint_bit, link_leakage_nw_per_bit_mm;
  // Area, um^2.
  TechnologyEntry buffer_area_um2_per_bit, crossbar_area_um2_per_crosspoint_bit, link_area_um2_per_bit_mm;
};

/// Reads a technology file; throws ConfigError naming the key
/// `technology`, the file and the entry (missing, not a number, negative).
Technology load_technology(const std::string& path);

/// The events of one run and the hardware they ran on.
struct EnergyCounts {
  std::uint64_t buffer_writes = 0;       // flits written into a router input buffer
  std::uint64_t buffer_reads = 0;        // flits read out of one (= crossbar traversals, switch allocations)
  double crossbar_radix_flits = 0;       // sum over those reads of the router's radix
  std::uint64_t vc_allocations = 0;      // head flits given an output VC
  std::uint64_t network_link_flits = 0;  // flits on router-to-router links (flit-hops)
  std::uint64_t nic_link_flits = 0;      // flits on NIC-to-router and router-to-NIC links
  std::uint64_t descriptors = 0;         // SEND descriptors the NICs executed
  std::uint64_t dma_words = 0;           // words the NICs' DMA read or wrote
  std::uint64_t delivered_flits = 0;     // flits that reached a NIC
  std::uint64_t buffer_flit_slots = 0;   // sum over routers of ports x vcs x buffer_flits
  double crosspoints = 0;                // sum over routers of ports^2
  std::uint64_t network_links = 0;
  std::uint64_t nic_links = 0;
  std::uint64_t cycles = 0;
};

/// The physical setting of an energy report.
struct EnergySetting {
  Technology technology;
  double link_mm = 1.0;
  double nic_link_mm = 0.5;
};

/// The run's `technology`, `link_mm` and `nic_link_mm`, or nothing when
/// `technology` is unset (throws ConfigError for a bad file or value).
bool energy_setting_from(const Params& params, EnergySetting& setting);

/// One component's share: dynamic and static energy, area.
struct ComponentEnergy {
  std::string name;  // buffer, crossbar, switch_allocator, vc_allocator, link, nic
  double dynamic_pj = 0;
  double static_pj = 0;
  double area_um2 = 0;
};

/// The energy of a run (docs/guide/energy.md, "The model").
struct Energy {
  std::vector<ComponentEnergy> components;  // in the order above
  double dynamic_pj = 0;
  double static_pj = 0;
  double total_pj = 0;
  double time_ns = 0;
  double router_area_um2 = 0;  // buffers and crossbars
  double link_area_um2 = 0;
};

/// Bits a flit carries (flit_bytes x 8).
double flit_bits(const Units& units);

/// The energy of `counts` under `setting`.
Energy compute_energy(const EnergyCounts& counts, const EnergySetting& setting, const Units& units);

}  // namespace collnet
