#include "collectives/algorithms/tree_bcast.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <stdexcept>

#include <limits>

#include <fmt/format.h>

#include "collectives/algorithms/a2a_common.hpp"

namespace collnet::collectives {

using topology::kNone;
using topology::Tree;

std::vector<EndpointId> tree_bcast_targets(EndpointId parent, std::span<const EndpointId> children,
                                           EndpointId from) {
  std::vector<EndpointId> out;
  auto children_except = [&](EndpointId skip) {
    for (EndpointId c : children)
      if (c != skip) out.push_back(c);
  };
  if (from == kNone) {
    // spec tree-broadcast: the logical root sends to every tree neighbour,
    // its parent and all its children.
    if (parent != kNone) out.push_back(parent);
    children_except(kNone);
  } else if (parent == kNone) {
    // The physical root: to its children except the one it came from.
    children_except(from);
  } else if (from == parent) {
    // From the parent: down to all children (nothing at a leaf).
    children_except(kNone);
  } else {
    // From a child: up to the parent and to the other children, at once.
    out.push_back(parent);
    children_except(from);
  }
  return out;
}

std::vector<EndpointId> tree_bcast_targets(const Tree& tree, EndpointId node, EndpointId from) {
  return tree_bcast_targets(tree.parent(node), tree.children(node), from);
}

EndpointId default_logical_root(const Tree& tree) {
  for (EndpointId v = 0; v < tree.size(); ++v)
    if (tree.is_leaf(v) && v != tree.physical_root()) return v;
  return tree.physical_root();
}

namespace {

/// The tree as the rule reads it, parent and children by the physical root:
/// the topology's tree, or its shape re-rooted when the scenario names
/// another physical root. Checks both roots (keys `root`, `logical_root`).
class RootedView {
 public:
  RootedView(const Tree& tree, EndpointId physical_root, EndpointId logical_root) : tree_(tree) {
    const std::int32_t n = tree.size();
    if (physical_root < 0 || physical_root >= n)
      throw ConfigError(fmt::format("key 'root': node {} is not in the tree; accepted values: 0..{}", physical_root,
                                    n - 1));
    if (logical_root < 0 || logical_root >= n)
      throw ConfigError(fmt::format("key 'logical_root': node {} is not in the tree; accepted values: 0..{}",
                                    logical_root, n - 1));
    if (physical_root != tree.physical_root())
      rerooted_ = std::make_unique<Tree>(tree.parents_rooted_at(physical_root), kNone);
  }
  [[nodiscard]] const Tree& view() const { return rerooted_ ? *rerooted_ : tree_; }

