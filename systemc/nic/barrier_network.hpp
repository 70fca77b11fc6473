// The side-band barrier network (spec a2a-hopgroup, Model: "barriers run on
// a side-band barrier network with a configurable latency"). It carries no
// data and uses no router or link of the data network.
//
// A node enters barrier number b when its NIC says so (the NIC enters only
// once every packet it sent before has been delivered: nic.hpp). When every
// node has entered, each node is released in a cycle computed from the entry
// cycles:
//
//   ideal                release = last entry + barrier_latency, the same
//                        cycle for every node (a wired-AND with a fixed delay).
//   recursive-doubling   hardware-like: a dissemination barrier over the
//                        torus axes, one axis after the other (X, then Y,
//                        ...). On an axis of size n there are ceil(log2 n)
//                        steps; in step s a node sends its flag to the node
//                        2^s ahead on the axis and waits for the one from 2^s
//                        behind; each step costs one link latency:
//                          t(step s+1, c) = max(t(s, c), t(s, c - 2^s)) + L.
//                        After the last axis every node has (indirectly)
//                        heard from every other, so release >= last entry;
//                        nodes may be released in different cycles. A topology
//                        that is not a mesh or torus is treated as one ring
//                        of all endpoints.
//
// Barriers are counted and timed (BarrierRecord). Entering a barrier with a
// number other than the one the others are in is a program error (as in the
// functional executor): error() says so and the run stops.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/kernel/cycle.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

enum class BarrierKind : std::uint8_t { ideal, recursive_doubling };

struct BarrierConfig {
  BarrierKind kind = BarrierKind::ideal;
  Cycle latency = 10;       // ideal: cycles from the last entry to the release (>= 1)
  Cycle step_latency = 1;   // recursive-doubling: cycles per step (the link latency)
};

/// Reads `barrier` and `barrier_latency`; step_latency = `link_latency`.
BarrierConfig barrier_config_from(const Params& params, int link_latency);
std::string barrier_kind_name(BarrierKind kind);

struct BarrierRecord {
  std::uint32_t number = 0;
  Cycle first_entry = 0;
  Cycle last_entry = 0;
  Cycle first_release = 0;
  Cycle last_release = 0;
};

class BarrierNetwork {
 public:
  /// `wake(node, cycle)`: asks node's NIC to run in `cycle` (its release).
  BarrierNetwork(const topology::Topology& topology, const BarrierConfig& config,
                 std::function<void(topology::EndpointId, Cycle)> wake);

  /// Node enters barrier `number` in cycle `now`.
  void enter(topology::EndpointId node, std::uint32_t number, Cycle now);
  /// Node is inside a barrier and its release cycle has come.
  [[nodiscard]] bool released(topology::EndpointId node, Cycle now) const;
  /// Node leaves the barrier it was released from.
  void leave(topology::EndpointId node);
  [[nodiscard]] bool inside(topology::EndpointId node) const { return inside_[static_cast<std::size_t>(node)]; }

  [[nodiscard]] const std::vector<BarrierRecord>& records() const { return records_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const BarrierConfig& config() const { return config_; }

  /// Release cycles of every node for the given entry cycles (exposed for
  /// tests of the recursive-doubling timing).
  [[nodiscard]] std::vector<Cycle> release_cycles(const std::vector<Cycle>& entries) const;

 private:
  struct Round {
    std::uint32_t number = 0;
    std::size_t entered = 0;
    std::size_t left = 0;
    std::vector<Cycle> entries;
  };

  BarrierConfig config_;
  std::vector<int> axis_size_;    // axes of size > 1 (grid dimensions, or one ring)
  std::vector<int> axis_stride_;  // id distance of one step along the axis
  std::size_t nodes_;
  std::function<void(topology::EndpointId, Cycle)> wake_;
  std::vector<std::size_t> round_of_;  // round a node is in (or enters next)
  std::vector<bool> inside_;
  std::vector<Cycle> release_;
  std::map<std::size_t, Round> rounds_;
  std::vector<BarrierRecord> records_;
  std::string error_;
};

}  // namespace collnet::systemc
