// The network builder: one Router per graph node of a topology::Topology, one
// Link per directed graph link, and per endpoint and NIC controller an
// injection and an ejection Link (the NIC side binds to them: synthetic
// traffic here, the NIC model in nic.hpp). The leaf/spine switch, the
// torus router and a board unit are the same Router with their node's radix.
//
// Packets are created through create_packet(), which computes the source
// route with Topology::route() and turns each hop into the output port to
// take and its VC class.
//
// Construct inside a KernelSession and before sc_start().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "systemc/kernel/activity.hpp"
#include "systemc/link/link.hpp"
#include "systemc/link/link_faults.hpp"
#include "systemc/link/packet.hpp"
#include "systemc/router/router.hpp"
#include "systemc/router/router_config.hpp"
#include "topology/routing.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

/// Linear teardown of a run's SystemC objects. SystemC 2.3.4 keeps the
/// top-level objects, the modules and the primitive channels in vectors; it
/// removes a destroyed object by searching its vector from the front and
/// moving the last element into the hole, so destroying n objects in either
/// construction or reverse order costs n^2/2 comparisons (seconds for a
/// 3072-endpoint network). Construct a sentinel before any other object of
/// the run and release() it before destroying them, then destroy the rest in
/// reverse construction order: removing the sentinel moves the newest object
/// into its (front) place, and from then on every object destroyed sits at
/// the front and the next one to go is the last. The port registry searches
/// from the back, which reverse order suits as well. Two things would break
/// that order, and are kept out of it: SystemC adds one module of its own to
/// the module registry after the run's modules (when the simulation starts)
/// and keeps it past them, so the sentinel has a second module whose removal
/// parks that one in the front; and a destroyed module's processes stay
/// alive, appended to the top-level objects, so the modules' method processes
/// are children of the calendar (Clocked), not of their modules.
class TeardownSentinel {
 public:
  class Module;
  class Channel;
  TeardownSentinel();
  ~TeardownSentinel();
  TeardownSentinel(const TeardownSentinel&) = delete;
  TeardownSentinel& operator=(const TeardownSentinel&) = delete;
  /// Destroys the sentinel's module and channel (first, before the rest).
  void release();

 private:
  std::unique_ptr<Module> module_;
  std::unique_ptr<Module> kernel_module_;
  std::unique_ptr<Channel> channel_;
};

/// How an endpoint that is a server node (fat tree, dragonfly, leaf/spine)
/// joins the network (key `endpoint_attach`, synthetic runs):
///   server  the server node is a router of its own (one network port and
///           the NIC's ports) on its cable to the switch: a packet crosses
///           that stage and cable at both ends;
///   direct  as BookSim2's terminals: the NIC sends on the server's cable
///           straight into the switch's terminal input port, and that
///           switch's terminal output port is the NIC's ejection link; the
///           server node's router is left unconnected (one controller only).
enum class EndpointAttach : std::uint8_t { server, direct };

/// Why endpoint_attach direct cannot run on `topology` (the ConfigError
/// message, naming the key), or empty when every endpoint is a server node on
/// one cable to a switch.
std::string direct_attach_problem(const topology::Topology& topology);

class InNetworkFabric;  // systemc/switch/innet_fabric.hpp

/// What an in-network collective adds to the network (systemc/switch/innet_fabric.hpp).
/// Left empty, the network is exactly the topology's.
struct NetworkExtras {
  /// Per graph node: router ports after its NIC ports for the switch's
  /// aggregation units (empty: none anywhere).
  std::vector<int> unit_ports;
  /// Reduction packets on their way up take a VC class of their own: the
  /// last VC of every port, the routing function's classes sharing the
  /// others, so that a reduction waiting for a slot never holds a VC that
  /// ordinary packets or the results coming down need.
  bool reduction_class = false;
};

class Network {
 public:
  /// `controllers`: NIC controllers (injection and ejection ports) per endpoint.
  /// `attach`: see EndpointAttach; direct throws ConfigError (key
  /// 'endpoint_attach') on a topology whose endpoints are not server nodes on
  /// one cable.
  /// The destructor removes its links and routers in reverse construction
  /// order (see TeardownSentinel).
  Network(const topology::Topology& topology, const RouterConfig& config, int controllers = 1,
          EndpointAttach attach = EndpointAttach::server, const NetworkExtras& extras = {});
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  [[nodiscard]] const topology::Topology& topology() const { return topology_; }
  [[nodiscard]] const RouterConfig& config() const { return config_; }
  [[nodiscard]] int controllers() const { return controllers_; }
  [[nodiscard]] EndpointAttach endpoint_attach() const { return attach_; }
  /// VC classes the routers honour (1 when dateline is off).
  [[nodiscard]] int vc_classes() const { return vc_classes_; }
  /// The routing function of the run (key `routing`).
  [[nodiscard]] const topology::RoutingFunction& routing() const { return *routing_; }
  [[nodiscard]] std::size_t router_count() const { return routers_.size(); }
  /// The routers that take part in the run: all of them, less the servers'
  /// own routers under endpoint_attach direct (built for the node, never run).
  [[nodiscard]] std::size_t running_router_count() const {
    return attach_ == EndpointAttach::direct ? routers_.size() - injection_.size() : routers_.size();
  }
  [[nodiscard]] Router& router(topology::NodeId node) { return *routers_.at(static_cast<std::size_t>(node)); }
  [[nodiscard]] const Router& router(topology::NodeId node) const {
    return *routers_.at(static_cast<std::size_t>(node));
  }
  [[nodiscard]] Link& link(topology::LinkId id) { return *links_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] const Link& link(topology::LinkId id) const { return *links_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] std::size_t link_count() const { return links_.size(); }
  /// The network links (not the NICs' cables) by latency, shortest first: the
  /// scenario's link_latency, and the topology's own where its links carry
  /// one (a dragonfly's local and global cables, a graph file's latency).
  [[nodiscard]] std::vector<LinkLatencyCount> link_latencies() const;
  /// Graph link `id`'s latency: the topology's own, else the scenario's link_latency.
  [[nodiscard]] int link_latency(topology::LinkId id) const;
  /// Depth of each VC buffer at the far end of graph link `id`
  /// (RouterConfig::link_buffer_flits of its latency).
  [[nodiscard]] int link_buffer_flits(topology::LinkId id) const;
  /// NIC controller -> router (the NIC binds a LinkSenderIf port to it).
  [[nodiscard]] Link& injection(topology::EndpointId endpoint, int controller);
  /// Router -> NIC controller (the NIC binds a LinkReceiverIf port to it).
  [[nodiscard]] Link& ejection(topology::EndpointId endpoint, int controller);

