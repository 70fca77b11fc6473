// The network interface of one node (spec a2a-hopgroup
// "Node = CPU (schedule + pacing + barrier unit) + NIC + router"; spec
// a2a-optimal "one send FIFO feeding NCT controllers").
//
//            descriptor source (reference program or HLS schedule engine)
//                 | one descriptor per cycle
//            dispatcher -- WAIT: arrivals per tag;  BARRIER: barrier network
//                 | SEND
//     per-controller FIFOs (dispatch named) or one shared FIFO (next-idle)
//                 |
//   controller 0 .. k-1: memory read -> packets -> packet pacer -> injection link c
//   ejection link 0 .. k-1 -> reassembly into memory (copy or combine)
//
// Dispatch (key `dispatch`):
//   named      a SEND goes to the controller its descriptor names (the
//              per-dimension controllers "15a/15b/15c" of document 000); each
//              controller has its own FIFO. A program naming a controller the
//              NIC does not have is bad input (ConfigError).
//   next-idle  one FIFO; an idle controller (lowest number first) takes the
//              next queued SEND (document 001's NCT controllers).
// FIFOs hold `descriptor_queue` descriptors; a full FIFO stalls the
// dispatcher. The dispatcher takes at most one descriptor per cycle and a
// controller starts a SEND in the cycle it takes it.
//
// Send side. A controller cuts a SEND of L words into packets of
// `packet_flits` flits (the last one shorter), one payload word per flit read
// from memory in the cycle the flit leaves; the header travels as sideband
// (packet.hpp): source, destination, controller = the SEND's controller field
// modulo k (the ejection port at the destination: concurrent messages of one
// group use different ports there), area = dst_offset / L, offset = the
// destination word address of the packet's first word, tag, injection cycle
// = the cycle the head leaves the pacer (age arbitration), route hint. Every
// flit passes the controller's packet pacer (pacer.hpp: the synthesizable
// hls::PacketPacer itself, or its Verilated RTL with nic_blocks=rtl), stepped
// in every cycle the controller offers a flit; cycles in which it only counts
// down are replayed when the controller next runs, so a controller waiting
// out a gap is not evaluated. The injection link accepts
// a head when a VC has a credit (wormhole) or room for the packet (VCT).
//
// Local copies (dest = self) use no link: the controller's DMA moves one word
// per cycle, so a copy of L words occupies the controller for L cycles; the
// words land (and the copy counts as an arrival) in the cycle it ends. A
// local SEND that combines (op other than copy) goes through the reduction
// unit, which takes `reduce_words_per_cycle` words a cycle (default 1, as a
// copy): ceil(L / r) cycles. Document 004's aggregation unit reduces at the
// rate its links deliver (8 in-board links: r = 8).
//
// Receive side. Every ejection link sinks one flit per cycle (credit returned
// at once) and writes its word at the header's address, combined with the
// stored word by the SEND's receive operation (collectives::combine). Packets
// of different messages may interleave. A message has arrived when all its
// packets have; the NIC counts arrivals per tag for WAIT. (In hardware the
// receive operation and the message length ride in the header; the simulator
// keeps them in the run's message record, named by Packet::serial.)
//
// Receipt-driven collectives (tree-bcast with its forwarding-rule block,
// descriptor_source.hpp `make_rule_source`): the NIC tells its source of
// every complete network arrival (sender and tag) in the cycle it lands; the
// source asks the rule block and offers the forwards as SENDs. While the
// source waits for an arrival the dispatcher is not polled.
//
// Threads (Schedule::threads, the MSCCL import's thread blocks): a source
// may offer several streams. The dispatcher takes at most one descriptor a
// cycle from each, in stream order; a WAIT holds only its own stream. The
// streams share the controllers, their FIFOs and the arrival counts; the
// node has ended when every stream has taken its END (a BARRIER is refused
// in a program of several streams).
//
// Cut-through (forwarding SENDs, Thread::forwards): a SEND that forwards the
// message tagged T enters its FIFO once the words of its first packet have
// been written by T's packets, and its controller offers each later packet
// (head) only once that packet's words have been written by T (the NIC
// records, for such sources only, which words each message has written).
// A controller waiting for them offers nothing and is woken by the arrival
// of a packet of T; for deadlock reports it is not busy.
//
// Delivery and barriers: a node enters a BARRIER only when its FIFOs are
// empty, its controllers idle and every message it sent has been delivered
// (all packets written at the destination). Delivery is tracked by a
// per-source counter of undelivered messages, acknowledged side-band: the
// source sees a delivery one cycle after the destination wrote the last word.
#pragma once

