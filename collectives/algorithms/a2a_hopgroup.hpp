// All-to-all grouped by direction and hop count, with packet pacing
// (document 000, spec a2a-hopgroup), and its comparative baseline.
//
// a2a-hopgroup. The collective is a list of **steps** separated by barriers
// (a barrier after every step except the last one of the collective). A step
// holds one **move** per dimension that is active in it; a move (dimension d,
// piece p, offset k) applies the spec's general rule: node n sends every area
// whose label L has L_d = n_d + k to node n + k e_d, which stores it under L
// with L_d replaced by n_d. A **phase** is every move of one dimension and one
// piece (all hops of d).
//
//   2-D torus: one piece (the whole area); phase X, then phase Y; steps
//     (X,1..NX-1), (Y,1..NY-1): NX-1 + NY-1 steps, NX+NY-3 barriers (13 for
//     8x8). A dimension of size 1 has no phase (nothing to cross): 1x5 has 4
//     steps and 3 barriers. Rule for every case: barriers = steps - 1 (0 when
//     there is no step, e.g. 1x1). A 1-D ring is accepted too (one phase).
//   3-D torus: each area is split in pieces a, b, c of M/3 words, the first
//     M mod 3 pieces one word longer (M = 16: 6, 5, 5; pieces of 0 words, for
//     M < 3, send nothing but keep their steps). Round r carries X <- piece
//     r, Y <- piece r+1, Z <- piece r+2 (mod 3), i.e. round 1 X<-a Y<-b Z<-c,
//     round 2 X<-b Y<-c Z<-a, round 3 X<-c Y<-a Z<-b: no piece crosses a
//     dimension twice.
//       mode3d=literal: within a round the phases run X, then Z, then Y, one
//         step per hop value: 3 * sum_d (N_d - 1) steps (4x4x4: 27 steps, 26
//         barriers).
//       mode3d=concurrent: the three phases of a round run at once on
//         controllers 0, 1, 2; step s of a round holds hop s of every
//         dimension that has one: 3 * max_d (N_d - 1) steps (4x4x4: 9 steps).
//   Mesh (mesh:...): signed offsets k = +-1 .. +-(N_d-1), one step each, in
//     the order +1, -1, +2, -2, ... (ascending |k|); a node sends only when
//     n_d + k exists; gap = min(|k|, N_d - |k|) - 1: only N_d - |k| nodes
//     have a destination, so a link carries at most min(|k|, N_d - |k|) flows
//     (document 000 claims a mesh variant without detailing it; pacing for
//     |k| flows held back the long offsets: mesh:8x8, 64 flits, 58803 cycles
//     against 34923 unpaced).
//   directions=both (torus): offsets k and N_d-k share hop count
//     h = min(k, N_d-k) and the same step, each in its shorter direction (the
//     offset N_d/2 of an even size goes +); steps h = 1 .. floor(N_d/2).
//   hop_order=descending reverses the hop order inside every phase.
//
// Memory layout (spec a2a-hopgroup: buffer hazard). Two **banks** of N areas
// of M words: area L of bank b = words [(b*N + L)*M, (b*N + L + 1)*M); piece p
// of an area starts at piece_offset(p) inside it. A phase reads its piece
// from the current bank and writes every area of that piece into the other
// bank: the areas that cross the dimension arrive over the network, the
// areas that stay (L_d == n_d) are moved by a local-copy SEND (dest = self,
// no link) in the phase's first step. The bank of a piece flips once per
// phase, and every piece crosses every dimension of size > 1 exactly once,
// so at the end every piece is in bank (number of dimensions of size > 1)
// mod 2: that bank is the result region. Bank 0 is the send region (area T of
// node O holds D(O->T) before the collective).
//
// Descriptors: tag = global step number (0, 1, ...), the barrier after step
// s has number s; controller = dimension (NIC controllers "15a/15b/15c");
// route hint = the move's direction in its dimension (+ only by default);
// gap = hops - 1 and slack = gap_slack when pacing is on, both 0 when off.
//
// a2a-hopgroup-direct (the document's comparative example): every node sends
// area T of its send region (bank 0) straight to T, into area n of T's
// result region (bank 1), one offset at a time, with dimension-order routing
// (route hint 0). Offsets are taken modulo the sizes (on a mesh too) and run
// in descending order with the last dimension varying fastest, as in the
// document's FIG. 9 (Z decreasing by one per transmission). With barriers on,
// there is one barrier per non-zero offset, including after the last: N-1
// barriers (spec: "a barrier after each offset (N-1 barriers)"). Pacing is on
// by default: the document's comparative example uses packet pacing with
// gap = hops(origin, destination) - 1 ([0043], [0044], [0050]). The second
// baseline is barriers=false, pacing=false.
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

/// The values a2a-hopgroup (direct false) and a2a-hopgroup-direct (direct
/// true) load their schedule engine with (engine "hopgroup",
/// driver/engines/hopgroup.cpp).
struct HopgroupEngineParams {
  bool direct = false;
  int max_dims = 3;  // the dimensions the engine runs this algorithm on
  bool pacing = true;
  bool descending = false;  // a2a-hopgroup: hop_order
  bool both = false;        // a2a-hopgroup: directions
  bool concurrent = false;  // a2a-hopgroup: mode3d
  bool barriers = true;     // a2a-hopgroup-direct
  std::uint8_t slack = 0;
  std::uint32_t message_words = 0;
};

Algorithm make_a2a_hopgroup();
Algorithm make_a2a_hopgroup_direct();

/// Words of piece `piece` (0..pieces-1) of an area of `message_words` words
/// split in `pieces` pieces (spec a2a-hopgroup: 3-D pieces a, b, c).
std::uint32_t hopgroup_piece_words(std::uint32_t message_words, int pieces, int piece);
/// Offset of piece `piece` inside its area.
std::uint32_t hopgroup_piece_offset(std::uint32_t message_words, int pieces, int piece);

}  // namespace collnet::collectives
