#include "systemc/clocked.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace collnet::systemc {

WakeScheduler* WakeScheduler::current_ = nullptr;

WakeScheduler::WakeScheduler(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
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

std::uint32_t WakeScheduler::enrol(Clocked& module) {
  const auto index = static_cast<std::uint32_t>(modules_.size());
  modules_.push_back(&module);
  const std::size_t words = (modules_.size() + 63) / 64;
  if (words > words_) {
    // Modules are created before the simulation runs; growing re-lays the
    // (then empty or sparse) buckets with their bits kept.
    const std::size_t grown = std::max<std::size_t>(2 * words_, 16);
    const std::size_t summary_words = (grown + 63) / 64;
    std::vector<std::uint64_t> bits(kHorizon * grown, 0);
    std::vector<std::uint64_t> summary(kHorizon * summary_words, 0);
    for (std::size_t slot = 0; slot < kHorizon; ++slot) {
      std::copy_n(bits_.begin() + static_cast<std::ptrdiff_t>(slot * words_), words_,
                  bits.begin() + static_cast<std::ptrdiff_t>(slot * grown));
      std::copy_n(summary_.begin() + static_cast<std::ptrdiff_t>(slot * summary_words_), summary_words_,
                  summary.begin() + static_cast<std::ptrdiff_t>(slot * summary_words));
    }
    bits_.swap(bits);
    summary_.swap(summary);
    words_ = grown;
    summary_words_ = summary_words;
  }
  return index;
}

void WakeScheduler::dispatch() {
  const Cycle now = Clocked::now();
  const auto slot = static_cast<std::size_t>(now % kHorizon);
  // The modules evaluated here schedule their next wake-ups into other
  // buckets (1 .. kHorizon-1 cycles ahead) or on their own events, never
  // into this one: the bucket is read out (the order-free modules in index
  // order, then the others in wake-up order) and cleared first.
  std::uint64_t* const bits = bits_.data() + slot * words_;
  std::uint64_t* const summary = summary_.data() + slot * summary_words_;
  for (std::size_t s = 0; s < summary_words_; ++s) {
    for (std::uint64_t words = summary[s]; words != 0; words &= words - 1) {
      const std::size_t w = s * 64 + static_cast<std::size_t>(std::countr_zero(words));
      for (std::uint64_t set = bits[w]; set != 0; set &= set - 1)
        firing_.push_back(modules_[w * 64 + static_cast<std::size_t>(std::countr_zero(set))]);
      bits[w] = 0;
    }
    summary[s] = 0;
  }
  std::vector<Clocked*>& ordered = ordered_[slot];
  firing_.insert(firing_.end(), ordered.begin(), ordered.end());
  ordered.clear();
  occupied_ &= ~(std::uint64_t{1} << slot);
  // On a large network the modules of a cycle are hundreds of independent
  // cache misses each (their state, their links): the loop asks for the
  // memory of the modules kAhead, 2 kAhead and 3 kAhead places on (their
  // object, then the arrays it holds, then what those point to) while it
  // evaluates this one. The order of evaluation is unchanged.
  constexpr std::size_t kAhead = 4;
  const std::size_t n = firing_.size();
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
    : sc_core::sc_module(name), index_(WakeScheduler::current().enrol(*this)), scheduler_(WakeScheduler::current()) {
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
