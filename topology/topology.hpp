// A topology = a graph and its geometry (ports, groups, levels, coordinates).
// Every builder (mesh/torus, leaf/spine, tree, board torus, ...) derives from
// Topology. How packets cross it is the routing functions' business
// (topology/routing.hpp, topology/routing/): route() is the route of the
// topology's default routing function, the one the static checker uses.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "topology/graph.hpp"

namespace collnet::topology {

/// One directed link of a route and the virtual-channel class the packet
/// occupies in the buffer at the far end of that link (dateline class on a
/// torus: 0 before the packet crosses the wrap link of the current dimension,
/// 1 from the wrap link on; always 0 on deadlock-free topologies).
struct Hop {
  LinkId link = kNone;
  std::uint8_t vc_class = 0;
  bool operator==(const Hop&) const = default;
};
using Route = std::vector<Hop>;

/// The route hint carried by a SEND descriptor (8 bits). Its meaning belongs
/// to the topology: per-dimension direction on a torus (see grid.hpp), the
/// spine uplink on a leaf/spine fabric. 0 always means "the topology's default".
using RouteHint = std::uint8_t;

struct RoutingFunction;  // topology/routing.hpp

class Topology {
 public:
  explicit Topology(std::string name) : name_(std::move(name)) {}
  virtual ~Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  [[nodiscard]] const Graph& graph() const { return graph_; }
  [[nodiscard]] std::int32_t endpoint_count() const {
    return static_cast<std::int32_t>(graph_.endpoint_count());
  }
  /// The canonical spec string, e.g. "torus:8x8".
  [[nodiscard]] const std::string& name() const { return name_; }
  /// Directed links from src's node to dst's node, by the topology's default
  /// routing function (default_routing(), routing.hpp). Empty when src == dst.
  [[nodiscard]] Route route(EndpointId src, EndpointId dst, RouteHint hint = 0) const;

 protected:
  Graph graph_;
  std::string name_;

 private:
  // default_routing(*this), found on the first route() (routing.cpp).
  mutable std::atomic<const RoutingFunction*> default_routing_{nullptr};
};

/// Builds a topology from its spec string ("torus:8x8", "mesh:4x4x4", ...).
/// Throws TopologyError naming the accepted forms on bad input.
std::unique_ptr<Topology> make_topology(std::string_view spec);

/// The sizes of a spec's "NXxNY[x...]" part ("4x4x2" -> 4, 4, 2), as written
/// (no range check); throws the error `unreadable(part)` returns for a part
/// that is not an integer.
std::vector<int> parse_size_list(std::string_view text,
                                 const std::function<TopologyError(std::string_view part)>& unreadable);

/// One accepted topology form, for `collnet list` and error messages.
struct TopologyForm {
  std::string prefix;       // "torus"
  std::string syntax;       // "torus:NXxNY[xNZ...]"
  std::string description;  // the network itself; its routing functions are the registry's (routing.hpp)
};
const std::vector<TopologyForm>& topology_forms();

}  // namespace collnet::topology