#include <stdexcept>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <systemc>

#include "collectives/descriptor.hpp"
#include "collectives/executor.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "systemc/nic/pacer.hpp"
#include "systemc/nic/barrier_network.hpp"
#include "systemc/kernel/clocked.hpp"
#include "systemc/nic/descriptor_source.hpp"
#include "systemc/kernel/fifo.hpp"
#include "systemc/link/link.hpp"
#include "systemc/network/network.hpp"
#include "systemc/kernel/record_pool.hpp"
#include "systemc/nic/tag_counter.hpp"
#include "systemc/run/traffic_endpoint.hpp"
#include "systemc/kernel/worker.hpp"

namespace collnet::systemc {

enum class Dispatch : std::uint8_t { named, next_idle };

struct NicConfig {
  int controllers = 1;      // 1..8
  Dispatch dispatch = Dispatch::named;
  int packet_flits = 4;     // payload words (flits) per packet, 1..1024 (key packet_flits)
  int descriptor_queue = 256;
  int reduce_words_per_cycle = 1;  // a combining local SEND reduces this many words a cycle (key reduce_words_per_cycle)
  NicBlocks blocks = NicBlocks::hls;  // pacers: the HLS class or its RTL (key nic_blocks)
};

/// One SEND in flight (simulation bookkeeping; see the header comment).
struct Message {
  topology::EndpointId source = 0;
  topology::EndpointId destination = 0;
  std::uint32_t tag = 0;
  ReceiveOp op = ReceiveOp::copy;
  DataType dtype = DataType::int64;
  std::uint32_t packets_left = 0;
  /// Words at and past this address are not written (the padding of an
  /// in-network collective's last block, systemc/switch/innet_fabric.hpp).
  std::uint32_t end = 0xFFFFFFFF;
};

class Nic;
class MessageTrace;

/// Watches what a NIC does, for waveforms (waveform.hpp). A NIC without one
/// tests one null pointer per SEND, flit and barrier step.
class NicObserver {
 public:
  virtual ~NicObserver() = default;
  /// Controller `controller` of endpoint `node` starts a SEND tagged `tag`
  /// in cycle `now`; `busy` is false for a zero-length SEND (nothing moves).
  virtual void on_send_start(topology::EndpointId node, int controller, std::uint32_t tag, bool busy, Cycle now) = 0;
  /// The controller puts a flit on its injection link in cycle `now`.
  virtual void on_inject(topology::EndpointId node, int controller, Cycle now) = 0;
  /// The controller is idle from cycle `from` on (its SEND or copy is done).
  virtual void on_send_end(topology::EndpointId node, int controller, Cycle from) = 0;
  /// The node enters (inside) or leaves barrier `tag` in cycle `now`.
  virtual void on_barrier(topology::EndpointId node, std::uint32_t tag, bool inside, Cycle now) = 0;
};

/// The records of the messages in flight, in chunks that never move: in a
/// threaded run a destination reads the record of a message while its
/// source's worker adds others. The destination releases a record once its
/// message is delivered and the next SEND takes it again (per-worker free
/// lists balanced through a shared one, as packet records: record_pool.hpp),
/// so the table holds the messages in flight, not one record per SEND of the
/// run (590,880 records, 12 MB, for a two-tree on leafspine:p=36). With
/// number_in_order (a message trace, which numbers the messages in the order
/// of their SENDs, one thread) nothing is released and the n-th add returns n.
class MessageTable {
 public:
  /// Free lists for `workers` threads (before the run; 1 by default).
  void set_workers(int workers) { records_.set_workers(workers); }
  void number_in_order() { in_order_ = true; }
  /// Adds a record; returns its id.
  std::uint32_t add(const Message& m) {
    const std::uint32_t id = records_.take("more than 2^32 messages in flight");
    records_[id] = m;
    return id;
  }
  /// The message is delivered; its record is not read again.
  void release(std::uint32_t id) {
    if (!in_order_) records_.give(id);
  }
  Message& operator[](std::uint32_t id) { return records_[id]; }
  const Message& operator[](std::uint32_t id) const { return records_[id]; }

