// Network-wide progress counters shared by routers and NICs; the deadlock
// watchdog reads them. Every change of flits_in_network comes with a move in
// the same cycle, so the pair read in any order within a cycle is consistent.
//
// A threaded run (WakeScheduler::set_workers) counts in one lane per worker
// thread (worker.hpp; worker 0, the main thread, uses the two fields): the
// readers, outside the parallel phase, take the latest move and the sum.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "systemc/kernel/cycle.hpp"
#include "systemc/kernel/worker.hpp"

namespace collnet::systemc {

struct NetworkActivity {
  Cycle last_move = 0;                // last cycle in which any flit moved (worker 0's)
  std::int64_t flits_in_network = 0;  // sent by a NIC, not yet received by one (worker 0's count)
  void moved(Cycle now) {
    Cycle& last = current_worker == 0 ? last_move : lanes_[current_worker - 1].last_move;
    if (now > last) last = now;
  }
  /// A NIC puts a flit into the network (left: takes one out) in cycle `now`.
  void entered(Cycle now) {
    ++(current_worker == 0 ? flits_in_network : lanes_[current_worker - 1].flits);
    moved(now);
  }
  void left(Cycle now) {
    --(current_worker == 0 ? flits_in_network : lanes_[current_worker - 1].flits);
    moved(now);
  }
  /// The whole network's last move and flit count (outside the parallel phase).
  [[nodiscard]] Cycle latest_move() const {
    Cycle last = last_move;
    for (const Lane& l : lanes_) last = std::max(last, l.last_move);
    return last;
  }
  [[nodiscard]] std::int64_t flits() const {
    std::int64_t n = flits_in_network;
    for (const Lane& l : lanes_) n += l.flits;
    return n;
  }
  /// Lanes for workers 1 .. workers-1 (call before the run).
  void set_workers(int workers) { lanes_.assign(static_cast<std::size_t>(std::max(workers - 1, 0)), Lane{}); }

 private:
  struct alignas(64) Lane {
    Cycle last_move = 0;
    std::int64_t flits = 0;
  };
  std::vector<Lane> lanes_;
};

}  // namespace collnet::systemc
