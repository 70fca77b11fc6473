// The procedure tables of document 002 (FIG. 17, tables 174-177; spec
// twotree-leafspine: Procedure tables), generated from the two-trees:
//   174 local send     rank -> (color 0 partner, color 1 partner) in its group
//   175 global send    the same among the representatives
//   176 local receive  rank -> the partners it receives from, per color
//   177 global receive the same among the representatives
// -1 = no partner. Only the reduce schedule is stored; a broadcast swaps the
// roles (it receives from the send-table partner and sends to the
// receive-table partners). Every entry also carries the tree (0 = T1, the
// first half of the data; 1 = T2). Tables are indexed by rank; the global
// tables hold -1 for ranks that are not representatives. These are plain
// data so that tests and a hardware schedule engine can read them.
#pragma once

#include <array>
#include <vector>

#include "collectives/algorithms/tree_pipeline.hpp"

namespace collnet::collectives {

struct ProcedureEntry {
  int partner = -1;  // rank, -1 = none
  int tree = -1;     // 0 = T1, 1 = T2, -1 = none
  bool operator==(const ProcedureEntry&) const = default;
};

using ProcedureRow = std::array<ProcedureEntry, 2>;  // [color]

struct ProcedureTables {
  std::vector<ProcedureRow> local_send;      // table 174
  std::vector<ProcedureRow> global_send;     // table 175
  std::vector<ProcedureRow> local_receive;   // table 176
  std::vector<ProcedureRow> global_receive;  // table 177
  std::vector<int> representatives;
};

/// Tables of `processes` ranks from the local two-trees (one per group) and
/// the global two-tree among the representatives (global.ranks).
ProcedureTables procedure_tables(int processes, const std::vector<TreeInstance>& local, const TreeInstance& global);

}  // namespace collnet::collectives
