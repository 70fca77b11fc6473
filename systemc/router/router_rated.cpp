// Router::evaluate_rated (router.hpp): a router with a link of another
// bandwidth than 1 runs up to rounds_ rounds of steps 2-4 a cycle. In a
// translation unit of its own (router_steps.hpp says why).
#include <algorithm>

#include "systemc/router/router.hpp"
#include "systemc/router/router_steps.hpp"

namespace collnet::systemc {

Cycle Router::evaluate_rated(Cycle now) {
  read(now);
  AllocationScratch& sc = scratch();
  Cycle next = kNever;
  bool requested = vc_allocator_ != nullptr && allocate_vcs(now);
  // Each round: the input ports below their ceil(bandwidth) flits of this
  // cycle, every output while its link takes one more flit (router.hpp).
  std::fill(in_sent_.begin(), in_sent_.end(), std::uint8_t{0});
  for (int round = 0; round < rounds_; ++round) {
    const bool any = request<true>(sc, now, next);
    requested = any || requested;
    sc.grants.clear();
    if (oldest_walk_) switch_allocator_->grant_offers(sc);
    else if (!sc.active_inputs.empty()) switch_allocator_->decide(sc, now);
    if (sc.grants.empty()) break;
    for (const Grant& g : sc.grants) {
      apply(g, now);
      ++in_sent_[g.in_port];
    }
  }
  return next_evaluation(now, requested, next);
}

}  // namespace collnet::systemc
