// The static checker: groups the transfers of every program into phases (a
// phase = every SEND with the same tag, across all endpoints: the programs
// themselves say which transfers run together), routes every transfer with
// the topology's routing function and reports per-directed-link loads.
//
//   phase time  = max over directed links of the flits the phase puts on it
//   static time = sum of phase times (flit times); with one message length M
//                 this is sum over phases of (max link load in messages) x M.
//
// Local copies (SEND to oneself) use no link and are not counted.
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

struct LinkLoad {
  topology::LinkId link = topology::kNone;
  std::int32_t messages = 0;
  std::int64_t flits = 0;
};

struct PhaseReport {
  std::uint32_t tag = 0;
  std::int64_t transfers = 0;
  std::int32_t max_link_messages = 0;   // the phase's maximum directed-link load
  std::int64_t max_link_flits = 0;      // the phase's time in flit times
  std::int32_t max_sends_per_node = 0;
  std::int32_t max_receives_per_node = 0;
  std::vector<LinkLoad> links;          // every loaded directed link, by link id
};

struct StaticReport {
  std::vector<PhaseReport> phases;      // ascending tag
  std::int64_t static_time = 0;         // flit times
  std::int64_t transfers = 0;           // network transfers (local copies excluded)
  std::int64_t local_copies = 0;
  std::int32_t min_sends_per_node = 0;  // network sends of one endpoint, whole collective
  std::int32_t max_sends_per_node = 0;
  std::int64_t barriers = 0;            // BARRIER descriptors of endpoint 0
  std::int32_t max_link_load = 0;       // over all phases

  /// Per-phase maximum link loads in messages, in phase order.
  [[nodiscard]] std::vector<std::int32_t> phase_max_link_load() const;
};

StaticReport static_check(const topology::Topology& topology, const Schedule& schedule);

/// The directed links an in-network collective's block loads on aggregation
/// tree `tree` (topology/aggregation.hpp): the up links of the switches and
/// of the contributing endpoints, the down links to every switch of the tree
/// and to the receiving endpoints; each once, whatever the contributors.
std::vector<topology::LinkId> innet_links(const topology::Topology& topology, const InNetwork& innet, int tree);

}  // namespace collnet::collectives
