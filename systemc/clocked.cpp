#include "systemc/clocked.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "collectives/params.hpp"

namespace collnet::systemc {

WakeScheduler* WakeScheduler::current_ = nullptr;

namespace {
WakeScheduler::Order requested_order() {
  const char* env = std::getenv("COLLNET_EVALUATION_ORDER");
  const std::string order = env != nullptr ? env : "";
  if (order.empty() || order == "wake") return WakeScheduler::Order::wake;
  if (order == "creation") return WakeScheduler::Order::creation;
  if (order == "reverse-creation") return WakeScheduler::Order::reverse_creation;
  throw ConfigError("environment variable COLLNET_EVALUATION_ORDER: '" + order +
                    "' is not an evaluation order; accepted values: wake, creation, reverse-creation");
}
}  // namespace

WakeScheduler::WakeScheduler(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), order_(requested_order()) {
  SC_METHOD(dispatch);
  sensitive << tick_;
  dont_initialize();
}

WakeScheduler& WakeScheduler::current() {
  if (current_ == nullptr) throw std::logic_error("collnet modules need a KernelSession");
  return *current_;
}

void WakeScheduler::notify_tick(Cycle at, Cycle now) {
  tick_at_ = at;
  tick_.notify(sc_core::sc_time::from_value((at - now) * Clocked::ticks_per_cycle()));
}

void WakeScheduler::dispatch() {
  const Cycle now = Clocked::now();
  const auto slot = static_cast<std::size_t>(now % kHorizon);
  // The modules evaluated here schedule their next wake-ups into other
  // buckets (1 .. kHorizon-1 cycles ahead) or on their own events, never
  // into this one; the swap keeps the bucket reusable.
  firing_.swap(buckets_[slot]);
  occupied_ &= ~(std::uint64_t{1} << slot);
  // On a large network the modules of a cycle are hundreds of independent
  // cache misses each (their state, their links): the loop asks for the
  // memory of the modules kAhead, 2 kAhead and 3 kAhead places on (their
  // object, then the arrays it holds, then what those point to) while it
  // evaluates this one. The order of evaluation is unchanged.
  constexpr std::size_t kAhead = 4;
  const std::size_t n = firing_.size();
  if (order_ != Order::wake) [[unlikely]] {
    const bool ascending = order_ == Order::creation;
    std::sort(firing_.begin(), firing_.end(), [ascending](const Clocked* a, const Clocked* b) {
      return ascending ? a->creation_ < b->creation_ : a->creation_ > b->creation_;
    });
  }
  firing_at_ = now;
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 3 * kAhead < n) {
      const Clocked* m = firing_[i + 3 * kAhead];
      __builtin_prefetch(m);
      __builtin_prefetch(&m->scheduled_);
    }
    if (i + 2 * kAhead < n) firing_[i + 2 * kAhead]->prefetch(0);
    if (i + kAhead < n) firing_[i + kAhead]->prefetch(1);
    firing_[i]->fire(now);
  }
  firing_at_ = kNever;
  firing_.clear();
  if (occupied_ == 0) {
    tick_at_ = kNever;
    return;
  }
  // Next occupied bucket after this one (buckets hold cycles now+1 .. now+63).
  const std::uint64_t rotated = std::rotr(occupied_, static_cast<int>((slot + 1) % kHorizon));
  const Cycle ahead = static_cast<Cycle>(std::countr_zero(rotated)) + 1;
  tick_at_ = now + ahead;
  tick_.notify(sc_core::sc_time::from_value(ahead * Clocked::ticks_per_cycle()));
}

Clocked::Clocked(const sc_core::sc_module_name& name, bool run_at_start)
    : sc_core::sc_module(name),
      creation_(WakeScheduler::current().next_creation_number()),
      scheduler_(WakeScheduler::current()) {
  SC_METHOD(process);
  sensitive << wake_;
  if (!run_at_start) dont_initialize();
}

void Clocked::schedule(Cycle at) {
  // Inside the calendar's dispatch (most wake-ups: the evaluated module's own
  // and those its links send) the cycle is known without asking the kernel.
  const Cycle firing = scheduler_.firing_at();
  const Cycle current = firing != kNever ? firing : now();
  scheduled_ = at;
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
    wake_.cancel();
    event_pending_ = false;
  }
  scheduled_ = kNever;
  ++evaluations_;
  const Cycle next = evaluate(current);
  if (next != kNever) wake_at(next);
}

}  // namespace collnet::systemc
