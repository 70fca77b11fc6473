// Runs the calling thread as worker `w` of a threaded run (systemc/kernel/worker.hpp)
// for the lifetime of the object, then as worker 0 again.
#pragma once

#include "systemc/kernel/worker.hpp"

namespace collnet::test {

struct OnWorker {
  explicit OnWorker(unsigned w) { collnet::systemc::current_worker = w; }
  ~OnWorker() { collnet::systemc::current_worker = 0; }
  OnWorker(const OnWorker&) = delete;
  OnWorker& operator=(const OnWorker&) = delete;
};

}  // namespace collnet::test
