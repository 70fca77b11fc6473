// The link channel: one directed link (or a NIC port) between two modules.
// Flits go forward, credits come back, each after `latency` cycles; at most
// one flit enters per cycle on a link of bandwidth 1, the default (a wider
// credit return may carry several credits). It is a channel with two
// interfaces, one per end, that the modules' ports bind to, not an sc_signal
// per wire; it needs nothing of the SystemC kernel (no update phase, no
// events: the ends are woken through the wake-up calendar), so it is not a
// SystemC object, which would cost a name, an object-table entry and 176
// bytes of base class per link.
//
// Timing contract (what makes results independent of the order in which
// SystemC runs the modules of one cycle): a flit sent in cycle t with a
// pipeline delay s departs (occupies the wires) in cycle t+s and is readable by
// the receiver from cycle t+s+latency on; a credit returned in cycle t is
// usable by the sender from cycle t+latency on. latency >= 1, so nothing
// written in cycle t is visible in cycle t. Each send wakes the other end
// (Clocked::wake_at) for the arrival cycle.
//
// Bandwidth B = p/q flits per cycle other than 1 (Params::bandwidth): the link
// is busy for q/p cycles per flit. A flit may depart in cycle t when the flit
// before it finishes before the end of t (strictly before cycle t+1); it
// starts at max(t, that finish) and takes q/p cycles; the receiver reads it
// from cycle ceil(finish) - 1 + latency on, the cycle its last part left plus
// the latency (at B = 1: t + latency, as above). So below 1 a flit leaves
// every q/p cycles on average (1/4: cycles t, t+4, ...; one hop of M flits
// takes M/B cycles plus the pipeline), above 1 up to ceil(B) flits leave in
// one cycle (2: two a cycle; 5/2: three, then two) and arrive together. The
// sending port asks can_depart() before it sends; the router lets an output
// take a flit only then, and runs its switch allocation up to ceil(B) times
// a cycle (router.hpp).
//
// Credits: the sender starts with `buffer_flits` credits per VC (the depth of
// each VC buffer at the receiving end) and the receiver returns one credit per
// flit that leaves that buffer.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "systemc/kernel/clocked.hpp"
#include "systemc/link/delay_line.hpp"
#include "systemc/link/packet.hpp"
#include "topology/graph.hpp"

namespace collnet::systemc {

class Link;
class LinkFaults;

/// The sending end: router output port or NIC controller (injection).
class LinkSenderIf : public virtual sc_core::sc_interface {
 public:
  virtual Link& link() = 0;
};
/// The receiving end: router input port or NIC controller (ejection).
class LinkReceiverIf : public virtual sc_core::sc_interface {
 public:
  virtual Link& link() = 0;
};

/// Notified of every flit put on a link (waveforms); absent = no cost.
class LinkObserver {
 public:
  virtual ~LinkObserver() = default;
  virtual void on_flit(const Link& link, const Flit& flit, Cycle depart) = 0;
};

/// Links of one latency and bandwidth: `links` of the network's links take
/// `latency` cycles and move `bandwidth` flits a cycle (Network::link_latencies).
struct LinkLatencyCount {
  int latency = 1;
  std::size_t links = 0;
  topology::Bandwidth bandwidth{};
  bool operator==(const LinkLatencyCount&) const = default;
};

/// Cycles [begin, end) in which statistics are counted.
struct MeasureWindow {
  Cycle begin = 0;
  Cycle end = kNever;
  [[nodiscard]] bool contains(Cycle c) const { return c >= begin && c < end; }
};

class Link : public LinkSenderIf, public LinkReceiverIf {
 public:
  struct Params {
    int latency = 1;
    int vcs = 1;
    int buffer_flits = 4;      // depth of each VC buffer at the receiver
    int max_pipeline_delay = 0;  // bound of the sender's pipeline delay (sizes the ring)
    topology::Bandwidth bandwidth{};  // flits per cycle
  };
  /// `name`: what its errors call it; `graph_link`: the topology link it
  /// models, or kNone for a NIC port.
  Link(std::string name, const Params& params, topology::LinkId graph_link, const MeasureWindow* window);
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  [[nodiscard]] const std::string& name() const { return name_; }

  Link& link() override { return *this; }

