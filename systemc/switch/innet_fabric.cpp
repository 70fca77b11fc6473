#include "systemc/switch/innet_fabric.hpp"

#include <algorithm>
#include <deque>
#include <limits>

#include "collectives/params.hpp"
#include "systemc/kernel/clocked.hpp"
#include "systemc/nic/nic.hpp"
#include "systemc/run/traffic_endpoint.hpp"

namespace collnet::systemc {

namespace {

/// innet-bcast's stand-in for the engine: a packet goes up as it comes (one
/// contributor), the result down as it comes. The ports and the handshake
/// of hls/switch_aggregator.hpp, combinational.
class RelayBlock final : public SwitchAggregatorBlock {
 public:
  explicit RelayBlock(std::uint32_t words) : words_(words) {}
  hls::SwitchAggregatorOutputs step(const hls::SwitchAggregatorInputs& in) override {
    hls::SwitchAggregatorOutputs out;
    out.in_ready = in.up_ready && !in.cfg_we;
    out.up_valid = in.in_valid && out.in_ready;
    out.up_key = in.in_key;
    out.up_data = in.in_data;
    out.up_last = up_word_ + 1 == words_;
    out.dn_ready = in.out_ready;
    out.out_valid = in.dn_valid && in.out_ready;
    out.out_key = in.dn_key;
    out.out_data = in.dn_data;
    out.out_last = down_word_ + 1 == words_;
    out.busy = up_word_ != 0 || down_word_ != 0;
    if (out.up_valid) up_word_ = out.up_last ? 0 : up_word_ + 1;
    if (out.out_valid) down_word_ = out.out_last ? 0 : down_word_ + 1;
    return out;
  }
  [[nodiscard]] unsigned slots() const override { return 0; }

 private:
  std::uint32_t words_;
  std::uint32_t up_word_ = 0, down_word_ = 0;
};

}  // namespace

/// One child of a unit: where its packets come from and its copies go.
struct UnitChild {
  topology::EndpointId endpoint = topology::kNone;  // an endpoint, or a switch (kNone)
  bool receives = true;                             // gets the result
  std::vector<RouteStep> down;                      // 0 or 1 step
  std::uint8_t down_controller = 0;                 // the ejection port at the far router
};

struct UnitSpec {
  topology::NodeId node = topology::kNone;
  int tree = 0;
  bool root = false;
  std::vector<UnitChild> children;
  std::vector<RouteStep> up;            // to the parent (non-root)
  std::uint8_t up_controller = 0;       // the parent unit's port for this child
  std::uint8_t child_at_parent = 0;
};

/// The unit of one switch in one tree (the header's description).
class AggregatorUnit final : public Clocked {
 public:
  // [j < k]: child j; [k]: the parent (non-root units).
  sc_core::sc_port<LinkReceiverIf, 0, sc_core::SC_ZERO_OR_MORE_BOUND> in;
  sc_core::sc_port<LinkSenderIf, 0, sc_core::SC_ZERO_OR_MORE_BOUND> out;

  AggregatorUnit(const sc_core::sc_module_name& name, InNetworkFabric& fabric, Network& network, UnitSpec spec,
                 std::unique_ptr<SwitchAggregatorBlock> block, std::uint8_t child_mask)
      : Clocked(name, /*run_at_start=*/true),
        in("in"),
        out("out"),
        fabric_(fabric),
        network_(network),
        spec_(std::move(spec)),
        block_(std::move(block)),
        words_(fabric.block_words()) {
    const auto k = spec_.children.size();
    config_ = configuration_writes({child_mask, static_cast<std::uint8_t>(fabric.innet().op), words_});
    queues_.resize(k + 1);
    out_vc_.assign(k, -1);
  }

  [[nodiscard]] std::string describe() const {
    std::size_t waiting = 0;
    for (const auto& link : queues_)
      for (const auto& q : link) waiting += q.size();
    if (waiting == 0 && loop_.empty() && !busy_) return "";
    std::string heads;
    for (std::size_t i = 0; i < queues_.size(); ++i)
      for (std::size_t v = 0; v < queues_[i].size(); ++v)
        if (!queues_[i][v].empty()) {
          const Flit& f = queues_[i][v].front();
          const PacketHeader& h = network_.packets()[f.packet].header;
          heads += " [port " + std::to_string(i) + " vc " + std::to_string(v) + ": " +
                   std::to_string(queues_[i][v].size()) + " flits, front " + (f.head() ? "head" : "body") + " key " +
                   std::to_string(fabric_.key(h.tag, h.offset)) + "]";
        }
    return network_.topology().graph().node_name(spec_.node) + " tree " + std::to_string(spec_.tree) + ": " +
           std::to_string(waiting) + " flits waiting" + (busy_ ? ", engine busy" : "") + " cur " +
           std::to_string(cur_) + heads;
  }

