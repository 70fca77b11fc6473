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
//
// The calendar evaluates a cycle's modules in the order they were woken.
// The environment variable COLLNET_EVALUATION_ORDER changes that order for
// testing: `creation` runs a cycle's modules in the order they were
// constructed, `reverse-creation` in the opposite order, so that any two
// modules of a cycle run one way round in one and the other way round in
// the other. Every figure of a run must stay the same (golden test
// GoldenFigures.EveryEvaluationOrderGivesTheSameRun), which checks the timing
// contract above.
//
// Threads (set_workers, key `threads`): the modules are split into
// partitions, one per worker thread, plus a serial partition (run-wide
// modules: watchdog, traffic control). A calendar cycle then runs in three
// steps: every worker evaluates its partition's woken modules (the parallel
// phase; the main thread is worker 0), a barrier, then the main thread
// applies, worker by worker in a fixed order, what the parallel phase could
// not do itself (the deferred actions: flits and credits on links between
// two partitions, the modules' own SystemC events, sc_stop, and a module's
// actions on state another partition owns, run_or_defer: a NIC's delivery
// acknowledgement to a source on another worker, barrier entries) and
// evaluates the serial partition's modules. Because nothing a module does in cycle t is
// visible to another module before t + 1 (link.hpp), applying a link's
// sends after the cycle gives the run that evaluating the receiver first
// would have given; the figures are those of one thread.
//
// A worker that has to wait for a core makes every cycle wait for it at the
// barrier (several times slower than one thread, docs/performance.md). A
// threaded run therefore measures what its cycles cost and, while the main
// thread would be faster alone, evaluates every partition itself, one after
// the other (solo cycles: the workers sleep, each partition runs as its
// worker would, with that worker's index and deferred actions, so nothing
// simulated changes). It tries the workers again after 4, 8, .. 64 windows
// of 256 solo cycles, and leaves such a try as soon as it has cost more than
// a solo window. COLLNET_THREAD_MODE sets this for testing: `adaptive` (the
// default), `parallel` (never solo), `solo` (always) or `alternate` (solo
// every other cycle, so that every hand-over between the ways is exercised).
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include <systemc>

#include "systemc/kernel/cycle.hpp"
#include "systemc/link/packet.hpp"
#include "systemc/kernel/worker.hpp"

namespace collnet::systemc {

class Clocked;
class Link;

/// What a worker could not do inside the parallel phase, applied by the main
/// thread after it (in worker order, each worker's in the order they arose).
struct Deferred {
  enum Kind : std::uint8_t { flit, credit, notify, cancel, stop, call };
  /// `call`: a module's action on state another partition owns (a NIC's
  /// acknowledgement to its source, a barrier entry), run by the main thread.
  using Action = void (*)(Clocked& module, Cycle at, std::uint64_t arg);
  Kind kind;
  std::uint8_t vc = 0;
  Link* link = nullptr;
  Clocked* module = nullptr;
  Cycle at = 0;  // flit, credit: arrival; notify: the wake-up cycle; call: its argument
  Flit item{};
  Action action = nullptr;
  std::uint64_t arg = 0;
};

/// Ends the run (sc_stop) at the end of the current cycle's parallel phase,
/// or now outside it.
void request_stop();

/// Runs `action(module, at, arg)` now, or, inside the parallel phase of a
/// threaded cycle, after it on the main thread (in worker order, each
/// worker's in the order they arose), unless `module` is the calling
/// worker's own and `shared` is false.
void run_or_defer(Deferred::Action action, Clocked& module, Cycle at, std::uint64_t arg, bool shared);

/// Calendar of near wake-ups of the current kernel context (owned by the
/// KernelSession).
class WakeScheduler final : public sc_core::sc_module {
 public:
  static constexpr Cycle kHorizon = 64;
  /// Networks of fewer modules are evaluated without prefetching (their
  /// state fits the caches).
  static constexpr std::uint32_t kPrefetchFrom = 256;
  SC_HAS_PROCESS(WakeScheduler);
  explicit WakeScheduler(const sc_core::sc_module_name& name);
  /// `module` runs in cycle `at` (now < at < now + kHorizon).
  inline void schedule(Clocked& module, Cycle at, Cycle now);
  /// The cycle whose modules dispatch() is evaluating, or kNever outside it
  /// (the modules it runs learn the current cycle from here, not from the
  /// kernel).
  [[nodiscard]] Cycle firing_at() const { return firing_at_; }
  /// The scheduler of the current KernelSession (throws if there is none).
  static WakeScheduler& current();
  /// The order in which the calendar evaluates a cycle's modules
  /// (COLLNET_EVALUATION_ORDER: `wake`, the default, `creation` or
  /// `reverse-creation`; any other value is a ConfigError naming the
  /// variable and the accepted values).
  enum class Order : std::uint8_t { wake, creation, reverse_creation };
  /// Numbers the modules in construction order (Clocked's constructor).
  std::uint32_t next_creation_number() { return created_++; }

