#include "systemc/network/network.hpp"

#include <algorithm>
#include <stdexcept>

#include "collectives/algorithm.hpp"
#include "topology/grid.hpp"
#include "topology/routing.hpp"
#include "topology/routing/selection.hpp"

namespace collnet::systemc {

namespace {

/// The cable of a server endpoint's node: its one link out and its one link
/// in, or a reason it has none (the node is a router of its own, or has
/// several cables).
struct ServerCable {
  topology::LinkId up = topology::kNone;    // server -> switch
  topology::LinkId down = topology::kNone;  // switch -> server
};

ServerCable server_cable(const topology::Graph& g, topology::EndpointId e, std::string& why) {
  const topology::NodeId n = g.endpoint_node(e);
  const topology::Node& node = g.node(n);
  ServerCable c;
  if (node.kind != topology::NodeKind::server) {
    why = "its endpoints are " + std::string(topology::to_string(node.kind)) + " nodes (endpoint " +
          std::to_string(e) + " is node " + g.node_name(n) + "), not servers on a cable to a switch";
    return c;
  }
  for (const topology::LinkId l : node.out_ports)
    if (l != topology::kNone) c.up = c.up == topology::kNone ? l : topology::kNone - 1;
  for (const topology::LinkId l : node.in_ports)
    if (l != topology::kNone) c.down = c.down == topology::kNone ? l : topology::kNone - 1;
  if (c.up < 0 || c.down < 0 || g.link(c.up).dst != g.link(c.down).src ||
      g.node(g.link(c.up).dst).endpoint != topology::kNone) {
    why = "server " + g.node_name(n) + " (endpoint " + std::to_string(e) +
          ") is not on exactly one cable to a switch";
    c = {};
  }
  return c;
}

}  // namespace

std::string direct_attach_problem(const topology::Topology& topology) {
  const topology::Graph& g = topology.graph();
  for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) {
    std::string why;
    if (server_cable(g, e, why).up == topology::kNone)
      return "key 'endpoint_attach': direct attaches server endpoints to their switch, but on " + topology.name() +
             " " + why + "; accepted here: server";
  }
  return {};
}

