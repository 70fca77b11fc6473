// The thread modes a threaded run is tested in (COLLNET_THREAD_MODE,
// systemc/kernel/clocked.hpp): every cycle on all threads, every cycle on the main
// thread alone, and the two alternating (each switch between them once per
// cycle). Each must give the figures of one thread.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace collnet::systemc {

struct ThreadVariant {
  int threads;
  const char* mode;
  // The solo cycles a run of `calendar_cycles` dispatched cycles reports.
  [[nodiscard]] std::uint64_t solo_cycles(std::uint64_t calendar_cycles) const {
    const std::string m = mode;
    return m == "parallel" ? 0 : m == "solo" ? calendar_cycles : calendar_cycles / 2;
  }
};

inline std::vector<ThreadVariant> thread_variants() { return {{2, "parallel"}, {3, "alternate"}, {2, "solo"}}; }

// Sets COLLNET_THREAD_MODE for the runs in its scope (read when a run builds
// its calendar, before any worker starts).
class ScopedThreadMode {
 public:
  explicit ScopedThreadMode(const char* mode) { setenv("COLLNET_THREAD_MODE", mode, 1); }
  ~ScopedThreadMode() { unsetenv("COLLNET_THREAD_MODE"); }
  ScopedThreadMode(const ScopedThreadMode&) = delete;
  ScopedThreadMode& operator=(const ScopedThreadMode&) = delete;
};

}  // namespace collnet::systemc
