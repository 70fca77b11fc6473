// What `collnet run` shows while a run lasts: simulated cycles, messages (or
// packets) delivered and router-cycles/s on stderr, once the run has taken a
// second; redrawn in place on a terminal, a line per second otherwise
// (--progress). Nothing when stderr is not a terminal and --progress is off.
#pragma once

#include <chrono>

#include "systemc/kernel/run_progress.hpp"

namespace collnet::cli {

class RunProgressDisplay {
 public:
  /// `forced`: --progress; `delay_seconds`: quiet for this long first.
  RunProgressDisplay(bool forced, double delay_seconds = 1.0);
  ~RunProgressDisplay();
  RunProgressDisplay(const RunProgressDisplay&) = delete;
  RunProgressDisplay& operator=(const RunProgressDisplay&) = delete;

  /// The callback for the simulation; empty when the display is off.
  systemc::RunProgressFn callback();
  void finish();

 private:
  void show(const systemc::RunSnapshot& s);
  bool on_ = false;
  bool tty_ = false;
  bool drawn_ = false;
  bool shown_ = false;
  double delay_;
  std::chrono::steady_clock::time_point start_, last_;
  systemc::Cycle last_cycle_ = 0;
};

}  // namespace collnet::cli
