// The steps of Router::evaluate (router.hpp): read, request and apply,
// always inlined into their callers. Included by router.cpp (the
// bandwidth-1 path) and router_rated.cpp (evaluate_rated, for routers with
// a link of another bandwidth), so that the second copy of the commit lives
// in a translation unit of its own: in router.cpp it made the compiler stop
// inlining the links' send and delay-line push into the bandwidth-1 path
// (2 to 6 % more instructions on mesh:8x8). Include nowhere else.
#pragma once

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "systemc/router/router.hpp"

namespace collnet::systemc {

__attribute__((always_inline)) inline void Router::read(Cycle now) {
  // Only the links that carry something.
  for (std::size_t w = 0; w < pending_words_; ++w) {
    for (std::uint64_t bits = flits_pending_[w]; bits != 0; bits &= bits - 1) {
      const int p = static_cast<int>(w * 64) + std::countr_zero(bits);
      Link* link = in_links_[static_cast<std::size_t>(p)];
      while (link->flit_ready(now)) {
        // Cycle accuracy: a router is evaluated in every cycle in which a
        // flit or credit reaches it (clocked.hpp); a late one is a bug.
        if (link->next_flit_arrival() != now) throw std::logic_error(std::string(name()) + ": evaluated late");
        const Flit f = link->pop_flit();
        const std::size_t slot = index(p, f.vc);
        InputVc& ivc = input_vcs_[slot];
        if (f.vc >= vcs_ || ivc.count >= depth_)
          throw std::logic_error(std::string(name()) + ": flit into a full or unknown VC (credit violation)");
        int tail = ivc.head + ivc.count;
        if (tail >= depth_) tail -= depth_;
        buffers_[slot * static_cast<std::size_t>(depth_) + static_cast<std::size_t>(tail)] = f;
        ++ivc.count;
        max_vc_flits_ = std::max(max_vc_flits_, static_cast<int>(ivc.count));
        ++occupancy_;
        // (Unconditional: a data-dependent branch here was mispredicted
        // about once in three flits under saturation.)
        nonempty_vcs_[static_cast<std::size_t>(p)] |= static_cast<std::uint16_t>(1u << f.vc);
        if (ivc.count == 1 && f.head()) front_changed(ivc, slot, now);  // (a body flit follows its head's VC)
      }
      if (link->flits_in_flight() == 0) flits_pending_[w] &= ~(std::uint64_t{1} << (p % 64));
    }
  }
  for (std::size_t w = 0; w < pending_words_; ++w) {
    for (std::uint64_t bits = credits_pending_[w]; bits != 0; bits &= bits - 1) {
      const int p = static_cast<int>(w * 64) + std::countr_zero(bits);
      Link* link = out_links_[static_cast<std::size_t>(p)];
      // Credits may be absorbed after their arrival cycle (wakes_on_credit).
      while (link->credit_ready(now)) {
        const std::uint8_t vc = link->pop_credit();
        const std::size_t o = index(p, vc);
        ++credits_[o];
        // A free VC: the port's epoch moves and the VC is ready for a head;
        // an owned one: its owner's body flits may go again. Both updates are
        // made, each masked to nothing where it does not apply (vc_owner_ of
        // a free VC is a stale but valid slot), instead of a branch taken
        // either way about as often.
        const std::uint32_t free = (free_vcs_[static_cast<std::size_t>(p)] >> vc) & 1u;
        out_epoch_[static_cast<std::size_t>(p)] += 2 * free;  // (odd, never 0)
        ready_vcs_[static_cast<std::size_t>(p)] |= static_cast<std::uint16_t>(free << vc);
        const std::size_t owner = vc_owner_[o];
        sendable_vcs_[owner / static_cast<std::size_t>(vcs_)] |=
            static_cast<std::uint16_t>((free ^ 1u) << (owner % static_cast<std::size_t>(vcs_)));
      }
      if (link->credits_in_flight() == 0) credits_pending_[w] &= ~(std::uint64_t{1} << (p % 64));
    }
  }
}

template <bool kRated>
__attribute__((always_inline)) inline bool Router::request(AllocationScratch& sc, Cycle now, Cycle& next) {
  // Each input port's ready VCs in ascending order (AllocationScratch), or
  // with oldest_walk_ its oldest ready VC alone.
  sc.active_inputs.clear();
  sc.touched_outputs.clear();  // (offer's list; another allocator may have left one)
  const auto vcs = static_cast<std::size_t>(vcs_);
  // (Raw pointers: stores to the scratch would otherwise reload them.)
  ArbiterRequest* candidate_requests = sc.candidate_requests.data();
  Grant* candidates = sc.candidates.data();
  const Cycle* front_inject = front_inject_;
  const SwitchAllocator& allocator = *switch_allocator_;
  std::size_t offers = 0;  // oldest_walk_: requests offered to the allocator
  for (int p = 0; p < ports_; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    // The body flits whose output VC holds a credit, and the heads.
    const std::uint32_t sendable = sendable_vcs_[pi];
    const std::uint32_t visit = nonempty_vcs_[pi] & (sendable | ~static_cast<std::uint32_t>(routed_vcs_[pi]));
    if (visit == 0) continue;
    if constexpr (kRated) {
      if (in_sent_[pi] >= in_lanes_[pi]) continue;  // sent its ceil(bandwidth) flits this cycle
    }
    const std::size_t base = static_cast<std::size_t>(p) * vcs;
    std::size_t n = 0;
    // Can the front flit of VC v go now? Then its output VC is (o, ov).
    // (Inlined: called from two loops, it would otherwise be a call with
    // every captured variable spilled, 44 instructions per test.)
    auto ready = [&](int v, int& o, int& ov) __attribute__((always_inline)) -> bool {
      const std::size_t slot = base + static_cast<std::size_t>(v);
      InputVc& ivc = input_vcs_[slot];
      if (((sendable >> v) & 1u) != 0) {  // body flit, or (own-allocator) a head holding its output VC
        o = ivc.out_port;
        ov = ivc.out_vc;
        if (own_vc_allocator_ && ivc.eligible_at > now) {  // won its VC this cycle: bids from the next
          next = std::min(next, ivc.eligible_at);
          return false;
        }
      } else if (own_vc_allocator_) {  // waits for the VC allocator (allocate_vcs)
        if (ivc.eligible_at > now) next = std::min(next, ivc.eligible_at);
        return false;
      } else {
        if (ivc.eligible_at > now) {
          next = std::min(next, ivc.eligible_at);
          return false;
        }
        if (ivc.options != 0) choose_output(ivc, slot);  // per-hop routing: re-chosen while blocked
        o = ivc.want_port;
        const std::uint32_t epoch = out_epoch_[static_cast<std::size_t>(o)];
        if (ivc.blocked_epoch == epoch) return false;  // nothing freed at o since it found no VC
        Cycle retry = kNever;
        ov = free_vc(ivc, now, retry);
        if (ov < 0) {
          // Blocked by owners and credits alone (not by a VC's reuse time):
          // only a change at port o can unblock it.
          if (retry == kNever && ivc.options == 0) ivc.blocked_epoch = epoch;
          else next = std::min(next, retry);
          return false;
        }
        next = std::min(next, retry);
      }
      if constexpr (kRated) {
        // The output's link takes no more flits departing this cycle: the
        // flit waits for the cycle it can depart in.
        const Link* link = out_links_[static_cast<std::size_t>(o)];
        if (!link->can_depart(now + pipeline_delay_)) {
          next = std::min(next, link->next_departure() - pipeline_delay_);
          return false;
        }
      }
      return true;
    };
    auto add = [&](int v, int o, int ov) {
      const Cycle inject = front_inject[base + static_cast<std::size_t>(v)];
      candidate_requests[base + n] =
          ArbiterRequest{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(v), p >= network_ports_, inject};
      candidates[base + n] = Grant{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(v),
                                      static_cast<std::uint16_t>(o), static_cast<std::uint8_t>(ov)};
      ++n;
    };
    int o = 0;
    int ov = 0;
    if (oldest_walk_) {
      // Oldest first (on equal age the lowest VC) until one can go: the
      // input stage's choice among the ready VCs, without testing the rest.
      for (std::uint32_t left = visit; left != 0;) {
        int v = std::countr_zero(left);
        Cycle oldest = front_inject[base + static_cast<std::size_t>(v)];
        for (std::uint32_t bits = left & (left - 1); bits != 0; bits &= bits - 1) {
          // (Selects, not a branch: which VC is older is data, mispredicted
          // about half the time under saturation.)
          const int w = std::countr_zero(bits);
          const Cycle age = front_inject[base + static_cast<std::size_t>(w)];
          const bool older = age < oldest;
          oldest = older ? age : oldest;
          v = older ? w : v;
        }
        left &= ~(1u << v);
        if (ready(v, o, ov)) {
          // The allocator's output stage takes it now (allocator.hpp, offer).
          allocator.offer(sc,
                          Grant{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(v),
                                static_cast<std::uint16_t>(o), static_cast<std::uint8_t>(ov)},
                          front_inject[base + static_cast<std::size_t>(v)], now);
          ++offers;
          break;
        }
      }
    } else {
      for (std::uint32_t bits = visit; bits != 0; bits &= bits - 1) {
        const int v = std::countr_zero(bits);
        if (ready(v, o, ov)) add(v, o, ov);
      }
    }
    if (n == 0) continue;
    sc.candidate_count[static_cast<std::size_t>(p)] = static_cast<int>(n);
    if (round_robin_vc_bid_ && n > 1) one_bid_per_output(p);
    sc.active_inputs.push_back(p);
  }
  return offers != 0 || !sc.active_inputs.empty();
}

// Inline in evaluate's commit loop (a call per grant cost its register saves).
__attribute__((always_inline)) inline void Router::apply(const Grant& g, Cycle now) {
  const std::size_t slot = index(g.in_port, g.in_vc);
  InputVc& ivc = input_vcs_[slot];
  Flit f = buffers_[slot * static_cast<std::size_t>(depth_) + ivc.head];
  ivc.head = static_cast<std::uint16_t>(ivc.head + 1 == depth_ ? 0 : ivc.head + 1);
  --ivc.count;
  nonempty_vcs_[g.in_port] &= static_cast<std::uint16_t>(~(static_cast<std::uint32_t>(ivc.count == 0) << g.in_vc));
  --occupancy_;
  const std::size_t o = index(g.out_port, g.out_vc);
  if (f.head()) {
    delayed_heads_ += static_cast<std::uint64_t>(now > ivc.eligible_at + (own_vc_allocator_ ? 1 : 0));  // it waited for its output
    ++heads_;
    free_vcs_[g.out_port] &= static_cast<std::uint16_t>(~(1u << g.out_vc));
    ready_vcs_[g.out_port] &= static_cast<std::uint16_t>(~(1u << g.out_vc));
    ivc.out_port = static_cast<std::int16_t>(g.out_port);
    ivc.out_vc = g.out_vc;
    route_vc(slot, g.out_port, g.out_vc);  // (before its credit is spent below)
    // The head carries its route position to the next router; at the
    // ejection port it becomes flit index 0 again (packet.hpp).
    f.index = ejects_[g.out_port] == 0 ? static_cast<std::uint16_t>(f.index + 1) : std::uint16_t{0};
  }
  --credits_[o];
  sendable_vcs_[g.in_port] &= static_cast<std::uint16_t>(~(static_cast<std::uint32_t>(credits_[o] == 0) << g.in_vc));
  if (round_robin_vc_bid_) vc_bid_next_[g.in_port] = static_cast<std::uint8_t>((g.in_vc + 1) % vcs_);
  f.vc = g.out_vc;
  out_links_[g.out_port]->send(f, now, pipeline_delay_);
  in_links_[g.in_port]->send_credit(g.in_vc, now + credit_release_delay_);
  if (f.tail()) {
    free_vcs_[g.out_port] |= static_cast<std::uint16_t>(1u << g.out_vc);
    ready_vcs_[g.out_port] |= static_cast<std::uint16_t>(static_cast<std::uint32_t>(credits_[o] > 0) << g.out_vc);
    out_epoch_[g.out_port] += 2;
    // Separate stages: the VC allocator sees the release next cycle, and its
    // winner bids for the switch the cycle after (router_config.hpp).
    if (!vc_reusable_at_.empty()) vc_reusable_at_[o] = now + 2;
    ivc.out_port = -1;
    routed_vcs_[g.in_port] &= static_cast<std::uint16_t>(~(1u << g.in_vc));
    sendable_vcs_[g.in_port] &= static_cast<std::uint16_t>(~(1u << g.in_vc));
  }
  activity_.moved(now);
  // A VC holds whole packets one after another, so only a tail leaves a head
  // at the front; behind any other flit comes a body flit of the same packet.
  if (f.tail() && ivc.count > 0) front_changed(ivc, slot, now + 1);
}

}  // namespace collnet::systemc
