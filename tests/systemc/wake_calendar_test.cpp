// The wake-up calendar (systemc/clocked.hpp): which modules it evaluates in
// which cycle and in which order. Each cycle's modules run once per cycle
// however often they were woken for it, in creation order whatever the order
// of the wake-ups, only in the earliest cycle a module was woken for, and the
// 64-cycle horizon wraps around without losing or moving a wake-up.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "systemc/kernel.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

using Log = std::vector<std::pair<Cycle, int>>;  // (cycle, module id) in evaluation order

/// A module that logs its evaluations and then does what `step` says
/// (returns its next cycle, may wake others).
class Probe final : public Clocked {
 public:
  using Step = std::function<Cycle(Cycle)>;
  Probe(const sc_core::sc_module_name& name, int id, Log& log, bool run_at_start, Step step = {},
        bool order_free = true)
      : Clocked(name, run_at_start), id_(id), log_(log), step_(std::move(step)) {
    if (order_free) set_order_free();
  }
  void set_step(Step step) { step_ = std::move(step); }

 protected:
  Cycle evaluate(Cycle now) override {
    log_.emplace_back(now, id_);
    return step_ ? step_(now) : kNever;
  }

 private:
  int id_;
  Log& log_;
  Step step_;
};

struct Bench {
  KernelSession session;
  Log log;
  std::vector<std::unique_ptr<Probe>> probes;
  std::unique_ptr<Probe> driver;  // created last, runs in cycle 0

  /// Probes 0 .. count-1; those from `first_ordered` on are not order-free.
  explicit Bench(int count, int first_ordered = -1) {
    for (int i = 0; i < count; ++i)
      probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), i, log, false, Probe::Step{},
                                               first_ordered < 0 || i < first_ordered));
  }
  ~Bench() {
    driver.reset();
    while (!probes.empty()) probes.pop_back();
  }
  void drive(Probe::Step step) { driver = std::make_unique<Probe>("driver", -1, log, true, std::move(step)); }
  /// The probes' evaluations, by cycle, in evaluation order.
  std::map<Cycle, std::vector<int>> by_cycle(bool sorted = false) const {
    std::map<Cycle, std::vector<int>> out;
    for (const auto& [cycle, id] : log)
      if (id >= 0) out[cycle].push_back(id);
    if (sorted)
      for (auto& [cycle, ids] : out) std::sort(ids.begin(), ids.end());
    return out;
  }
};

std::vector<int> shuffled(std::vector<int> ids, unsigned seed) {
  std::mt19937 rng(seed);
  std::shuffle(ids.begin(), ids.end(), rng);
  return ids;
}

}  // namespace

// Wake-ups made in a random order, some twice, from outside the calendar
// (the driver runs in cycle 0 on its own event) and from inside it (the
// driver's cycle-5 evaluation is dispatched by the calendar): every woken
// module runs once in its cycle, in creation order. 5000 modules span several
// bitmap words and two summary words (indices 0, 63, 64, 4095, 4096, 4999).
TEST(WakeCalendar, RunsEachWokenModuleOnceInCreationOrder) {
  Bench b(5000);
  std::vector<int> first = {0, 63, 64, 65, 127, 128, 1000, 4095, 4096, 4999, 17, 2500};
  std::vector<int> second;
  for (int i = 0; i < 5000; i += 7) second.push_back(i);
  b.drive([&](Cycle now) -> Cycle {
    if (now == 0) {
      for (int id : shuffled(first, 1)) b.probes[static_cast<std::size_t>(id)]->wake_at(3);
      for (int id : shuffled(first, 2)) b.probes[static_cast<std::size_t>(id)]->wake_at(3);  // again: no effect
      return 5;
    }
    for (int id : shuffled(second, 3)) b.probes[static_cast<std::size_t>(id)]->wake_at(now + 4);
    for (int id : shuffled(second, 4)) b.probes[static_cast<std::size_t>(id)]->wake_at(now + 4);
    return kNever;
  });
  run_for(20);
  std::sort(first.begin(), first.end());
  const std::map<Cycle, std::vector<int>> expected = {{3, first}, {9, second}};
  EXPECT_EQ(b.by_cycle(), expected);
}

// A module keeps its earliest pending wake-up: woken for cycle 10 and then for
// cycle 7, it runs in cycle 7 only (the cycle-10 mark left in the calendar
// does not run it again); woken for 10 again after running at 7, it runs at 10.
TEST(WakeCalendar, RunsOnlyTheEarliestPendingWakeUp) {
  Bench b(3);
  b.probes[0]->set_step([&](Cycle now) -> Cycle { return now == 7 ? 12 : kNever; });
  b.drive([&](Cycle now) -> Cycle {
    if (now != 0) return kNever;
    b.probes[0]->wake_at(10);
    b.probes[0]->wake_at(7);
    b.probes[1]->wake_at(10);
    b.probes[2]->wake_at(7);
    b.probes[2]->wake_at(10);
    return kNever;
  });
  run_for(30);
  const std::map<Cycle, std::vector<int>> expected = {{7, {0, 2}}, {10, {1}}, {12, {0}}};
  EXPECT_EQ(b.by_cycle(), expected);
}

// Modules that are not order-free (probes 4 .. 9) run in the order of their
// wake-ups, after the order-free ones (0 .. 3) of the same cycle.
TEST(WakeCalendar, RunsModulesThatAreNotOrderFreeInWakeUpOrder) {
  Bench b(10, 4);
  const std::vector<int> wakes = {7, 2, 9, 4, 0, 8, 3, 5, 7, 6, 1};
  b.drive([&](Cycle now) -> Cycle {
    if (now == 0) return 2;
    for (int id : wakes) b.probes[static_cast<std::size_t>(id)]->wake_at(now + 1);
    return kNever;
  });
  run_for(10);
  const std::map<Cycle, std::vector<int>> expected = {{3, {0, 1, 2, 3, 7, 9, 4, 8, 5, 6}}};
  EXPECT_EQ(b.by_cycle(), expected);
}

// Wrap-around of the horizon: module 0 runs every 63 cycles (the farthest
// wake-up the calendar holds), module 1 every cycle, module 2 every 64 cycles
// (one beyond the horizon: its own event, which runs outside the calendar's
// order), module 3 every 37 cycles, for 1000 cycles: each runs exactly in
// the multiples of its period.
TEST(WakeCalendar, WrapsAroundTheHorizon) {
  Bench b(4);
  const std::vector<Cycle> period = {63, 1, 64, 37};
  for (std::size_t i = 0; i < period.size(); ++i)
    b.probes[i]->set_step([p = period[i]](Cycle now) -> Cycle { return now + p; });
  b.drive([&](Cycle now) -> Cycle {
    for (std::size_t i = period.size(); i-- > 0;) b.probes[i]->wake_at(now + period[i]);
    return kNever;
  });
  constexpr Cycle kCycles = 1000;
  run_for(kCycles);
  std::map<Cycle, std::vector<int>> expected;
  for (Cycle t = 1; t < kCycles; ++t)
    for (std::size_t i = 0; i < period.size(); ++i)
      if (t % period[i] == 0) expected[t].push_back(static_cast<int>(i));
  EXPECT_EQ(b.by_cycle(/*sorted=*/true), expected);
  EXPECT_EQ(b.probes[1]->evaluations(), kCycles - 1);
}
