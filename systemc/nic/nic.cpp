#include "systemc/nic/nic.hpp"

#include <algorithm>
#include <bit>

#include "collectives/executor.hpp"
#include "systemc/switch/innet_fabric.hpp"
#include "systemc/trace/message_trace.hpp"

namespace collnet::systemc {

void CollectiveBook::fail(const std::string& what) {
  Lane& l = lane();
  if (l.error.empty()) l.error = what;
  request_stop();
}

void CollectiveBook::node_finished(Cycle now) {
  ++lane().finished_nodes;
  // Inside a threaded cycle's parallel phase the main thread checks after it.
  if (WakeScheduler::outbox() == nullptr) cycle_end(now);
}

void CollectiveBook::cycle_end(Cycle now) {
  if (finished) return;
  std::size_t done = 0;
  for (const Lane& l : lanes) done += l.finished_nodes;
  if (done != nics.size()) return;
  finished = true;
  finish_cycle = now;
  request_stop();
}

Nic::Nic(const sc_core::sc_module_name& name, topology::EndpointId self, Network& network, const NicConfig& config,
         std::unique_ptr<DescriptorSource> source, const collectives::Schedule& schedule, BarrierNetwork& barrier,
         CollectiveBook& book)
    : Clocked(name, /*run_at_start=*/true),
      injection("injection"),
      ejection("ejection"),
      self_(self),
      config_(config),
      network_(network),
      book_(book),
      source_(std::move(source)),
      barrier_(barrier) {
  if (config_.controllers < 1 || config_.controllers > network.controllers())
    throw ConfigError("key 'controllers': expected 1.." + std::to_string(network.controllers()) + ", got " +
                      std::to_string(config_.controllers));
  if (config_.reduce_words_per_cycle < 1 || config_.reduce_words_per_cycle > 64)
    throw ConfigError("key 'reduce_words_per_cycle': expected 1..64, got " +
                      std::to_string(config_.reduce_words_per_cycle));
  if (config_.packet_flits < 1 || static_cast<std::uint32_t>(config_.packet_flits) > kMaxPacketFlits)
    throw ConfigError("key 'packet_flits': expected 1..1024, got " + std::to_string(config_.packet_flits));
  // Zero; a zero is not written, so a page no word is written to stays
  // unmapped (collectives/zero_pages.hpp).
  memory_ = collectives::NodeMemory(schedule.memory_of(self));
  if (schedule.initial)
    for (std::uint32_t a = 0; a < memory_.size(); ++a)
      if (const collectives::Word w = schedule.initial(self, a); w != 0) memory_[a] = w;
  controllers_.resize(static_cast<std::size_t>(config_.controllers));
  for (Controller& c : controllers_) c.pacer = make_pacer(config_.blocks);
  streams_running_ = source_->streams();
  streams_.assign(streams_running_, Stream{});
  cut_through_ = source_->cut_through();
  for (int c = 0; c < config_.controllers; ++c) {
    injection.bind(network.injection(self, c));
    ejection.bind(network.ejection(self, c));
  }
}

void Nic::end_of_elaboration() {
  for (std::size_t c = 0; c < controllers_.size(); ++c) {
    Controller& k = controllers_[c];
    k.injection = &injection[static_cast<int>(c)]->link();
    k.ejection = &ejection[static_cast<int>(c)]->link();
    // Activity bits in this module (Clocked::link_activity_): a link sets its
    // bit when a flit (ejection) or credit (injection) is put on it, and the
    // NIC clears it once the link is empty, so an evaluation touches only the
    // links that carry something (a cache miss each on a large network).
    k.ejection->mark_flits_in(&link_activity_[0], static_cast<int>(c));
    k.injection->mark_credits_in(&link_activity_[1], static_cast<int>(c));
    k.channel.reset(*k.injection, network_.config().switching);
    k.pacer->reset();
  }
}

bool Nic::busy() const {
  if (state_ == State::finished) return false;
  // (A controller forwarding a message waits for its next packet: an arrival, not itself.)
  if (std::any_of(controllers_.begin(), controllers_.end(),
                  [](const Controller& c) { return c.busy && !(c.follows != 0 && c.offer_from == kNever); }))
    return true;
  if (barrier_.inside(self_)) return barrier_.released(self_, kNever - 1);  // release scheduled
  return std::any_of(streams_.begin(), streams_.end(),
                     [](const Stream& s) { return s.blocked.kind == Blocked::engine; });
}

std::string Nic::describe() const {
  std::string s = "endpoint " + std::to_string(self_) + ": ";
  if (state_ == State::finished) return s + "finished";
  s += std::to_string(source_->taken()) + " descriptors taken, " + std::to_string(outstanding_ - acks_pending_) +
       " messages undelivered";
  for (std::size_t k = 0; k < streams_.size(); ++k) {
    if (streams_[k].blocked.kind == Blocked::none) continue;
    s += streams_.size() > 1 ? ", thread " + std::to_string(k) + " waiting for " : ", waiting for ";
    s += blocked_text(streams_[k].blocked);
  }
  for (std::size_t k = 0; k < controllers_.size(); ++k) {
    const Controller& c = controllers_[k];
    if (!c.busy) continue;
    s += "; controller " + std::to_string(k) + (c.copy ? " copying" : " sending") +
         (c.follows != 0 ? " (forwarding tag " + std::to_string(c.follows) + " as it arrives)" : "") + " to " +
         std::to_string(c.send.dest) + " (word " + std::to_string(c.word) + " of " + std::to_string(c.send.length) +
         ", pacer hold " + std::to_string(c.pacer->hold_q()) + (c.pacer->in_packet_q() ? ", in packet" : "") +
         ", injection VC with room: " + std::to_string(c.channel.free_vc(1)) + ")";
  }
  return s;
}

std::string Nic::blocked_text(const Blocked& blocked) {
  const std::string tag = std::to_string(blocked.tag);
  switch (blocked.kind) {
    case Blocked::none: return "";
    case Blocked::engine: return "the schedule engine";
    case Blocked::arrival: return "a message to forward (forwarding rule)";
    case Blocked::fifo: return "a free descriptor FIFO slot";
    case Blocked::wait:
      return "WAIT tag " + tag + " (" + std::to_string(blocked.have) + " of " + std::to_string(blocked.need) +
             " messages arrived)";
    case Blocked::barrier_release: return "release of barrier " + tag;
    case Blocked::delivery_before_barrier: return "delivery of its messages before barrier " + tag;
    case Blocked::delivery_after_end: return "delivery of its messages after END";
    case Blocked::forward: return "the first packet of message tag " + tag + " (to forward it as it arrives)";
  }
  return "";
}

bool Nic::check_range(std::uint32_t offset, std::uint32_t length, std::uint32_t words, const char* what) {
  if (static_cast<std::uint64_t>(offset) + length <= words) return true;
  book_.fail("endpoint " + std::to_string(self_) + " descriptor " + std::to_string(source_->taken()) + ": " + what +
             " range [" + std::to_string(offset) + ", " + std::to_string(static_cast<std::uint64_t>(offset) + length) +
             ") exceeds memory of " + std::to_string(words) + " words");
  return false;
}

void Nic::delivered(Cycle now) {
  // The destination may run before or after this NIC in cycle `now`: the
  // acknowledgement counts from the next cycle on either way (settle).
  settle(now);
  ++acks_pending_;
  cross_cycle_ = now;
  if (outstanding_ == acks_pending_) wake_at(now + 1);
}

void Nic::arrive_next_cycle(std::uint32_t tag, Cycle now) {
  settle(now);
  early_arrivals_.push_back(tag);
  cross_cycle_ = now;
  wake_at(now + 1);
}

void Nic::apply_cross() {
  outstanding_ -= acks_pending_;
  acks_pending_ = 0;
  for (const std::uint32_t tag : early_arrivals_) arrived(tag);
  early_arrivals_.clear();
  cross_cycle_ = kNever;
}

void Nic::arrived(std::uint32_t tag) {
  arrivals_.add(tag);
  for (Stream& s : streams_)
    if (s.blocked.kind == Blocked::wait && s.blocked.tag == tag) ++s.blocked.have;  // kept equal to arrivals_.count(tag)
}

void Nic::message_done(std::uint32_t id, Cycle now) {
  const Message& m = book_.messages[id];
  if (book_.trace != nullptr) [[unlikely]] book_.trace->delivered(id, now);
  ++book_.lane().progress;
  ++book_.lane().delivered_messages;
  arrived(m.tag);
  Nic& source = *book_.nics[static_cast<std::size_t>(m.source)];
  if (&source == this) {
    --outstanding_;
  } else {
    // Side-band delivery acknowledgement: the source sees it next cycle.
    run_or_defer([](Clocked& nic, Cycle at, std::uint64_t) { static_cast<Nic&>(nic).delivered(at); }, source, now, 0,
                 /*shared=*/false);
    // A receipt-driven source (the forwarding rule) acts on the arrival.
    if (const std::string error = source_->arrived(m.source, m.tag, now); !error.empty()) book_.fail(error);
  }
  book_.messages.release(id);
}

void Nic::receive(Cycle now) {
  if (link_activity_[0] == 0) return;  // no flit on any ejection link
  PacketTable& packets = network_.packets();
  for (std::uint64_t bits = link_activity_[0]; bits != 0; bits &= bits - 1) {
    const auto k = static_cast<std::size_t>(std::countr_zero(bits));
    Link& link = *controllers_[k].ejection;
    while (link.flit_ready(now)) {
      const Flit f = link.pop_flit();
      link.send_credit(f.vc, now);
      network_.activity().left(now);
      ++book_.lane().progress;
      Packet& p = packets[f.packet];
      if (!p.live || p.header.destination != self_ || f.index != p.received) {
        book_.fail("endpoint " + std::to_string(self_) + " cycle " + std::to_string(now) +
                   ": a flit arrived misrouted or out of order (packet " + std::to_string(p.header.source) + "->" +
                   std::to_string(p.header.destination) + ", flit " + std::to_string(f.index) + ")");
        return;
      }
      const std::uint64_t address = static_cast<std::uint64_t>(p.header.offset) + f.index;
      const auto id = static_cast<std::uint32_t>(p.serial);
      const Message& m = book_.messages[id];
      if (address < m.end && address >= memory_.size()) {
        book_.fail("endpoint " + std::to_string(self_) + ": word address " + std::to_string(address) +
                   " beyond memory");
        return;
      }
      try {
        if (address < m.end)  // (an in-network result's padding is not written)
          memory_[address] =
              m.op == ReceiveOp::copy ? f.payload : collectives::combine(m.op, m.dtype, memory_[address], f.payload);
      } catch (const collectives::ExecutionError& e) {
        book_.fail("endpoint " + std::to_string(self_) + ": " + e.what());
        return;
      }
      if (book_.trace != nullptr && f.index == 0) [[unlikely]] book_.trace->head_arrived(id, now);
      ++p.received;
      if (cut_through_) [[unlikely]] {
        arrived_words_.insert((static_cast<std::uint64_t>(m.tag) << 32) | address);
        // A controller forwarding this message may send the packet now.
        if (f.tail())
          for (Controller& c : controllers_)
            if (c.busy && c.follows == m.tag) c.run_at = std::min(c.run_at, now);
      }
      if (!f.tail()) continue;
      packets.release(f.packet);
      if (--book_.messages[id].packets_left == 0) message_done(id, now);
    }
    if (link.flits_in_flight() == 0) link_activity_[0] &= ~(std::uint64_t{1} << k);
  }
}

void Nic::prefetch(int stage) const {
  if (stage == 0) {
    __builtin_prefetch(controllers_.data());
    return;
  }
  // The ejection links with flits: their delay line's head (receive()).
  for (std::uint64_t bits = link_activity_[0]; bits != 0; bits &= bits - 1) {
    const auto* wires = &controllers_[static_cast<std::size_t>(std::countr_zero(bits))].ejection->flits_on_wires();
    __builtin_prefetch(wires);
    __builtin_prefetch(reinterpret_cast<const char*>(wires) + 64);
  }
}

void Nic::take_credits(std::size_t k, Cycle now) {
  const std::uint64_t bit = std::uint64_t{1} << k;
  if ((link_activity_[1] & bit) == 0) return;  // no credit on its way back
  Controller& c = controllers_[k];
  if (!c.injection->credit_ready(now)) return;
  c.channel.take_credits(*c.injection, now);
  c.run_at = std::min(c.run_at, now);  // a refused flit may go now
  if (c.injection->credits_in_flight() == 0) link_activity_[1] &= ~bit;
}

Cycle Nic::next_link_arrival() const {
  Cycle next = kNever;
  for (std::uint64_t bits = link_activity_[0]; bits != 0; bits &= bits - 1)
    next = std::min(next, controllers_[static_cast<std::size_t>(std::countr_zero(bits))].ejection->next_flit_arrival());
  if (!wakes_on_credit()) return next;
  for (std::uint64_t bits = link_activity_[1]; bits != 0; bits &= bits - 1)
    next = std::min(next, controllers_[static_cast<std::size_t>(std::countr_zero(bits))].injection->next_credit_arrival());
  return next;
}

bool Nic::drained() const {
  if (outstanding_ != 0 || !shared_queue_.empty()) return false;
  return std::none_of(controllers_.begin(), controllers_.end(),
                      [](const Controller& c) { return c.busy || !c.queue.empty(); });
}

void Nic::dispatch(Cycle now, Cycle& next) {
  for (std::size_t k = 0; k < streams_.size() && state_ == State::running; ++k) {
    if (streams_[k].ended) continue;
    // A stream stalled on a WAIT whose count has not been reached, or on a
    // full FIFO no controller has taken from, would stall again on the same
    // offer (a source holds its offer until taken): it is not polled until
    // an arrival of that tag (arrived) or a FIFO pop changes that.
    const Blocked& b = streams_[k].blocked;
    if ((b.kind == Blocked::wait && b.have < b.need) || b.kind == Blocked::fifo) continue;
    dispatch_stream(now, next, k);
  }
}

bool Nic::written_by(std::uint32_t offset, std::uint32_t length, std::uint32_t tag) const {
  for (std::uint32_t i = 0; i < length; ++i)
    if (!arrived_words_.count((static_cast<std::uint64_t>(tag) << 32) | (offset + i))) return false;
  return true;
}

bool Nic::dispatch_stream(Cycle now, Cycle& next, std::size_t stream) {
  Blocked& blocked = streams_[stream].blocked;
  const std::optional<Descriptor> offered = source_->peek_stream(now, stream);
  if (!offered) {
    if (source_->waiting_for_arrival()) {
      blocked = {Blocked::arrival};
      return false;  // an arrival wakes the NIC
    }
    if (source_->stream_exhausted(stream)) {
      book_.fail("endpoint " + std::to_string(self_) + ": program ends without END after " +
                 std::to_string(source_->taken()) + " descriptors");
      return false;
    }
    blocked = {Blocked::engine};  // starting up: it offers soon
    next = std::min(next, now + 1);
    return false;
  }
  const Descriptor& d = *offered;
  switch (d.opcode) {
    case Opcode::send: {
      const std::uint32_t follows = source_->forwards(stream);
      if (follows != 0 && !written_by(d.src_offset, std::min(d.length, static_cast<std::uint32_t>(config_.packet_flits)),
                                      follows)) {
        // A forwarding SEND enters its FIFO once the first packet it
        // forwards is there, so that it holds no controller before.
        blocked = {Blocked::forward, follows};
        return false;  // a flit's arrival wakes the NIC
      }
      Fifo<Queued>* queue = &shared_queue_;
      if (config_.dispatch == Dispatch::named) {
        if (d.controller >= controllers_.size()) {
          book_.fail("key 'controllers': endpoint " + std::to_string(self_) + " runs a SEND on controller " +
                     std::to_string(d.controller) + " but the NIC has " + std::to_string(controllers_.size()) +
                     " (dispatch named); set controllers to at least " + std::to_string(d.controller + 1) +
                     " or dispatch: next-idle");
          return false;
        }
        queue = &controllers_[d.controller].queue;
      }
      if (queue->size() >= static_cast<std::size_t>(config_.descriptor_queue)) {
        blocked = {Blocked::fifo};
        return false;  // a controller taking a descriptor wakes the dispatcher
      }
      queue->push_back(Queued{d, follows});
      break;
    }
    case Opcode::wait: {
      const std::uint32_t have = arrivals_.count(d.tag);
      if (have < d.length) {
        blocked = {Blocked::wait, d.tag, have, d.length};
        return false;  // an arrival wakes the NIC
      }
      break;
    }
    case Opcode::barrier: {
      if (streams_.size() > 1) {
        book_.fail("endpoint " + std::to_string(self_) + ": a BARRIER in a program of concurrent threads");
        return false;
      }
      if (barrier_.inside(self_)) {
        if (!barrier_.released(self_, now)) {
          blocked = {Blocked::barrier_release, d.tag};
          return false;  // the barrier network wakes the NIC
        }
        // The barrier network is every node's: a threaded cycle enters and
        // leaves it after the parallel phase (the node reads it again in a
        // later cycle at the earliest).
        run_or_defer([](Clocked& nic, Cycle, std::uint64_t) {
          Nic& n = static_cast<Nic&>(nic);
          n.barrier_.leave(n.self_);
        }, *this, now, 0, /*shared=*/true);
        if (observer_ != nullptr) observer_->on_barrier(self_, d.tag, false, now);
        break;
      }
      if (!drained()) {
        blocked = {Blocked::delivery_before_barrier, d.tag};
        return false;  // the last delivery acknowledgement wakes the NIC
      }
      run_or_defer([](Clocked& nic, Cycle at, std::uint64_t tag) {
        Nic& n = static_cast<Nic&>(nic);
        n.barrier_.enter(n.self_, static_cast<std::uint32_t>(tag), at);
        if (!n.barrier_.error().empty()) n.book_.fail(n.barrier_.error());
      }, *this, now, d.tag, /*shared=*/true);
      if (observer_ != nullptr) observer_->on_barrier(self_, d.tag, true, now);
      ++book_.lane().progress;
      blocked = {Blocked::barrier_release, d.tag};
      return false;
    }
    case Opcode::end:
      streams_[stream].ended = true;
      if (--streams_running_ == 0) {
        state_ = State::ended;
        blocked = {Blocked::delivery_after_end};
      } else {
        blocked = {};
      }
      break;
  }
  source_->take_stream(now, stream);
  ++book_.lane().progress;
  if (state_ == State::running) {
    blocked = {};
    next = std::min(next, now + 1);
  }
  return true;
}

bool Nic::start(Controller& c, const Queued& q, Cycle now) {
  const Descriptor& d = q.send;
  if (!check_range(d.src_offset, d.length, static_cast<std::uint32_t>(memory_.size()), "source")) return false;
  if (d.dest == collectives::kInNetwork) return start_in_network(c, d, now);
  if (d.dest < static_cast<std::uint32_t>(book_.nics.size()) &&
      !check_range(d.dst_offset, d.length, book_.memory_of(static_cast<topology::EndpointId>(d.dest)), "destination"))
    return false;
  if (d.dest >= static_cast<std::uint32_t>(book_.nics.size())) {
    book_.fail("endpoint " + std::to_string(self_) + ": SEND to endpoint " + std::to_string(d.dest) +
               " which does not exist");
    return false;
  }
  Message m;
  m.source = self_;
  m.destination = static_cast<topology::EndpointId>(d.dest);
  m.tag = d.tag;
  m.op = d.op;
  m.dtype = d.dtype;
  const auto p = static_cast<std::uint32_t>(config_.packet_flits);
  m.packets_left = d.dest == static_cast<std::uint32_t>(self_) ? 1 : (d.length + p - 1) / p;
  const std::uint32_t id = book_.messages.add(m);
  ++outstanding_;
  ++book_.lane().progress;
  if (observer_ != nullptr) observer_->on_send_start(self_, index_of(c), d.tag, d.length != 0, now);
  if (d.length == 0) {
    // Nothing to move: the message exists (it counts for WAIT) and has arrived.
    book_.messages.release(id);
    Nic& dest = *book_.nics[d.dest];
    if (&dest == this) {
      arrived(d.tag);
      --outstanding_;
    } else {
      // The destination counts it from the next cycle, whether it runs
      // before or after this NIC in this one (settle).
      run_or_defer([](Clocked& nic, Cycle at, std::uint64_t tag) {
        static_cast<Nic&>(nic).arrive_next_cycle(static_cast<std::uint32_t>(tag), at);
      }, dest, now, d.tag, /*shared=*/false);
      if (--outstanding_ == 0) wake_at(now + 1);  // acknowledged at once (nothing travelled)
    }
    return true;
  }
  if (book_.trace != nullptr) [[unlikely]]
    book_.trace->started(id, self_, m.destination, static_cast<int>(&c - controllers_.data()), d.tag, d.length,
                         d.dest == static_cast<std::uint32_t>(self_), now);
  c.busy = true;
  c.send = d;
  c.innet = false;
  c.packet_words = static_cast<std::uint32_t>(config_.packet_flits);
  c.total_words = d.length;
  c.follows = q.follows;
  c.message = id;
  c.word = 0;
  c.offer_from = now;
  c.run_at = now;
  if (d.dest == static_cast<std::uint32_t>(self_)) {
    c.copy = true;
    const auto rate = d.op == ReceiveOp::copy ? 1u : static_cast<std::uint32_t>(config_.reduce_words_per_cycle);
    c.copy_done = now + (d.length + rate - 1) / rate;
    ++book_.lane().local_copies;
  } else {
    c.copy = false;
    ++book_.lane().network_messages;
  }
  return true;
}

bool Nic::start_in_network(Controller& c, const Descriptor& d, Cycle now) {
  const InNetworkFabric* fabric = network_.innet();
  if (fabric == nullptr || d.route_hint >= fabric->innet().trees || d.length == 0) {
    book_.fail("endpoint " + std::to_string(self_) + ": SEND to the aggregation trees (tree " +
               std::to_string(d.route_hint) + ", " + std::to_string(d.length) +
               " words) without switches that aggregate it");
    return false;
  }
  const std::uint32_t w = fabric->block_words();
  Message m;
  m.source = self_;
  m.destination = self_;
  m.tag = d.tag;
  m.op = d.op;
  m.dtype = d.dtype;
  m.packets_left = (d.length + w - 1) / w;
  const std::uint32_t id = book_.messages.add(m);
  ++outstanding_;
  ++book_.lane().progress;
  ++book_.lane().network_messages;
  if (observer_ != nullptr) observer_->on_send_start(self_, index_of(c), d.tag, true, now);
  if (book_.trace != nullptr) [[unlikely]]
    book_.trace->started(id, self_, self_, index_of(c), d.tag, d.length, false, now);
  c.busy = true;
  c.copy = false;
  c.send = d;
  c.innet = true;
  c.packet_words = w;
  c.total_words = m.packets_left * w;
  c.follows = 0;
  c.message = id;
  c.word = 0;
  c.offer_from = now;
  c.run_at = now;
  return true;
}

void Nic::finish_copy(Controller& c, Cycle now) {
  const Descriptor& d = c.send;
  // Read all words first: the source and destination ranges may overlap.
  std::vector<collectives::Word> words(memory_.begin() + d.src_offset, memory_.begin() + d.src_offset + d.length);
  try {
    for (std::uint32_t i = 0; i < d.length; ++i)
      memory_[d.dst_offset + i] = collectives::combine(d.op, d.dtype, memory_[d.dst_offset + i], words[i]);
  } catch (const collectives::ExecutionError& e) {
    book_.fail("endpoint " + std::to_string(self_) + ": " + e.what());
  }
  book_.lane().copied_words += d.length;
  c.busy = false;
  if (observer_ != nullptr) observer_->on_send_end(self_, index_of(c), c.copy_done);
  book_.messages[c.message].packets_left = 0;
  message_done(c.message, now);
}

hls::PacketPacerInputs Nic::offer(const Controller& c) const {
  // The controller's current flit (word c.word of its SEND), as it drives the
  // pacer's input side until the pacer takes it.
  const Descriptor& d = c.send;
  const std::uint32_t p = c.packet_words;
  const std::uint32_t index = c.word % p;
  const std::uint32_t packet_words = std::min(p, c.total_words - (c.word - index));
  hls::PacketPacerInputs in;
  in.in_valid = true;
  in.in_data = c.word < d.length ? memory_[d.src_offset + c.word] : network_.innet()->identity();
  in.in_last = index + 1 == packet_words;
  in.in_gap = d.gap;
  in.in_slack = d.slack;
  return in;
}

void Nic::catch_up(Controller& c, Cycle now) {
  // Cycles [pacer_cycle, now) in which the controller was not evaluated:
  // either the port refused its flit (the pacer's state holds: nothing to
  // replay) or the pacer counted down between packets. In those cycles the
  // controller keeps offering its pending flit (from offer_from on), as the
  // pacer's contract requires (hls/packet_pacer.hpp; rtl/packet_pacer.sv
  // asserts it); the gate is shut, so nothing passes.
  while (c.pacer_cycle < now && !c.pacer->in_packet_q() && c.pacer->hold_q() != 0) {
    hls::PacketPacerInputs in;
    if (c.busy && !c.copy && c.pacer_cycle >= c.offer_from) in = offer(c);
    c.pacer->step(in);
    ++c.pacer_cycle;
  }
  c.pacer_cycle = std::max(c.pacer_cycle, now);
}

Cycle Nic::step_controller(Controller& c, Cycle now) {
  catch_up(c, now);
  const Descriptor& d = c.send;
  const std::uint32_t p = c.packet_words;
  const std::uint32_t index = c.word % p;  // flit index in its packet
  const std::uint32_t first = c.word - index;
  const std::uint32_t packet_words = std::min(p, c.total_words - first);
  const bool head = index == 0;
  const bool last = index + 1 == packet_words;
  if (c.follows != 0 && head) {
    // Cut-through: the packet's words must have arrived (and been combined)
    // from the message it forwards. Until then the controller offers nothing;
    // the packet's arrival wakes it (receive).
    if (!written_by(d.src_offset + first, packet_words, c.follows)) {
      c.offer_from = kNever;
      return kNever;
    }
    c.offer_from = std::min(c.offer_from, now);
  }
  int vc = c.vc;
  bool ready;
  if (head) {
    vc = c.channel.free_vc(static_cast<int>(packet_words));
    ready = vc >= 0;
  } else {
    ready = c.channel.has_credit(vc);
  }
  // An injection link slower than a flit a cycle (link.hpp) refuses the
  // flit until it can depart; its departure cycle wakes the controller.
  const bool rated = c.injection->rated();
  if (rated && ready && !c.injection->can_depart(now)) [[unlikely]] ready = false;
  hls::PacketPacerInputs in = offer(c);
  in.out_ready = ready;
  const hls::PacketPacerOutputs out = c.pacer->step(in);
  c.pacer_cycle = now + 1;
  const bool fire = out.out_valid && ready;
  if (fire) {
    if (head) {
      PacketHeader h;
      h.source = self_;
      h.destination = static_cast<topology::EndpointId>(d.dest);
      h.controller = static_cast<std::uint8_t>(d.controller % controllers_.size());
      h.area = static_cast<std::uint16_t>(d.dst_offset / d.length);
      h.offset = d.dst_offset + first;
      h.tag = static_cast<std::uint16_t>(d.tag);
      h.inject_cycle = now;
      h.route_hint = d.route_hint;
      h.flits = static_cast<std::uint16_t>(packet_words);
      try {
        if (c.innet) {
          // up the aggregation tree: one hop to the attachment switch's unit
          const InnetEntry& entry = network_.innet()->entry(self_, d.route_hint);
          h.destination = self_;
          h.controller = entry.controller;
          h.area = entry.child;
          c.packet = network_.create_packet_on(h, entry.steps);
        } else {
          c.packet = network_.create_packet(h, &c.route);
        }
      } catch (const ConfigError& e) {
        book_.fail(e.what());
        return kNever;
      }
      network_.packets()[c.packet].serial = c.message;
      if (book_.trace != nullptr) [[unlikely]]
        book_.trace->packet_injected(c.message, network_.packets()[c.packet].header.hops, now);
      c.vc = vc;
      ++book_.lane().packets;
    }
    Flit f;
    f.packet = c.packet;
    f.index = static_cast<std::uint16_t>(index);
    f.vc = static_cast<std::uint8_t>(c.vc);
    f.flags = static_cast<std::uint8_t>((head ? Flit::kHead : 0) | (last ? Flit::kTail : 0));
    f.payload = out.out_data;
    c.channel.spend(c.vc);
    c.injection->send(f, now);
    network_.activity().entered(now);
    ++book_.lane().flits;
    ++book_.lane().progress;
    if (++c.word == c.total_words) {
      c.busy = false;
      if (book_.trace != nullptr) [[unlikely]] book_.trace->sent(c.message, now);
    }
    if (observer_ != nullptr) [[unlikely]] {
      observer_->on_inject(self_, index_of(c), now);
      if (!c.busy) observer_->on_send_end(self_, index_of(c), now + 1);
    }
    c.offer_from = now + 1;  // the next flit is offered from the next cycle
  }
  // The gate after a tail stays shut for hold_q cycles (pacer header).
  if (!c.pacer->in_packet_q() && c.pacer->hold_q() != 0) return now + 1 + c.pacer->hold_q();
  // Fired with more to send: the next flit goes next cycle if the port takes
  // it with the credits held now. If not, that cycle would be a refusal, in
  // which the pacer's state holds (nothing to replay, as below): credits
  // only grow by arrivals, and an arrival wakes the NIC (wakes_on_credit).
  if (fire) {
    if (!c.busy) return now + 1;  // its next SEND
    const bool next_ready = last ? c.channel.free_vc(static_cast<int>(std::min(p, c.total_words - c.word))) >= 0
                                 : c.channel.has_credit(c.vc);
    if (rated && next_ready && !c.injection->can_depart(now + 1)) [[unlikely]]
      return c.injection->next_departure();
    return next_ready ? now + 1 : kNever;
  }
  // Held by the gate in this cycle with the port ready: next cycle.
  if (ready) return now + 1;
  // Refused by a slow link with a credit: when it can depart.
  if (rated && (head ? vc >= 0 : c.channel.has_credit(vc)) && !c.injection->can_depart(now)) [[unlikely]]
    return c.injection->next_departure();
  return kNever;  // refused by the port: the credit's arrival wakes the NIC
}

Cycle Nic::evaluate(Cycle now) {
  settle(now);
  // A finished node still receives (its own sends are done, not the others').
  receive(now);
  if (state_ == State::finished) {
    set_wake_on_credit(false);  // it sends nothing more: credits are absorbed, never waited for
    Cycle next = kNever;
    for (std::uint64_t bits = link_activity_[0]; bits != 0; bits &= bits - 1)
      next = std::min(next, controllers_[static_cast<std::size_t>(std::countr_zero(bits))].ejection->next_flit_arrival());
    return next;
  }
  for (Controller& c : controllers_)
    if (c.busy && c.copy && c.copy_done <= now) finish_copy(c, now);

  Cycle next = kNever;
  dispatch(now, next);

  for (std::size_t k = 0; k < controllers_.size(); ++k) {
    Controller& c = controllers_[k];
    if (!c.busy) {
      Fifo<Queued>& queue = config_.dispatch == Dispatch::named ? c.queue : shared_queue_;
      if (queue.empty()) continue;
      const Queued q = queue.front();
      queue.pop_front();
      for (Stream& s : streams_)
        if (s.blocked.kind == Blocked::fifo) s.blocked = {};  // the dispatcher tries again
      next = std::min(next, now + 1);  // the dispatcher may refill the FIFO
      if (!start(c, q, now)) return kNever;
      if (!c.busy) continue;  // zero-length SEND
    }
    take_credits(k, now);
    if (c.copy) {
      next = std::min(next, c.copy_done);
      continue;
    }
    // A controller waiting for the pacer's gate or for a credit is not
    // stepped when the NIC runs for something else: its step would change
    // nothing that catch_up does not replay (see run_at).
    if (c.run_at > now) {
      next = std::min(next, c.run_at);
      continue;
    }
    c.run_at = step_controller(c, now);
    next = std::min(next, c.run_at);
    if (!c.busy) next = std::min(next, now + 1);  // its next SEND
  }

  if (state_ == State::ended && drained()) {
    state_ = State::finished;
    finish_cycle_ = now;
    for (Stream& s : streams_) s.blocked = {};
    ++book_.lane().progress;
    book_.node_finished(now);
    next = kNever;  // only receiving from now on (below)
  }
  // Only a controller sending a message can wait for a credit; otherwise the
  // credits returning on the injection links are absorbed (take_credits) at
  // the next evaluation, with the same decisions.
  set_wake_on_credit(std::any_of(controllers_.begin(), controllers_.end(),
                                 [](const Controller& c) { return c.busy && !c.copy; }));
  // Pending arrivals on the links (a dropped wake-up, see clocked.hpp).
  next = std::min(next, next_link_arrival());
  // What other nodes did to this NIC in this cycle (the last acknowledgements,
  // a zero-length message) counts from the next; their wake-up was dropped
  // if this NIC ran after them.
  if (cross_cycle_ == now && (outstanding_ == acks_pending_ || !early_arrivals_.empty())) [[unlikely]]
    next = std::min(next, now + 1);
  return next <= now ? now + 1 : next;
}

}  // namespace collnet::systemc
