// Base of every cycle-accurate module: one SC_METHOD that runs only in the
// cycles in which the module has work (architecture: idle modules do not run).
//
// A module is evaluated in cycle t when someone called wake_at(t) earlier: a
// link on which a flit or credit arrives at t, or the module itself (it
// returns the next cycle it needs from evaluate()). This replaces a
// free-running clock sensitivity and stays cycle-accurate because every state
// change that can enable work at t is such a call. A module keeps only its
// earliest pending wake-up, so evaluate() must also return the earliest
// arrival still pending on its inputs (a later wake-up may have been dropped).
//
// Wake-ups less than WakeScheduler::kHorizon cycles ahead go through the
// scheduler's calendar: one timed notification per active cycle for the whole
// network, whose process then evaluates each module of that cycle directly
// (no event, no kernel activation per module), instead of one entry per
// module in the kernel's timed-event heap. The modules of a cycle run in the
// same evaluation phase either way, and the link timing contract (link.hpp)
// makes a cycle's result independent of their order. Farther wake-ups (a
// traffic source idle for long) and wake-ups for the current cycle use the
// module's own event.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <systemc>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

class Clocked;

/// Calendar of near wake-ups of the current kernel context (owned by the
/// KernelSession).
class WakeScheduler final : public sc_core::sc_module {
 public:
  static constexpr Cycle kHorizon = 64;
  SC_HAS_PROCESS(WakeScheduler);
  explicit WakeScheduler(const sc_core::sc_module_name& name);
  /// `module` runs in cycle `at` (now < at < now + kHorizon).
  void schedule(Clocked& module, Cycle at, Cycle now);
  /// Gives `module` the next dense index (creation order, which is also the
  /// order of evaluation within a cycle).
  std::uint32_t enrol(Clocked& module);
  /// The cycle whose modules dispatch() is evaluating, or kNever outside it
  /// (the modules it runs learn the current cycle from here, not from the
  /// kernel).
  [[nodiscard]] Cycle firing_at() const { return firing_at_; }
  /// The scheduler of the current KernelSession (throws if there is none).
  static WakeScheduler& current();

 private:
  friend class KernelSession;
  void dispatch();
  void notify_tick(Cycle at, Cycle now);

  static WakeScheduler* current_;
  /// Cycle c's wake-ups are bucket c % kHorizon. Those of order-free modules
  /// (Clocked::set_order_free) are a bitmap over the modules' dense indices
  /// (bit i: module i was woken for that cycle; several wake-ups of one
  /// module for the same cycle set one bit) with a summary bitmap over its
  /// words (bit w: word w is non-zero). dispatch() evaluates them in index
  /// order, which is creation order: neighbours in memory run one after the
  /// other instead of in the order they were woken.
  std::size_t words_ = 0;          // bitmap words per bucket (grows with enrol)
  std::size_t summary_words_ = 0;  // summary words per bucket
  std::vector<std::uint64_t> bits_;     // kHorizon buckets of words_ words
  std::vector<std::uint64_t> summary_;  // kHorizon buckets of summary_words_ words
  std::vector<Clocked*> modules_;       // by dense index
  /// The wake-ups of modules that are not order-free, per bucket in the
  /// order they were made (evaluated in that order, after the bitmap's).
  std::array<std::vector<Clocked*>, kHorizon> ordered_;
  std::uint64_t occupied_ = 0;  // bit c: bucket c holds wake-ups
  std::vector<Clocked*> firing_;
  sc_core::sc_event tick_;
  Cycle tick_at_ = kNever;
  Cycle firing_at_ = kNever;
};

