// What the software loader of a schedule engine (driver/engine_loader.hpp)
// needs from an algorithm, as typed values: the algorithm's registry entry
// (algorithm.hpp) names the engine that runs it and reads these from the
// scenario with its own key declarations, so the loader neither compares
// algorithm names nor reads scenario keys.
#pragma once

#include <cstdint>
#include <memory>
#include <variant>

#include "collectives/descriptor.hpp"

namespace collnet::collectives {

/// The schedule engines of hls/ and rtl/; everything else about an engine
/// (its name, limits, loader, HLS class, RTL model) is its entry in the
/// engine catalog (driver/engine_catalog.hpp).
enum class EngineKind : std::uint8_t { a2a, a2at, hopgroup, hd, twotree, programmable };

enum class A2atOrder { printed, reordered };
enum class HdOp { sum, product, max, min, average };

/// schedule_engine_a2a: a2a-spread (nd false) and a2a-nd (nd true).
struct A2aEngineParams {
  bool nd = false;
  int nct = 4;
  std::uint32_t message_words = 0;
  bool group_barriers = false;
};

/// schedule_engine_a2at: a2a-optimal.
struct A2atEngineParams {
  int nct = 4;
  A2atOrder order = A2atOrder::reordered;
  std::uint32_t message_words = 0;
  bool group_barriers = false;
};

/// schedule_engine_hopgroup: a2a-hopgroup (direct false) and
/// a2a-hopgroup-direct (direct true).
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

/// schedule_engine_hd: hd-allreduce (conventional false) and
/// hd-allreduce-conventional.
struct HdEngineParams {
  bool conventional = false;
  bool bandwidth_order = false;  // dim_order
  HdOp op = HdOp::sum;
  DataType dtype = DataType::int64;
  std::int64_t elements = 0;
  int aggregation_units = 4;
};

struct TreeCollectivePlan;

/// schedule_engine_twotree: the plan the reference schedule is built from
/// (tree_collective.hpp, plan_tree_collective); the builder hands it over
/// with the schedule (Schedule::engine_params), so a run builds it once.
struct TwotreeEngineParams {
  std::shared_ptr<const TreeCollectivePlan> plan;
};

using EngineParams =
    std::variant<A2aEngineParams, A2atEngineParams, HopgroupEngineParams, HdEngineParams, TwotreeEngineParams>;

}  // namespace collnet::collectives
