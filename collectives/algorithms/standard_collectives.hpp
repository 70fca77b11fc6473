// The standard collectives every communication library uses, on any topology
// (every endpoint is a rank, rank = endpoint id):
//
//   ring-allreduce       reduce-scatter then allgather around the ring
//                        0 -> 1 -> ... -> n-1 -> 0; n-1 + n-1 steps
//   rd-allreduce         recursive halving reduce-scatter (distances p/2, p/4,
//                        ..., 1) then recursive doubling allgather (1, 2, ...,
//                        p/2) over p = the largest power of two <= n ranks;
//                        2 log2 p steps, 2 more where p < n (the first
//                        2(n - p) ranks fold in pairs before, copy back after)
//   binomial-bcast       binomial tree rooted at `root`; ceil(log2 n) steps
//   binomial-reduce      the same tree, leaves first; ceil(log2 n) steps
//   ring-reduce-scatter  the reduce-scatter half of ring-allreduce
//   ring-allgather       the allgather half of ring-allreduce
//   pairwise-alltoall    n-1 steps; at step s rank i sends to i XOR s (n a
//                        power of two), else to (i+s) mod n, and waits for
//                        the block of that step
//
// Data (keys `elements` = L, `op`, `dtype`): every rank's vector of L words at
// offset 0 (reduction_input of tree_pipeline.hpp: values whose reduction is
// exact in any order, so float results are bit-identical). The vector is cut
// into n chunks, chunk c = standard_chunk(L, n, c): floor(L/n) words, the
// first L mod n chunks one more; a chunk of 0 words is not sent. A reduction
// combines on receipt (the SEND's receive op adds into the receiver's copy of
// the chunk); every message has the tag of its step, and a rank WAITs for the
// message of a step before it sends what that message completed.
//   allreduce: every rank ends with the fold over all ranks of the vector;
//   reduce-scatter: rank i ends with chunk i of the fold (at its offset);
//   allgather: rank i starts with chunk i of its own vector (0 elsewhere) and
//     ends with chunk c of rank c's vector at chunk c, for every c;
//   bcast: every rank ends with the root's vector; reduce: the root ends with
//     the fold.
// The all-to-all moves message_flits words per ordered pair in the layout of
// a2a_common.hpp (send areas at 0, result areas at n*M), its own block by a
// local copy.
//
// lower_bound (flit times on one endpoint's injection link, one controller):
// allreduce ceil(2(n-1)L/n) (every rank must send that much, the bandwidth
// term of the alpha-beta cost), reduce-scatter and allgather ceil((n-1)L/n),
// bcast and reduce L, all-to-all (n-1)M (on a mesh or torus at least the
// bisection bound).
#pragma once

#include <cstdint>

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

struct Chunk {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
};

/// Chunk c of n of a vector of `elements` words.
Chunk standard_chunk(std::uint32_t elements, std::int32_t n, std::int32_t c);

/// The key `root` (binomial-bcast, binomial-reduce, the in-network reduce and bcast).
const Key& standard_root_key();

Algorithm make_ring_allreduce();
Algorithm make_rd_allreduce();
Algorithm make_binomial_bcast();
Algorithm make_binomial_reduce();
Algorithm make_ring_allgather();
Algorithm make_ring_reduce_scatter();
Algorithm make_pairwise_alltoall();

}  // namespace collnet::collectives