Network::Network(const topology::Topology& topology, const RouterConfig& config, int controllers,
                 EndpointAttach attach, const NetworkExtras& extras)
    : topology_(topology), config_(config), controllers_(controllers), attach_(attach) {
  config_.validate();
  if (const Key& key = collectives::controllers_key(); controllers < key.lo() || controllers > key.hi())
    throw ConfigError("key 'controllers': expected " + key.doc().accepted + ", got " + std::to_string(controllers));
  try {
    routing_ = &topology::find_routing(config_.routing, topology);
  } catch (const topology::TopologyError& e) {
    throw ConfigError(e.what());
  }
  if (config_.vc_allocator_selects && !routing_->adaptive())
    throw ConfigError("key 'output_selection': vc-allocator chooses among the outputs of a per-hop routing "
                      "function; routing " + routing_->name + " gives one route (remove 'output_selection')");
  // The per-hop choice: the rule the routing function names, else the key
  // output_selection's (topology/routing/selection.hpp).
  const topology::SelectionRule* key_rule =
      &topology::find_selection(config_.vc_allocator_selects ? "vc-allocator" : "most-credits");
  if (routing_->adaptive())
    selection_ = routing_->selection.empty() ? key_rule : &topology::find_selection(routing_->selection);
  if (config_.weighed_threshold != 0 && (selection_ == nullptr || !selection_->reads_threshold))
    throw ConfigError("key 'ugal_threshold': applies to routing that weighs its paths (ugal, ugal-booksim2); "
                      "routing " + routing_->name + " does not (remove 'ugal_threshold')");
  if (config_.weighed_once && (selection_ == nullptr || !selection_->reads_threshold))
    throw ConfigError("key 'ugal_rule': applies to routing that weighs its paths (ugal, ugal-booksim2); routing " +
                      routing_->name + " does not (remove 'ugal_rule')");
  const int classes = std::max(routing_->vc_classes(topology), 1);
  if (routing_->adaptive() && !config_.dateline)
    throw ConfigError("key 'dateline': routing " + routing_->name + " needs its " + std::to_string(classes) +
                      " VC classes (escape and adaptive) on " + topology.name() + "; accepted with it: true");
  vc_classes_ = config_.dateline ? classes : 1;
  if (routing_ == &topology::default_routing(topology)) {
    if (vc_classes_ > config_.vcs)
      throw ConfigError("key 'vcs': " + topology.name() + " uses " + std::to_string(vc_classes_) +
                        (dynamic_cast<const topology::Grid*>(&topology) != nullptr
                             ? " dateline VC classes, so vcs must be at least " + std::to_string(vc_classes_) +
                                   " (got " + std::to_string(config_.vcs) + "); or set dateline: false"
                             : " VC classes (deadlock avoidance), so vcs must be at least " +
                                   std::to_string(vc_classes_) + " (got " + std::to_string(config_.vcs) + ")"));
  } else if (const int least = config_.dateline ? routing_->min_vcs(topology) : 1; config_.vcs < least) {
    throw ConfigError("key 'vcs': routing " + routing_->name + " on " + topology.name() + " needs at least " +
                      std::to_string(least) + " VCs for its " + std::to_string(classes) +
                      " VC classes (deadlock freedom), got " + std::to_string(config_.vcs));
  }
  if (extras.reduction_class) {
    // The routing function's classes share VCs 0..vcs-2 as they would share
    // all of them; the reduction class owns the last VC.
    if (config_.vcs < vc_classes_ + 1)
      throw ConfigError("key 'vcs': in-network collectives give reduction packets a VC class of their own besides "
                        "the " + std::to_string(vc_classes_) + " of routing " + routing_->name + " on " +
                        topology.name() + "; set vcs >= " + std::to_string(vc_classes_ + 1) + " (got " +
                        std::to_string(config_.vcs) + ")");
    if (routing_->adaptive())
      throw ConfigError("key 'routing': in-network collectives need source routes (the aggregation trees' hops); "
                        "routing " + routing_->name + " routes hop by hop; accepted here: the topology's default");
    class_layout_ = topology::class_layout(*routing_, topology, vc_classes_, config_.vcs - 1);
    class_layout_.emplace_back(config_.vcs - 1, config_.vcs);
    reduction_class_ = vc_classes_++;
  } else {
    class_layout_ = topology::class_layout(*routing_, topology, vc_classes_, config_.vcs);
  }
  if (routing_->per_packet_random) packet_sequence_.assign(static_cast<std::size_t>(topology.endpoint_count()), 0);
  if (config_.dateline_whole_dimension) {
    const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
    if (grid == nullptr || !grid->torus())
      throw ConfigError("key 'dateline_class': whole-dimension applies to a torus, not " + topology.name() +
                        "; accepted here: from-wrap");
  }
  const topology::Graph& g = topology.graph();
  // endpoint_attach direct: each endpoint's cable (up and down links).
  const bool direct = attach_ == EndpointAttach::direct;
  std::vector<ServerCable> cables;
  std::vector<topology::EndpointId> cable_endpoint;  // [graph link]: the endpoint whose cable it is, or kNone
  if (direct) {
    if (controllers_ != 1)
      throw ConfigError("key 'endpoint_attach': direct joins one NIC port to a switch's terminal port; " +
                        std::to_string(controllers_) + " controllers per endpoint need endpoint_attach server");
    cable_endpoint.assign(g.link_count(), topology::kNone);
    if (const std::string problem = direct_attach_problem(topology); !problem.empty()) throw ConfigError(problem);
    for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) {
      std::string why;
      const ServerCable c = server_cable(g, e, why);
      cables.push_back(c);
      cable_endpoint[static_cast<std::size_t>(c.up)] = e;
      cable_endpoint[static_cast<std::size_t>(c.down)] = e;
    }
  }
  RouterRouting routing{vc_classes_, class_layout_, &topology, routing_->adaptive() ? routing_ : nullptr, selection_,
                        selection_ != key_rule ? key_rule : nullptr};

  for (std::size_t n = 0; n < g.node_count(); ++n) {
    const auto id = static_cast<topology::NodeId>(n);
    const topology::Node& node = g.node(id);
    // (direct: a server's router keeps no NIC port and no link; it never runs)
    const int nic_ports = node.endpoint != topology::kNone && !direct ? controllers_ : 0;
    const int unit_ports = extras.unit_ports.empty() ? 0 : extras.unit_ports.at(n);
    if (unit_ports > 0 && direct)
      throw ConfigError("key 'endpoint_attach': in-network collectives run with endpoint_attach server");
    if (!extras.unit_ports.empty()) unit_port_base_.push_back(g.port_count(id) + nic_ports);
    // Its VC buffers are as deep as the deepest its input links need
    // (buffer_sizing round-trip): each link's credits keep to its own depth.
    RouterConfig node_config = config_;
    if (nic_ports > 0)
      node_config.buffer_flits = config_.link_buffer_flits(config_.nic_latency, config_.injection_bandwidth);
    for (const topology::LinkId l : node.in_ports)
      if (l != topology::kNone) node_config.buffer_flits = std::max(node_config.buffer_flits, link_buffer_flits(l));
    routers_.push_back(std::make_unique<Router>(("n" + std::to_string(n)).c_str(), id, g.port_count(id),
                                                nic_ports + unit_ports, routing, node_config, packets_, activity_));
    if (unit_ports > 0) routers_.back()->set_unit_ports(g.port_count(id) + nic_ports, reduction_class_);
  }
  for (std::size_t l = 0; l < g.link_count(); ++l) {
    const auto id = static_cast<topology::LinkId>(l);
    const topology::Link& gl = g.link(id);
    // A link of the graph with its own latency (e.g. a dragonfly's global
    // cables) keeps it; every other link has the scenario's link_latency.
    if (gl.latency < 0) throw ConfigError("topology " + topology.name() + ": link " + g.link_name(id) +
                                          " has a negative latency (" + std::to_string(gl.latency) + ")");
    const Link::Params network_link{link_latency(id), config_.vcs, link_buffer_flits(id), config_.pipeline_delay(),
                                    gl.bandwidth};
    links_.push_back(std::make_unique<Link>("link" + std::to_string(l), network_link, id, &window_));
    // direct: the NIC is the cable's server end (bound below).
    const topology::NodeId server =
        direct && cable_endpoint[l] != topology::kNone ? g.endpoint_node(cable_endpoint[l]) : topology::kNone;
    if (gl.src != server) router(gl.src).bind_output(gl.src_port, *links_.back());
    if (gl.dst != server) router(gl.dst).bind_input(gl.dst_port, *links_.back());
  }
  if (direct) {
    for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) {
      const ServerCable& c = cables[static_cast<std::size_t>(e)];
      injection_.push_back(links_[static_cast<std::size_t>(c.up)].get());
      ejection_.push_back(links_[static_cast<std::size_t>(c.down)].get());
      // A head leaving on the switch's terminal port leaves the network.
      const topology::Link& down = g.link(c.down);
      router(down.src).mark_ejection_port(down.src_port);
    }
    return;
  }
  const Link::Params to_router{config_.nic_latency, config_.vcs,
                               config_.link_buffer_flits(config_.nic_latency, config_.injection_bandwidth), 0,
                               config_.injection_bandwidth};
  const Link::Params to_nic{config_.nic_latency, config_.vcs,
                            config_.link_buffer_flits(config_.nic_latency, config_.ejection_bandwidth),
                            config_.pipeline_delay(), config_.ejection_bandwidth};
  for (topology::EndpointId e = 0; e < topology.endpoint_count(); ++e) {
    const topology::NodeId node = g.endpoint_node(e);
    Router& r = router(node);
    for (int c = 0; c < controllers_; ++c) {
      const std::string suffix = std::to_string(e) + "_" + std::to_string(c);
      own_nic_links_.push_back(std::make_unique<Link>("inject" + suffix, to_router, topology::kNone, &window_));
      injection_.push_back(own_nic_links_.back().get());
      own_nic_links_.push_back(std::make_unique<Link>("eject" + suffix, to_nic, topology::kNone, &window_));
      ejection_.push_back(own_nic_links_.back().get());
      const int port = r.network_ports() + c;
      r.bind_input(port, *injection_.back());
      r.bind_output(port, *ejection_.back());
    }
  }
}

