#include "collectives/algorithms/twotree.hpp"

#include <bit>
#include <deque>
#include <stdexcept>
#include <string>

namespace collnet::collectives {

int in_order_parent(int i, int last) {
  if (i < 1 || i > last) throw std::logic_error("in_order_parent: position out of range");
  const int top = static_cast<int>(std::bit_floor(static_cast<unsigned>(last)));
  if (i == top) return 0;
  int at = i;
  do {
    const int h = std::countr_zero(static_cast<unsigned>(at));
    at = ((at >> (h + 1)) & 1) ? at - (1 << h) : at + (1 << h);
  } while (at > last);  // climb past positions the pruned tree does not have
  return at;
}

namespace {

void link_children(TreeShape& t) {
  t.children.assign(t.parent.size(), {});
  for (std::size_t v = 1; v < t.parent.size(); ++v)
    t.children[static_cast<std::size_t>(t.parent[v])].push_back(static_cast<int>(v));
}

/// n positions, no parent, height 0, no color.
TreeShape unlinked_tree(int n) {
  TreeShape t;
  t.parent.assign(static_cast<std::size_t>(n), -1);
  t.height.assign(static_cast<std::size_t>(n), 0);
  t.color.assign(static_cast<std::size_t>(n), -1);
  return t;
}

TreeShape in_order_tree(int n) {
  TreeShape t = unlinked_tree(n);
  for (int v = 1; v < n; ++v) {
    t.parent[static_cast<std::size_t>(v)] = in_order_parent(v, n - 1);
    t.height[static_cast<std::size_t>(v)] = std::countr_zero(static_cast<unsigned>(v));
  }
  t.height[0] = n > 1 ? static_cast<int>(std::bit_width(static_cast<unsigned>(n - 1))) : 0;
  link_children(t);
  return t;
}

int depth_of(int n) { return n > 1 ? static_cast<int>(std::bit_width(static_cast<unsigned>(n - 1))) : 0; }

/// n ranks and the depth of their trees, no tree yet (one rank needs none).
PipelinedTrees without_trees(int n, const std::string& builder) {
  if (n < 1) throw std::logic_error(builder + ": at least one rank");
  PipelinedTrees p;
  p.ranks = n;
  p.depth = depth_of(n);
  p.x.assign(static_cast<std::size_t>(n), -1);
  return p;
}

}  // namespace

int PipelinedTrees::reduce_phase(int t, int v, int block) const {
  const auto& tree = trees.at(static_cast<std::size_t>(t));
  return 2 * (block - 1 + tree.height.at(static_cast<std::size_t>(v))) + tree.color.at(static_cast<std::size_t>(v));
}

int PipelinedTrees::broadcast_phase(int t, int v, int block) const {
  const auto& tree = trees.at(static_cast<std::size_t>(t));
  return 2 * (block - 1 + depth - 1 - tree.height.at(static_cast<std::size_t>(v))) +
         tree.color.at(static_cast<std::size_t>(v));
}

PipelinedTrees two_tree(int n) {
  PipelinedTrees p = without_trees(n, "two_tree");
  if (n == 1) return p;
  const int last = n - 1;
  TreeShape t1 = in_order_tree(n);
  // T2 = T1 shifted by one: position u of T1 is position s(u) of T2.
  auto shift = [last](int u) { return u == 0 ? 0 : (u == last ? 1 : u + 1); };
  TreeShape t2 = unlinked_tree(n);
  for (int u = 1; u < n; ++u) {
    t2.parent[static_cast<std::size_t>(shift(u))] = shift(t1.parent[static_cast<std::size_t>(u)]);
    t2.height[static_cast<std::size_t>(shift(u))] = t1.height[static_cast<std::size_t>(u)];
  }
  t2.height[0] = t1.height[0];
  link_children(t2);

  // Constraint graph over positions 1..n-1: edge (a, b, same) says x[a] == x[b]
  // when same, x[a] != x[b] otherwise.
  struct Constraint {
    int other;
    bool same;
  };
  std::vector<std::vector<Constraint>> g(static_cast<std::size_t>(n));
  auto add = [&](int a, int b, bool same) {
    if (a == b) return;
    g[static_cast<std::size_t>(a)].push_back({b, same});
    g[static_cast<std::size_t>(b)].push_back({a, same});
  };
  for (const TreeShape* t : {&t1, &t2})
    for (int v = 1; v < n; ++v) {
      const auto& c = t->children[static_cast<std::size_t>(v)];
      if (c.size() == 2) add(c[0], c[1], false);  // siblings differ (in T2: 1-x differ, so x differ)
      if (c.size() > 2) throw std::logic_error("two_tree: a node with more than two children");
    }
  add(t1.children[0].at(0), t2.children[0].at(0), true);  // both tops enter the root: x[R1] == x[R2]
  auto& x = p.x;
  for (int seed = last; seed >= 1; --seed) {
    if (x[static_cast<std::size_t>(seed)] >= 0) continue;
    x[static_cast<std::size_t>(seed)] = 0;  // spec: seed each component at its largest position with 0
    std::deque<int> queue{seed};
    while (!queue.empty()) {
      const int a = queue.front();
      queue.pop_front();
      for (const Constraint& c : g[static_cast<std::size_t>(a)]) {
        const int want = c.same ? x[static_cast<std::size_t>(a)] : 1 - x[static_cast<std::size_t>(a)];
        int& xb = x[static_cast<std::size_t>(c.other)];
        if (xb < 0) {
          xb = want;
          queue.push_back(c.other);
        } else if (xb != want) {
          throw std::logic_error("two_tree: no 2-coloring for " + std::to_string(n) + " ranks");
        }
      }
    }
  }
  for (int v = 1; v < n; ++v) {
    t1.color[static_cast<std::size_t>(v)] = x[static_cast<std::size_t>(v)];
    t2.color[static_cast<std::size_t>(v)] = 1 - x[static_cast<std::size_t>(v)];
  }
  p.trees = {std::move(t1), std::move(t2)};
  return p;
}

PipelinedTrees single_tree(int n) {
  PipelinedTrees p = without_trees(n, "single_tree");
  if (n == 1) return p;
  TreeShape t = in_order_tree(n);
  // Document 002 [0086]: left edges in the left phase, right edges in the right phase.
  for (int v = 1; v < n; ++v) {
    const int parent = t.parent[static_cast<std::size_t>(v)];
    t.color[static_cast<std::size_t>(v)] = parent != 0 && v > parent ? 1 : 0;
  }
  p.trees = {std::move(t)};
  return p;
}

}  // namespace collnet::collectives
