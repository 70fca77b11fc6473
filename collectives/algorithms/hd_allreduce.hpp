// hd-allreduce: hierarchical halving/doubling allreduce on boards with main
// units and separate aggregation units (spec hd-allreduce, document 004), and
// its baseline hd-allreduce-conventional.
//
// Data: every main unit holds an array of L = `elements` words at offset 0;
// at the end every main unit holds, at offset 0, the elementwise reduction of
// the arrays of all main units of the system. A = `aggregation_units` planes
// (1, 2 or 4; the board has 4) each reduce a plane block of B = L/A words:
// plane a owns elements [a*B, (a+1)*B).
//
// Controllers: the aggregation units are separate endpoints of this model
// (in the hardware they are the extra controllers of the board's network
// interface); every SEND uses controller 0 of its endpoint, unless
// `link_controllers: per-link` (HdOptions::per_link_controllers). The relay of
// aggregation traffic through main units (store and forward by DMA) is part
// of the route (topology/boards.hpp), not a descriptor of the main units.
//
// Steps, one global step number per step; the tag of every network message
// is its global step number, identical in all planes (all planes run the
// same step at the same time), so the static checker's phase = step:
//   step 0          S2 in-board scatter-reduce: main unit m sends its plane-a
//                   block to aggregation unit a
//   steps 1..H      hierarchical: halving(D_0) .. halving(D_(K-1)), one step
//                   per bit s of a dimension of size 2^k (size 1 skipped)
//   steps H+1..2H   hierarchical: doubling(D_(K-1)) .. doubling(D_0), bits
//                   k-1 down to 0
//                   conventional: per dimension in turn, halving then doubling
//   step 2H+1       S10 in-board broadcast: aggregation unit a sends its
//                   block to every main unit, which places it at a*B
// Dimension order: `wxyz` (embodiment 1) or `bandwidth` (embodiment 2: the
// size-2 dimensions, which have twice the bandwidth, before the size-4 ones;
// ties W < X < Y < Z).
//
// Aggregation-unit memory (words): [0, B) the working block ("acc", plane
// positions); [m*B, (m+1)*B) the S2 receive slot of main unit m = 1..7 (main
// unit 0's piece lands in acc); then one receive slot per halving step (half
// the block held before it), so that an early message from a fast partner is
// buffered and never combined at the wrong step; then, for `average`, the
// divisor area (the number of main units, once per held word).
//
// Fixed reduction order (float results bit-identical on all units, under any
// delivery order): received pieces land in slots by copy; the aggregation
// unit combines them with local SENDs (dest = itself, op = the operator) one
// at a time, each followed by a WAIT on it (local tag 0x8000 + step):
// S2 acc = ((m0 op m1) op m2) ... op m7; a halving step keep = keep op
// received. Each final block is computed by exactly one aggregation unit
// (hierarchical) and copied from there. `average` = sum, then one local
// SEND with op divide by the number of main units on the block a unit holds
// after its last halving (conventional: after the last dimension's halving).
//
// Size-2 dimensions: a message of n words is sent as two SENDs, ceil(n/2)
// words with the + route hint and floor(n/2) with the - hint (one SEND when
// n = 1), using both cables. Size 4: the route hint is the default, whose tie
// rule (even coordinates +, odd -) loads each directed link once per step.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/schedule.hpp"
#include "topology/boards.hpp"

namespace collnet::collectives {

enum class HdVariant { hierarchical, conventional };
enum class HdOp { sum, product, max, min, average };

/// The values hd-allreduce and hd-allreduce-conventional load their schedule
/// engine with (engine "hd", driver/engines/hd.cpp).
struct HdEngineParams {
  bool conventional = false;
  bool bandwidth_order = false;  // dim_order
  HdOp op = HdOp::sum;
  DataType dtype = DataType::int64;
  std::int64_t elements = 0;
  int aggregation_units = 4;
};

/// One step of the plan; its index in the plan is its global step number.
struct HdStep {
  enum class Kind { scatter, halving, doubling, broadcast };
  Kind kind = Kind::scatter;
  int dim = -1;  // topology::Boards::Dim for halving/doubling
  int bit = 0;   // s: the coordinate bit flipped to find the partner
};

/// A block of the plane array held by an aggregation unit.
struct HdBlock {
  std::uint32_t lo = 0;
  std::uint32_t len = 0;
  bool operator==(const HdBlock&) const = default;
};

struct HdOptions {
  HdVariant variant = HdVariant::hierarchical;
  std::string dim_order = "wxyz";  // or "bandwidth"
  HdOp op = HdOp::sum;
  DataType dtype = DataType::int64;
  std::uint32_t elements = 0;      // L per main unit
  int aggregation_units = topology::Boards::kAggregationUnits;  // A: planes used (1, 2, 4)
  /// plane_order: document = main unit m sends its plane blocks in plane
  /// order 0..A-1 and aggregation unit a broadcasts to main units 0..7;
  /// rotated = main unit m sends plane (m + i) mod A at its i-th SEND and
  /// aggregation unit a sends to main unit (a + i) mod 8 at its i-th.
  bool rotated_planes = false;
  /// link_controllers: one = every SEND on controller 0; per-link = the
  /// SENDs that can run at once use separate controllers (in-board SENDs
  /// between main unit m and aggregation unit a on controller (m + a) mod 8,
  /// a size-2 ring's + half on 0 and - half on 1), and the schedule asks for
  /// 8 controllers (one per in-board link).
  bool per_link_controllers = false;
  std::uint64_t seed = 1;          // default data
  /// Input word `element` of main unit `main_index` (= board*8 + m). Empty:
  /// seeded data for which every reduction order gives the exact result.
  std::function<Word(int main_index, std::uint32_t element)> data;
  /// Keep only the descriptors of steps 0..stop_after_step (to observe the
  /// intermediate state); -1 = the whole collective. A truncated schedule
  /// has no expected regions.
  int stop_after_step = -1;
};

/// The dimensions (size > 1) in processing order. Throws ConfigError naming
/// `dim_order` for another value than wxyz or bandwidth.
std::vector<int> hd_dimension_order(const topology::Boards& boards, const std::string& dim_order);

/// The steps of the variant for that dimension order (scatter first,
/// broadcast last).
std::vector<HdStep> hd_plan(const topology::Boards& boards, HdVariant variant, const std::vector<int>& dims);

/// The block an aggregation unit of `board` holds after step `after_step`
/// (spec hd-allreduce: keep the first half if the bit is 0, else the second).
HdBlock hd_held_block(const topology::Boards& boards, const std::vector<HdStep>& plan, int board, int after_step,
                      std::uint32_t plane_words);

/// Offset of the S2 receive slot of main unit m in aggregation-unit memory
/// (layout above; main unit 0's slot is the working block itself).
std::uint32_t hd_scatter_slot(int m, std::uint32_t plane_words);

/// The initial data of main unit `main_index` with the default generator.
Word hd_default_data(HdOp op, DataType dtype, std::uint64_t seed, int main_index, std::uint32_t element);

/// Reads an `op` value: sum, product, max, min, average (ConfigError naming
/// `op` otherwise).
HdOp hd_parse_op(const std::string& text);

Schedule build_hd_allreduce(const topology::Boards& boards, const HdOptions& options);

/// The reduction of one element over the given values in list order, the
/// way the scenario defines it (for the expected results).
Word hd_reduce(HdOp op, DataType dtype, const std::vector<Word>& values);

Algorithm make_hd_allreduce();
Algorithm make_hd_allreduce_conventional();

}  // namespace collnet::collectives
