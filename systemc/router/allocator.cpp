#include "systemc/router/allocator.hpp"

#include <algorithm>

#include "collectives/params.hpp"

namespace collnet::systemc {

thread_local constinit AllocationScratch AllocationScratch::local_;
thread_local constinit AllocationScratch* AllocationScratch::current_ = nullptr;

void AllocationScratch::fit(int ports, int vcs) {
  // Every vector grows to what this router needs, each on its own: a later
  // network may have the same radix and more VCs (or the reverse).
  const auto p = static_cast<std::size_t>(ports);
  const auto v = static_cast<std::size_t>(vcs);
  auto grow = [](auto& vec, std::size_t n) {
    if (vec.size() < n) vec.resize(n);
  };
  grow(vc_requests, v);
  grow(vc_candidates, v);
  grow(port_requests, std::max(p * p, p * v));
  grow(port_candidates, std::max(p * p, p * v));
  for (auto* per_port : {&port_request_count, &candidate_count, &offer_count, &output_start})
    if (per_port->size() < p) per_port->assign(p, 0);
  if (output_matched.size() < p) output_matched.assign(p, 0);
  if (input_matched.size() < p) input_matched.assign(p, 0);
  grow(touched_outputs.items, p);
  grow(output_best, p);
  grow(active_inputs.items, p);
  grow(grants.items, p);
  grow(candidates, p * v);
  grow(candidate_requests, p * v);
  grow(vc_requests_by_port, p * v);
  grow(offers, p * v);
}

SwitchAllocator::SwitchAllocator(const SwitchAllocatorSetup& setup)
    : ports_(setup.ports),
      vcs_(setup.vcs),
      iterations_(setup.iterations),
      age_(setup.arbitration == "age"),
      age_saturation_(age_saturation(setup.age_width)) {
  const auto& policy = find_arbitration(setup.arbitration);
  const ArbiterOptions options{setup.age_width};
  for (int p = 0; p < ports_; ++p) {
    input_arbiters_.push_back(policy.make(ArbiterStage::input, vcs_, options));
    output_arbiters_.push_back(policy.make(ArbiterStage::output, ports_, options));
  }
}

namespace {

/// The rounds of an iterative switch allocator (key sa_iterations): round
/// 0, 1, ... while rounds are left and an input is unmatched, each starting
/// with no output touched; `round(r)` returns false to stop early.
template <typename Round>
void for_each_round(AllocationScratch& sc, int iterations, Round&& round) {
  for (int r = 0; r < iterations && !sc.active_inputs.empty(); ++r) {
    sc.touched_outputs.clear();
    if (!round(r)) return;
  }
}

/// Separable input-first: each input port's arbiter picks one of its
/// requesting VCs, each output's arbiter one of the inputs that picked it;
/// later rounds retry the unmatched inputs on the unmatched outputs.
class InputFirst final : public SwitchAllocator {
 public:
  using SwitchAllocator::SwitchAllocator;
  void decide(AllocationScratch& sc, Cycle now) override {
    const auto vcs = static_cast<std::size_t>(vcs_);
    for_each_round(sc, iterations_, [&](int round) {
      std::size_t still = 0;  // inputs that stay unmatched after this round
      for (const int p : sc.active_inputs) {
        const std::size_t base = static_cast<std::size_t>(p) * vcs;
        const auto n = static_cast<std::size_t>(sc.candidate_count[static_cast<std::size_t>(p)]);
        // Round 1 sees every output free; later rounds only the outputs no
        // input won so far (a matched output takes no second flit).
        const ArbiterRequest* requests = sc.candidate_requests.data() + base;
        const SwitchGrant* grants = sc.candidates.data() + base;
        std::size_t m = n;
        if (round > 0) {
          m = 0;
          for (std::size_t k = 0; k < n; ++k) {
            if (sc.output_matched[grants[k].out_port] != 0) continue;
            sc.vc_requests[m] = requests[k];
            sc.vc_candidates[m] = grants[k];
            ++m;
          }
          if (m == 0) continue;  // nothing left it could send: out of the match
          requests = sc.vc_requests.data();
          grants = sc.vc_candidates.data();
        }
        sc.active_inputs[still++] = p;
        const std::size_t w = m == 1 ? 0 : pick_input(p, std::span(requests, m), now);
        const int o = grants[w].out_port;
        int& count = sc.port_request_count[static_cast<std::size_t>(o)];
        if (count == 0) sc.touched_outputs.push_back(o);
        const std::size_t at =
            static_cast<std::size_t>(o) * static_cast<std::size_t>(ports_) + static_cast<std::size_t>(count);
        sc.port_requests[at] = requests[w];
        sc.port_candidates[at] = grants[w];
        ++count;
      }
      sc.active_inputs.resize(still);
      for (int o : sc.touched_outputs) {
        const auto oi = static_cast<std::size_t>(o);
        const auto n = static_cast<std::size_t>(sc.port_request_count[oi]);
        const std::size_t base = oi * static_cast<std::size_t>(ports_);
        const std::size_t w = pick_output(o, std::span(sc.port_requests.data() + base, n), now);
        const ArbiterRequest& r = sc.port_requests[base + w];
        // iSLIP: priorities move only on first-round grants, so that a later
        // round cannot starve a requester the first round would serve next.
        if (round == 0) granted(o, r);
        sc.grants.push_back(sc.port_candidates[base + w]);
        sc.port_request_count[oi] = 0;
        if (iterations_ > 1) {
          sc.output_matched[oi] = 1;
          sc.input_matched[r.port] = 1;
        }
      }
      if (round + 1 < iterations_) {
        // Drop the inputs that won this round.
        std::size_t k = 0;
        for (const int p : sc.active_inputs)
          if (sc.input_matched[static_cast<std::size_t>(p)] == 0) sc.active_inputs[k++] = p;
        sc.active_inputs.resize(k);
      }
      return true;
    });
    if (iterations_ > 1)  // (one round reads no matched flags)
      for (const SwitchGrant& g : sc.grants) {
        sc.output_matched[g.out_port] = 0;
        sc.input_matched[g.in_port] = 0;
      }
  }
};

/// Input-first with the `age` policy, one round, every ready VC bidding
/// (the default router): each input port keeps its oldest request (on equal
/// age the lowest VC, the first listed), each output the oldest input offer
/// (on equal age the lowest port: inputs come in ascending order), which is
/// what pick_oldest decides over the same lists; grants in the order the
/// outputs were first offered, as InputFirst. One pass, no arbiter state.
class OldestFirst final : public SwitchAllocator {
 public:
  explicit OldestFirst(const SwitchAllocatorSetup& setup) : SwitchAllocator(setup) {
    oldest_only_ = age_saturation_ == kNever;  // exact ages: the oldest is the earliest injected
  }
  void decide(AllocationScratch& sc, Cycle now) override {
    // Input stage: each input port's oldest request (with exact ages the
    // router offers that one alone); output stage: offer / grant_offers.
    const auto vcs = static_cast<std::size_t>(vcs_);
    sc.touched_outputs.clear();  // (another allocator may have left its list)
    for (const int p : sc.active_inputs) {
      const std::size_t base = static_cast<std::size_t>(p) * vcs;
      const std::size_t end = base + static_cast<std::size_t>(sc.candidate_count[static_cast<std::size_t>(p)]);
      std::size_t best = base;
      Cycle best_age = arbitration_age(sc.candidate_requests[base].inject_cycle, now, age_saturation_);
      if (!oldest_only_)
        for (std::size_t k = base + 1; k < end; ++k) {
          const Cycle a = arbitration_age(sc.candidate_requests[k].inject_cycle, now, age_saturation_);
          if (a > best_age) {
            best_age = a;
            best = k;
          }
        }
      offer(sc, sc.candidates[best], sc.candidate_requests[best].inject_cycle, now);
    }
    grant_offers(sc);
  }
};

/// Separable output-first (request-grant-accept): every candidate of an
/// unmatched input asks its output, each output's arbiter grants one, each
/// input's arbiter accepts one of its grants.
class OutputFirst final : public SwitchAllocator {
 public:
  using SwitchAllocator::SwitchAllocator;
  void decide(AllocationScratch& sc, Cycle now) override {
    const auto vcs = static_cast<std::size_t>(vcs_);
    for_each_round(sc, iterations_, [&](int round) {
      // Request: every candidate of an unmatched input to an unmatched output,
      // bucketed by output (counting sort into a flat array).
      std::size_t total = 0;
      for (const int p : sc.active_inputs) {
        const std::size_t base = static_cast<std::size_t>(p) * vcs;
        const auto n = static_cast<std::size_t>(sc.candidate_count[static_cast<std::size_t>(p)]);
        for (std::size_t k = 0; k < n; ++k) {
          const int o = sc.candidates[base + k].out_port;
          if (sc.output_matched[static_cast<std::size_t>(o)] != 0) continue;
          int& count = sc.port_request_count[static_cast<std::size_t>(o)];
          if (count == 0) sc.touched_outputs.push_back(o);
          ++count;
          ++total;
        }
      }
      if (total == 0) return false;
      std::size_t start = 0;
      for (const int o : sc.touched_outputs) {
        sc.output_start[static_cast<std::size_t>(o)] = static_cast<int>(start);
        start += static_cast<std::size_t>(sc.port_request_count[static_cast<std::size_t>(o)]);
        sc.port_request_count[static_cast<std::size_t>(o)] = 0;
      }
      for (const int p : sc.active_inputs) {
        const std::size_t base = static_cast<std::size_t>(p) * vcs;
        const auto n = static_cast<std::size_t>(sc.candidate_count[static_cast<std::size_t>(p)]);
        for (std::size_t k = 0; k < n; ++k) {
          const auto o = static_cast<std::size_t>(sc.candidates[base + k].out_port);
          if (sc.output_matched[o] != 0) continue;
          const std::size_t at = static_cast<std::size_t>(sc.output_start[o] + sc.port_request_count[o]++);
          sc.port_requests[at] = sc.candidate_requests[base + k];
          sc.port_candidates[at] = sc.candidates[base + k];
        }
      }
      // Grant: each output picks one request (any VC of any input).
      for (const int o : sc.touched_outputs) {
        const auto oi = static_cast<std::size_t>(o);
        const auto n = static_cast<std::size_t>(sc.port_request_count[oi]);
        const auto first = static_cast<std::size_t>(sc.output_start[oi]);
        sc.port_request_count[oi] = 0;
        const std::size_t w = n == 1 ? 0 : pick_output(o, std::span(sc.port_requests.data() + first, n), now);
        const ArbiterRequest& r = sc.port_requests[first + w];
        const std::size_t at = static_cast<std::size_t>(r.port) * vcs +
                               static_cast<std::size_t>(sc.offer_count[r.port]++);
        sc.vc_requests_by_port[at] = r;
        sc.offers[at] = sc.port_candidates[first + w];
      }
      // Accept: each input granted by several outputs takes one (one flit
      // leaves an input port per cycle).
      std::size_t still = 0;
      for (const int p : sc.active_inputs) {
        const auto pi = static_cast<std::size_t>(p);
        const auto n = static_cast<std::size_t>(sc.offer_count[pi]);
        if (n == 0) {
          sc.active_inputs[still++] = p;
          continue;
        }
        sc.offer_count[pi] = 0;
        const std::size_t base = pi * vcs;
        const std::size_t w = n == 1 ? 0 : pick_input(p, std::span(sc.vc_requests_by_port.data() + base, n), now);
        const SwitchGrant& g = sc.offers[base + w];
        // iSLIP: priorities move only on first-round grants.
        if (round == 0) granted(g.out_port, sc.vc_requests_by_port[base + w]);
        if (iterations_ > 1) sc.output_matched[g.out_port] = 1;
        sc.grants.push_back(g);
      }
      sc.active_inputs.resize(still);
      return true;
    });
    if (iterations_ > 1)
      for (const SwitchGrant& g : sc.grants) sc.output_matched[g.out_port] = 0;
  }
};

/// own-allocator: each output VC grants the requesting input VC next after
/// the one it granted last; each input VC accepts the granting output VC
/// next after the one it accepted last (one iteration, priorities move on
/// accept).
class SeparableVcAllocator final : public VcAllocator {
 public:
  SeparableVcAllocator(int ports, int vcs)
      : vcs_(vcs),
        slots_(ports * vcs),
        output_last_(static_cast<std::size_t>(slots_), -1),
        input_last_(static_cast<std::size_t>(slots_), -1) {}

