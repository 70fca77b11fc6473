#include "systemc/link/link.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "systemc/link/link_faults.hpp"
#include <typeinfo>

namespace collnet::systemc {

namespace {
// The flits a link can hold: latency + max pipeline delay + 1. The ring's
// 32-bit arrivals need the two delays to stay below DelayLine::kMaxSpread.
std::size_t checked_in_flight(const Link::Params& params) {
  if (params.latency < 1) throw std::invalid_argument("link latency must be at least 1 cycle");
  if (params.max_pipeline_delay < 0) throw std::invalid_argument("link pipeline delay must not be negative");
  const auto spread = static_cast<Cycle>(params.latency) + static_cast<Cycle>(params.max_pipeline_delay);
  if (spread >= DelayLine<Flit>::kMaxSpread)
    throw std::invalid_argument("link latency + pipeline delay must be below 2^30 cycles");
  const topology::Bandwidth& b = params.bandwidth;
  if (b.flits < 1 || b.cycles < 1 || b.flits > topology::kMaxBandwidth * b.cycles ||
      b.cycles > topology::kMaxBandwidthCycles)
    throw std::invalid_argument("link bandwidth " + topology::to_string(b) + " out of range");
  // Up to ceil(B) flits a cycle (a slower link grows its ring if the sender
  // queues more than that on it).
  return (static_cast<std::size_t>(spread) + 1) * static_cast<std::size_t>(b.lanes());
}
}  // namespace

// The line budget of link.hpp: the flit ring's header, arrivals and slots in
// two lines; the credit ring's hot part (all but its heap pointer) in the 40
// bytes after the 24 of the credit path.
static_assert(sizeof(DelayLine<Flit>) == 112);
static_assert(sizeof(DelayLine<std::uint8_t>) == 48);
// Six lines: the table pointers and cold fields, the four hot lines, the
// credit ring's heap pointer with the rest of the cold fields.
static_assert(sizeof(Link) == 384);

Link::Link(std::string name, const Params& params, topology::LinkId graph_link, const MeasureWindow* window)
    : name_(std::move(name)),
      window_(window),
      latency_(static_cast<std::uint32_t>(params.latency)),
      flits_(checked_in_flight(params)),
      credit_latency_(static_cast<std::uint32_t>(params.latency)),
      credits_((static_cast<std::size_t>(params.latency) + 1) * static_cast<std::size_t>(params.bandwidth.lanes())),
      params_(params),
      graph_link_(graph_link),
      rated_(!params.bandwidth.unit()) {
  slow_send_ = rated_;
}

void Link::register_port(sc_core::sc_port_base& port, const char* if_typename) {
  // The module owning the port is the end to wake: flits wake the receiver,
  // credits the sender.
  auto* module = dynamic_cast<Clocked*>(port.get_parent_object());
  if (module == nullptr) throw std::logic_error(name_ + ": bound by a module that is not Clocked");
  const std::string type = if_typename;
  Clocked*& end = type == typeid(LinkSenderIf).name() ? sender_ : receiver_;
  if (end != nullptr && end != module)
    throw std::logic_error(name_ + ": " + type + " end bound twice");
  end = module;
}

void Link::two_flits_in_one_cycle() const {
  throw std::logic_error(name_ + ": two flits in one cycle");
}

Cycle Link::rated_arrival(Cycle depart) {
  const auto p = static_cast<Cycle>(params_.bandwidth.flits);
  const Cycle start = std::max(depart * p, free_units_);
  if (start >= (depart + 1) * p)
    throw std::logic_error(name_ + ": a flit in cycle " + std::to_string(depart) + " beyond its bandwidth " +
                           topology::to_string(params_.bandwidth));
  free_units_ = start + static_cast<Cycle>(params_.bandwidth.cycles);
  // The cycle its last part leaves (ceil(finish) - 1), plus the latency.
  return (free_units_ + p - 1) / p - 1 + latency_;
}

// Out of line: only links of a bandwidth other than 1 and links of a
// scenario with fault keys or a waveform observer come here.
void Link::send_slow(const Flit& flit, Cycle submitted) {
  Cycle arrival = submitted + latency_;
  if (rated_) {
    arrival = rated_arrival(submitted);
  } else {
    if (submitted == last_send_) two_flits_in_one_cycle();
    last_send_ = submitted;
  }
  if (cross_) {
    if (auto* out = WakeScheduler::outbox()) {
      // Threaded run, parallel phase (set_cross; no faults or observer here).
      ++total_flits_;
      if (window_->contains(submitted)) ++window_flits_;
      Deferred d{Deferred::flit, 0, this, nullptr, arrival};
      d.item = flit;
      out->push_back(d);
      return;
    }
  }
  Flit wire = flit;
  const Cycle depart = faults_ != nullptr ? faults_->transmit(wire, submitted) : submitted;
  if (depart == kNever) return;  // link down: the flit stays in the sender's replay buffer
  arrival += depart - submitted;  // (a replay's delay)
  flits_.push(wire, arrival);
  *flit_word_ |= flit_bit_;
  ++total_flits_;
  if (window_->contains(depart)) ++window_flits_;
  if (observer_ != nullptr) observer_->on_flit(*this, wire, depart);
  receiver_->wake_at(arrival);
}

}  // namespace collnet::systemc
