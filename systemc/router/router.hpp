// The router: one microarchitecture for torus/mesh routers, leaf and spine
// switches and any other graph node (architecture, "Cycle-accurate models").
//
// Input-buffered with `vcs` VCs of `buffer_flits` flits per input port,
// credit-based flow control, wormhole or virtual cut-through, source routing
// from the packet's route (Topology::route()), and separable allocators
// chosen by name (allocator.hpp) whose arbiters come from the policy
// registry (arbiter.hpp). The pipeline is documented in router_config.hpp.
//
// Ports: 0 .. network_ports-1 are the graph node's ports (port p carries the
// node's out_ports[p] / in_ports[p] link); network_ports + c is the injection
// (input) and ejection (output) port of NIC controller c. A port without a
// link (mesh edge) stays unbound.
//
// Allocation in cycle t (read, request, decide, commit):
//   1. read: flits that arrived by t enter their VC buffers, credits that
//      arrived by t are added;
//   2. every input VC whose front flit can go requests its output: a body flit
//      needs a credit on its packet's output VC; a head flit that is routed
//      (routing delay over) needs a free output VC of its route step's class
//      (dateline) with one credit (wormhole) or credits for the whole packet
//      (virtual cut-through), or, with atomic VC allocation, an empty
//      downstream buffer (every credit back);
//      (the VCs that hold an output VC, and those whose output VC holds a
//      credit, are kept between cycles: only body flits able to go and heads
//      are visited; an oldest-first allocator takes each input port's VCs
//      oldest first and stops at the first that can go);
//   3. match requests to outputs (key `allocator`), at most one flit leaving
//      each input port and entering each output port per cycle:
//        input-first   each input port's arbiter picks one of its requesting
//                      VCs, then each output port's arbiter picks one input;
//        output-first  every requesting VC asks its output, each output's
//                      arbiter grants one (any VC of any input), each input
//                      port's arbiter accepts one of its grants (the
//                      request-grant-accept of PIM/iSLIP);
//      with `allocator_iterations` > 1 the inputs and outputs left unmatched
//      try again (iSLIP: priorities move only on first-round grants).
//      Why output-first: an input port that holds two flows bound for two
//      contested outputs (a DOR turn: the flow going on and the flow turning)
//      must send every cycle when its link is fully loaded; input-first lets
//      it offer its oldest VC to one output, lose there, while the other
//      output already went to a younger flit (measured on A2AT's (i, i)
//      groups of document 001: the input idles for packet times on end);
//   4. update: grants take their flits out of the buffers, allocate or free
//      output VCs, spend credits, send the flits with the pipeline delay and
//      return one credit upstream per flit.
// Options (router_config.hpp): with vc_allocator_stage own-allocator a VC
// allocator of its own runs before step 2 (routed heads take free output VCs,
// credits or not, and from the next cycle bid in step 2 like body flits); with
// vc_bid round-robin an input port offers step 3 one VC per output, picked by
// a rotating pointer, instead of all its ready VCs.
// Links of another bandwidth than 1 (link.hpp): a router with such a link
// runs steps 2-4 up to L times a cycle, L = the largest ceil(bandwidth) of
// its links (a crossbar with that speedup). In each round the input ports
// that have sent fewer flits this cycle than their link's ceil(bandwidth)
// request (so a fast output may take the flits of several slower inputs in
// one cycle), and a flit requests its output only while the output's link
// may take one more flit in its departure cycle (Link::can_depart): each
// port moves at most ceil(B) flits a cycle, an output's flits keep to its
// link's bandwidth, and a slow output stays out of the allocation until its
// link is free (the router wakes then). A router whose links all have
// bandwidth 1 runs one round and never asks the links (the unchanged path).
// The router is evaluated only in cycles where something can change: when a
// flit or (while it holds flits) a credit arrives, when a head flit's routing
// delay or a released VC's reuse delay ends, and in the cycle after a cycle
// with requests unless that cycle emptied it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/kernel/activity.hpp"
#include "systemc/router/allocator.hpp"
#include "systemc/router/arbiter.hpp"
#include "systemc/kernel/clocked.hpp"
#include "systemc/kernel/hot_arena.hpp"
#include "systemc/link/link.hpp"
#include "systemc/link/packet.hpp"
#include "systemc/router/router_config.hpp"
#include "topology/routing.hpp"
#include "topology/routing/selection.hpp"