class Clocked : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Clocked);
  /// `run_at_start`: evaluate in cycle 0 without being woken (sources).
  Clocked(const sc_core::sc_module_name& name, bool run_at_start);

  /// Requests an evaluation in cycle `at` (>= the current cycle + 1, or the
  /// current cycle before this module has run in it).
  void wake_at(Cycle at) {
    // A module with a wake-up pending at or before `at` runs by then and
    // recomputes what it waits for (scheduled_ == now: it has not run in
    // this cycle yet, or is running; process() clears scheduled_ when it runs).
    if (at >= scheduled_) return;
    // Most wake-ups come from a module the calendar is evaluating (its own
    // next cycle, its links' arrivals) and go into the calendar: inline.
    const Cycle firing = scheduler_.firing_at();
    if (firing != kNever && at > firing && at - firing < WakeScheduler::kHorizon) {
      scheduled_ = at;
      scheduler_.schedule(*this, at, firing);
    } else {
      schedule(at);
    }
  }

  /// Whether a credit returning to this module must wake it. A module with
  /// nothing waiting for credits absorbs them (timestamped on the link) at
  /// its next evaluation instead, which gives the same decisions.
  [[nodiscard]] bool wakes_on_credit() const { return wake_on_credit_; }
  /// How many times this module has been evaluated (idle modules do not run).
  [[nodiscard]] std::uint64_t evaluations() const { return evaluations_; }

  /// A hint for the memory system, called by the wake-up calendar a few
  /// modules ahead of this module's evaluation: stage 0 prefetches the
  /// module's own arrays that an evaluation reads first, stage 1 (later,
  /// when those have arrived) what they point to, such as the links with
  /// traffic. It reads state and changes none; default: nothing.
  virtual void prefetch(int /*stage*/) const {}

  /// The current cycle.
  [[nodiscard]] static Cycle now() {
    return static_cast<Cycle>(sc_core::sc_time_stamp().value()) / kTicksPerCycle;
  }
  /// SystemC time resolution units per cycle: one cycle is 1 ns at SystemC's
  /// default resolution of 1 ps (KernelSession checks the resolution).
  static constexpr std::uint64_t kTicksPerCycle = 1000;
  [[nodiscard]] static constexpr std::uint64_t ticks_per_cycle() { return kTicksPerCycle; }

 protected:
  /// One evaluation in cycle `now`; returns the next cycle this module must
  /// run in (kNever: only when woken by a link).
  virtual Cycle evaluate(Cycle now) = 0;
  void set_wake_on_credit(bool wake) { wake_on_credit_ = wake; }
  /// Declares that this module's evaluation in a cycle depends on no other
  /// module's evaluation in that cycle (it meets only links, whose timing
  /// contract makes the order irrelevant): the calendar evaluates such modules
  /// in creation order, before the others of the cycle. A module that reads
  /// or writes another module's state directly (a NIC's delivery
  /// acknowledgements) is not order-free: those run in wake-up order.
  void set_order_free() { order_free_ = true; }
  /// Two words a derived module may hand to its links as activity flags
  /// (Link::mark_flits_in / mark_credits_in): they share a cache line with
  /// the wake-up state that a sending link touches anyway.
  std::uint64_t link_activity_[2] = {0, 0};

 private:
  friend class WakeScheduler;
  void process();
  void schedule(Cycle at);
  /// Called by the scheduler in cycle `at`: evaluates the module now unless
  /// its wake-up moved (it ran earlier, or is due earlier, see wake_at).
  void fire(Cycle at) {
    if (scheduled_ == at) run(at);
  }
  void run(Cycle current);

  Cycle scheduled_ = kNever;
  std::uint32_t index_;  // dense index in the scheduler's bitmaps
  bool event_pending_ = false;  // wake_ carries a notification (far or same-cycle wake-up)
  bool wake_on_credit_ = true;
  bool order_free_ = false;
  std::uint64_t evaluations_ = 0;
  WakeScheduler& scheduler_;
  sc_core::sc_event wake_;
};

inline void WakeScheduler::schedule(Clocked& module, Cycle at, Cycle now) {
  const auto slot = static_cast<std::size_t>(at % kHorizon);
  occupied_ |= std::uint64_t{1} << slot;
  if (at < tick_at_ || tick_at_ <= now) notify_tick(at, now);
  if (!module.order_free_) {
    ordered_[slot].push_back(&module);
    return;
  }
  const std::uint32_t i = module.index_;
  const std::size_t word = i >> 6;
  bits_[slot * words_ + word] |= std::uint64_t{1} << (i & 63);
  summary_[slot * summary_words_ + (word >> 6)] |= std::uint64_t{1} << (word & 63);
}

}  // namespace collnet::systemc