 private:
  RecordPool<Message, 12, std::size_t{1} << 20, std::uint32_t> records_;  // 4096 records a chunk, 2^32 at most
  bool in_order_ = false;
};

/// State shared by every NIC of a run. What the NICs count and the errors
/// they find have one lane per worker thread (worker.hpp; one lane unless the
/// run is threaded), summed when read; everything a NIC does to another
/// node's NIC or to the barrier network goes through run_or_defer
/// (clocked.hpp).
struct CollectiveBook {
  std::uint32_t memory_words = 0;              // every endpoint's, unless node_memory_words is set
  std::vector<std::uint32_t> node_memory_words;  // per endpoint (Schedule::node_memory_words)
  [[nodiscard]] std::uint32_t memory_of(topology::EndpointId e) const {
    return node_memory_words.empty() ? memory_words : node_memory_words[static_cast<std::size_t>(e)];
  }
  MessageTable messages;
  std::vector<Nic*> nics;
  bool finished = false;        // every node finished
  Cycle finish_cycle = 0;       // cycle the last node finished
  MessageTrace* trace = nullptr;  // --trace (message_trace.hpp); nullptr: none, one test per event

  struct alignas(64) Lane {
    std::uint64_t progress = 0;   // bumped by every state change of the lane's NICs
    std::uint64_t network_messages = 0;
    std::uint64_t delivered_messages = 0;  // network messages and local copies done (progress display)
    std::uint64_t local_copies = 0;
    std::uint64_t packets = 0;
    std::uint64_t flits = 0;       // payload flits injected
    std::uint64_t copied_words = 0;
    std::size_t finished_nodes = 0;
    std::string error;            // the lane's first program or input error
  };
  std::vector<Lane> lanes = std::vector<Lane>(1);
  /// The calling worker's lane.
  Lane& lane() { return lanes[current_worker]; }
  /// One lane per worker (before the run).
  void set_workers(int workers) {
    lanes.assign(static_cast<std::size_t>(workers), Lane{});
    messages.set_workers(workers);
  }
  /// A counter summed over the lanes, e.g. total(&Lane::flits).
  [[nodiscard]] std::uint64_t total(std::uint64_t Lane::*field) const {
    std::uint64_t sum = 0;
    for (const Lane& l : lanes) sum += l.*field;
    return sum;
  }
  /// The first error of the run (lanes in worker order); empty: none.
  [[nodiscard]] std::string error() const {
    for (const Lane& l : lanes)
      if (!l.error.empty()) return l.error;
    return "";
  }
  /// A node finished in cycle `now`; the last one ends the run (inside the
  /// parallel phase of a threaded cycle: cycle_end, after it).
  void node_finished(Cycle now);
  /// Ends the run in cycle `now` if every node has finished (the main
  /// thread, after every threaded cycle).
  void cycle_end(Cycle now);
  /// Records `what` (first error wins) and stops the simulation.
  void fail(const std::string& what);
};

class Nic final : public Clocked {
 public:
  // One multiport per direction, controller c's link being the c-th binding.
  sc_core::sc_port<LinkSenderIf, 0> injection;
  sc_core::sc_port<LinkReceiverIf, 0> ejection;

  Nic(const sc_core::sc_module_name& name, topology::EndpointId self, Network& network, const NicConfig& config,
      std::unique_ptr<DescriptorSource> source, const collectives::Schedule& schedule, BarrierNetwork& barrier,
      CollectiveBook& book);