 private:
  const Tree& tree_;
  std::unique_ptr<Tree> rerooted_;
};

}  // namespace

Schedule build_tree_bcast(const Tree& tree, EndpointId physical_root, EndpointId logical_root,
                          std::uint32_t message_words) {
  const std::int32_t n = tree.size();
  const RootedView rooted(tree, physical_root, logical_root);
  const Tree& view = rooted.view();

  Schedule s;
  s.algorithm = "tree-bcast";
  s.programs.assign(static_cast<std::size_t>(n), {});
  s.memory_words = message_words;
  // Apply the rule hop by hop from the logical root, exactly as the nodes
  // would on receipt; each receipt becomes WAIT + the rule's SENDs.
  struct Receipt {
    EndpointId node, from;
    std::uint32_t distance;
  };
  std::deque<Receipt> pending{{logical_root, kNone, 0}};
  std::int64_t events = 0;
  while (!pending.empty()) {
    const Receipt r = pending.front();
    pending.pop_front();
    if (++events > 2LL * n) throw std::logic_error("tree-bcast: the forwarding rule does not terminate");
    Program& p = s.programs[static_cast<std::size_t>(r.node)];
    if (r.from != kNone) p.push_back(Descriptor::wait(r.distance - 1, 1));
    for (EndpointId t : tree_bcast_targets(view, r.node, r.from)) {
      p.push_back(Descriptor::send(static_cast<std::uint32_t>(t), 0, 0, message_words, r.distance));
      pending.push_back({t, r.node, r.distance + 1});
    }
  }
  for (auto& p : s.programs) p.push_back(Descriptor::end());

  // Store and forward of whole messages: no node can forward before it has
  // the whole message, so completion >= eccentricity x message length.
  s.lower_bound = static_cast<std::int64_t>(view.eccentricity(logical_root)) * message_words;
  s.initial = [logical_root](EndpointId e, std::uint32_t address) -> Word {
    return e == logical_root ? payload_word(static_cast<std::uint64_t>(logical_root),
                                            static_cast<std::uint64_t>(logical_root), address)
                             : 0;
  };
  s.expected = [logical_root, message_words](EndpointId) {
    Region r;
    for (std::uint32_t i = 0; i < message_words; ++i)
      r.words.push_back(
          payload_word(static_cast<std::uint64_t>(logical_root), static_cast<std::uint64_t>(logical_root), i));
    return std::vector<Region>{std::move(r)};
  };
  return s;
}

std::vector<ForwardingNode> tree_bcast_forwarding(const Tree& tree, EndpointId physical_root, EndpointId logical_root,
                                                  std::uint32_t message_words) {
  const std::int32_t n = tree.size();
  const RootedView rooted(tree, physical_root, logical_root);
  const Tree& view = rooted.view();
  const topology::Graph& graph = tree.graph();
  std::vector<ForwardingNode> nodes(static_cast<std::size_t>(n));
  for (EndpointId v = 0; v < n; ++v) {
    ForwardingNode& f = nodes[static_cast<std::size_t>(v)];
    f.originates = v == logical_root;
    f.message_words = message_words;
    // The port of v's link to u, as the network numbers it (the physical
    // wiring does not change when the scenario names another physical root).
    auto port_to = [&](EndpointId u) {
      const std::int32_t port = graph.link(tree.link_between(v, u)).src_port;
      if (static_cast<std::size_t>(port) >= f.port_neighbour.size())
        f.port_neighbour.resize(static_cast<std::size_t>(port) + 1, kNone);
      f.port_neighbour[static_cast<std::size_t>(port)] = u;
      return port;
    };
    if (view.parent(v) != kNone) f.parent_port = port_to(view.parent(v));
    for (EndpointId c : view.children(v)) f.child_ports.push_back(port_to(c));
  }
  return nodes;
}

namespace {

/// The tree the broadcast follows on a network that is not a tree topology
/// (a graph: network): a breadth-first search of the cables from endpoint 0
/// (a node's outgoing links by port, then its incoming ones), in which every endpoint's
/// parent is the nearest endpoint above it. Tree neighbours that are not
/// cabled to each other exchange the message over the network's routes; the
/// rule block's ports are then the tree's own (0 parent, 1+i child i).
std::vector<std::int32_t> spanning_parents(const topology::Topology& topo) {
  const topology::Graph& g = topo.graph();
  std::vector<std::int32_t> parents(static_cast<std::size_t>(topo.endpoint_count()), -1);
  std::vector<EndpointId> above(g.node_count(), kNone);  // nearest endpoint at or above a node
  std::vector<bool> seen(g.node_count(), false);
  const topology::NodeId start = g.endpoint_node(0);
  std::deque<topology::NodeId> queue{start};
  seen[static_cast<std::size_t>(start)] = true;
  above[static_cast<std::size_t>(start)] = 0;
  while (!queue.empty()) {
    const topology::NodeId n = queue.front();
    queue.pop_front();
    std::vector<topology::NodeId> next;
    for (const topology::LinkId l : g.node(n).out_ports)
      if (l != kNone) next.push_back(g.link(l).dst);
    for (const topology::LinkId l : g.node(n).in_ports)
      if (l != kNone) next.push_back(g.link(l).src);
    for (const topology::NodeId m : next) {
      if (seen[static_cast<std::size_t>(m)]) continue;
      seen[static_cast<std::size_t>(m)] = true;
      const EndpointId e = g.node(m).endpoint;
      if (e != kNone) parents[static_cast<std::size_t>(e)] = above[static_cast<std::size_t>(n)];
      above[static_cast<std::size_t>(m)] = e != kNone ? e : above[static_cast<std::size_t>(n)];
      queue.push_back(m);
    }
  }
  return parents;
}

}  // namespace

Algorithm make_tree_bcast() {
  Algorithm a;
  a.name = "tree-bcast";
  a.document = "003";
  a.description = "broadcast from a logical root on a tree whose physical root differs (forwarding rule on receipt)";
  a.topologies = "tree:parents=..., tree:kary=K,n=N, tree:random=N; graph:FILE (a breadth-first tree from endpoint 0)";
  a.supports = TopologySupport::only({"tree", "graph"});
  static const Key root_key = Key::integer("root", "physical root of the tree: parent, child and leaf are defined by it",
                                       0, 0, std::numeric_limits<std::int32_t>::max())
                              .default_from("the topology's root (parent -1, or root=R of the form; endpoint 0 on a "
                                            "graph: network)")
                              .accepting("0..N-1 (node number)");
  static const Key logical_root_key = Key::integer("logical_root", "node that broadcasts the message (spec tree-broadcast)",
                                               0, 0, std::numeric_limits<std::int32_t>::max())
                                      .default_from("the lowest-numbered leaf other than the physical root")
                                      .accepting("0..N-1 (node number)");
  a.keys = {root_key, logical_root_key};
  // The physical and logical root of a scenario (keys `root`, `logical_root`).
  struct Roots {
    std::shared_ptr<const Tree> owned;  // the spanning tree of a graph: network
    const Tree* tree;
    EndpointId root, logical;
  };
  auto roots = [](const topology::Topology& topo, const Params& params) {
    std::shared_ptr<const Tree> owned;
    const auto* tree = dynamic_cast<const Tree*>(&topo);
    if (tree == nullptr) {
      // require_topology (the registry) admits a graph: network besides trees.
      owned = std::make_shared<const Tree>(spanning_parents(topo));
      tree = owned.get();
    }
    const std::int32_t n = tree->size();
    const auto root = static_cast<EndpointId>(root_key.integer(params, tree->physical_root(), 0, n - 1));
    EndpointId fallback = default_logical_root(*tree);
    if (root != tree->physical_root()) fallback = default_logical_root(Tree(tree->parents_rooted_at(root)));
    const auto logical = static_cast<EndpointId>(logical_root_key.integer(params, fallback, 0, n - 1));
    return Roots{owned, tree, root, logical};
  };
  a.build = [roots](const topology::Topology& topo, const Params& params) {
    const Roots r = roots(topo, params);
    return build_tree_bcast(*r.tree, r.root, r.logical, message_words(params, 1));
  };
  a.footprint = [](const topology::Topology&, const Params& params) {
    return Footprint{static_cast<std::uint64_t>(message_flits_key().integer(params)), 1, "message_flits"};
  };
  a.size = DataSize::of_key(message_flits_key());  // the broadcast message is the vector
  a.collective = [](const topology::Topology& topo, const Params&) {
    return CollectiveKind{"broadcast", topo.endpoint_count()};
  };
  a.forwarding_rule = [roots](const topology::Topology& topo, const Params& params) {
    const Roots r = roots(topo, params);
    return tree_bcast_forwarding(*r.tree, r.root, r.logical, message_words(params, 1));
  };
  return a;
}

}  // namespace collnet::collectives