 protected:
  void end_of_elaboration() override {
    const int vcs = network_.config().vcs;
    for (int i = 0; i < in.size(); ++i) {
      in_links_.push_back(&in[i]->link());
      queues_[static_cast<std::size_t>(i)].resize(static_cast<std::size_t>(vcs));
    }
    for (int i = 0; i < out.size(); ++i) {
      out_links_.push_back(&out[i]->link());
      channels_.emplace_back();
      channels_.back().reset(*out_links_.back(), network_.config().switching);
    }
  }

  Cycle evaluate(Cycle now) override {
    const std::size_t k = spec_.children.size();
    PacketTable& packets = network_.packets();
    for (std::size_t i = 0; i < in_links_.size(); ++i)
      while (in_links_[i]->flit_ready(now)) {
        const Flit f = in_links_[i]->pop_flit();
        queues_[i][f.vc].push_back(f);
      }
    for (std::size_t i = 0; i < out_links_.size(); ++i) channels_[i].take_credits(*out_links_[i], now);

    hls::SwitchAggregatorInputs x;
    if (config_step_ < config_.size()) {
      // the engine's registers, one write a cycle, before any packet is offered
      x.cfg_we = true;
      x.cfg_addr = config_[config_step_].address;
      x.cfg_wdata = config_[config_step_].data;
      ++config_step_;
      block_->step(x);
      return now + 1;
    }

    // The children side: the packet in progress, else the next child's head.
    if (cur_ < 0) {
      for (std::size_t r = 0; r < k && cur_ < 0; ++r) {
        const std::size_t j = (rr_ + r) % k;
        for (std::size_t v = 0; v < queues_[j].size(); ++v) {
          if (queues_[j][v].empty() || !queues_[j][v].front().head()) continue;
          cur_ = static_cast<int>(j);
          cur_vc_ = static_cast<int>(v);
          head_cycles_ = 0;
          const PacketHeader& h = packets[queues_[j][v].front().packet].header;
          cur_key_ = fabric_.key(h.tag, h.offset);
          break;
        }
      }
    }
    std::deque<Flit>* cur_queue = cur_ >= 0 ? &queues_[static_cast<std::size_t>(cur_)][static_cast<std::size_t>(cur_vc_)] : nullptr;
    if (cur_queue != nullptr && !cur_queue->empty()) {
      x.in_valid = true;
      x.in_child = static_cast<std::uint8_t>(cur_);
      x.in_key = cur_key_;
      x.in_data = cur_queue->front().payload;
    }
    // up: the root stages the packet for its own down input
    const int up = static_cast<int>(k);
    int up_vc = up_vc_;
    if (spec_.root) {
      x.up_ready = true;
    } else if (up_vc_ >= 0) {
      x.up_ready = channels_[static_cast<std::size_t>(up)].has_credit(up_vc_);
    } else {
      up_vc = channels_[static_cast<std::size_t>(up)].free_vc(static_cast<int>(words_));
      x.up_ready = up_vc >= 0;
    }
    // down: the parent's result (or the root's loop)
    std::deque<Flit>* dn_queue = nullptr;
    if (spec_.root) {
      if (!loop_.empty()) {
        x.dn_valid = true;
        x.dn_key = loop_.front().first;
        x.dn_data = loop_.front().second;
      }
    } else {
      auto& parent = queues_[k];
      if (dn_vc_ < 0)
        for (std::size_t v = 0; v < parent.size(); ++v)
          if (!parent[v].empty() && parent[v].front().head()) {
            dn_vc_ = static_cast<int>(v);
            const PacketHeader& h = packets[parent[v].front().packet].header;
            dn_key_ = fabric_.key(h.tag, h.offset);
            break;
          }
      if (dn_vc_ >= 0 && !parent[static_cast<std::size_t>(dn_vc_)].empty()) {
        dn_queue = &parent[static_cast<std::size_t>(dn_vc_)];
        x.dn_valid = true;
        x.dn_key = dn_key_;
        x.dn_data = dn_queue->front().payload;
      }
    }
    // out: every receiving child can take the word (the copies move in step)
    std::vector<int>& out_vc = out_vc_scratch_;
    out_vc = out_vc_;
    x.out_ready = true;
    for (std::size_t j = 0; j < k; ++j) {
      if (!spec_.children[j].receives) continue;
      if (out_word_ > 0) {
        x.out_ready = x.out_ready && channels_[j].has_credit(out_vc_[j]);
      } else {
        out_vc[j] = channels_[j].free_vc(static_cast<int>(words_));
        x.out_ready = x.out_ready && out_vc[j] >= 0;
      }
    }

    const hls::SwitchAggregatorOutputs y = block_->step(x);
    busy_ = y.busy;

    // children side
    if (x.in_valid && y.in_ready) {
      const Flit f = cur_queue->front();
      cur_queue->pop_front();
      in_links_[static_cast<std::size_t>(cur_)]->send_credit(f.vc, now);
      network_.activity().left(now);
      if (f.tail()) {
        const Packet& p = packets[f.packet];
        if (spec_.children[static_cast<std::size_t>(cur_)].endpoint != topology::kNone)
          fabric_.contribution_taken(static_cast<std::uint32_t>(p.serial), now);
        packets.release(f.packet);
        rr_ = static_cast<std::size_t>(cur_ + 1) % k;
        cur_ = -1;
      }
    } else if (x.in_valid && cur_queue->front().head() && ++head_cycles_ >= 2) {
      // refused in its second cycle: withdrawn, the next child's head is offered
      rr_ = static_cast<std::size_t>(cur_ + 1) % k;
      cur_ = -1;
    }
    // up
    if (y.up_valid && x.up_ready) {
      if (spec_.root) {
        staged_.push_back(y.up_data);
        if (y.up_last) {
          for (const std::uint64_t w : staged_) loop_.emplace_back(y.up_key, w);
          staged_.clear();
        }
      } else {
        const bool head = up_vc_ < 0;
        if (head) {
          up_vc_ = up_vc;
          PacketHeader h;
          h.controller = spec_.up_controller;
          h.area = spec_.child_at_parent;
          h.tag = static_cast<std::uint16_t>(fabric_.tag_of(y.up_key));
          h.offset = fabric_.offset_of(y.up_key);
          h.flits = static_cast<std::uint16_t>(words_);
          h.inject_cycle = now;
          up_packet_ = network_.create_packet_on(h, spec_.up);
        }
        send(static_cast<std::size_t>(up), up_packet_, up_vc_, up_word_, head, y.up_last, y.up_data, now);
        up_word_ = y.up_last ? 0 : up_word_ + 1;
        if (y.up_last) up_vc_ = -1;
      }
    }
    // down input
    if (x.dn_valid && y.dn_ready) {
      if (spec_.root) {
        loop_.pop_front();
      } else {
        const Flit f = dn_queue->front();
        dn_queue->pop_front();
        in_links_[k]->send_credit(f.vc, now);
        network_.activity().left(now);
        if (f.tail()) {
          packets.release(f.packet);
          dn_vc_ = -1;
        }
      }
    }
    // the copies down
    if (y.out_valid && x.out_ready) {
      const bool head = out_word_ == 0;
      for (std::size_t j = 0; j < k; ++j) {
        const UnitChild& c = spec_.children[j];
        if (!c.receives) continue;
        if (head) {
          out_vc_[j] = out_vc[j];
          PacketHeader h;
          h.tag = static_cast<std::uint16_t>(fabric_.tag_of(y.out_key));
          h.offset = fabric_.offset_of(y.out_key);
          h.flits = static_cast<std::uint16_t>(words_);
          h.inject_cycle = now;
          h.controller = c.down_controller;
          std::uint32_t serial = 0;
          if (c.endpoint != topology::kNone) {
            h.source = c.endpoint;
            h.destination = c.endpoint;
            serial = fabric_.receipt(c.endpoint, h.tag, h.offset, now);
          }
          out_packets_.resize(k);
          out_packets_[j] = network_.create_packet_on(h, c.down);
          packets[out_packets_[j]].serial = serial;
        }
        send(j, out_packets_[j], out_vc_[j], out_word_, head, y.out_last, y.out_data, now);
      }
      out_word_ = y.out_last ? 0 : out_word_ + 1;
    }

    bool pending = busy_ || !loop_.empty() || cur_ >= 0 || up_vc_ >= 0 || out_word_ > 0;
    for (const auto& link : queues_)
      for (const auto& q : link) pending = pending || !q.empty();
    if (pending) return now + 1;
    // Asleep: the earliest flit or credit still on its way (a link's wake-up
    // for it was dropped if it came while a wake-up of this cycle was
    // pending, clocked.hpp), so that the unit runs in the cycle it arrives
    // whichever module ran first.
    Cycle next = kNever;
    for (const Link* link : in_links_)
      if (link->flits_in_flight() != 0) next = std::min(next, link->next_flit_arrival());
    for (const Link* link : out_links_)
      if (link->credits_in_flight() != 0) next = std::min(next, link->next_credit_arrival());
    return next;
  }

