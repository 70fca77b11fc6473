// An all-to-all issued as groups of concurrent sends (document 001: A2AT and
// its baselines A2A and A2AND). Every node keeps `nct` NIC controllers busy;
// a group is the set of sends that fills them. The programs carry the groups
// themselves, so that the static checker (phase = tag) sees exactly what runs
// together:
//
//   SEND k of group g:  controller = k (position in the group), tag = g,
//                       dest = the group's k-th destination, route hint as given,
//                       src  = area dest of the send region,
//                       dst  = area self of dest's result region.
//   After the last group: the self area as a local-copy SEND (dest = self,
//   controller 0, tag = number of groups: a phase of its own that uses no
//   link), then END. It comes last so that it never delays a network send of
//   the first group on controller 0. No WAIT, and by default no BARRIER
//   (spec a2a-optimal: "no barrier is needed: every node sends the same
//   offsets in the same order").
//   group_barriers = true: a BARRIER (number g) after the sends of group g.
//   In the fluid model of the paper every message of a group ends at the same
//   time; in a packet network they end tens of cycles apart, the next group
//   starts unevenly and its sends meet the previous group's on the links, so
//   the per-group link loads of the schedule no longer hold (README,
//   "A2AT in a packet network"). The barrier restores them.
//
// Memory (a2a_common.hpp): send region = areas 0..N-1 at word 0, result
// region = areas 0..N-1 at word N*M; memory_words = 2*N*M.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/keys.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {

/// One network send of a group: where it goes and how it is routed.
struct GroupedSend {
  EndpointId dest = 0;
  topology::RouteHint route_hint = 0;
};
using SendGroup = std::vector<GroupedSend>;

/// Cuts an ordered list into consecutive groups of `size` (the last may be
/// shorter): "regroup the ordered send list into consecutive groups of nct".
template <typename T>
std::vector<std::vector<T>> consecutive_groups(const std::vector<T>& items, int size) {
  std::vector<std::vector<T>> groups;
  for (std::size_t i = 0; i < items.size(); i += static_cast<std::size_t>(size))
    groups.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(i),
                        items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), i + static_cast<std::size_t>(size))));
  return groups;
}

/// The `nct` key shared by the three document-001 algorithms (default 2 on a
/// mesh, 4 on a torus: spec a2a-optimal "NCT = 2 for the mesh, 4 for the torus").
const Key& nct_key();
int read_nct(const Params& params, const topology::Grid& grid);

/// The `group_barriers` key of the three (default false: the paper's schedule).
const Key& group_barriers_key();
bool read_group_barriers(const Params& params);

/// Builds the schedule. `groups_of(e)` gives endpoint e's groups in issue
/// order; every endpoint must have the same number of groups, no group more
/// than `nct` sends, and every other endpoint exactly once (checked: a
/// violation is a bug of the generator and throws std::logic_error).
/// lower_bound = the bisection bound of the grid (a2a_bisection_bound).
/// `group_barriers`: a BARRIER after every group.
Schedule a2a_grouped_schedule(const topology::Grid& grid, const std::string& algorithm, int nct,
                              std::uint32_t message_words, bool group_barriers,
                              const std::function<std::vector<SendGroup>(EndpointId)>& groups_of);

}  // namespace collnet::collectives