  std::size_t decide(std::vector<SwitchGrant>& requests, std::size_t total, AllocationScratch& sc) override {
    auto after = [this](int slot, int last) { return (slot - last - 1 + 2 * slots_) % slots_; };
    sc.va_offers.clear();
    for (std::size_t k = 0; k < total; ++k) {
      const SwitchGrant& c = requests[k];
      const int ovc = slot(c.out_port, c.out_vc);
      const int ivc_slot = slot(c.in_port, c.in_vc);
      const int last = output_last_[static_cast<std::size_t>(ovc)];
      bool best = true;
      for (std::size_t j = 0; j < total && best; ++j) {
        const SwitchGrant& d = requests[j];
        if (j == k || slot(d.out_port, d.out_vc) != ovc) continue;
        best = after(ivc_slot, last) < after(slot(d.in_port, d.in_vc), last);
      }
      if (best) sc.va_offers.push_back(c);
    }
    std::size_t accepted = 0;
    for (std::size_t k = 0; k < sc.va_offers.size(); ++k) {
      const SwitchGrant& c = sc.va_offers[k];
      const int ivc_slot = slot(c.in_port, c.in_vc);
      const int ovc = slot(c.out_port, c.out_vc);
      const int last = input_last_[static_cast<std::size_t>(ivc_slot)];
      bool best = true;
      for (std::size_t j = 0; j < sc.va_offers.size() && best; ++j) {
        const SwitchGrant& d = sc.va_offers[j];
        if (j == k || slot(d.in_port, d.in_vc) != ivc_slot) continue;
        best = after(ovc, last) < after(slot(d.out_port, d.out_vc), last);
      }
      if (best) requests[accepted++] = c;  // (the requests are read no more)
    }
    return accepted;
  }