  /// Evaluates the calendar's cycles on `workers` threads (1: the serial
  /// calendar of above). Call before the run starts, then place every
  /// module with Clocked::set_partition. `on_worker_start` runs first on
  /// each new worker thread (thread-local scratch of the modules).
  void set_workers(int workers, std::function<void()> on_worker_start = {});
  [[nodiscard]] int workers() const { return workers_; }
  /// The partition index of the serial partition (== workers()).
  [[nodiscard]] std::uint16_t serial_partition() const { return static_cast<std::uint16_t>(workers_); }
  /// Inside the parallel phase, the calling worker's list of deferred
  /// actions; nullptr anywhere else (act directly).
  [[nodiscard]] static std::vector<Deferred>* outbox() { return outbox_; }
  /// Called by the main thread after every threaded cycle (serial phase).
  void add_cycle_end(std::function<void(Cycle)> hook) { cycle_end_.push_back(std::move(hook)); }
  /// Time-stamp-counter ticks (__rdtsc) the calendar spent evaluating the
  /// partitions' modules (one thread: the part of a run that threads can
  /// share; threaded: the main thread's own partition), waiting for the
  /// other workers, and in the serial phase. Compared with the ticks of the
  /// whole simulation, the first gives the serial fraction (Amdahl).
  struct Profile {
    std::uint64_t evaluate = 0;
    std::uint64_t wait = 0;
    std::uint64_t serial = 0;
    std::uint64_t cycles = 0;       // calendar cycles dispatched
    std::uint64_t solo_cycles = 0;  // threaded cycles the main thread evaluated alone
  };
  /// How a threaded calendar uses its workers (COLLNET_THREAD_MODE).
  enum class ThreadMode : std::uint8_t { adaptive, parallel, solo, alternate };
  [[nodiscard]] const Profile& profile() const { return profile_; }
  ~WakeScheduler() override;

 private:
  friend class KernelSession;
  friend class Clocked;
  void dispatch();
  void dispatch_threaded();
  void notify_tick(Cycle at, Cycle now);
  void evaluate_list(std::vector<Clocked*>& firing, Cycle now);
  void worker_loop(unsigned worker);
  void run_partition(unsigned worker, Cycle now);
  /// Adaptive mode, after a threaded cycle's parallel phase that took
  /// `evaluate` ticks on the main thread and `wait` ticks at the barrier:
  /// whether the next cycles run solo.
  void adapt(std::uint64_t evaluate, std::uint64_t wait);
  void apply(const Deferred& d);
  void stop_workers();

  static WakeScheduler* current_;
  static thread_local constinit std::vector<Deferred>* outbox_;
  std::array<std::vector<Clocked*>, kHorizon> buckets_;
  std::uint64_t occupied_ = 0;  // bit c: bucket c holds wake-ups
  std::vector<Clocked*> firing_;
  sc_core::sc_event tick_;
  Cycle tick_at_ = kNever;
  Cycle firing_at_ = kNever;
  Order order_ = Order::wake;
  std::uint32_t created_ = 0;
  Profile profile_;

  // Threaded calendar: one lane per partition (workers_ + 1: the last is the
  // serial partition), each on its own cache lines.
  struct alignas(64) Lane {
    std::array<std::vector<Clocked*>, kHorizon> buckets;
    std::uint64_t occupied = 0;
    std::vector<Clocked*> firing;
    std::vector<Deferred> outbox;
    std::exception_ptr error;
  };
  int workers_ = 1;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<std::thread> threads_;
  std::function<void()> on_worker_start_;
  std::vector<std::function<void(Cycle)>> cycle_end_;
  alignas(64) std::atomic<std::uint64_t> generation_{0};  // bumped to start a parallel phase
  std::atomic<bool> quit_{false};
  alignas(64) std::atomic<int> done_{0};                    // workers 1.. finished this phase
  Cycle phase_cycle_ = 0;
  ThreadMode thread_mode_ = ThreadMode::adaptive;
  bool solo_ = false;  // the main thread evaluates every partition
  // Adaptive mode: the window being measured and the last cost per cycle
  // (ticks, 0: not measured yet) of each way.
  struct Adaptive {
    std::uint64_t cycles = 0, ticks = 0, evaluate = 0, wait = 0;
    std::uint64_t parallel_cost = 0, solo_cost = 0;
    int solo_windows = 0;  // since the last try of the workers
    int backoff = 4;       // solo windows before the next try
  } adaptive_;
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

  /// The partition (worker) this module is evaluated by in a threaded run
  /// (WakeScheduler::set_workers); ignored by the serial calendar.
  void set_partition(std::uint16_t partition) { partition_ = partition; }
  [[nodiscard]] std::uint16_t partition() const { return partition_; }

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
  /// Two words a derived module may hand to its links as activity flags
  /// (Link::mark_flits_in / mark_credits_in). They open the module's one
  /// cache line of wake-up state (below, 48 bytes): a sending link sets a
  /// flag and then wakes the module, and an evaluation reads both.
  alignas(64) std::uint64_t link_activity_[2] = {0, 0};

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
  bool event_pending_ = false;  // wake_ carries a notification (far or same-cycle wake-up)
  bool wake_on_credit_ = true;
  std::uint16_t partition_ = 0;
  std::uint32_t creation_;  // construction order (WakeScheduler::Order)
  std::uint64_t evaluations_ = 0;
  WakeScheduler& scheduler_;
  // Read only when a wake-up is too far for the calendar or the event is
  // pending: after the line above.
  sc_core::sc_event wake_;
};

void WakeScheduler::schedule(Clocked& module, Cycle at, Cycle now) {
  const auto slot = static_cast<std::size_t>(at % kHorizon);
  if (workers_ == 1) [[likely]] {
    buckets_[slot].push_back(&module);
    occupied_ |= std::uint64_t{1} << slot;
  } else {
    // A module is woken only by its own worker in the parallel phase (links
    // between partitions defer their wake-ups), or by the main thread.
    Lane& lane = *lanes_[module.partition_];
    lane.buckets[slot].push_back(&module);
    lane.occupied |= std::uint64_t{1} << slot;
    if (outbox_ != nullptr) return;  // parallel phase: dispatch() sets the next tick
  }
  if (at < tick_at_ || tick_at_ <= now) notify_tick(at, now);
}

}  // namespace collnet::systemc
