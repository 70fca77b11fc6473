// Progress of a running simulation (`collnet run --progress`): a snapshot
// handed to a callback between slices of simulated time. The callback only
// reads; a run with progress simulates exactly what a run without does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

struct RunSnapshot {
  Cycle cycle = 0;              // simulated cycles so far
  std::uint64_t delivered = 0;  // messages (collective) or packets (synthetic) delivered so far
  std::size_t routers = 0;
};

using RunProgressFn = std::function<void(const RunSnapshot&)>;

/// Cycles between two snapshots: about 200k router-cycles (tens of ms).
inline Cycle progress_slice(std::size_t routers) {
  return std::max<Cycle>(64, 200000 / std::max<std::size_t>(routers, 1));
}

}  // namespace collnet::systemc
