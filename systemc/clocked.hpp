// Base of every cycle-accurate module: one SC_METHOD that runs only in the
// cycles in which the module has work (architecture: idle modules do not run).
//
// A module is evaluated in cycle t when someone called wake_at(t) earlier: a
// link on which a flit or credit arrives at t, or the module itself (it
// returns the next cycle it needs from evaluate()). This replaces a
// free-running clock sensitivity and stays cycle-accurate because every state
// change that can enable work at t is such a call. An sc_event keeps only its
// earliest pending notification, so evaluate() must also return the earliest
// arrival still pending on its inputs (a later wake-up may have been dropped).
#pragma once

#include <systemc>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

class Clocked : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Clocked);
  /// `run_at_start`: evaluate in cycle 0 without being woken (sources).
  Clocked(const sc_core::sc_module_name& name, bool run_at_start);

  /// Requests an evaluation in cycle `at` (>= the current cycle + 1, or the
  /// current cycle before this module has run in it).
  void wake_at(Cycle at);

  /// The current cycle.
  [[nodiscard]] static Cycle now() {
    return static_cast<Cycle>(sc_core::sc_time_stamp().value()) / ticks_per_cycle();
  }
  /// SystemC time resolution units per cycle (1 ns at the default 1 ps).
  [[nodiscard]] static std::uint64_t ticks_per_cycle();

 protected:
  /// One evaluation in cycle `now`; returns the next cycle this module must
  /// run in (kNever: only when woken by a link).
  virtual Cycle evaluate(Cycle now) = 0;

 private:
  void process();

  sc_core::sc_event wake_;
  Cycle scheduled_ = kNever;
};

}  // namespace collnet::systemc