  /// The first router port of `node`'s aggregation units (NetworkExtras::unit_ports).
  [[nodiscard]] int unit_port_base(topology::NodeId node) const;
  /// The VC class of reduction packets, or -1 (NetworkExtras::reduction_class).
  [[nodiscard]] int reduction_class() const { return reduction_class_; }
  /// The route step across graph link `id` in the reduction class (a
  /// reduction packet on its way up).
  [[nodiscard]] RouteStep reduction_step(topology::LinkId id) const;
  /// The route step across graph link `id` in class 0, with ordinary
  /// packets (a result on its way down: it always drains, to a NIC or to a
  /// unit that passes it on, so it can share their VCs).
  [[nodiscard]] RouteStep result_step(topology::LinkId id) const;
  /// Allocates a packet that follows `steps` (the in-network collectives'
  /// one-hop routes; hops = steps).
  PacketId create_packet_on(const PacketHeader& header, const std::vector<RouteStep>& steps);
  /// The in-network collective's switches, or null (set by the fabric).
  [[nodiscard]] InNetworkFabric* innet() const { return innet_; }
  void set_innet(InNetworkFabric* fabric) { innet_ = fabric; }

  [[nodiscard]] PacketTable& packets() { return packets_; }
  [[nodiscard]] const PacketTable& packets() const { return packets_; }
  [[nodiscard]] NetworkActivity& activity() { return activity_; }
  [[nodiscard]] const NetworkActivity& activity() const { return activity_; }
  /// Cycles in which links count flits for utilization.
  [[nodiscard]] MeasureWindow& window() { return window_; }

  /// The last route a sender computed (a NIC controller cuts a message into
  /// packets with one source, destination and hint: one route for all).
  struct RouteMemo {
    bool valid = false;
    topology::EndpointId source = 0;
    topology::EndpointId destination = 0;
    topology::RouteHint hint = 0;
    std::vector<RouteStep> steps;
  };
  /// Allocates a packet with `header` (hops and route filled in here).
  /// Throws ConfigError if the topology cannot route it (e.g. a bad hint).
  /// With `memo`, the route is copied from it when it is for the same
  /// source, destination and hint, and stored in it otherwise.
  PacketId create_packet(const PacketHeader& header, RouteMemo* memo = nullptr);

  void set_link_observer(LinkObserver* observer);

  /// Runs every network link under the fault model (link_faults.hpp); a
  /// config that is not `enabled` leaves the links fault-free.
  void enable_link_faults(const LinkFaultConfig& config);
  struct LinkFaultTotals {
    std::uint64_t corrupted = 0;
    std::uint64_t retransmitted = 0;
  };
  [[nodiscard]] LinkFaultTotals link_fault_totals() const;
  /// The failed links (link_down) with the flits held at each, e.g.
  /// "r0:x+->r1 down since cycle 500, 3 flits held in its replay buffer".
  [[nodiscard]] std::vector<std::string> down_links() const;
  void set_router_observer(RouterObserver* observer);

 private:
  void route_steps(topology::EndpointId src, topology::EndpointId dst, topology::RouteHint hint,
                   std::uint64_t random, std::vector<RouteStep>& steps) const;

  const topology::Topology& topology_;
  RouterConfig config_;
  int controllers_;
  EndpointAttach attach_;
  int vc_classes_;
  int reduction_class_ = -1;
  std::vector<int> unit_port_base_;  // per node, when NetworkExtras::unit_ports is given
  InNetworkFabric* innet_ = nullptr;
  const topology::RoutingFunction* routing_ = nullptr;  // key `routing`, resolved here only
  const topology::SelectionRule* selection_ = nullptr;  // per-hop routing: how routers pick an option
  std::vector<std::pair<int, int>> class_layout_;        // VCs of each class
  std::vector<std::uint64_t> packet_sequence_;          // per source, randomized routing
  PacketTable packets_;
  NetworkActivity activity_;
  MeasureWindow window_;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<Link>> links_;
  // [endpoint * controllers + c]; own links, or (direct) the endpoint's
  // cables, which links_ owns.
  std::vector<std::unique_ptr<Link>> own_nic_links_;
  std::vector<Link*> injection_;
  std::vector<Link*> ejection_;
  std::vector<std::unique_ptr<LinkFaults>> link_faults_;  // per graph link, when enabled
  std::vector<LinkDown> down_;
};

}  // namespace collnet::systemc
