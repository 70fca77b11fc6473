// The baselines document 001 compares A2AT with: a2a-spread, a2a-nd and
// a2a-random (a2a_baselines.cpp describes each).
#pragma once

#include <cstdint>

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

/// The values a2a-spread (nd false) and a2a-nd (nd true) load their schedule
/// engine with (engine "a2a", driver/engines/a2a.cpp).
struct A2aEngineParams {
  bool nd = false;
  int nct = 4;
  std::uint32_t message_words = 0;
  bool group_barriers = false;
};

Algorithm make_a2a_spread();
Algorithm make_a2a_nd();
Algorithm make_a2a_random();

}  // namespace collnet::collectives