namespace collnet::systemc {

class Router;

/// How a router routes (from the run's routing function, topology/routing.hpp).
struct RouterRouting {
  int vc_classes = 1;                         // classes of the routes (1 = ignore classes)
  std::vector<std::pair<int, int>> layout;    // [first, end) VCs of each class; empty: the even split
  const topology::Topology* topology = nullptr;
  const topology::RoutingFunction* adaptive = nullptr;  // per-hop function, or null: source routes
  /// Per hop: how a head picks among its options (topology/routing/selection.hpp):
  /// the rule the routing function names, else the key output_selection's;
  /// `fallback`, the key's, when the first does not apply to a decision.
  const topology::SelectionRule* selection = nullptr;
  const topology::SelectionRule* fallback = nullptr;
};

/// Notified when a router's buffer occupancy changes (waveforms).
class RouterObserver {
 public:
  virtual ~RouterObserver() = default;
  virtual void on_occupancy(const Router& router, Cycle now, int flits) = 0;
};

class Router final : public Clocked {
 public:
  // One multiport per direction (any number of links, none required): a
  // port object per router port cost about 340 bytes of SystemC objects,
  // names and object-table entries each (21 MB of the heap with the NICs'
  // on leafspine:p=36, 6669 routers). bind_input and
  // bind_output bind a link and record which router port it is, so links
  // may be bound in any order and a port may stay unconnected.
  using InPort = sc_core::sc_port<LinkReceiverIf, 0, sc_core::SC_ZERO_OR_MORE_BOUND>;
  using OutPort = sc_core::sc_port<LinkSenderIf, 0, sc_core::SC_ZERO_OR_MORE_BOUND>;

  Router(const sc_core::sc_module_name& name, topology::NodeId node, int network_ports, int nic_ports,
         const RouterRouting& routing, const RouterConfig& config, PacketTable& packets, NetworkActivity& activity);

  InPort in;
  OutPort out;
  /// Router port `port` receives from (sends on) `link`; each port once.
  void bind_input(int port, Link& link);
  void bind_output(int port, Link& link);
  /// Network port `port`'s output link ends at a NIC (endpoint_attach
  /// direct, network.hpp): a head leaving on it leaves the network, as one
  /// leaving on an ejection port does.
  void mark_ejection_port(int port);
  /// Ports from `first` on lead to the switch's aggregation units
  /// (systemc/switch/innet_fabric.hpp): a head ejected there takes a VC of
  /// `vc_class`, the reduction class, so that each child's packets reach its
  /// unit in the order they were sent; set_unit_port_any_class exempts a
  /// port (a unit's input of its parent's results, which always drains).
  void set_unit_ports(int first, int vc_class) {
    unit_port_first_ = first;
    unit_class_.assign(static_cast<std::size_t>(std::max(ports_ - first, 0)), static_cast<std::uint8_t>(vc_class));
  }
  void set_unit_port_any_class(int port) { unit_class_.at(static_cast<std::size_t>(port - unit_port_first_)) = kAnyClass; }

  [[nodiscard]] topology::NodeId node() const { return node_; }
  [[nodiscard]] int network_ports() const { return network_ports_; }
  [[nodiscard]] int ports() const { return ports_; }
  [[nodiscard]] int vcs() const { return vcs_; }
  [[nodiscard]] int occupancy() const { return occupancy_; }
  void set_observer(RouterObserver* observer) { observer_ = observer; }
  /// Statistics (issue 5 report): head flits that could not leave in the
  /// first cycle they were eligible (output VC held by another packet, no
  /// credit, or lost arbitration), counted once per packet and router; and
  /// the most flits one input VC buffer ever held.
  [[nodiscard]] std::uint64_t arbitration_conflicts() const { return delayed_heads_; }
  [[nodiscard]] int max_vc_flits() const { return max_vc_flits_; }
  /// Head flits that left with an output VC allocated here: the VC
  /// allocations, events of the energy model (collectives/energy.hpp).
  [[nodiscard]] std::uint64_t vc_allocations() const { return heads_; }

