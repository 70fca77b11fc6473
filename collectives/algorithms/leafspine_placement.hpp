// Groups, representatives and process placement on a leaf/spine fabric
// (document 002, spec twotree-leafspine: Groups, representatives, placement).
//
// Grouping. Nodes under leaves whose spine sets differ must be in different
// groups; leaves with identical spine sets may share one:
//   spine_set (default) one group per distinct spine set (on the full mesh:
//                       one column, (p/2)^2 servers; first embodiment: leaves
//                       21,22 and 23,24);
//   leaf                one group per leaf (document 002 [0170]).
// Groups are ordered by their smallest server label; a group's servers are
// in label (= endpoint id) order.
//
// Placement of P processes (ranks 0..P-1): G = ceil(P / c) groups, c = the
// group capacity (the smallest group when they differ), n = P / G per group,
// the first P mod G groups one more; contiguous ranks per group, filled into
// the group's servers in ID order. P = 32 on p = 6: G = 4, n = 8, ranks 0-7
// on 100-107, 8-15 on 110-117, 16-23 on 120-127, 24-31 on 130-137. Where
// groups differ in size (wiring lists), G is capped at the number of groups
// and a group that cannot hold its share passes the excess to the next
// groups in order (still contiguous ranks). Representative = the smallest
// rank of each group.
//
// The baselines place ranks without groups: `consecutive` = rank r on
// endpoint r (the document's placement 1, FIG. 10), or `grouped` as above
// (FIG. 13). Endpoints without a process hold no data and send nothing.
#pragma once

#include <string>
#include <vector>

#include "topology/leafspine.hpp"

namespace collnet::collectives {

using topology::EndpointId;

enum class Grouping { spine_set, leaf };

struct Placement {
  int processes = 0;
  std::vector<EndpointId> endpoint_of_rank;  // size P
  std::vector<int> rank_of_endpoint;         // size E, -1 = no process
  std::vector<std::vector<int>> groups;      // ranks of each used group, ascending and contiguous
  std::vector<int> representatives;          // smallest rank of each used group

  [[nodiscard]] EndpointId endpoint(int rank) const { return endpoint_of_rank.at(static_cast<std::size_t>(rank)); }
  [[nodiscard]] int rank(EndpointId e) const { return rank_of_endpoint.at(static_cast<std::size_t>(e)); }
};

/// The servers of each group (in ID order), groups ordered by first server.
std::vector<std::vector<EndpointId>> leafspine_groups(const topology::LeafSpine& fabric, Grouping grouping);

/// Grouped placement of `processes` ranks; ConfigError naming `processes`
/// when they do not fit.
Placement place_grouped(const topology::LeafSpine& fabric, Grouping grouping, int processes);

/// Rank r on endpoint r, one group; ConfigError naming `processes` when
/// there are more processes than endpoints.
Placement place_consecutive(int endpoints, int processes);

}  // namespace collnet::collectives
