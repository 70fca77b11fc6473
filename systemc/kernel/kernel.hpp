// One SystemC kernel context per simulation run. SystemC 2.3 cannot restart a
// simulation or elaborate after it ran, but a test suite or a sweep runs many
// networks in one process: each run owns a fresh sc_simcontext, installed as
// the current one on construction (and kept allocated afterwards, see
// kernel.cpp). Build the modules after constructing the session and destroy
// them before it.
#pragma once

#include <functional>
#include <memory>

#include <systemc>

#include "systemc/kernel/clocked.hpp"

namespace collnet::systemc {

class KernelSession {
 public:
  KernelSession();
  ~KernelSession();
  KernelSession(const KernelSession&) = delete;
  KernelSession& operator=(const KernelSession&) = delete;

 private:
  sc_core::sc_simcontext* context_ = nullptr;
  std::unique_ptr<WakeScheduler> scheduler_;
};

/// Runs the kernel through cycles [now, now + cycles) or until sc_stop().
void run_for(std::uint64_t cycles);

/// The same run in slices of `slice` cycles, calling `between` (if set) after
/// each slice that did not end the run (progress display; same simulation),
/// and ending early once interrupt_requested() (systemc/kernel/run_progress.hpp).
void run_for(std::uint64_t cycles, std::uint64_t slice, const std::function<void()>& between);

}  // namespace collnet::systemc