 private:
  void send(std::size_t link, PacketId packet, int vc, std::uint32_t index, bool head, bool tail, std::uint64_t data,
            Cycle now) {
    Flit f;
    f.packet = packet;
    f.index = static_cast<std::uint16_t>(head ? 0 : index);
    f.vc = static_cast<std::uint8_t>(vc);
    f.flags = static_cast<std::uint8_t>((head ? Flit::kHead : 0) | (tail ? Flit::kTail : 0));
    f.payload = data;
    channels_[link].spend(vc);
    out_links_[link]->send(f, now);
    network_.activity().entered(now);
  }

  InNetworkFabric& fabric_;
  Network& network_;
  UnitSpec spec_;
  std::unique_ptr<SwitchAggregatorBlock> block_;
  std::uint32_t words_;
  std::array<RegisterWrite, 4> config_{};
  std::size_t config_step_ = 0;
  bool busy_ = false;
  std::vector<Link*> in_links_, out_links_;
  std::vector<InjectionChannel> channels_;
  std::vector<std::vector<std::deque<Flit>>> queues_;  // [in link][vc]
  // children side
  int cur_ = -1, cur_vc_ = 0, head_cycles_ = 0;
  std::uint16_t cur_key_ = 0;
  std::size_t rr_ = 0;
  // up
  int up_vc_ = -1;
  std::uint32_t up_word_ = 0;
  PacketId up_packet_ = 0;
  std::vector<std::uint64_t> staged_;                            // root: the up packet so far
  std::deque<std::pair<std::uint16_t, std::uint64_t>> loop_;     // root: up words gone, to come down
  // down
  int dn_vc_ = -1;
  std::uint16_t dn_key_ = 0;
  std::uint32_t out_word_ = 0;
  std::vector<int> out_vc_, out_vc_scratch_;
  std::vector<PacketId> out_packets_;
};

NetworkExtras InNetworkFabric::extras(const topology::Topology& topology, const collectives::InNetwork& innet,
                                      int controllers) {
  NetworkExtras x;
  const topology::Graph& g = topology.graph();
  x.unit_ports.assign(g.node_count(), 0);
  for (int t = 0; t < innet.trees; ++t) {
    const topology::AggregationTree tree = topology::aggregation_tree(topology, t);
    for (const topology::NodeId v : tree.switches)
      x.unit_ports[static_cast<std::size_t>(v)] += static_cast<int>(tree.children[static_cast<std::size_t>(v)].size()) + 1;
  }
  for (topology::NodeId v = 0; v < static_cast<topology::NodeId>(g.node_count()); ++v) {
    const int nic = g.node(v).endpoint != topology::kNone ? controllers : 0;
    if (nic + x.unit_ports[static_cast<std::size_t>(v)] > 255)
      throw ConfigError("key 'aggregation_trees': " + std::to_string(innet.trees) + " trees give switch " +
                        g.node_name(v) + " " + std::to_string(x.unit_ports[static_cast<std::size_t>(v)]) +
                        " aggregation ports, more than the packet header's controller field reaches (255); set "
                        "fewer trees");
  }
  x.reduction_class = true;
  return x;
}

InNetworkFabric::InNetworkFabric(Network& network, const collectives::Schedule& schedule, SwitchBlocks blocks,
                                 int slots, CollectiveBook& book)
    : book_(book), innet_(*schedule.innet) {
  const topology::Topology& topology = network.topology();
  const topology::Graph& g = topology.graph();
  if (innet_.kind != collectives::InNetwork::Kind::bcast)
    if (const std::string problem = switch_aggregator_problem(blocks, slots); !problem.empty())
      throw ConfigError(problem);
  // The tags (tree + 1) and the vector's length.
  for (std::size_t e = 0; e < schedule.endpoints(); ++e)
    for (const Descriptor& d : schedule.programs[e])
      if (d.opcode == Opcode::send && d.dest == collectives::kInNetwork) {
        tag_by_low_bits_[d.tag & 15u] = d.tag;
        length_ = std::max(length_, d.dst_offset + d.length);
      }
  const auto n = static_cast<std::size_t>(topology.endpoint_count());
  entries_.assign(n, std::vector<InnetEntry>(static_cast<std::size_t>(innet_.trees)));
  // Port offsets of the units at each node, after its NIC ports.
  std::vector<int> next_port(g.node_count(), 0);
  for (topology::NodeId v = 0; v < static_cast<topology::NodeId>(g.node_count()); ++v)
    next_port[static_cast<std::size_t>(v)] = network.unit_port_base(v) - g.port_count(v);
  const int vcs = network.config().vcs;
  const int buffer = network.config().link_buffer_flits(1);
  const Link::Params to_unit{1, vcs, buffer, network.config().pipeline_delay()};
  const Link::Params from_unit{1, vcs, buffer, 0};
  for (int t = 0; t < innet_.trees; ++t) {
    const topology::AggregationTree tree = topology::aggregation_tree(topology, t);
    // Each switch's first port for this tree, relative to its network ports.
    std::vector<int> base(g.node_count(), -1);
    for (const topology::NodeId v : tree.switches) {
      base[static_cast<std::size_t>(v)] = next_port[static_cast<std::size_t>(v)];
      next_port[static_cast<std::size_t>(v)] += static_cast<int>(tree.children[static_cast<std::size_t>(v)].size()) + 1;
    }
    for (const topology::NodeId v : tree.switches) {
      const auto& children = tree.children[static_cast<std::size_t>(v)];
      UnitSpec spec;
      spec.node = v;
      spec.tree = t;
      spec.root = v == tree.root;
      std::uint8_t mask = 0;
      for (std::size_t j = 0; j < children.size(); ++j) {
        const topology::AggregationChild& c = children[j];
        UnitChild u;
        u.endpoint = c.endpoint;
        if (c.endpoint != topology::kNone) {
          u.receives = innet_.receives(c.endpoint);
          if (c.down != topology::kNone) u.down.push_back(network.result_step(c.down));
          u.down_controller = 0;  // the NIC's controller 0
          InnetEntry& entry = entries_[static_cast<std::size_t>(c.endpoint)][static_cast<std::size_t>(t)];
          if (c.up != topology::kNone) entry.steps.push_back(network.reduction_step(c.up));
          entry.controller = static_cast<std::uint8_t>(base[static_cast<std::size_t>(v)] + static_cast<int>(j));
          entry.child = static_cast<std::uint8_t>(j);
          if (innet_.contributes(c.endpoint)) mask = static_cast<std::uint8_t>(mask | (1u << j));
        } else {
          u.down.push_back(network.result_step(c.down));
          const auto& grandchildren = tree.children[static_cast<std::size_t>(c.node)];
          u.down_controller =
              static_cast<std::uint8_t>(base[static_cast<std::size_t>(c.node)] + static_cast<int>(grandchildren.size()));
          mask = static_cast<std::uint8_t>(mask | (1u << j));
        }
        spec.children.push_back(std::move(u));
      }
      if (!spec.root) {
        const topology::NodeId p = tree.parent[static_cast<std::size_t>(v)];
        const auto& siblings = tree.children[static_cast<std::size_t>(p)];
        const auto at = std::find_if(siblings.begin(), siblings.end(),
                                     [&](const topology::AggregationChild& c) { return c.node == v; });
        spec.child_at_parent = static_cast<std::uint8_t>(at - siblings.begin());
        spec.up.push_back(network.reduction_step(tree.up_link[static_cast<std::size_t>(v)]));
        spec.up_controller =
            static_cast<std::uint8_t>(base[static_cast<std::size_t>(p)] + static_cast<int>(spec.child_at_parent));
      }
      std::unique_ptr<SwitchAggregatorBlock> block =
          innet_.kind == collectives::InNetwork::Kind::bcast
              ? std::unique_ptr<SwitchAggregatorBlock>(std::make_unique<RelayBlock>(innet_.block_words))
              : make_switch_aggregator(blocks, slots);
      const std::size_t k = children.size();
      const std::string name = "agg" + std::to_string(v) + "_" + std::to_string(t);
      units_.push_back(std::make_unique<AggregatorUnit>(name.c_str(), *this, network, std::move(spec), std::move(block),
                                                        mask));
      AggregatorUnit& unit = *units_.back();
      Router& router = network.router(v);
      const int first = g.port_count(v) + base[static_cast<std::size_t>(v)];
      for (std::size_t j = 0; j <= k; ++j) {
        if (j == k && v == tree.root) break;
        const std::string suffix = name + "_" + std::to_string(j);
        links_.push_back(std::make_unique<Link>("to_" + suffix, to_unit, topology::kNone, &network.window()));
        router.bind_output(first + static_cast<int>(j), *links_.back());
        if (j == k) router.set_unit_port_any_class(first + static_cast<int>(j));  // the parent's results
        unit.in.bind(*links_.back());
        links_.push_back(std::make_unique<Link>("from_" + suffix, from_unit, topology::kNone, &network.window()));
        router.bind_input(first + static_cast<int>(j), *links_.back());
        unit.out.bind(*links_.back());
      }
    }
  }
  network.set_innet(this);
}

InNetworkFabric::~InNetworkFabric() {
  // the units (SystemC modules) in reverse construction order, then their links
  while (!units_.empty()) units_.pop_back();
  while (!links_.empty()) links_.pop_back();
}

const InnetEntry& InNetworkFabric::entry(topology::EndpointId e, int tree) const {
  return entries_.at(static_cast<std::size_t>(e)).at(static_cast<std::size_t>(tree));
}

std::uint16_t InNetworkFabric::key(std::uint32_t tag, std::uint32_t offset) const {
  const std::uint32_t block = offset / innet_.block_words / static_cast<std::uint32_t>(innet_.trees);
  return static_cast<std::uint16_t>(((tag & 15u) << 12) | (block & 0xFFFu));
}

std::uint32_t InNetworkFabric::tag_of(std::uint16_t key) const { return tag_by_low_bits_[key >> 12]; }

std::uint32_t InNetworkFabric::offset_of(std::uint16_t key) const {
  const std::uint32_t tree = tag_of(key) - 1;
  return ((key & 0xFFFu) * static_cast<std::uint32_t>(innet_.trees) + tree) * innet_.block_words;
}

std::uint64_t InNetworkFabric::identity() const {
  switch (innet_.op) {
    case ReceiveOp::max: return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min());
    case ReceiveOp::min: return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    default: return 0;
  }
}

std::uint32_t InNetworkFabric::receipt(topology::EndpointId e, std::uint32_t tag, std::uint32_t offset, Cycle now) {
  Message m;
  m.source = e;
  m.destination = e;
  m.tag = tag;
  m.op = ReceiveOp::copy;
  m.packets_left = 1;
  m.end = std::min(offset + innet_.block_words, length_);
  book_.nics[static_cast<std::size_t>(e)]->expect_receipt(now);
  return book_.messages.add(m);
}

void InNetworkFabric::contribution_taken(std::uint32_t message, Cycle now) {
  Message& m = book_.messages[message];
  ++book_.lane().progress;
  if (--m.packets_left != 0) return;
  const topology::EndpointId source = m.source;
  book_.messages.release(message);
  ++book_.lane().delivered_messages;
  book_.nics[static_cast<std::size_t>(source)]->delivered(now);
}

std::string InNetworkFabric::describe() const {
  std::string s;
  for (const auto& u : units_) {
    const std::string d = u->describe();
    if (d.empty()) continue;
    s += (s.empty() ? "" : "; ") + d;
  }
  return s;
}

}  // namespace collnet::systemc
