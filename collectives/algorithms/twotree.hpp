// Pipelined binary trees over n ranks numbered by position 0..n-1 (position 0
// = the root rank): the two-tree of Sanders, Speck and Traeff (2009) that
// document 002 uses inside and between groups, and the single tree of the
// document's background ("Tree algorithm", FIG. 6/7).
//
// spec twotree-leafspine: Two-tree.
//  - T1 is the in-order binary tree over positions 1..n-1 in the pruned
//    complete-tree shape: position i has height ctz(i); its parent is
//    i + 2^h if bit h+1 of i is 0, else i - 2^h, climbing on while the parent
//    is > n-1 (a position of the complete tree that does not exist). Its top
//    R = bit_floor(n-1) hangs under the root rank. (Naive midpoint recursion
//    can make a node interior in both trees; then no coloring exists.)
//    The height ctz(i) is also the node's height in the pruned tree (its left
//    child i - 2^(h-1) always exists), so a child's height is below its
//    parent's.
//  - T2 is T1 with every position shifted by one (n-1 wraps to 1); its top
//    hangs under the root rank too. T1 carries the first half of the data.
//  - Coloring: v's up-edge has color x[v] in T1 and 1 - x[v] in T2. Siblings
//    differ in T1 and in T2, and x[top(T1)] == x[top(T2)] (both enter the
//    root). Solved by BFS over this constraint graph, each component seeded
//    at its largest position with 0.
//  - Depth D = hops from the root rank to the deepest leaf = ctz(R) + 1.
//
// Single tree (document 002 [0076]-[0090]): T1 alone, carrying all the data;
// an edge to a larger position ("right", child > parent) has color 1, every
// other edge (left children and the top's edge into the root) color 0.
//
// Pipelining (spec: pipelined reduce): block k (1..B) leaves node v of tree t
// in phase 2(k-1+h_t(v)) + color_t(v) of a reduce. A broadcast runs the same
// edges downwards: block k enters v in phase 2(k-1 + D-1-h_t(v)) + color_t(v)
// (depth order instead of height order, same parity = same color). Both
// take 2(B+D-1) phases; in every phase a node sends at most once and
// receives at most once, because a phase has one parity (one color), a node
// sends on at most one edge of a color, and its children in a tree have
// distinct colors.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace collnet::collectives {

/// One tree over positions 0..n-1; position 0 is the root rank.
struct TreeShape {
  std::vector<int> parent;                 // -1 for the root rank (and for no node)
  std::vector<int> height;                 // h(v), leaf 0
  std::vector<int> color;                  // color of v's up-edge, -1 for the root rank
  std::vector<std::vector<int>> children;  // ascending positions
};

struct PipelinedTrees {
  int ranks = 0;                 // n
  int depth = 0;                 // D (0 when n == 1)
  std::vector<TreeShape> trees;  // 2 (two-tree) or 1 (single tree); empty when n == 1
  std::vector<int> x;            // two-tree coloring x[v] (T1 up-edge color), -1 at position 0

  /// Phase (0-based, within the stage) in which block `block` (1-based) leaves
  /// `v` upwards on tree `t` (reduce) or enters `v` from its parent (broadcast).
  [[nodiscard]] int reduce_phase(int t, int v, int block) const;
  [[nodiscard]] int broadcast_phase(int t, int v, int block) const;
  /// 2(B+D-1), or 0 when n == 1.
  [[nodiscard]] int phases(int blocks) const { return ranks > 1 ? 2 * (blocks + depth - 1) : 0; }
};

/// Parent of in-order position i (1..last) in the pruned complete tree over
/// 1..last, or 0 when i is its top.
int in_order_parent(int i, int last);

/// The two-tree over n >= 1 positions. Throws std::logic_error if the
/// coloring constraints cannot be met (never for the pruned shape).
PipelinedTrees two_tree(int n);

/// The single tree of the document's background over n >= 1 positions.
PipelinedTrees single_tree(int n);

}  // namespace collnet::collectives