  [[nodiscard]] const collectives::NodeMemory& memory() const { return memory_; }
  /// Hands the memory over after the run (the NIC keeps none).
  [[nodiscard]] collectives::NodeMemory take_memory() { return std::move(memory_); }
  [[nodiscard]] bool finished() const { return state_ == State::finished; }
  [[nodiscard]] Cycle finish_cycle() const { return finish_cycle_; }
  /// Something will happen without outside help (a controller busy, a
  /// barrier release scheduled, the schedule engine starting up).
  [[nodiscard]] bool busy() const;
  /// What the node waits for (deadlock reports).
  [[nodiscard]] std::string describe() const;

  /// A message this node sent has been delivered (called by the destination).
  void delivered(Cycle now);
  /// A message to this node has arrived complete.
  void arrived(std::uint32_t tag);
  /// A zero-length message of another node, sent in cycle `now`: it counts
  /// as arrived from cycle now + 1 on.
  void arrive_next_cycle(std::uint32_t tag, Cycle now);
  void wake(Cycle at) { wake_at(at); }
  /// An in-network collective's result is on its way to this node (its
  /// record made by the switch that sends it in cycle `now`): it counts as a
  /// message this node waits to see delivered (systemc/switch/innet_fabric.hpp),
  /// from the next cycle on whether the switch ran before or after this NIC
  /// in cycle `now` (settle; a negative acknowledgement in acks_pending_).
  void expect_receipt(Cycle now) {
    settle(now);
    --acks_pending_;
    cross_cycle_ = now;
  }
  [[nodiscard]] int controllers() const { return static_cast<int>(controllers_.size()); }
  void set_observer(NicObserver* observer) { observer_ = observer; }
  void prefetch(int stage) const override;

 protected:
  Cycle evaluate(Cycle now) override;
  void end_of_elaboration() override;

 private:
  enum class State : std::uint8_t { running, ended, finished };
  /// A SEND in a FIFO, with the tag of the message it forwards (0: none).
  struct Queued {
    Descriptor send;
    std::uint32_t follows = 0;
  };
  // What every evaluation reads comes first: an idle controller's
  // evaluation touches its first cache line only (receive, then the
  // busy/copy/queue tests of evaluate).
  struct alignas(64) Controller {
    Link* ejection = nullptr;
    bool busy = false;
    bool copy = false;
    Cycle copy_done = 0;
    // The next cycle its flit can pass: what step_controller returned (the
    // pacer's gate opens, or kNever: refused by the port), lowered to the
    // current cycle when a credit arrives or a SEND starts. Until then a
    // step is a refusal (the pacer's state holds) or a countdown cycle
    // (replayed by catch_up), so the controller is not stepped.
    Cycle run_at = 0;
    Fifo<Queued> queue;  // dispatch named
    Link* injection = nullptr;
    InjectionChannel channel;
    std::unique_ptr<Pacer> pacer;
    Cycle pacer_cycle = 0;  // the pacer has been stepped through pacer_cycle - 1
    Cycle offer_from = 0;   // the controller offers its current flit from this cycle on
    Descriptor send;
    std::uint32_t follows = 0;  // the SEND forwards message tag `follows` as it arrives (0: a plain SEND)
    std::uint32_t message = 0;
    std::uint32_t word = 0;  // next word of the SEND
    // Words a packet and words in all of the SEND: packet_flits and its
    // length, or for a SEND to the aggregation trees block_words and the
    // length rounded up to whole blocks (the padding is the reduction's
    // identity).
    std::uint32_t packet_words = 1;
    std::uint32_t total_words = 0;
    bool innet = false;
    PacketId packet = 0;
    int vc = 0;
    Network::RouteMemo route;  // the route of its last packet
  };
  // Last reason a stream of the dispatcher stalled (diagnosis), kept as
  // numbers and worded only by describe(): a stall happens in most
  // evaluations.
  struct Blocked {
    enum Kind : std::uint8_t {
      none, engine, arrival, fifo, wait, barrier_release, delivery_before_barrier, delivery_after_end, forward
    } kind = none;
    std::uint32_t tag = 0;
    std::uint32_t have = 0;
    std::uint32_t need = 0;
  };
  /// One stream of the descriptor source (one unless the source runs threads).
  struct Stream {
    Blocked blocked;
    bool ended = false;  // its END has been taken
  };