int Network::link_latency(topology::LinkId id) const {
  const int latency = topology_.graph().link(id).latency;
  return latency > 0 ? latency : config_.link_latency;
}

int Network::link_buffer_flits(topology::LinkId id) const {
  return config_.link_buffer_flits(link_latency(id), topology_.graph().link(id).bandwidth);
}

std::vector<LinkLatencyCount> Network::link_latencies() const {
  std::vector<LinkLatencyCount> counts;
  for (const auto& link : links_) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const LinkLatencyCount& c) {
      return c.latency == link->latency() && c.bandwidth == link->bandwidth();
    });
    if (it == counts.end()) counts.push_back({link->latency(), 1, link->bandwidth()});
    else ++it->links;
  }
  // Shortest first; of one latency, slowest first.
  std::sort(counts.begin(), counts.end(), [](const LinkLatencyCount& a, const LinkLatencyCount& b) {
    if (a.latency != b.latency) return a.latency < b.latency;
    return static_cast<std::int64_t>(a.bandwidth.flits) * b.bandwidth.cycles <
           static_cast<std::int64_t>(b.bandwidth.flits) * a.bandwidth.cycles;
  });
  return counts;
}

class TeardownSentinel::Module final : public sc_core::sc_module {
 public:
  explicit Module(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}
};

