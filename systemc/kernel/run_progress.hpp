// Progress of a running simulation (`collnet run --progress`): a snapshot
// handed to a callback between slices of simulated time. The callback only
// reads; a run with progress simulates exactly what a run without does.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>

#include "systemc/kernel/cycle.hpp"

namespace collnet::systemc {

struct RunSnapshot {
  Cycle cycle = 0;              // simulated cycles so far
  std::uint64_t delivered = 0;  // messages (collective) or packets (synthetic) delivered so far
  std::size_t routers = 0;
};

using RunProgressFn = std::function<void(const RunSnapshot&)>;

/// A request to end the running simulation early: SIGINT or SIGTERM in the
/// CLI, Ctrl-C in the Python module. The kernel runs in slices of
/// progress_slice() cycles and ends the run after the slice in which the
/// request arrived; the run then reports the figures so far, with
/// `interrupted` set. request_interrupt() is async-signal-safe (a lock-free
/// atomic store); a run does not clear a request, its caller does.
inline std::atomic<bool> g_interrupt_request{false};
static_assert(std::atomic<bool>::is_always_lock_free);
inline void request_interrupt() noexcept { g_interrupt_request.store(true, std::memory_order_relaxed); }
inline bool interrupt_requested() noexcept { return g_interrupt_request.load(std::memory_order_relaxed); }
inline void clear_interrupt() noexcept { g_interrupt_request.store(false, std::memory_order_relaxed); }

/// Cycles between two snapshots: about 200k router-cycles (tens of ms).
inline Cycle progress_slice(std::size_t routers) {
  return std::max<Cycle>(64, 200000 / std::max<std::size_t>(routers, 1));
}

}  // namespace collnet::systemc