  /// Read-only view of an input VC for diagnosis (deadlock report).
  struct VcView {
    int flits = 0;
    const Flit* front = nullptr;
    int out_port = -1;   // allocated output port of the front packet, or -1
    int out_vc = -1;
    int want_port = -1;  // routed output port of a front head flit, or -1
    int want_class = -1; // VC class it needs there (-1: any)
  };
  [[nodiscard]] VcView input_vc(int port, int vc) const;
  /// First and one-past-last output VC a head of `vc_class` may take at `port`.
  [[nodiscard]] std::pair<int, int> vc_range(int port, int vc_class) const;
  [[nodiscard]] int credits(int port, int vc) const { return credits_[index(port, vc)]; }
  [[nodiscard]] bool vc_owned(int port, int vc) const {
    return ((free_vcs_[static_cast<std::size_t>(port)] >> vc) & 1u) == 0;
  }
  [[nodiscard]] Link* input_link(int port) const { return in_links_[static_cast<std::size_t>(port)]; }
  [[nodiscard]] Link* output_link(int port) const { return out_links_[static_cast<std::size_t>(port)]; }
  void prefetch(int stage) const override;

 protected:
  Cycle evaluate(Cycle now) override;
  void end_of_elaboration() override;

 private:
  struct InputVc {
    std::uint16_t head = 0;
    std::uint16_t count = 0;
    std::int16_t out_port = -1;  // allocated to the front packet (body flits follow it)
    std::uint8_t out_vc = 0;
    std::uint8_t rule = 0;       // per-hop routing: 0 the first selection rule (select_), 1 the fallback
    std::int16_t want_port = -1; // routed output of the front head flit
    std::uint8_t want_class = 0; // kAnyClass: any VC
    std::uint8_t options = 0;    // per-hop routing: allowed outputs of the front head (hop_options_), 0: source route
    std::uint16_t need = 1;      // credits a newly allocated VC must hold
    // A routed head that found no free output VC: out_epoch_[want_port] at
    // that time, or 0 (epochs skip 0). The request scan skips the head until
    // that port's epoch moves (a credit came back or a tail released a VC
    // there): nothing else can make free_vc succeed.
    std::uint32_t blocked_epoch = 0;
    Cycle eligible_at = 0;       // head: routing done
    Cycle inject_cycle = 0;      // of the front packet (age)
  };
  using Grant = SwitchGrant;
  static constexpr std::uint8_t kAnyClass = 0xFF;

  /// Input slot `slot` holds output VC (o, ov) for its front packet from now on.
  void route_vc(std::size_t slot, int o, int ov) {
    const auto bit = static_cast<std::uint16_t>(1u << (slot % static_cast<std::size_t>(vcs_)));
    const std::size_t port = slot / static_cast<std::size_t>(vcs_);
    vc_owner_[index(o, ov)] = static_cast<std::uint32_t>(slot);
    routed_vcs_[port] |= bit;
    if (credits_[index(o, ov)] > 0) sendable_vcs_[port] |= bit;
    else sendable_vcs_[port] &= static_cast<std::uint16_t>(~bit);
  }
  [[nodiscard]] std::size_t index(int port, int vc) const {
    return static_cast<std::size_t>(port) * static_cast<std::size_t>(vcs_) + static_cast<std::size_t>(vc);
  }
  void front_changed(InputVc& ivc, std::size_t slot, Cycle base);
  /// Per-hop routing: the allowed outputs of the front head of `ivc`.
  void route_hop(InputVc& ivc, std::size_t slot, const Packet& packet);
  /// Per-hop routing: points want_port/want_class at the option to request
  /// now, the one the selection rule picks from the ports' state; false when
  /// the rule leaves the choice to the VC allocator (request_every_option).
  bool choose_output(InputVc& ivc, std::size_t slot) const;
  /// A free output VC able to take the front head of `ivc`, or -1.
  /// A free output VC for the head of `ivc`, or -1; `retry` is lowered to the
  /// cycle a released VC becomes allocatable (separate VC allocation).
  [[nodiscard]] int free_vc(const InputVc& ivc, Cycle now, Cycle& retry) const;
  // The steps of evaluate: read, request (2.), decide (3.), commit (4.).
  void read(Cycle now);
  /// Writes every input VC's request into `sc` (with an oldest-first switch
  /// allocator, oldest_walk_: offers each input port's oldest ready request
  /// to the allocator, SwitchAllocator::offer); lowers `next` to the cycle a
  /// waiting head can request; true if any.
  /// kRated (links of another bandwidth than 1): only the input ports below
  /// their flits of this cycle, and only outputs whose link can take a flit.
  template <bool kRated>
  bool request(AllocationScratch& sc, Cycle now, Cycle& next);
  /// evaluate() of a router with a link of another bandwidth than 1: up to
  /// rounds_ rounds of steps 2-4 (out of line: the bandwidth-1 path stays
  /// as it was).
  Cycle evaluate_rated(Cycle now);
  void apply(const Grant& grant, Cycle now);
  /// After the commit: the observer, the credit wake-up and the next cycle to evaluate.
  [[nodiscard]] Cycle next_evaluation(Cycle now, bool requested, Cycle next);
  /// vc_bid round-robin: keep one candidate per output among input port p's.
  void one_bid_per_output(int p);
  /// vc_allocator_stage own-allocator: routed heads take free output VCs
  /// (vc_allocator_); true if any head asked.
  bool allocate_vcs(Cycle now);
  /// A selection rule without a choice (vc-allocator): the head at (p, v)
  /// requests every free VC of every option its routing function allowed.
  void request_every_option(const InputVc& ivc, int p, int v, std::size_t& total);

