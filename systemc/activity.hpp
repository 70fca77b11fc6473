// Network-wide progress counters shared by routers and NICs; the deadlock
// watchdog reads them. Every change of flits_in_network comes with a move in
// the same cycle, so the pair read in any order within a cycle is consistent.
#pragma once

#include <cstdint>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

struct NetworkActivity {
  Cycle last_move = 0;                // last cycle in which any flit moved
  std::int64_t flits_in_network = 0;  // sent by a NIC, not yet received by one
  void moved(Cycle now) {
    if (now > last_move) last_move = now;
  }
};

}  // namespace collnet::systemc
