#include "systemc/link.hpp"

#include <stdexcept>

#include "systemc/link_faults.hpp"
#include <typeinfo>

namespace collnet::systemc {

Link::Link(const char* name, const Params& params, topology::LinkId graph_link, const MeasureWindow* window)
    : sc_core::sc_prim_channel(name),
      window_(window),
      latency_(static_cast<Cycle>(params.latency)),
      flits_(static_cast<std::size_t>(params.latency + params.max_pipeline_delay + 1)),
      credits_(static_cast<std::size_t>(params.latency + 1)),
      params_(params),
      graph_link_(graph_link) {
  if (params.latency < 1) throw std::invalid_argument("link latency must be at least 1 cycle");
}

void Link::register_port(sc_core::sc_port_base& port, const char* if_typename) {
  // The module owning the port is the end to wake: flits wake the receiver,
  // credits the sender.
  auto* module = dynamic_cast<Clocked*>(port.get_parent_object());
  if (module == nullptr) throw std::logic_error(std::string(name()) + ": bound by a module that is not Clocked");
  const std::string type = if_typename;
  Clocked*& end = type == typeid(LinkSenderIf).name() ? sender_ : receiver_;
  if (end != nullptr && end != module)
    throw std::logic_error(std::string(name()) + ": " + type + " end bound twice");
  end = module;
}

void Link::two_flits_in_one_cycle() const {
  throw std::logic_error(std::string(name()) + ": two flits in one cycle");
}

// Out of line: only links of a scenario with fault keys come here.
void Link::send_with_faults(const Flit& flit, Cycle submitted) {
  Flit wire = flit;
  const Cycle depart = faults_->transmit(wire, submitted);
  if (depart == kNever) return;  // link down: the flit stays in the sender's replay buffer
  const Cycle arrival = depart + latency_;
  flits_.push(wire, arrival);
  if (flit_word_ != nullptr) *flit_word_ |= flit_bit_;
  ++total_flits_;
  if (window_->contains(depart)) ++window_flits_;
  if (observer_ != nullptr) observer_->on_flit(*this, wire, depart);
  receiver_->wake_at(arrival);
}

}  // namespace collnet::systemc