  // Laid out for the cache: what every evaluation reads sits in the lines
  // from node_ to buffers_ (the sc_module base and the port
  // vectors before them are not read while simulating); per-packet and
  // option state follows.
  alignas(64) topology::NodeId node_;
  int network_ports_;
  int ports_;
  int vcs_;
  int depth_;
  int routing_delay_;
  Cycle pipeline_delay_;
  Cycle credit_release_delay_;  // after the allocation decision (credit_release_delay)
  bool own_vc_allocator_;       // vc_allocator_stage: own-allocator
  long weighed_threshold_;      // ugal_threshold
  bool weighed_once_;           // ugal_rule booksim2
  bool cut_through_;
  bool round_robin_vc_bid_;
  bool atomic_vcs_;
  bool rated_ = false;  // a link of another bandwidth than 1 (evaluate_rated)
  // The allocators (allocator.hpp), by the names of keys `allocator` and
  // `vc_allocator_stage`; vc_allocator_ is null unless own-allocator.
  std::unique_ptr<SwitchAllocator> switch_allocator_;
  // The switch allocator needs each input port's oldest ready request only
  // (SwitchAllocator::oldest_request_per_input): the request step tests the
  // VCs oldest first (front_inject_) and stops at the first that can go.
  bool oldest_walk_ = false;
  PacketTable& packets_;
  NetworkActivity& activity_;
  RouterObserver* observer_ = nullptr;
  // Bit p: flits (credits) are on the wires of input (output) port p's link;
  // set by the link, cleared here once it is empty.
  std::uint64_t* flits_pending_ = nullptr;    // pending_words_ words each
  std::uint64_t* credits_pending_ = nullptr;
  std::size_t pending_words_ = 0;
  int occupancy_ = 0;
  int traced_occupancy_ = 0;
  int max_vc_flits_ = 0;

