#include "systemc/kernel/clocked.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include <x86intrin.h>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "collectives/params.hpp"
#include "systemc/link/link.hpp"

namespace collnet::systemc {

WakeScheduler* WakeScheduler::current_ = nullptr;
thread_local constinit std::vector<Deferred>* WakeScheduler::outbox_ = nullptr;

void request_stop() {
  if (auto* out = WakeScheduler::outbox()) {
    out->push_back(Deferred{Deferred::stop});
    return;
  }
  sc_core::sc_stop();
}

void run_or_defer(Deferred::Action action, Clocked& module, Cycle at, std::uint64_t arg, bool shared) {
  if (auto* out = WakeScheduler::outbox(); out != nullptr && (shared || module.partition() != current_worker)) {
    Deferred d{Deferred::call};
    d.module = &module;
    d.at = at;
    d.action = action;
    d.arg = arg;
    out->push_back(d);
    return;
  }
  action(module, at, arg);
}

namespace {
/// The value the environment variable `variable` names among `values` (the
/// first when it is unset or empty); a ConfigError naming the accepted
/// names otherwise (`what`: "an evaluation order").
template <typename Value, std::size_t N>
Value requested(const char* variable, const char* what,
                const std::array<std::pair<std::string_view, Value>, N>& values) {
  const char* env = std::getenv(variable);
  const std::string name = env != nullptr ? env : "";
  if (name.empty()) return values.front().second;
  std::string accepted;
  for (const auto& [n, value] : values) {
    if (name == n) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(n);
  }
  throw ConfigError("environment variable " + std::string(variable) + ": '" + name + "' is not " + what +
                    "; accepted values: " + accepted);
}

WakeScheduler::Order requested_order() {
  using O = WakeScheduler::Order;
  return requested<O, 3>("COLLNET_EVALUATION_ORDER", "an evaluation order",
                         {{{"wake", O::wake}, {"creation", O::creation}, {"reverse-creation", O::reverse_creation}}});
}
WakeScheduler::ThreadMode requested_thread_mode() {
  using M = WakeScheduler::ThreadMode;
  return requested<M, 4>(
      "COLLNET_THREAD_MODE", "a thread mode",
      {{{"adaptive", M::adaptive}, {"parallel", M::parallel}, {"solo", M::solo}, {"alternate", M::alternate}}});
}
}  // namespace

WakeScheduler::WakeScheduler(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), order_(requested_order()), thread_mode_(requested_thread_mode()) {
  SC_METHOD(dispatch);
  sensitive << tick_;
  dont_initialize();
}

WakeScheduler& WakeScheduler::current() {
  if (current_ == nullptr) throw std::logic_error("collnet modules need a KernelSession");
  return *current_;
}

namespace {

/// The cycle of the next occupied bucket after `slot`, the bucket of cycle
/// `now` (the buckets hold cycles now+1 .. now+kHorizon-1); kNever when no
/// bucket is occupied.
Cycle next_occupied(std::uint64_t occupied, std::size_t slot, Cycle now) {
  if (occupied == 0) return kNever;
  const std::uint64_t rotated = std::rotr(occupied, static_cast<int>((slot + 1) % WakeScheduler::kHorizon));
  return now + static_cast<Cycle>(std::countr_zero(rotated)) + 1;
}

}  // namespace

void WakeScheduler::notify_tick(Cycle at, Cycle now) {
  tick_at_ = at;
  tick_.notify(sc_core::sc_time::from_value((at - now) * Clocked::ticks_per_cycle()));
}

WakeScheduler::~WakeScheduler() { stop_workers(); }

void WakeScheduler::stop_workers() {
  if (threads_.empty()) return;
  quit_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void WakeScheduler::set_workers(int workers, std::function<void()> on_worker_start) {
  if (workers < 1 || workers > 256) throw std::invalid_argument("threads: expected 1..256");
  if (workers_ != 1 || occupied_ != 0) throw std::logic_error("WakeScheduler::set_workers: set once, before the run");
  workers_ = workers;
  if (workers == 1) return;
  solo_ = thread_mode_ == ThreadMode::solo;
  on_worker_start_ = std::move(on_worker_start);
  for (int p = 0; p <= workers; ++p) lanes_.push_back(std::make_unique<Lane>());
  for (int w = 1; w < workers; ++w) threads_.emplace_back([this, w] { worker_loop(static_cast<unsigned>(w)); });
}

namespace {
// A worker waits for the next phase (and the main thread for the workers) by
// spinning a little, then yielding, then sleeping on the futex: a calendar
// cycle of a large network takes microseconds to a few hundred, a sleep and
// wake-up tens of them. Between two phases a worker waits for the main
// thread's serial phase and the kernel's step to the next cycle (about 15 us
// on a2at-torus:32x32), longer than the spin: yielding keeps it awake for
// the next phase without burning the core (a yield hands the core to any
// thread waiting for it, so an oversubscribed machine loses nothing), and it
// sleeps only after a millisecond or so of yields (a long serial phase, the
// end of the run). With 4 yields instead of 2048 the worker slept in most
// cycles: a2at-torus:32x32 on 2 idle cores took 40.65 s against 37.91 s.
constexpr int kSpins = 256;
constexpr int kYields = 2048;

template <typename T, typename Done>
void await(const std::atomic<T>& word, Done done) {
  T seen = word.load(std::memory_order_acquire);
  for (int i = 0; !done(seen) && i < kSpins + kYields; ++i) {
    if (i < kSpins) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
    seen = word.load(std::memory_order_acquire);
  }
  while (!done(seen)) {
    word.wait(seen, std::memory_order_acquire);
    seen = word.load(std::memory_order_acquire);
  }
}
}  // namespace

void WakeScheduler::worker_loop(unsigned worker) {
  current_worker = worker;
  if (on_worker_start_) on_worker_start_();
  std::uint64_t seen = 0;
  for (;;) {
    await(generation_, [seen](std::uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (quit_.load(std::memory_order_relaxed)) return;
    run_partition(worker, phase_cycle_);
    done_.fetch_add(1, std::memory_order_acq_rel);
    done_.notify_one();
  }
}

void WakeScheduler::run_partition(unsigned worker, Cycle now) {
  Lane& lane = *lanes_[worker];
  outbox_ = &lane.outbox;
  try {
    evaluate_list(lane.firing, now);
  } catch (...) {
    lane.error = std::current_exception();
  }
  outbox_ = nullptr;
}

void WakeScheduler::apply(const Deferred& d) {
  switch (d.kind) {
    case Deferred::flit:
      d.link->deliver_flit(d.item, d.at);
      break;
    case Deferred::credit:
      d.link->deliver_credit(d.vc, d.at);
      break;
    case Deferred::notify: {
      const Cycle now = firing_at_;
      if (d.at <= now) d.module->wake_.notify(sc_core::SC_ZERO_TIME);
      else d.module->wake_.notify(sc_core::sc_time::from_value((d.at - now) * Clocked::ticks_per_cycle()));
      break;
    }
    case Deferred::cancel:
      d.module->wake_.cancel();
      break;
    case Deferred::stop:
      sc_core::sc_stop();
      break;
    case Deferred::call:
      d.action(*d.module, d.at, d.arg);
      break;
  }
}

namespace {
// After `bucket` was swapped into the firing list, it holds the previous
// cycle's firing list: empty, with the capacity of the largest cycle so far.
// Nearly every wake-up is for the next cycle, so that capacity moves on to
// the next cycle's bucket (the few wake-ups already there first, in their
// order) and the next bucket's smaller vector takes this slot. Each bucket
// then keeps only what its far wake-ups need, where each of the 64 grew to
// the largest cycle's size (8.5 MB of the heap on leafspine:p=36).
void hand_capacity_on(std::vector<Clocked*>& bucket, std::vector<Clocked*>& next) {
  if (bucket.capacity() <= next.capacity()) return;
  bucket.assign(next.begin(), next.end());
  bucket.swap(next);
  bucket.clear();
}
}  // namespace

void WakeScheduler::dispatch_threaded() {
  const Cycle now = Clocked::now();
  const auto slot = static_cast<std::size_t>(now % kHorizon);
  const std::uint64_t bit = std::uint64_t{1} << slot;
  for (auto& lane : lanes_) {
    lane->firing.swap(lane->buckets[slot]);
    lane->occupied &= ~bit;
    hand_capacity_on(lane->buckets[slot], lane->buckets[(slot + 1) % kHorizon]);
  }
  firing_at_ = now;
  phase_cycle_ = now;
  std::uint64_t start = 0;
  std::uint64_t evaluated = 0;
  std::uint64_t joined = 0;
  if (solo_) {
    // Solo: the main thread evaluates each partition as its worker would.
    start = __rdtsc();
    for (int w = 0; w < workers_; ++w) {
      current_worker = static_cast<unsigned>(w);
      run_partition(static_cast<unsigned>(w), now);
    }
    current_worker = 0;
    evaluated = joined = __rdtsc();
    ++profile_.solo_cycles;
  } else {
    // Parallel phase: workers 1.. are released, the main thread is worker 0.
    const int others = workers_ - 1;
    done_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    start = __rdtsc();
    run_partition(0, now);
    evaluated = __rdtsc();
    await(done_, [others](int done) { return done == others; });
    joined = __rdtsc();
  }
  profile_.evaluate += evaluated - start;
  profile_.wait += joined - evaluated;
  ++profile_.cycles;
  if (thread_mode_ == ThreadMode::adaptive) adapt(evaluated - start, joined - evaluated);
  if (thread_mode_ == ThreadMode::alternate) solo_ = !solo_;
  // Serial phase: errors, then every worker's deferred actions in worker
  // order, then the serial partition.
  for (int w = 0; w < workers_; ++w) {
    Lane& lane = *lanes_[static_cast<std::size_t>(w)];
    lane.firing.clear();
    if (lane.error) {
      auto error = lane.error;
      lane.error = nullptr;
      for (auto& l : lanes_) l->outbox.clear();
      firing_at_ = kNever;
      std::rethrow_exception(error);
    }
  }
  for (int w = 0; w < workers_; ++w) {
    Lane& lane = *lanes_[static_cast<std::size_t>(w)];
    for (const Deferred& d : lane.outbox) apply(d);
    lane.outbox.clear();
  }
  Lane& serial = *lanes_[static_cast<std::size_t>(workers_)];
  evaluate_list(serial.firing, now);
  serial.firing.clear();
  for (auto& hook : cycle_end_) hook(now);
  profile_.serial += __rdtsc() - joined;
  firing_at_ = kNever;
  std::uint64_t occupied = 0;
  for (auto& lane : lanes_) occupied |= lane->occupied;
  tick_at_ = kNever;
  if (const Cycle next = next_occupied(occupied, slot, now); next != kNever) notify_tick(next, now);
}

namespace {
constexpr std::uint64_t kWindow = 256;    // cycles a way is measured over
constexpr std::uint64_t kFirstLook = 16;  // cycles before a parallel window may end early
constexpr int kMaxBackoff = 64;           // solo windows between two tries of the workers at most
}  // namespace

void WakeScheduler::adapt(std::uint64_t evaluate, std::uint64_t wait) {
  Adaptive& a = adaptive_;
  ++a.cycles;
  a.ticks += evaluate + wait;
  a.evaluate += evaluate;
  a.wait += wait;
  if (solo_) {
    if (a.cycles < kWindow) return;
    a.solo_cost = a.ticks / a.cycles;
    // Back to the workers if they were faster when last measured, else
    // try them after `backoff` windows, waiting twice as long each time
    // they lose.
    if ((a.parallel_cost != 0 && a.parallel_cost < a.solo_cost) || ++a.solo_windows >= a.backoff) {
      if (a.solo_windows >= a.backoff) a.backoff = std::min(2 * a.backoff, kMaxBackoff);
      a.solo_windows = 0;
      solo_ = false;
    }
  } else {
    // The main thread waiting at the barrier twice as long as it worked
    // means a worker without a core, not the partitions' imbalance; a try
    // that has already cost a whole solo window has lost.
    const bool starved = a.cycles >= kFirstLook && a.wait > 2 * a.evaluate;
    const bool lost = a.solo_cost != 0 && a.ticks > a.solo_cost * kWindow;
    if (a.cycles < kWindow && !starved && !lost) return;
    a.parallel_cost = a.ticks / a.cycles;
    if (starved || lost) {
      solo_ = true;
    } else if (a.solo_cost != 0) {
      solo_ = a.solo_cost < a.parallel_cost;
      if (!solo_) a.backoff = 4;  // the workers won: they stay
    } else {
      solo_ = a.wait > a.evaluate;  // worth measuring solo once
    }
  }
  a.cycles = a.ticks = a.evaluate = a.wait = 0;
}

void WakeScheduler::evaluate_list(std::vector<Clocked*>& firing, Cycle now) {
  const std::size_t n = firing.size();
  if (order_ != Order::wake) [[unlikely]] {
    const bool ascending = order_ == Order::creation;
    std::sort(firing.begin(), firing.end(), [ascending](const Clocked* a, const Clocked* b) {
      return ascending ? a->creation_ < b->creation_ : a->creation_ > b->creation_;
    });
  }
  // A small network's state stays in the caches: the prefetches below would
  // be instructions and calls for nothing (on mesh:8x8 they save no cache
  // miss; instructions per flit-hop: docs/performance.md).
  if (created_ < kPrefetchFrom) {
    for (std::size_t i = 0; i < n; ++i) firing[i]->fire(now);
    return;
  }
  // On a large network the modules of a cycle are hundreds of independent
  // cache misses each (their state, their links): the loop asks for the
  // memory of the modules kAhead, 2 kAhead and 3 kAhead places on (their
  // object, then the arrays it holds, then what those point to) while it
  // evaluates this one. The order of evaluation is unchanged.
  constexpr std::size_t kAhead = 4;
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 3 * kAhead < n) {
      const Clocked* m = firing[i + 3 * kAhead];
      __builtin_prefetch(m);
      __builtin_prefetch(&m->scheduled_);
    }
    if (i + 2 * kAhead < n) firing[i + 2 * kAhead]->prefetch(0);
    if (i + kAhead < n) firing[i + kAhead]->prefetch(1);
    firing[i]->fire(now);
  }
}

void WakeScheduler::dispatch() {
  if (workers_ > 1) {
    dispatch_threaded();
    return;
  }
  const Cycle now = Clocked::now();
  const auto slot = static_cast<std::size_t>(now % kHorizon);
  // The modules evaluated here schedule their next wake-ups into other
  // buckets (1 .. kHorizon-1 cycles ahead) or on their own events, never
  // into this one; the swap keeps the bucket reusable.
  firing_.swap(buckets_[slot]);
  occupied_ &= ~(std::uint64_t{1} << slot);
  hand_capacity_on(buckets_[slot], buckets_[(slot + 1) % kHorizon]);
  firing_at_ = now;
  const std::uint64_t start = __rdtsc();
  evaluate_list(firing_, now);
  profile_.evaluate += __rdtsc() - start;
  ++profile_.cycles;
  firing_at_ = kNever;
  firing_.clear();
  tick_at_ = kNever;
  if (const Cycle next = next_occupied(occupied_, slot, now); next != kNever) notify_tick(next, now);
}

Clocked::Clocked(const sc_core::sc_module_name& name, bool run_at_start)
    : sc_core::sc_module(name),
      creation_(WakeScheduler::current().next_creation_number()),
      scheduler_(WakeScheduler::current()) {
  // The module's method process is a child of the scheduler, not of the
  // module: SystemC keeps a destroyed module's processes alive as top-level
  // objects, one appended per module, which made tearing down a large network
  // quadratic (TeardownSentinel: the order it relies on is kept only while
  // destroying a module removes the module alone).
  sc_core::sc_simcontext* context = sc_core::sc_get_curr_simcontext();
  context->hierarchy_push(&scheduler_);
  std::string process_name = std::string(sc_core::sc_module::name()) + "_process";
  std::replace(process_name.begin(), process_name.end(), '.', '_');
  const sc_core::sc_process_handle handle = context->create_method_process(
      process_name.c_str(), false, static_cast<sc_core::SC_ENTRY_FUNC>(&Clocked::process), this, nullptr);
  context->hierarchy_pop();
  sensitive << handle;
  sensitive << wake_;
  if (!run_at_start) dont_initialize();
}

void Clocked::schedule(Cycle at) {
  // Inside the calendar's dispatch (most wake-ups: the evaluated module's own
  // and those its links send) the cycle is known without asking the kernel.
  const Cycle firing = scheduler_.firing_at();
  const Cycle current = firing != kNever ? firing : now();
  scheduled_ = at;
  if (at > current && at - current < WakeScheduler::kHorizon) {
    scheduler_.schedule(*this, at, current);
    return;
  }
  if (auto* out = WakeScheduler::outbox()) [[unlikely]] {
    // Parallel phase: the module's own event is the kernel's, notified by
    // the main thread after the phase (a same-cycle wake-up still runs in
    // this cycle, in a later delta, as it would have).
    out->push_back(Deferred{Deferred::notify, 0, nullptr, this, at});
    event_pending_ = true;
    return;
  }
  if (at <= current) {
    wake_.notify(sc_core::SC_ZERO_TIME);
    event_pending_ = true;
  } else if (at - current < WakeScheduler::kHorizon) {
    scheduler_.schedule(*this, at, current);
  } else {
    wake_.notify(sc_core::sc_time::from_value((at - current) * ticks_per_cycle()));
    event_pending_ = true;
  }
}

void Clocked::process() {
  event_pending_ = false;
  run(now());
}

void Clocked::run(Cycle current) {
  // A later notification of the module's own event is superseded by this
  // evaluation (as an immediate notification would have cancelled it).
  if (event_pending_) {
    if (auto* out = WakeScheduler::outbox()) out->push_back(Deferred{Deferred::cancel, 0, nullptr, this, 0});
    else wake_.cancel();
    event_pending_ = false;
  }
  scheduled_ = kNever;
  ++evaluations_;
  const Cycle next = evaluate(current);
  if (next != kNever) wake_at(next);
}

}  // namespace collnet::systemc