  // --- sending end ---
  // (always_inline: the router's commit inlines them; left to the compiler,
  // a second copy of the commit in the router, for links of another
  // bandwidth, made it stop doing so.)
  __attribute__((always_inline)) inline void send(const Flit& flit, Cycle now, Cycle pipeline_delay = 0);
  [[nodiscard]] bool credit_ready(Cycle now) const { return credits_.ready(now); }
  std::uint8_t pop_credit() { return credits_.pop(); }
  [[nodiscard]] Cycle next_credit_arrival() const { return credits_.next_arrival(); }

  // --- receiving end ---
  [[nodiscard]] bool flit_ready(Cycle now) const { return flits_.ready(now); }
  Flit pop_flit() { return flits_.pop(); }
  [[nodiscard]] Cycle next_flit_arrival() const { return flits_.next_arrival(); }
  __attribute__((always_inline)) inline void send_credit(std::uint8_t vc, Cycle now);

  [[nodiscard]] int latency() const { return params_.latency; }
  [[nodiscard]] const topology::Bandwidth& bandwidth() const { return params_.bandwidth; }
  /// Bandwidth other than 1: the sender must ask can_depart().
  [[nodiscard]] bool rated() const { return rated_; }
  /// A flit sent now with departure cycle `depart` keeps to the bandwidth
  /// (at bandwidth 1: no flit departs in that cycle yet).
  [[nodiscard]] bool can_depart(Cycle depart) const {
    return rated_ ? free_units_ < (depart + 1) * static_cast<Cycle>(params_.bandwidth.flits) : depart != last_send_;
  }
  /// The first cycle in which a flit may depart, when can_depart() said no.
  [[nodiscard]] Cycle next_departure() const {
    return rated_ ? free_units_ / static_cast<Cycle>(params_.bandwidth.flits) : last_send_ + 1;
  }
  [[nodiscard]] int vcs() const { return params_.vcs; }
  [[nodiscard]] int buffer_flits() const { return params_.buffer_flits; }
  [[nodiscard]] topology::LinkId graph_link() const { return graph_link_; }
  /// Flits that departed inside the measurement window.
  [[nodiscard]] std::uint64_t window_flits() const { return window_flits_; }
  [[nodiscard]] std::uint64_t total_flits() const { return total_flits_; }
  /// Flits and credits still on the wires.
  [[nodiscard]] std::size_t flits_in_flight() const { return flits_.size(); }
  [[nodiscard]] std::size_t credits_in_flight() const { return credits_.size(); }
  [[nodiscard]] const DelayLine<Flit>& flits_on_wires() const { return flits_; }
  [[nodiscard]] Clocked* sender() const { return sender_; }
  [[nodiscard]] Clocked* receiver() const { return receiver_; }
  void set_observer(LinkObserver* observer) {
    observer_ = observer;
    slow_send_ = observer_ != nullptr || faults_ != nullptr || cross_ || rated_;
  }
  /// Link faults (link_faults.hpp); nullptr (the default): a fault-free link.
  void set_faults(LinkFaults* faults) {
    faults_ = faults;
    slow_send_ = observer_ != nullptr || faults_ != nullptr || cross_ || rated_;
  }
  [[nodiscard]] const LinkFaults* faults() const { return faults_; }
  /// The two ends are in different partitions of a threaded run
  /// (WakeScheduler::set_workers): inside the parallel phase a flit or
  /// credit put on the link waits in the sender's deferred actions and
  /// enters the wires (and wakes the other end) after the phase. Faults and
  /// observers need one thread.
  void set_cross(bool cross) {
    cross_ = cross;
    slow_send_ = observer_ != nullptr || faults_ != nullptr || cross_ || rated_;
  }
  /// Deferred actions of a cross link (WakeScheduler, serial phase).
  void deliver_flit(const Flit& flit, Cycle arrival) {
    flits_.push(flit, arrival);
    *flit_word_ |= flit_bit_;
    receiver_->wake_at(arrival);
  }
  void deliver_credit(std::uint8_t vc, Cycle arrival) {
    credits_.push(vc, arrival);
    if (credit_word_ != nullptr) *credit_word_ |= std::uint64_t{1} << credit_bit_;
    if (sender_->wakes_on_credit()) sender_->wake_at(arrival);
  }
  /// The receiving (sending) module asks to have `bit` set in `*word` when a
  /// flit (credit) enters the link, so that it reads only links with traffic.
  void mark_flits_in(std::uint64_t* word, int bit) {
    flit_word_ = word;
    flit_bit_ = std::uint64_t{1} << bit;
  }
  void mark_credits_in(std::uint64_t* word, int bit) {
    credit_word_ = word;
    credit_bit_ = static_cast<std::uint8_t>(bit);
  }