class TeardownSentinel::Channel final : public sc_core::sc_prim_channel {
 public:
  explicit Channel(const char* name) : sc_core::sc_prim_channel(name) {}
};

TeardownSentinel::TeardownSentinel()
    : module_(std::make_unique<Module>("teardown_sentinel")),
      kernel_module_(std::make_unique<Module>("teardown_sentinel_kernel")),
      channel_(std::make_unique<Channel>("teardown_sentinel_channel")) {}

TeardownSentinel::~TeardownSentinel() { release(); }

void TeardownSentinel::release() {
  module_.reset();
  kernel_module_.reset();
  channel_.reset();
}

Network::~Network() {
  // The links (not SystemC objects) before the routers, which go in reverse
  // construction order (TeardownSentinel).
  injection_.clear();
  ejection_.clear();
  while (!own_nic_links_.empty()) own_nic_links_.pop_back();
  while (!links_.empty()) links_.pop_back();
  while (!routers_.empty()) routers_.pop_back();
}

Link& Network::injection(topology::EndpointId endpoint, int controller) {
  return *injection_.at(static_cast<std::size_t>(endpoint * controllers_ + controller));
}

Link& Network::ejection(topology::EndpointId endpoint, int controller) {
  return *ejection_.at(static_cast<std::size_t>(endpoint * controllers_ + controller));
}

void Network::route_steps(topology::EndpointId src, topology::EndpointId dst, topology::RouteHint hint,
                          std::uint64_t random, std::vector<RouteStep>& steps) const {
  // Computed per packet: a cache of routes by (source, destination, hint)
  // was slower on large networks under uniform traffic (1M pairs on 32x32).
  topology::Route route;
  try {
    route = routing_->route(topology_, src, dst, hint, random);
  } catch (const topology::TopologyError& e) {
    throw ConfigError(std::string("route from endpoint ") + std::to_string(src) + " to " + std::to_string(dst) +
                      ": " + e.what());
  }
  const topology::Graph& g = topology_.graph();
  if (route.size() > 255) throw std::logic_error("route longer than the 8-bit hop count");
  steps.clear();
  topology::NodeId at = g.endpoint_node(src);
  for (const topology::Hop& hop : route) {
    const topology::Link& l = g.link(hop.link);
    if (l.src != at) throw std::logic_error("route of " + topology_.name() + " is not a connected path");
    steps.push_back(RouteStep{static_cast<std::uint16_t>(l.src_port), hop.vc_class});
    at = l.dst;
  }
  if (at != g.endpoint_node(dst)) throw std::logic_error("route of " + topology_.name() + " ends elsewhere");
  if (attach_ == EndpointAttach::direct) {
    // The NIC sends on the server's cable itself: the route starts at the
    // switch. A packet to its own endpoint goes in and straight out of the
    // switch on the terminal port (any VC).
    if (steps.empty()) {
      const auto& in = g.node(at).in_ports;
      const topology::Link& down =
          g.link(*std::find_if(in.begin(), in.end(), [](topology::LinkId l) { return l != topology::kNone; }));
      steps.push_back(RouteStep{static_cast<std::uint16_t>(down.src_port), 0xFF});
    } else {
      steps.erase(steps.begin());
    }
    return;
  }
  if (config_.dateline_whole_dimension) {
    // A run of hops in one dimension that reaches the wrap link takes class 1
    // from its first hop on. Classes 2k and 2k+1 are the dateline pair of a
    // phase k (valiant): a run ends where the phase changes.
    for (std::size_t first = 0; first < route.size();) {
      const std::int8_t dim = g.link(route[first].link).dim;
      const int phase = route[first].vc_class >> 1;
      std::size_t end = first;
      std::uint8_t cls = 0;
      while (end < route.size() && g.link(route[end].link).dim == dim && (route[end].vc_class >> 1) == phase)
        cls = std::max(cls, route[end++].vc_class);
      for (std::size_t i = first; i < end; ++i) steps[i].vc_class = cls;
      first = end;
    }
  }
}