  void receive(Cycle now);
  /// Credits that have arrived on controller k's injection link. Only a busy
  /// controller reads its credits, so an idle one leaves them on the link
  /// until it next starts a SEND (the same credits by then).
  void take_credits(std::size_t k, Cycle now);
  /// The earliest flit, or credit it waits for (wakes_on_credit), still
  /// travelling to this NIC.
  [[nodiscard]] Cycle next_link_arrival() const;
  void dispatch(Cycle now, Cycle& next);
  bool dispatch_stream(Cycle now, Cycle& next, std::size_t stream);
  bool start(Controller& c, const Queued& q, Cycle now);
  /// A SEND to the aggregation trees (collectives::kInNetwork).
  bool start_in_network(Controller& c, const Descriptor& d, Cycle now);
  /// The words [offset, offset + length) have all been written by the message tagged `tag` (cut-through).
  [[nodiscard]] bool written_by(std::uint32_t offset, std::uint32_t length, std::uint32_t tag) const;
  /// Offers the next flit; returns the cycle the controller needs to run next.
  Cycle step_controller(Controller& c, Cycle now);
  void catch_up(Controller& c, Cycle now);
  /// The pacer inputs of the controller's current flit (out_ready low).
  [[nodiscard]] hls::PacketPacerInputs offer(const Controller& c) const;
  void finish_copy(Controller& c, Cycle now);
  void message_done(std::uint32_t id, Cycle now);
  [[nodiscard]] bool drained() const;
  /// A range of a memory of `words` words (this NIC's, or the destination's).
  [[nodiscard]] bool check_range(std::uint32_t offset, std::uint32_t length, std::uint32_t words, const char* what);

  // Laid out for the cache: what an evaluation reads lies in the three lines
  // from cross_cycle_ to barrier_ (the ports before them are not read while
  // simulating); what only some events read follows.
  // What other nodes did to this one in cycle cross_cycle_ (kNever: nothing
  // is pending), counted from the next cycle on whether they ran before or
  // after this NIC in that cycle: delivery acknowledgements not yet taken off
  // outstanding_, less the in-network results announced to it (acks_pending_), and the tags of zero-length messages not
  // yet counted as arrived (early_arrivals_).
  alignas(64) Cycle cross_cycle_ = kNever;
  std::vector<Controller> controllers_;
  std::vector<Stream> streams_;
  topology::EndpointId self_;
  State state_ = State::running;
  // Cut-through sources: the words each message has written, as
  // (tag << 32) | address in arrived_words_ (a later message may write the
  // same words).
  bool cut_through_ = false;
  NicConfig config_;
  NicObserver* observer_ = nullptr;  // waveforms only
  Network& network_;
  CollectiveBook& book_;
  std::int64_t outstanding_ = 0;  // messages sent, not yet delivered
  std::int64_t acks_pending_ = 0;
  collectives::NodeMemory memory_;  // resident only where written (zero_pages.hpp)
  std::unique_ptr<DescriptorSource> source_;
  std::size_t streams_running_ = 1;     // streams whose END has not been taken
  BarrierNetwork& barrier_;
  Fifo<Queued> shared_queue_;  // dispatch next-idle
  TagCounter arrivals_;  // messages arrived per tag
  std::vector<std::uint32_t> early_arrivals_;
  Cycle finish_cycle_ = 0;
  std::unordered_set<std::uint64_t> arrived_words_;
  void settle(Cycle now) {
    if (cross_cycle_ < now) [[unlikely]] apply_cross();
  }
  void apply_cross();
  [[nodiscard]] static std::string blocked_text(const Blocked& b);
  [[nodiscard]] int index_of(const Controller& c) const { return static_cast<int>(&c - controllers_.data()); }
};


}  // namespace collnet::systemc
