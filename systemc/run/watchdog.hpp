// Deadlock watchdog: when no flit has moved for `threshold`
// cycles while flits are in the network, it records the cycle and stops the
// simulation (sc_stop) so a run never hangs; diagnose_deadlock() then finds
// the waiting cycle. It wakes about once per threshold cycles, not every cycle.
#pragma once

#include <string>
#include <vector>

#include "systemc/kernel/activity.hpp"
#include "systemc/kernel/clocked.hpp"

namespace collnet::systemc {

class Network;

class Watchdog final : public Clocked {
 public:
  Watchdog(const sc_core::sc_module_name& name, const NetworkActivity& activity, Cycle threshold);
  [[nodiscard]] bool fired() const { return fired_; }
  [[nodiscard]] Cycle fired_at() const { return fired_at_; }

 protected:
  Cycle evaluate(Cycle now) override;

 private:
  const NetworkActivity& activity_;
  Cycle threshold_;
  bool fired_ = false;
  Cycle fired_at_ = 0;
};

/// What a deadlocked network waits on.
struct DeadlockReport {
  Cycle detected_at = 0;
  Cycle last_move = 0;
  /// The waiting cycle, one line per input VC: "<VC> waits for <VC>"; the
  /// last one waits for the first. Empty if the blocked VCs form no cycle
  /// (e.g. they wait for a NIC that stopped receiving).
  std::vector<std::string> cycle;
  /// Every blocked input VC and what it waits for (at most 64 lines).
  std::vector<std::string> blocked;
  std::size_t blocked_vcs = 0;
};

DeadlockReport diagnose_deadlock(const Network& network, Cycle now);

}  // namespace collnet::systemc
