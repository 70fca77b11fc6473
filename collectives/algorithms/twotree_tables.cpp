#include "collectives/algorithms/twotree_tables.hpp"

#include <stdexcept>

namespace collnet::collectives {

namespace {
void fill(const TreeInstance& inst, std::vector<ProcedureRow>& send, std::vector<ProcedureRow>& receive) {
  const PipelinedTrees& shape = inst.shape;
  for (std::size_t t = 0; t < shape.trees.size(); ++t) {
    const TreeShape& tree = shape.trees[t];
    for (int v = 1; v < shape.ranks; ++v) {
      const int color = tree.color[static_cast<std::size_t>(v)];
      const int child = inst.ranks[static_cast<std::size_t>(v)];
      const int parent = inst.ranks[static_cast<std::size_t>(tree.parent[static_cast<std::size_t>(v)])];
      auto& s = send[static_cast<std::size_t>(child)][static_cast<std::size_t>(color)];
      auto& r = receive[static_cast<std::size_t>(parent)][static_cast<std::size_t>(color)];
      // spec: in every phase a node sends at most once and receives at most once.
      if (s.partner >= 0 || r.partner >= 0)
        throw std::logic_error("procedure tables: two partners for one rank and color");
      s = {parent, static_cast<int>(t)};
      r = {child, static_cast<int>(t)};
    }
  }
}
}  // namespace

ProcedureTables procedure_tables(int processes, const std::vector<TreeInstance>& local, const TreeInstance& global) {
  ProcedureTables p;
  const auto n = static_cast<std::size_t>(processes);
  p.local_send.assign(n, {});
  p.local_receive.assign(n, {});
  p.global_send.assign(n, {});
  p.global_receive.assign(n, {});
  for (const auto& inst : local) fill(inst, p.local_send, p.local_receive);
  fill(global, p.global_send, p.global_receive);
  p.representatives = global.ranks;
  return p;
}

}  // namespace collnet::collectives