  void commit(std::span<const SwitchGrant> accepted) override {
    for (const SwitchGrant& c : accepted) {
      const int ivc_slot = slot(c.in_port, c.in_vc);
      const int ovc = slot(c.out_port, c.out_vc);
      output_last_[static_cast<std::size_t>(ovc)] = ivc_slot;
      input_last_[static_cast<std::size_t>(ivc_slot)] = ovc;
    }
  }

 private:
  [[nodiscard]] int slot(int port, int vc) const { return port * vcs_ + vc; }
  int vcs_;
  int slots_;
  std::vector<int> output_last_;  // last input VC slot granted each output VC
  std::vector<int> input_last_;   // last output VC slot each input VC accepted
};

template <typename List>
std::string names_of(const List& list) {
  std::vector<std::string> names;
  for (const auto& e : list) names.push_back(e.name);
  return join(names);
}

/// The entry of `list` called `name`; a ConfigError naming `key`, the
/// unknown `what` and the accepted names otherwise.
template <class List>
const typename List::value_type& find_named(const List& list, std::string_view name, const char* key,
                                            const char* what) {
  for (const auto& e : list)
    if (e.name == name) return e;
  throw ConfigError(std::string("key '") + key + "': unknown " + what + " '" + std::string(name) +
                    "'; accepted values: " + names_of(list));
}

}  // namespace

const std::vector<SwitchAllocatorKind>& switch_allocators() {
  static const std::vector<SwitchAllocatorKind> kinds = {
      {"input-first",
       "each input port picks one ready VC, then each output one input port (separable, iSLIP-style rounds)",
       [](const SwitchAllocatorSetup& s) -> std::unique_ptr<SwitchAllocator> {
         if (s.arbitration == "age" && s.iterations == 1 && s.every_vc_bids) return std::make_unique<OldestFirst>(s);
         return std::make_unique<InputFirst>(s);
       }},
      {"output-first",
       "every ready VC requests its output, each output grants one, each input port accepts one grant",
       [](const SwitchAllocatorSetup& s) -> std::unique_ptr<SwitchAllocator> {
         return std::make_unique<OutputFirst>(s);
       }},
  };
  return kinds;
}

const SwitchAllocatorKind& find_switch_allocator(std::string_view name) {
  return find_named(switch_allocators(), name, "allocator", "switch allocator");
}

const std::vector<VcAllocatorStage>& vc_allocator_stages() {
  static const std::vector<VcAllocatorStage> stages = {
      {"combined", "one allocation decision gives a head its output VC and the switch", false, nullptr},
      {"separate", "VC allocation is a pipeline stage of its own: a released output VC is allocatable 2 cycles later",
       true, nullptr},
      {"own-allocator",
       "a separable VC allocator of its own in the last cycle of routing_delay (rotating priorities, one iteration)",
       false,
       [](int ports, int vcs) -> std::unique_ptr<VcAllocator> {
         return std::make_unique<SeparableVcAllocator>(ports, vcs);
       }},
  };
  return stages;
}

const VcAllocatorStage& find_vc_allocator_stage(std::string_view name) {
  return find_named(vc_allocator_stages(), name, "vc_allocator_stage", "stage");
}

}  // namespace collnet::systemc
