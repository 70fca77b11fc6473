// The router's allocators as objects chosen by name (BookSim-style registry,
// as the arbitration policies of arbiter.hpp): the switch allocators of the
// key `allocator` (with `allocator_iterations`) and the VC allocation stages
// of the key `vc_allocator_stage`.
//
// The router (router.hpp) runs every evaluation as read / decide / commit:
// it reads arrivals, writes each input port's ready requests into the
// thread's AllocationScratch, asks its VcAllocator (own-allocator only) and
// its SwitchAllocator to decide, and commits the grants (the oldest-first
// allocator takes each input port's one request as the router finds it,
// SwitchAllocator::offer, and grants once the router has them all). An allocator
// decides from the requests and its arbiters alone and changes nothing in
// the router; its arbiters' priorities move on final grants only.
//
//   input-first    each input port's arbiter picks one of its requesting VCs,
//                  then each output port's arbiter picks one input
//   output-first   every requesting VC asks its output, each output's arbiter
//                  grants one, each input port's arbiter accepts one of its
//                  grants (request-grant-accept of PIM/iSLIP)
// With allocator_iterations > 1 the inputs and outputs left unmatched try
// again; priorities move on first-round grants only (iSLIP).
//
//   combined       the switch allocation gives a head its output VC (the
//                  lowest free one of its class able to take it)
//   separate       as combined, but an output VC released by a tail is
//                  allocatable two cycles later (a pipeline stage of its own)
//   own-allocator  a separable VC allocator of its own (output VCs grant,
//                  input VCs accept, rotating priorities, one iteration)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "systemc/router/arbiter.hpp"
#include "systemc/kernel/cycle.hpp"

namespace collnet::systemc {

/// A request or grant of one flit: input VC -> output VC.
struct SwitchGrant {
  std::uint16_t in_port;
  std::uint8_t in_vc;
  std::uint16_t out_port;
  std::uint8_t out_vc;
};

/// A list with its capacity fixed by AllocationScratch::fit (at most one
/// entry per port): push_back without a capacity check or reallocation.
template <typename T>
struct PortList {
  std::vector<T> items;
  std::size_t count = 0;
  void clear() { count = 0; }
  void push_back(const T& v) { items[count++] = v; }
  void resize(std::size_t n) { count = n; }
  [[nodiscard]] bool empty() const { return count == 0; }
  T& operator[](std::size_t i) { return items[i]; }
  T* begin() { return items.data(); }
  T* end() { return items.data() + count; }
};

/// One evaluation's allocation state, shared by every router a thread
/// evaluates (one evaluation at a time per thread) so that it stays in cache;
/// sized for the largest radix and VC count (fit).
struct AllocationScratch {
  // The requests, written by the router: input port p's ready VCs at
  // [p * vcs, p * vcs + candidate_count[p]), ascending VC; active_inputs:
  // the ports with requests, ascending.
  std::vector<ArbiterRequest> candidate_requests;
  std::vector<SwitchGrant> candidates;
  std::vector<int> candidate_count;
  PortList<int> active_inputs;
  // The decision: at most one grant per input port and per output port.
  PortList<SwitchGrant> grants;

  // Work arrays of the switch allocators.
  std::vector<std::uint8_t> output_matched;        // per port, within one evaluation
  std::vector<std::uint8_t> input_matched;
  std::vector<int> offer_count;                    // output-first: grants an input holds
  std::vector<int> output_start;                   // output-first: first request of an output
  std::vector<ArbiterRequest> vc_requests_by_port; // output-first: [in port][k] grants offered
  std::vector<SwitchGrant> offers;                 // [in port][k]
  std::vector<ArbiterRequest> vc_requests;         // one port's candidates to free outputs
  std::vector<SwitchGrant> vc_candidates;
  std::vector<ArbiterRequest> port_requests;       // [out port][k]
  std::vector<SwitchGrant> port_candidates;        // [out port][k]
  std::vector<int> port_request_count;
  PortList<int> touched_outputs;
  struct OutputBest {
    Cycle age;
    SwitchGrant grant;
  };
  std::vector<OutputBest> output_best;  // oldest-first: per out port, the oldest offer so far
  // Work arrays of the VC allocator.
  std::vector<SwitchGrant> va_requests;  // every (input VC, free output VC) request
  std::vector<SwitchGrant> va_offers;    // and the ones the output VCs granted

  void fit(int ports, int vcs);
  /// The calling thread's scratch.
  static AllocationScratch& local() {
    // (Through a plain pointer: reaching local_ itself from another file
    // goes through its thread-local initialisation call on every access.)
    if (current_ == nullptr) [[unlikely]] current_ = &local_;
    return *current_;
  }