 private:
  void register_port(sc_core::sc_port_base& port, const char* if_typename) override;
  [[noreturn]] void two_flits_in_one_cycle() const;
  /// Bandwidth other than 1: the arrival of a flit departing in `depart`.
  Cycle rated_arrival(Cycle depart);

  void send_slow(const Flit& flit, Cycle submitted);

  // Laid out for the cache (the object is aligned to a line); the hot state
  // is four lines, after a line of the interfaces' table pointers and cold
  // fields. Line 1: what sending a flit reads and writes besides the ring.
  // Lines 2-3: the flit ring (delay_line.hpp: the header, the 32-bit arrivals
  // and the first slot in line 2, the other slots in line 3); the receiver
  // reads the header and the slot. Line 4: the credit path, what the
  // receiver writes to return a credit and the credit ring the sender reads.
  // Then the other cold fields.
  std::string name_;
  LinkObserver* observer_ = nullptr;
  LinkFaults* faults_ = nullptr;
  alignas(64) Cycle last_send_ = kNever;
  Clocked* receiver_ = nullptr;
  // The receiver's activity word; for a receiver that asks for none (an
  // endpoint) flit_bit_ itself, which holds 0, so that setting the bit is
  // no change there: a null test was a mispredicted branch for about one
  // flit in seven under saturation.
  std::uint64_t* flit_word_ = &flit_bit_;
  const MeasureWindow* window_;
  std::uint64_t window_flits_ = 0;
  std::uint64_t total_flits_ = 0;
  std::uint64_t flit_bit_ = 0;
  std::uint32_t latency_;  // params_.latency
  bool slow_send_ = false;  // an observer or faults: send() takes send_slow()
  alignas(64) DelayLine<Flit> flits_;
  alignas(64) std::uint64_t* credit_word_ = nullptr;
  Clocked* sender_ = nullptr;
  std::uint32_t credit_latency_;  // params_.latency
  std::uint8_t credit_bit_ = 0;
  bool cross_ = false;  // set_cross
  DelayLine<std::uint8_t> credits_;
  Params params_;
  topology::LinkId graph_link_;
  bool rated_ = false;  // bandwidth other than 1 (send() takes send_slow())
  // Bandwidth p/q other than 1: when the last flit sent finishes, in 1/p
  // cycles (so a flit takes q of them).
  Cycle free_units_ = 0;
};

// Inline: called for every flit and credit.
void Link::send(const Flit& flit, Cycle now, Cycle pipeline_delay) {
  const Cycle depart = now + pipeline_delay;
  // One flit per cycle is the bandwidth of a link of bandwidth 1; the
  // routers' allocators guarantee it, this catches a model bug (another
  // bandwidth: send_slow checks).
  if (slow_send_) [[unlikely]] {
    send_slow(flit, depart);
    return;
  }
  if (depart == last_send_) two_flits_in_one_cycle();
  last_send_ = depart;
  const Cycle arrival = depart + latency_;
  flits_.push(flit, arrival);
  *flit_word_ |= flit_bit_;
  ++total_flits_;
  if (window_->contains(depart)) ++window_flits_;
  receiver_->wake_at(arrival);
}

void Link::send_credit(std::uint8_t vc, Cycle now) {
  const Cycle arrival = now + credit_latency_;
  if (cross_) [[unlikely]] {
    if (auto* out = WakeScheduler::outbox()) {
      out->push_back(Deferred{Deferred::credit, vc, this, nullptr, arrival});
      return;
    }
  }
  credits_.push(vc, arrival);
  if (credit_word_ != nullptr) *credit_word_ |= std::uint64_t{1} << credit_bit_;
  if (sender_->wakes_on_credit()) sender_->wake_at(arrival);
}

}  // namespace collnet::systemc
