#include "systemc/router/router.hpp"
#include "systemc/router/router_steps.hpp"  // read, request, apply (shared with router_rated.cpp)

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

namespace collnet::systemc {

Router::Router(const sc_core::sc_module_name& name, topology::NodeId node, int network_ports, int nic_ports,
               const RouterRouting& routing, const RouterConfig& config, PacketTable& packets,
               NetworkActivity& activity)
    : Clocked(name, /*run_at_start=*/false),
      in("in"),
      out("out"),
      node_(node),
      network_ports_(network_ports),
      ports_(network_ports + nic_ports),
      vcs_(config.vcs),
      depth_(config.buffer_flits),
      routing_delay_(config.routing_delay),
      pipeline_delay_(static_cast<Cycle>(config.pipeline_delay())),
      credit_release_delay_(static_cast<Cycle>(config.credit_release_delay)),
      own_vc_allocator_(config.vc_allocator_own),
      weighed_threshold_(config.weighed_threshold),
      weighed_once_(config.weighed_once),
      cut_through_(config.switching == Switching::virtual_cut_through),
      round_robin_vc_bid_(config.round_robin_vc_bid),
      atomic_vcs_(config.atomic_vc_allocation),
      packets_(packets),
      activity_(activity) {
  config.validate();
  const auto ports = static_cast<std::size_t>(ports_);
  const auto vcs = static_cast<std::size_t>(vcs_);
  if (ports_ > 0x7FFF) throw std::invalid_argument("router radix above 32767");
  pending_words_ = (ports + 63) / 64;
  if (pending_words_ == 1) {
    flits_pending_ = &link_activity_[0];
    credits_pending_ = &link_activity_[1];
  } else {
    wide_pending_.assign(2 * pending_words_, 0);
    flits_pending_ = wide_pending_.data();
    credits_pending_ = wide_pending_.data() + pending_words_;
  }
  if (vcs_ > 16) throw std::invalid_argument("router: more than 16 VCs");
  if (round_robin_vc_bid_) vc_bid_next_.assign(ports, 0);
  ejects_.assign(ports, 0);
  std::fill(ejects_.begin() + network_ports_, ejects_.end(), std::uint8_t{1});
  const VcAllocatorStage& stage = find_vc_allocator_stage(
      config.vc_allocator_own ? "own-allocator" : config.separate_vc_allocation ? "separate" : "combined");
  if (stage.make) vc_allocator_ = stage.make(ports_, vcs_);
  if (stage.separate) vc_reusable_at_.assign(ports * vcs, 0);
  // Class k owns a contiguous block of VCs (the routing function's layout,
  // by default the VCs v with floor(v * classes / vcs) == k).
  const int classes = std::max(routing.vc_classes, 1);
  if (classes > vcs_)
    throw ConfigError("key 'vcs': the routes use " + std::to_string(classes) + " VC classes (dateline) but vcs is " +
                      std::to_string(vcs_) + "; set vcs >= " + std::to_string(classes) + " or dateline: false");
  class_range_.resize(static_cast<std::size_t>(classes));
  if (!routing.layout.empty() && routing.layout.size() == class_range_.size()) {
    for (std::size_t c = 0; c < class_range_.size(); ++c)
      class_range_[c] = {static_cast<std::uint8_t>(routing.layout[c].first),
                         static_cast<std::uint8_t>(routing.layout[c].second)};
  } else {
    for (int v = vcs_ - 1; v >= 0; --v)
      class_range_[static_cast<std::size_t>(v * classes / vcs_)].first = static_cast<std::uint8_t>(v);
    for (int v = 0; v < vcs_; ++v)
      class_range_[static_cast<std::size_t>(v * classes / vcs_)].second = static_cast<std::uint8_t>(v + 1);
  }
  arena_.add(nonempty_vcs_, ports, std::uint16_t{0});
  arena_.add(routed_vcs_, ports, std::uint16_t{0});
  arena_.add(sendable_vcs_, ports, std::uint16_t{0});
  arena_.add(free_vcs_, ports, static_cast<std::uint16_t>((1u << vcs_) - 1));
  arena_.add(ready_vcs_, ports, std::uint16_t{0});
  arena_.add(class_mask_, class_range_.size(), std::uint16_t{0});
  arena_.add(out_epoch_, ports, std::uint32_t{1});
  arena_.add(in_links_, ports, static_cast<Link*>(nullptr));
  arena_.add(out_links_, ports, static_cast<Link*>(nullptr));
  arena_.add(credits_, ports * vcs, std::int32_t{0});
  arena_.add(vc_owner_, ports * vcs, std::uint32_t{0});
  arena_.add(front_inject_, ports * vcs, Cycle{0});
  arena_.add(input_vcs_, ports * vcs, InputVc{});
  arena_.add(buffers_, ports * vcs * static_cast<std::size_t>(depth_), Flit{});
  arena_.allocate();
  for (std::size_t c = 0; c < class_range_.size(); ++c)
    class_mask_[c] = static_cast<std::uint16_t>((1u << class_range_[c].second) - (1u << class_range_[c].first));
  vc_class_.assign(static_cast<std::size_t>(vcs_), 0);
  for (std::size_t c = 0; c < class_range_.size(); ++c)
    for (int v = class_range_[c].first; v < class_range_[c].second; ++v)
      vc_class_[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(c);
  topology_ = routing.topology;
  adaptive_ = routing.adaptive;
  if (adaptive_ != nullptr) {
    if (routing.selection == nullptr)
      throw std::logic_error(std::string(this->name()) + ": per-hop routing without a selection rule");
    select_ = routing.selection->select;
    if (routing.fallback != nullptr) select_applies_ = routing.selection->applies;
    if (routing.fallback != nullptr) fallback_select_ = routing.fallback->select;
    if ((select_ == nullptr || (routing.fallback != nullptr && fallback_select_ == nullptr)) && !own_vc_allocator_)
      throw std::logic_error(std::string(this->name()) + ": selection rule vc-allocator needs the own VC allocator "
                             "stage");
    hop_options_.resize(ports * vcs * topology::HopOptions::kMax);
  }

  out_depths_.assign(ports, depth_);
  selection_.free_vcs = free_vcs_;
  selection_.class_vcs = class_mask_;
  selection_.credits = credits_;
  selection_.vcs = vcs_;
  selection_.depths = out_depths_.data();  // each output's far-end buffer (set as the links connect)
  selection_.minimal_weights = weighed_once_;
  selection_.any_credits = own_vc_allocator_;
  selection_.threshold = weighed_threshold_;

  SwitchAllocatorSetup setup;
  setup.ports = ports_;
  setup.vcs = vcs_;
  setup.iterations = config.allocator_iterations;
  setup.arbitration = config.arbitration;
  setup.age_width = config.age_width;
  setup.every_vc_bids = !round_robin_vc_bid_;
  switch_allocator_ =
      find_switch_allocator(config.allocator == Allocator::output_first ? "output-first" : "input-first").make(setup);
  oldest_walk_ = switch_allocator_->oldest_request_per_input();
  scratch().fit(ports_, vcs_);
  scratch_ports_ = std::max(scratch_ports_, ports_);
  scratch_vcs_ = std::max(scratch_vcs_, vcs_);
}

int Router::scratch_ports_ = 0;
int Router::scratch_vcs_ = 0;

namespace {
// Records that the next binding of a multiport is router port `port`.
void record_port(std::vector<std::uint16_t>& order, int port, int ports, const char* router, const char* side) {
  if (port < 0 || port >= ports || std::find(order.begin(), order.end(), port) != order.end())
    throw std::logic_error(std::string(router) + ": " + side + " port " + std::to_string(port) +
                           (port < 0 || port >= ports ? " does not exist" : " bound twice"));
  order.push_back(static_cast<std::uint16_t>(port));
}
}  // namespace

void Router::bind_input(int port, Link& link) {
  record_port(in_ports_, port, ports_, name(), "input");
  in.bind(link);
}

void Router::bind_output(int port, Link& link) {
  record_port(out_ports_, port, ports_, name(), "output");
  out.bind(link);
}

void Router::mark_ejection_port(int port) {
  if (port < 0 || port >= network_ports_)
    throw std::logic_error(std::string(name()) + ": ejection port " + std::to_string(port) + " is not a network port");
  ejects_[static_cast<std::size_t>(port)] = 1;
}

void Router::end_of_elaboration() {
  // The interfaces of a multiport are in the order of its bindings.
  for (std::size_t b = 0; b < in_ports_.size(); ++b) {
    const std::size_t i = in_ports_[b];
    in_links_[i] = &dynamic_cast<LinkReceiverIf&>(*in[static_cast<int>(b)]).link();
    in_links_[i]->mark_flits_in(&flits_pending_[i / 64], static_cast<int>(i % 64));
  }
  for (std::size_t b = 0; b < out_ports_.size(); ++b) {
    const std::size_t i = out_ports_[b];
    const int p = static_cast<int>(i);
    Link* link = &dynamic_cast<LinkSenderIf&>(*out[static_cast<int>(b)]).link();
    out_links_[i] = link;
    link->mark_credits_in(&credits_pending_[i / 64], p % 64);
    if (link->vcs() != vcs_) throw std::logic_error(std::string(name()) + ": output link VC count differs");
    for (int v = 0; v < vcs_; ++v) credits_[index(p, v)] = link->buffer_flits();
    out_depths_[i] = link->buffer_flits();
    ready_vcs_[i] = free_vcs_[i];
  }
  in_ports_ = {};
  out_ports_ = {};
  // Links of another bandwidth than 1 (router.hpp): the rounds a cycle.
  in_lanes_.assign(static_cast<std::size_t>(ports_), 1);
  for (int p = 0; p < ports_; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    if (const Link* l = in_links_[pi]; l != nullptr) {
      in_lanes_[pi] = static_cast<std::uint8_t>(l->bandwidth().lanes());
      rated_ = rated_ || l->rated();
      rounds_ = std::max(rounds_, l->bandwidth().lanes());
    }
    if (const Link* l = out_links_[pi]; l != nullptr) {
      rated_ = rated_ || l->rated();
      rounds_ = std::max(rounds_, l->bandwidth().lanes());
    }
  }
  if (!rated_) in_lanes_ = {};
  else in_sent_.assign(static_cast<std::size_t>(ports_), 0);
}

std::pair<int, int> Router::vc_range(int port, int vc_class) const {
  if (port >= network_ports_ || vc_class < 0 || vc_class == kAnyClass) return {0, vcs_};
  const auto& r = class_range_[static_cast<std::size_t>(vc_class) % class_range_.size()];
  return {r.first, r.second};
}

Router::VcView Router::input_vc(int port, int vc) const {
  const std::size_t slot = index(port, vc);
  const InputVc& s = input_vcs_[slot];
  VcView v;
  v.flits = s.count;
  if (s.count == 0) return v;
  v.front = &buffers_[slot * static_cast<std::size_t>(depth_) + s.head];
  v.out_port = s.out_port;
  v.out_vc = s.out_port >= 0 ? s.out_vc : -1;
  if (v.front->head() && s.out_port < 0) {
    v.want_port = s.want_port;
    v.want_class = s.want_class == kAnyClass ? -1 : s.want_class;
  }
  return v;
}

void Router::front_changed(InputVc& ivc, std::size_t slot, Cycle base) {
  const Flit& f = buffers_[slot * static_cast<std::size_t>(depth_) + ivc.head];
  if (!f.head()) return;  // body flits follow the VC their head was granted
  const Packet& p = packets_[f.packet];
  if (adaptive_ != nullptr) {
    route_hop(ivc, slot, p);
  } else if (f.index < p.route.size()) {  // a head flit's index is its route position (packet.hpp)
    const RouteStep& step = p.route[f.index];
    ivc.want_port = static_cast<std::int16_t>(step.port);
    ivc.want_class = class_range_.size() > 1 ? step.vc_class : std::uint8_t{0};
  } else {
    // End of the route: the ejection port of the destination controller
    // (an aggregation unit's: the reduction class).
    ivc.want_port = static_cast<std::int16_t>(network_ports_ + p.header.controller);
    ivc.want_class = ivc.want_port >= unit_port_first_
                         ? unit_class_[static_cast<std::size_t>(ivc.want_port - unit_port_first_)]
                         : kAnyClass;
  }
  if (ivc.want_port >= ports_ || out_links_[static_cast<std::size_t>(ivc.want_port)] == nullptr)
    throw std::logic_error(std::string(name()) + ": packet routed to unconnected port " +
                           std::to_string(ivc.want_port));
  // Atomic VC allocation: the downstream buffer of the VC must be empty (all
  // its credits back), so that a VC buffer never queues a packet behind
  // another packet's flits (router_config.hpp, key vc_allocation).
  ivc.need = atomic_vcs_ ? static_cast<std::uint16_t>(out_links_[static_cast<std::size_t>(ivc.want_port)]->buffer_flits())
             : cut_through_ ? p.header.flits
                            : std::uint16_t{1};
  ivc.inject_cycle = p.header.inject_cycle;
  front_inject_[slot] = p.header.inject_cycle;
  ivc.blocked_epoch = 0;
  ivc.eligible_at = base + static_cast<Cycle>(routing_delay_ - (own_vc_allocator_ ? 1 : 0));
}

void Router::route_hop(InputVc& ivc, std::size_t slot, const Packet& packet) {
  const auto vcs = static_cast<std::size_t>(vcs_);
  const int port = static_cast<int>(slot / vcs);
  const bool from_network = port < network_ports_;
  topology::HopState state{node_, packet.header.source, packet.header.destination,
                           from_network ? port : topology::kNone,
                           from_network ? vc_class_[slot % vcs] : -1, packet.random};
  topology::HopOptions options;
  adaptive_->next_hops(*topology_, state, options);
  ivc.options = options.count;
  if (options.count == 0) {  // at the destination: the ejection port
    ivc.want_port = static_cast<std::int16_t>(network_ports_ + packet.header.controller);
    ivc.want_class = kAnyClass;
    return;
  }
  topology::HopOption* stored = &hop_options_[slot * topology::HopOptions::kMax];
  for (const topology::HopOption& o : options) {
    if (o.port < 0 || o.port >= network_ports_ || o.vc_class >= class_range_.size())
      throw std::logic_error(std::string(name()) + ": routing " + adaptive_->name + " offered port " +
                             std::to_string(o.port) + " class " + std::to_string(o.vc_class));
    *stored++ = o;
  }
  ivc.want_port = static_cast<std::int16_t>(options.items[0].port);
  ivc.want_class = options.items[0].vc_class;
  // The selection rule for this decision: the first, unless it does not apply.
  ivc.rule = select_applies_ == nullptr || select_applies_(options.items.data(), options.count) ? 0 : 1;
  if (weighed_once_ && options.items[0].hops != 0) {
    // ugal_rule booksim2: weighed now, as the head is routed, and kept (a
    // route with one option from here on).
    choose_output(ivc, slot);
    ivc.options = 0;
  }
}

bool Router::choose_output(InputVc& ivc, std::size_t slot) const {
  const auto select = ivc.rule == 0 ? select_ : fallback_select_;
  if (select == nullptr) return false;
  const topology::HopOption* options = &hop_options_[slot * topology::HopOptions::kMax];
  // The router's terms and state arrays are set once (constructor); the decision here.
  topology::Selection& selection = selection_;
  selection.options = options;
  selection.count = ivc.options;
  selection.need = ivc.need;
  const int chosen = select(selection);
  ivc.want_port = static_cast<std::int16_t>(options[chosen].port);
  ivc.want_class = options[chosen].vc_class;
  return true;
}

int Router::free_vc(const InputVc& ivc, Cycle now, Cycle& retry) const {
  if (ivc.need == 1 && vc_reusable_at_.empty()) {  // the lowest free VC of its class with a credit
    std::uint32_t ready = ready_vcs_[static_cast<std::size_t>(ivc.want_port)];
    if (ivc.want_class != kAnyClass) ready &= class_mask_[ivc.want_class];
    return ready != 0 ? std::countr_zero(ready) : -1;
  }
  std::uint32_t bits = free_vcs_[static_cast<std::size_t>(ivc.want_port)];
  if (ivc.want_class != kAnyClass) bits &= class_mask_[ivc.want_class];
  const std::size_t base = index(ivc.want_port, 0);
  for (; bits != 0; bits &= bits - 1) {  // the free VCs of its class, lowest first
    const int v = std::countr_zero(bits);
    const std::size_t o = base + static_cast<std::size_t>(v);
    if (credits_[o] < ivc.need) continue;
    if (vc_reusable_at_.empty() || vc_reusable_at_[o] <= now) return v;
    retry = std::min(retry, vc_reusable_at_[o]);
  }
  return -1;
}

void Router::prefetch(int stage) const {
  if (stage == 0) {
    __builtin_prefetch(in_links_);
    __builtin_prefetch(input_vcs_);
    __builtin_prefetch(nonempty_vcs_);
    __builtin_prefetch(credits_);
    return;
  }
  // The input links with flits: their delay line's head (evaluate, step 1).
  for (std::size_t w = 0; w < pending_words_; ++w)
    for (std::uint64_t bits = flits_pending_[w]; bits != 0; bits &= bits - 1) {
      const auto* wires = &in_links_[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]->flits_on_wires();
      __builtin_prefetch(wires);
      __builtin_prefetch(reinterpret_cast<const char*>(wires) + 64);
    }
}

Cycle Router::evaluate(Cycle now) {
  if (rated_) [[unlikely]] return evaluate_rated(now);
  read(now);  // 1. arrivals
  // 2.-3. decide: every input VC's request, the VC allocator (own-allocator),
  // then the switch allocator matches inputs to outputs (allocator.hpp).
  AllocationScratch& sc = scratch();
  Cycle next = kNever;
  const bool vc_requested = vc_allocator_ != nullptr && allocate_vcs(now);
  const bool requested = request<false>(sc, now, next) || vc_requested;
  sc.grants.clear();
  if (oldest_walk_) switch_allocator_->grant_offers(sc);  // the oldest-first decision, made while requesting
  else if (!sc.active_inputs.empty()) switch_allocator_->decide(sc, now);
  // 4. commit
  for (const Grant& g : sc.grants) apply(g, now);
  return next_evaluation(now, requested, next);
}

Cycle Router::next_evaluation(Cycle now, bool requested, Cycle next) {
  if (observer_ != nullptr && occupancy_ != traced_occupancy_) {
    traced_occupancy_ = occupancy_;
    observer_->on_occupancy(*this, now, occupancy_);
  }
  // Credits matter only to buffered flits: an empty router absorbs them when
  // the next flit wakes it.
  set_wake_on_credit(occupancy_ > 0);
  // After a cycle with requests the state changed (grants, released VCs,
  // new fronts): run again next cycle unless the router is now empty, when no
  // VC can request until a flit arrives (which wakes it). Deciding exactly
  // which of the remaining VCs can request next cycle (replaying step 2)
  // costs more instructions than the rare evaluations it would save (hd on
  // boards: 208 M for 1.3 k fewer evaluations in 2.5 M).
  if (requested && occupancy_ > 0) return now + 1;
  // Asleep until a flit or credit arrives (pending ones may have had their
  // wake-up dropped, see clocked.hpp) or a routing delay ends.
  for (std::size_t w = 0; w < pending_words_; ++w)
    for (std::uint64_t bits = flits_pending_[w]; bits != 0; bits &= bits - 1)
      next = std::min(next, in_links_[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]->next_flit_arrival());
  if (occupancy_ > 0)
    for (std::size_t w = 0; w < pending_words_; ++w)
      for (std::uint64_t bits = credits_pending_[w]; bits != 0; bits &= bits - 1)
        next = std::min(next,
                        out_links_[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]->next_credit_arrival());
  return next;
}

bool Router::allocate_vcs(Cycle now) {
  // Requests: every routed head without a VC asks for every free output VC
  // of its class (no credit needed, as a wormhole VC allocator that leaves
  // credits to the switch allocator; vct and atomic still need them).
  AllocationScratch& sc = scratch();
  std::size_t total = 0;
  for (int p = 0; p < ports_; ++p) {
    for (std::uint32_t bits = nonempty_vcs_[static_cast<std::size_t>(p)]; bits != 0; bits &= bits - 1) {
      const int v = std::countr_zero(bits);
      InputVc& ivc = input_vcs_[index(p, v)];
      if (ivc.out_port >= 0 || ivc.eligible_at > now) continue;
      if (ivc.options != 0 && !choose_output(ivc, index(p, v))) {  // per-hop routing
        request_every_option(ivc, p, v, total);  // the selection rule leaves it to the VC allocator
        continue;
      }
      int first = 0;
      int end = vcs_;
      if (ivc.want_class != kAnyClass) {
        first = class_range_[ivc.want_class].first;
        end = class_range_[ivc.want_class].second;
      }
      for (int ov = first; ov < end; ++ov) {
        const std::size_t o = index(ivc.want_port, ov);
        if (vc_owned(ivc.want_port, ov) || (ivc.need > 1 && credits_[o] < ivc.need)) continue;
        if (total == sc.va_requests.size()) sc.va_requests.resize(2 * total + 16);
        sc.va_requests[total++] = Grant{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(v),
                                          static_cast<std::uint16_t>(ivc.want_port), static_cast<std::uint8_t>(ov)};
      }
    }
  }
  if (total == 0) return false;
  const std::size_t accepted = vc_allocator_->decide(sc.va_requests, total, sc);
  vc_allocator_->commit(std::span(sc.va_requests.data(), accepted));
  // Commit (the priorities moved above, after the decision).
  for (std::size_t k = 0; k < accepted; ++k) {
    const Grant& c = sc.va_requests[k];
    free_vcs_[c.out_port] &= static_cast<std::uint16_t>(~(1u << c.out_vc));
    ready_vcs_[c.out_port] &= static_cast<std::uint16_t>(~(1u << c.out_vc));
    InputVc& ivc = input_vcs_[index(c.in_port, c.in_vc)];
    ivc.out_port = static_cast<std::int16_t>(c.out_port);
    ivc.out_vc = c.out_vc;
    route_vc(index(c.in_port, c.in_vc), c.out_port, c.out_vc);
    ivc.eligible_at = now + 1;  // bids for the switch from the next cycle
  }
  return true;
}

void Router::request_every_option(const InputVc& ivc, int p, int v, std::size_t& total) {
  AllocationScratch& sc = scratch();
  const topology::HopOption* options = &hop_options_[index(p, v) * topology::HopOptions::kMax];
  for (const topology::HopOption* o = options; o != options + ivc.options; ++o) {
    const auto [first, end] = class_range_[o->vc_class];
    for (int ov = first; ov < end; ++ov) {
      if (vc_owned(o->port, ov) || (ivc.need > 1 && credits_[index(o->port, ov)] < ivc.need)) continue;
      if (total == sc.va_requests.size()) sc.va_requests.resize(2 * total + 16);
      sc.va_requests[total++] = Grant{static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(v),
                                      static_cast<std::uint16_t>(o->port), static_cast<std::uint8_t>(ov)};
    }
  }
}

void Router::one_bid_per_output(int p) {
  AllocationScratch& sc = scratch();
  const std::size_t base = static_cast<std::size_t>(p) * static_cast<std::size_t>(vcs_);
  const auto n = static_cast<std::size_t>(sc.candidate_count[static_cast<std::size_t>(p)]);
  const int first = vc_bid_next_[static_cast<std::size_t>(p)];
  auto rank = [&](std::size_t k) { return (sc.candidates[base + k].in_vc - first + vcs_) % vcs_; };
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    bool best = true;
    for (std::size_t j = 0; j < n && best; ++j)
      best = j == k || sc.candidates[base + j].out_port != sc.candidates[base + k].out_port || rank(k) < rank(j);
    if (!best) continue;
    sc.candidates[base + kept] = sc.candidates[base + k];
    sc.candidate_requests[base + kept] = sc.candidate_requests[base + k];
    ++kept;
  }
  sc.candidate_count[static_cast<std::size_t>(p)] = static_cast<int>(kept);
}

}  // namespace collnet::systemc
