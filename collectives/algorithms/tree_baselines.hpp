// The baselines document 002 argues against: flat trees over all P ranks,
// with no groups and no representatives (spec twotree-leafspine:
// Contention; document 002 [0074]-[0117]).
//
// twotree-flat: one two-tree over ranks 0..P-1 (positions = ranks), the same
//   construction, coloring and pipelining as inside a group of twotree-hier.
//   On a leaf/spine fabric it collides: with the consecutive placement
//   (FIG. 10, P = 32 on p = 6) 24->16 (T1) and 25->17 (T2) both go leaf 222
//   -> spine 243 -> leaf 212 in color 1; with the grouped placement (FIG. 13)
//   the same ranks go 230 -> 245 -> 220. Two leaves of different columns
//   share one spine, so no spine choice avoids it.
// tree-single: the "Tree algorithm" of the background ([0076]-[0090]): one
//   in-order binary tree over ranks 1..P-1 (the pruned complete shape of T1)
//   under rank 0, carrying all L elements in B pipelined blocks. Left edges
//   (child < parent, and the top's edge into rank 0) run in the "left" phases
//   (color 0), right edges in the "right" phases (color 1), alternating: block
//   k leaves v in phase 2(k-1+h(v)) + color(v), as in [0088]-[0090] (8 ranks:
//   1 and 5 send block 1 first, then 3 and 7, then 1, 5 and 2, ...). The
//   broadcast runs the edges downwards in depth order, left child first
//   ([0081]: either side may go first).
// Both: collective = reduce | broadcast (one stage) | allreduce (reduce, then
// broadcast); key `placement` = consecutive (rank r on endpoint r, any
// topology) or grouped (leaf/spine fabrics). Spine choice as for
// twotree-hier.
#pragma once

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

Algorithm make_twotree_flat();
Algorithm make_tree_single();

}  // namespace collnet::collectives
