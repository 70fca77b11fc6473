#include "systemc/run/traffic_endpoint.hpp"

#include <algorithm>
#include <cmath>

#include "topology/grid.hpp"

namespace collnet::systemc {

void InjectionChannel::reset(const Link& link, Switching switching) {
  credits_.assign(static_cast<std::size_t>(link.vcs()), link.buffer_flits());
  cut_through_ = switching == Switching::virtual_cut_through;
  last_vc_ = -1;
}

void InjectionChannel::take_credits(Link& link, Cycle now) {
  while (link.credit_ready(now)) ++credits_[link.pop_credit()];
}

int InjectionChannel::free_vc(int flits) const {
  const int vcs = static_cast<int>(credits_.size());
  const int need = cut_through_ ? flits : 1;
  for (int i = 1; i <= vcs; ++i) {
    const int v = (last_vc_ + i + vcs) % vcs;
    if (credits_[static_cast<std::size_t>(v)] >= need) return v;
  }
  return -1;
}

void TrafficStats::check_finished(Cycle now) {
  if (root != nullptr) {
    // A shard: the root sums every shard, which the parallel phase cannot.
    if (WakeScheduler::outbox() != nullptr) check_requested = true;
    else root->check_finished(now);
    return;
  }
  if (finished) return;
  std::uint64_t waiting = pending;
  bool all_closed = closed;
  bool any_shard_closed = false;
  for (const auto& s : shards) {
    waiting += s->pending;  // a shard's count wraps when its packets arrive elsewhere: the sum is exact
    any_shard_closed = any_shard_closed || s->closed;
  }
  if (!all_closed && any_shard_closed && running_sources() == 0) closed = all_closed = true;
  if (!all_closed || waiting != 0) return;
  finished = true;
  finish_cycle = now;
  request_stop();
}

void TrafficStats::make_shards(int count) {
  for (int i = 0; i < count; ++i) {
    auto s = std::make_unique<TrafficStats>();
    s->root = this;
    s->window = window;
    s->accepted_by_source.assign(accepted_by_source.size(), 0);
    s->record_flows = record_flows;
    shards.push_back(std::move(s));
  }
}

int TrafficStats::running_sources() const {
  int running = sources_running;
  for (const auto& s : shards) running += s->sources_running;
  return running;
}

void TrafficStats::cycle_end(Cycle now) {
  bool requested = false;
  for (auto& s : shards) {
    requested = requested || s->check_requested;
    s->check_requested = false;
  }
  if (requested) check_finished(now);
}

void TrafficStats::merge_shards() {
  for (auto& s : shards) {
    offered_flits += s->offered_flits;
    accepted_flits += s->accepted_flits;
    for (std::size_t i = 0; i < accepted_by_source.size(); ++i) accepted_by_source[i] += s->accepted_by_source[i];
    latencies.insert(latencies.end(), s->latencies.begin(), s->latencies.end());
    for (const auto& [flow, l] : s->flows) {
      FlowLatency& to = flows[flow];
      to.packets += l.packets;
      to.sum += l.sum;
      to.max = std::max(to.max, l.max);
    }
    pending += s->pending;
    created += s->created;
    received += s->received;
    if (integrity_errors == 0 && s->integrity_errors != 0) first_error = s->first_error;
    integrity_errors += s->integrity_errors;
    if (config_error.empty()) config_error = s->config_error;
    sources_running += s->sources_running;
  }
  shards.clear();
}

void TrafficStats::error(const std::string& what) {
  if (integrity_errors++ == 0) first_error = what;
}

TrafficEndpoint::TrafficEndpoint(const sc_core::sc_module_name& name, topology::EndpointId self, Network& network,
                                 const TrafficConfig& config, const DestinationFn& destination, TrafficStats& stats)
    : Clocked(name, /*run_at_start=*/true),
      injection("injection"),
      ejection("ejection"),
      self_(self),
      network_(network),
      config_(config),
      destination_(destination),
      stats_(stats),
      random_(config.seed, static_cast<std::uint64_t>(self)),
      packet_probability_(config.injection_rate / config.packet_flits) {
  injection.bind(network.injection(self, config.controller));
  ejection.bind(network.ejection(self, config.controller));
  silent_ = packet_probability_ <= 0.0;
  if (const std::int32_t endpoints = network.topology().endpoint_count();
      !silent_ && endpoints <= kRouteMemoEndpoints)
    route_memos_.resize(static_cast<std::size_t>(endpoints));
  if (config_.periodic && !silent_)
    interval_ = std::max<Cycle>(1, static_cast<Cycle>(std::llround(1.0 / packet_probability_)));
  if (!silent_ && config_.packets_per_node > 0) ++stats_.sources_running;
}

void TrafficEndpoint::end_of_elaboration() {
  injection_link_ = &injection->link();
  ejection_link_ = &ejection->link();
  channel_.reset(*injection_link_, network_.config().switching);
  // First creation: the first success of the per-cycle Bernoulli trials from cycle 0.
  if (!silent_) next_creation_ = config_.periodic ? 0 : random_.geometric(packet_probability_) - 1;
}

void TrafficEndpoint::receive(Cycle now) {
  PacketTable& packets = network_.packets();
  while (ejection_link_->flit_ready(now)) {
    const Flit f = ejection_link_->pop_flit();
    ejection_link_->send_credit(f.vc, now);
    network_.activity().left(now);
    Packet& p = packets[f.packet];
    if (!p.live || p.header.destination != self_ || f.index != p.received ||
        f.payload != synthetic_payload(p.serial, f.index) || f.tail() != (f.index + 1 == p.header.flits)) {
      stats_.error("endpoint " + std::to_string(self_) + " cycle " + std::to_string(now) + ": flit " +
                   std::to_string(f.index) + " of packet " + std::to_string(p.serial >> 40) + "->" +
                   std::to_string(p.header.destination) + " arrived out of order, misplaced or corrupted");
      continue;
    }
    ++p.received;
    if (stats_.window.contains(now)) {
      ++stats_.accepted_flits;
      ++stats_.accepted_by_source[static_cast<std::size_t>(p.header.source)];
    }
    if (!f.tail()) continue;
    ++stats_.received;
    if (p.measured) {
      const auto latency = static_cast<std::uint32_t>(now - p.header.inject_cycle);
      stats_.latencies.push_back(latency);
      --stats_.pending;
      if (stats_.record_flows) {
        auto& l = stats_.flows[static_cast<std::uint64_t>(p.header.source) * stats_.accepted_by_source.size() +
                               static_cast<std::uint64_t>(self_)];
        ++l.packets;
        l.sum += latency;
        l.max = std::max(l.max, latency);
      }
      if (stats_.record_packets)
        stats_.deliveries.push_back(TrafficStats::Delivery{p.header.source, p.header.destination, p.header.hops,
                                                           p.header.inject_cycle, now - p.header.inject_cycle});
    }
    packets.release(f.packet);
    stats_.check_finished(now);
  }
}

void TrafficEndpoint::create(Cycle now) {
  while (next_creation_ <= now) {
    const Cycle at = next_creation_;
    const topology::EndpointId d = destination_(self_, random_);
    if (d != topology::kNone && (d != self_ || config_.inject_self)) {
      queue_.push_back(Pending{at, d});
      // A measured packet is pending from its creation: one still in the
      // source queue when the window closes keeps the run draining.
      if (stats_.window.contains(at)) {
        stats_.offered_flits += static_cast<std::uint64_t>(config_.packet_flits);
        ++stats_.pending;
      }
    }
    ++created_;
    if (config_.packets_per_node > 0 && created_ >= config_.packets_per_node) {
      next_creation_ = kNever;
      if (--stats_.sources_running == 0) stats_.closed = true;
      break;
    }
    next_creation_ = at + (config_.periodic ? interval_ : random_.geometric(packet_probability_));
  }
}

topology::RouteHint TrafficEndpoint::random_tie_hint() {
  topology::RouteHint hint = 0;
  for (int dim = 0; dim < 4; ++dim)
    if (random_.below(2) != 0) hint |= topology::Grid::direction_hint(dim, topology::Direction::minimal_tie_minus);
  return hint;
}

bool TrafficEndpoint::send(Cycle now) {
  // An injection link slower than a flit a cycle (link.hpp) takes the next
  // flit only in a cycle it can depart in.
  if (injection_link_->rated() && !injection_link_->can_depart(now)) [[unlikely]] return false;
  if (!sending_) {
    if (queue_.empty()) return false;
    const int vc = channel_.free_vc(config_.packet_flits);
    if (vc < 0) return false;
    const Pending next = queue_.front();
    queue_.pop_front();
    PacketHeader h;
    h.source = self_;
    h.destination = next.destination;
    h.inject_cycle = next.created;
    h.route_hint = config_.random_ties ? random_tie_hint() : config_.route_hint;
    h.flits = static_cast<std::uint16_t>(config_.packet_flits);
    h.controller = static_cast<std::uint8_t>(config_.controller);
    try {
      current_ = network_.create_packet(
          h, route_memos_.empty() ? nullptr : &route_memos_[static_cast<std::size_t>(next.destination)]);
    } catch (const ConfigError& e) {
      // Bad input found while running (e.g. a route hint the topology cannot
      // follow): stop and let the caller report it as a scenario error.
      if (stats_.config_error.empty()) stats_.config_error = e.what();
      request_stop();
      return false;
    }
    Packet& p = network_.packets()[current_];
    p.serial = (static_cast<std::uint64_t>(self_) << 40) | sequence_++;
    p.measured = stats_.window.contains(next.created);
    ++stats_.created;
    sending_ = true;
    next_flit_ = 0;
    vc_ = vc;
  }
  if (!channel_.has_credit(vc_)) return false;
  const Packet& p = network_.packets()[current_];
  Flit f;
  f.packet = current_;
  f.index = next_flit_;
  f.vc = static_cast<std::uint8_t>(vc_);
  f.flags = static_cast<std::uint8_t>((next_flit_ == 0 ? Flit::kHead : 0) |
                                      (next_flit_ + 1 == p.header.flits ? Flit::kTail : 0));
  f.payload = synthetic_payload(p.serial, next_flit_);
  channel_.spend(vc_);
  injection_link_->send(f, now);
  network_.activity().entered(now);
  if (f.tail()) sending_ = false;
  ++next_flit_;
  return true;
}

Cycle TrafficEndpoint::evaluate(Cycle now) {
  receive(now);
  channel_.take_credits(*injection_link_, now);
  create(now);
  const bool sent = send(now);
  Cycle next = next_creation_;
  // More to send: try again next cycle if a flit went out; otherwise it is
  // blocked on credits, whose arrival wakes this endpoint.
  const bool waiting = sending_ || !queue_.empty();
  if (sent && waiting) next = now + 1;
  set_wake_on_credit(waiting);
  next = std::min(next, ejection_link_->next_flit_arrival());
  if (waiting) next = std::min(next, injection_link_->next_credit_arrival());
  if (waiting && injection_link_->rated()) [[unlikely]]
    next = std::min(next, std::max(now + 1, injection_link_->next_departure()));
  return next;
}

TrafficControl::TrafficControl(const sc_core::sc_module_name& name, TrafficStats& stats, bool open_loop)
    : Clocked(name, /*run_at_start=*/true), stats_(stats), open_loop_(open_loop) {}

Cycle TrafficControl::evaluate(Cycle now) {
  if (open_loop_ && now < stats_.window.end) return stats_.window.end;
  if (open_loop_ || stats_.running_sources() == 0) stats_.closed = true;
  stats_.check_finished(now);
  return kNever;
}

}  // namespace collnet::systemc