  // The per-port and per-VC arrays a cycle reads, in one arena (arena_) in
  // this order, the port masks first so that a small router's share one or
  // two cache lines.
  // Bit v of [p]: input VC v of port p holds a flit (vcs <= 16), so that the
  // request scan touches only the VCs with flits.
  std::uint16_t* nonempty_vcs_ = nullptr;
  // The requests kept between cycles (router.hpp step 2), per input port p:
  // bit v of routed_vcs_[p]: input VC v holds an output VC for its front
  // packet (body flits follow it); of sendable_vcs_[p]: and that output VC
  // holds a credit. Updated where they change: a head granted its VC (apply,
  // allocate_vcs), a tail releasing it, a credit spent or arriving
  // (vc_owner_ finds the input VC). The scan visits nonempty & (sendable |
  // ~routed): the body flits able to go and the heads, nothing else.
  std::uint16_t* routed_vcs_ = nullptr;
  std::uint16_t* sendable_vcs_ = nullptr;
  // Bit v of [p]: output VC v of port p is free (no packet owns it), so
  // that a head looking for a VC tests the free ones only.
  std::uint16_t* free_vcs_ = nullptr;
  // Bit v of [p]: output VC v of port p is free and holds a credit: the VCs a
  // wormhole head (one credit needed) may take.
  std::uint16_t* ready_vcs_ = nullptr;
  std::uint16_t* class_mask_ = nullptr;  // per class: its VCs as bits; [kAnyClass] would be all
  // Per output port: moves whenever a credit arrives for one of its free VCs
  // or a tail frees one (InputVc::blocked_epoch); a credit for an owned VC
  // cannot give a waiting head a VC.
  std::uint32_t* out_epoch_ = nullptr;
  Link** in_links_ = nullptr;          // [port]
  Link** out_links_ = nullptr;         // [port]
  std::int32_t* credits_ = nullptr;    // [out port][vc]
  std::uint32_t* vc_owner_ = nullptr;  // [out port][vc]: input slot port * vcs + vc of its owner
  Cycle* front_inject_ = nullptr;      // [port][vc]: injection cycle of the front packet (age)
  InputVc* input_vcs_ = nullptr;       // [port][vc]
  Flit* buffers_ = nullptr;            // [port][vc][depth]
  // Separate VC allocation stage (vc_allocator_stage): first cycle in which a
  // new head may be given the output VC after a tail released it; empty
  // when the stage is combined.
  std::vector<Cycle> vc_reusable_at_;
  std::vector<std::pair<std::uint8_t, std::uint8_t>> class_range_;  // per class: [first, end)
  std::vector<std::uint8_t> vc_class_;     // per VC: its class
  // Per-hop routing (routing function with next_hops), else null.
  const topology::Topology* topology_ = nullptr;
  const topology::RoutingFunction* adaptive_ = nullptr;
  // The selection rule the routing function names, else the key
  // output_selection's; then the key's when the first does not apply (-1).
  // Null: the VC allocator chooses.
  int (*select_)(const topology::Selection&) = nullptr;
  int (*fallback_select_)(const topology::Selection&) = nullptr;
  bool (*select_applies_)(const topology::HopOption*, int) = nullptr;
  // The selection rules' view of this router (its state arrays and terms),
  // the decision's options filled per call (choose_output).
  mutable topology::Selection selection_;
  std::vector<topology::HopOption> hop_options_;  // [port][vc][HopOptions::kMax]
  std::vector<std::int32_t> out_depths_;           // [output port]: slots of each VC of its far-end buffer
  std::uint64_t delayed_heads_ = 0;
  std::uint64_t heads_ = 0;  // vc_allocations()
  std::vector<std::uint64_t> wide_pending_;  // radix > 64: 2 x pending_words_
  // vc_bid: round-robin: per input port, the VC that bids first next.
  std::vector<std::uint8_t> vc_bid_next_;
  // Per port: 1 where the output leads to a NIC (the ejection ports, and the
  // network ports mark_ejection_port names).
  std::vector<std::uint8_t> ejects_;
  // Links of another bandwidth than 1: per input port, its link's
  // ceil(bandwidth) (the flits it may send in a cycle) and the flits it sent
  // in this cycle's rounds so far; rounds_, the largest ceil(bandwidth) of
  // all its links.
  std::vector<std::uint8_t> in_lanes_;
  std::vector<std::uint8_t> in_sent_;
  int rounds_ = 1;
  int unit_port_first_ = 0x7FFFFFFF;  // set_unit_ports
  std::vector<std::uint8_t> unit_class_;  // per unit port: its VC class

  std::unique_ptr<VcAllocator> vc_allocator_;
  // The router port of in's (out's) i-th binding, until end_of_elaboration.
  std::vector<std::uint16_t> in_ports_, out_ports_;
  HotArena arena_;  // holds the arrays from nonempty_vcs_ to buffers_

  static AllocationScratch& scratch() { return AllocationScratch::local(); }
  static int scratch_ports_;  // the largest fit so far (fit_thread_scratch)
  static int scratch_vcs_;

 public:
  /// Sizes the calling thread's scratch for every router built so far (a
  /// worker thread of a threaded run calls it before evaluating routers).
  static void fit_thread_scratch() { scratch().fit(scratch_ports_, scratch_vcs_); }
};

}  // namespace collnet::systemc
