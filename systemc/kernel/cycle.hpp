// Simulated time in clock cycles. The models have one clock (architecture,
// "Cycle-accurate models"): one cycle is one nanosecond of SystemC time, and a
// module that has nothing to do is not evaluated (Clocked::wake_at).
#pragma once

#include <cstdint>
#include <limits>

namespace collnet::systemc {

using Cycle = std::uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

}  // namespace collnet::systemc