PacketId Network::create_packet(const PacketHeader& header, RouteMemo* memo) {
  const PacketId id = packets_.allocate();
  Packet& p = packets_[id];
  if (routing_->adaptive()) {
    // Routed hop by hop by the routers (Router, per-hop routing): no source
    // route; the hop count is the minimal one (the topology's own route).
    p.route.assign({});
    p.header = header;
    // A per-packet random word for routing functions that draw per packet
    // (ugal's intermediate group), as for source routes below.
    p.random = routing_->per_packet_random
                   ? static_cast<std::uint32_t>(topology::packet_random(
                         config_.routing_seed, header.source, packet_sequence_[static_cast<std::size_t>(header.source)]++))
                   : 0;
    try {
      // (direct: less the two endpoint cables, as for a source route below)
      const std::size_t hops = topology_.route(header.source, header.destination, 0).size();
      p.header.hops = static_cast<std::uint8_t>(attach_ == EndpointAttach::direct && hops >= 2 ? hops - 2 : hops);
    } catch (const topology::TopologyError& e) {
      packets_.release(id);
      throw ConfigError(std::string("route from endpoint ") + std::to_string(header.source) + " to " +
                        std::to_string(header.destination) + ": " + e.what());
    }
    return id;
  }
  if (routing_->per_packet_random) memo = nullptr;  // every packet its own route
  if (memo != nullptr && memo->valid && memo->source == header.source && memo->destination == header.destination &&
      memo->hint == header.route_hint) {
    p.route.assign(memo->steps);  // same route as the sender's previous packet
  } else {
    // The memo's vector (or this network's) keeps its capacity: no
    // allocation once warm.
    // (one per thread: the endpoints of a threaded run create packets on
    // several at once).
    static thread_local std::vector<RouteStep> route_scratch;
    std::vector<RouteStep>& steps = memo != nullptr ? memo->steps : route_scratch;
    // Per source: a source's packets are created by the thread that owns it.
    std::uint64_t random = 0;
    if (routing_->per_packet_random)
      random = topology::packet_random(config_.routing_seed, header.source,
                                       packet_sequence_[static_cast<std::size_t>(header.source)]++);
    try {
      route_steps(header.source, header.destination, header.route_hint, random, steps);
    } catch (...) {
      if (memo != nullptr) memo->valid = false;
      packets_.release(id);
      throw;
    }
    p.route.assign(steps);
    if (memo != nullptr) {
      memo->valid = true;
      memo->source = header.source;
      memo->destination = header.destination;
      memo->hint = header.route_hint;
    }
  }
  p.header = header;
  // Links crossed from router to router (direct: the route holds the
  // ejection step, not the injection one).
  p.header.hops = static_cast<std::uint8_t>(p.route.size() - (attach_ == EndpointAttach::direct ? 1 : 0));
  return id;
}

int Network::unit_port_base(topology::NodeId node) const {
  return unit_port_base_.at(static_cast<std::size_t>(node));
}

RouteStep Network::reduction_step(topology::LinkId id) const {
  return RouteStep{static_cast<std::uint16_t>(topology_.graph().link(id).src_port),
                   static_cast<std::uint8_t>(reduction_class_)};
}

RouteStep Network::result_step(topology::LinkId id) const {
  return RouteStep{static_cast<std::uint16_t>(topology_.graph().link(id).src_port), 0};
}

PacketId Network::create_packet_on(const PacketHeader& header, const std::vector<RouteStep>& steps) {
  const PacketId id = packets_.allocate();
  Packet& p = packets_[id];
  p.route.assign(steps);
  p.header = header;
  p.header.hops = static_cast<std::uint8_t>(steps.size());
  p.random = 0;
  return id;
}

void Network::set_link_observer(LinkObserver* observer) {
  for (auto& l : links_) l->set_observer(observer);
}

void Network::set_router_observer(RouterObserver* observer) {
  for (auto& r : routers_) r->set_observer(observer);
}

void Network::enable_link_faults(const LinkFaultConfig& config) {
  if (!config.enabled) return;
  down_ = resolve_link_down(config.down_text, topology_);
  link_faults_.clear();
  for (std::size_t l = 0; l < links_.size(); ++l) {
    Cycle down_at = kNever;
    for (const LinkDown& d : down_)
      if (static_cast<std::size_t>(d.link) == l) down_at = std::min(down_at, d.at);
    link_faults_.push_back(std::make_unique<LinkFaults>(config, links_[l]->latency(), l, down_at));
    links_[l]->set_faults(link_faults_.back().get());
  }
}

Network::LinkFaultTotals Network::link_fault_totals() const {
  LinkFaultTotals t;
  for (const auto& f : link_faults_) {
    t.corrupted += f->corrupted();
    t.retransmitted += f->retransmitted();
  }
  return t;
}

std::vector<std::string> Network::down_links() const {
  std::vector<std::string> lines;
  for (const LinkDown& d : down_) {
    const LinkFaults& f = *link_faults_.at(static_cast<std::size_t>(d.link));
    lines.push_back(d.name + " down since cycle " + std::to_string(f.down_at()) + ", " + std::to_string(f.held()) +
                    " flits held in its replay buffer");
  }
  return lines;
}

}  // namespace collnet::systemc