 private:
  static thread_local constinit AllocationScratch local_;
  static thread_local constinit AllocationScratch* current_;
};

/// What a switch allocator is built for.
struct SwitchAllocatorSetup {
  int ports = 0;
  int vcs = 0;
  int iterations = 1;                 // allocator_iterations
  std::string arbitration = "age";    // arbitration policy (arbiter.hpp)
  int age_width = 0;
  bool every_vc_bids = true;          // vc_bid all (else one VC per input port and output)
};

class SwitchAllocator {
 public:
  explicit SwitchAllocator(const SwitchAllocatorSetup& setup);
  virtual ~SwitchAllocator() = default;
  SwitchAllocator(const SwitchAllocator&) = delete;
  SwitchAllocator& operator=(const SwitchAllocator&) = delete;
  /// Matches the requests of s.active_inputs to outputs, appending the grants
  /// to s.grants (cleared by the caller); moves the arbiters' priorities.
  virtual void decide(AllocationScratch& s, Cycle now) = 0;
  /// True if the decision needs of each input port only its oldest request
  /// (on equal age the lowest VC; exact ages): the input stage of the
  /// oldest-first allocator, which the router then makes while gathering the
  /// requests, testing its VCs oldest first until one can go.
  [[nodiscard]] bool oldest_request_per_input() const { return oldest_only_; }
  /// The output stage of the oldest-first allocator, made as the requests
  /// come: offer() takes one input port's request (each input port once, in
  /// ascending order); each output keeps its oldest offer, on equal age the
  /// first (s.touched_outputs empty before the first offer). grant_offers()
  /// appends the outputs' grants to s.grants in the order the outputs were
  /// first offered. The router calls them directly, without decide(),
  /// when oldest_request_per_input() holds (inline: one call per request).
  void offer(AllocationScratch& s, const SwitchGrant& g, Cycle inject_cycle, Cycle now) const {
    const Cycle age = arbitration_age(inject_cycle, now, age_saturation_);
    AllocationScratch::OutputBest& best = s.output_best[g.out_port];
    int& offered = s.port_request_count[g.out_port];
    if (offered == 0) {
      offered = 1;
      s.touched_outputs.push_back(g.out_port);
      best = {age, g};
    } else if (age > best.age) {
      best = {age, g};
    }
  }
  void grant_offers(AllocationScratch& s) const {
    for (const int o : s.touched_outputs) {
      s.grants.push_back(s.output_best[static_cast<std::size_t>(o)].grant);
      s.port_request_count[static_cast<std::size_t>(o)] = 0;
    }
    s.touched_outputs.clear();
  }

 protected:
  [[nodiscard]] std::size_t pick_input(int port, std::span<const ArbiterRequest> requests, Cycle now) {
    return age_ ? pick_oldest(requests, now, age_saturation_)
                : input_arbiters_[static_cast<std::size_t>(port)]->pick(requests, now);
  }
  [[nodiscard]] std::size_t pick_output(int port, std::span<const ArbiterRequest> requests, Cycle now) {
    return age_ ? pick_oldest(requests, now, age_saturation_)
                : output_arbiters_[static_cast<std::size_t>(port)]->pick(requests, now);
  }
  /// The grant of `request` at output `port` is final: both arbiters' priorities move.
  void granted(int port, const ArbiterRequest& request) {
    if (age_) return;
    output_arbiters_[static_cast<std::size_t>(port)]->granted(request);
    input_arbiters_[request.port]->granted(request);
  }

  int ports_;
  int vcs_;
  int iterations_;
  // Arbitration `age`: pick_oldest directly (its arbiters keep no state)
  // instead of the per-port arbiter objects.
  bool age_;
  Cycle age_saturation_;
  bool oldest_only_ = false;
  std::vector<std::unique_ptr<Arbiter>> input_arbiters_;
  std::vector<std::unique_ptr<Arbiter>> output_arbiters_;
};

struct SwitchAllocatorKind {
  std::string name;  // contract: a value of the scenario key `allocator`
  std::string description;
  std::function<std::unique_ptr<SwitchAllocator>(const SwitchAllocatorSetup&)> make;
};
const std::vector<SwitchAllocatorKind>& switch_allocators();
/// Throws ConfigError naming the key `allocator` and the accepted names.
const SwitchAllocatorKind& find_switch_allocator(std::string_view name);

/// VC allocation by an allocator of its own (vc_allocator_stage own-allocator).
class VcAllocator {
 public:
  virtual ~VcAllocator() = default;
  /// Decides over `requests` (every input VC slot's request for a free output
  /// VC, as port * vcs + vc slots); the accepted ones are written to the
  /// front of `requests`, their number returned. Changes nothing.
  virtual std::size_t decide(std::vector<SwitchGrant>& requests, std::size_t count, AllocationScratch& s) = 0;
  /// The accepted requests are final: priorities move.
  virtual void commit(std::span<const SwitchGrant> accepted) = 0;
};

struct VcAllocatorStage {
  std::string name;  // contract: a value of the scenario key `vc_allocator_stage`
  std::string description;
  bool separate = false;  // a released output VC is allocatable 2 cycles later
  /// (ports, vcs) -> the VC allocator; null: VCs are given by the switch allocation.
  std::function<std::unique_ptr<VcAllocator>(int ports, int vcs)> make;
};
const std::vector<VcAllocatorStage>& vc_allocator_stages();
/// Throws ConfigError naming the key `vc_allocator_stage` and the accepted names.
const VcAllocatorStage& find_vc_allocator_stage(std::string_view name);

}  // namespace collnet::systemc
