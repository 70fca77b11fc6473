#include "topology/leafspine.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace collnet::topology {

const char* to_string(SpinePolicy policy) {
  switch (policy) {
    case SpinePolicy::destination_mod: return "destination_mod";
    case SpinePolicy::sender_port: return "sender_port";
    case SpinePolicy::receiver_port: return "receiver_port";
  }
  return "?";
}

SpinePolicy parse_spine_policy(std::string_view text) {
  for (auto p : {SpinePolicy::destination_mod, SpinePolicy::sender_port, SpinePolicy::receiver_port})
    if (text == to_string(p)) return p;
  throw TopologyError("leaf/spine policy '" + std::string(text) +
                      "' is not known; accepted: destination_mod, sender_port, receiver_port");
}

RouteHint LeafSpine::uplink_hint(int index) {
  if (index < 0 || index >= kMaxUplinks)
    throw TopologyError("uplink index " + std::to_string(index) + " does not fit a route hint (0.." +
                        std::to_string(kMaxUplinks - 1) + ")");
  return static_cast<RouteHint>(index + 1);
}

RouteHint LeafSpine::policy_hint(SpinePolicy policy) {
  switch (policy) {
    case SpinePolicy::sender_port: return kHintSenderPort;
    case SpinePolicy::receiver_port: return kHintReceiverPort;
    case SpinePolicy::destination_mod: return kHintDestinationMod;
  }
  return 0;
}

namespace {
int power_of_ten_at_least(long v) {
  int p = 1;
  while (p < v) p *= 10;
  return p;
}
}  // namespace

std::unique_ptr<LeafSpine> LeafSpine::full_mesh(int p, SpinePolicy policy, Bandwidth uplink) {
  if (p < kMinRadix || p > kMaxRadix || p % 2 != 0)
    throw TopologyError("leafspine: key 'p' (switch radix) must be an even number from " + std::to_string(kMinRadix) +
                        " to " + std::to_string(kMaxRadix) + " (6, 8, 10, ...), got " + std::to_string(p));
  std::string name = "leafspine:p=" + std::to_string(p);
  if (policy != SpinePolicy::destination_mod) name += std::string(",policy=") + to_string(policy);
  if (!uplink.unit()) name += ",uplink_bandwidth=" + to_string(uplink);
  auto f = std::unique_ptr<LeafSpine>(new LeafSpine(std::move(name)));
  f->radix_ = p;
  f->default_policy_ = policy;
  const int h = p / 2;       // servers per leaf = uplinks per leaf = layers
  const int columns = h + 1;
  std::vector<std::pair<int, int>> pairs;  // spine index -> column pair, lexicographic
  for (int a = 0; a < columns; ++a)
    for (int b = a + 1; b < columns; ++b) pairs.emplace_back(a, b);
  const int spines = static_cast<int>(pairs.size());
  const int c_step = power_of_ten_at_least(static_cast<long>(h) * h);
  const int m_base = power_of_ten_at_least(static_cast<long>(c_step) * columns + spines + 1);
  Graph& g = f->graph_;
  // Servers first, in label order, so that endpoint ids follow server labels.
  std::vector<NodeId> server_nodes;
  for (int col = 0; col < columns; ++col)
    for (int layer = 0; layer < h; ++layer)
      for (int port = 0; port < h; ++port) {
        const NodeId n = g.add_node(NodeKind::server, m_base + c_step * col + h * layer + port);
        g.attach_endpoint(n);
        server_nodes.push_back(n);
      }
  std::vector<NodeId> leaf_nodes;
  for (int col = 0; col < columns; ++col)
    for (int layer = 0; layer < h; ++layer) {
      leaf_nodes.push_back(g.add_node(NodeKind::leaf, 2 * m_base + c_step * col + layer));
      f->leaf_column_.push_back(col);
      f->leaf_layer_.push_back(layer);
    }
  std::vector<NodeId> spine_nodes;
  for (int s = 0; s < spines; ++s) spine_nodes.push_back(g.add_node(NodeKind::spine, 2 * m_base + c_step * columns + s));
  for (int col = 0; col < columns; ++col)
    for (int layer = 0; layer < h; ++layer) {
      const NodeId leaf = leaf_nodes[static_cast<std::size_t>(col * h + layer)];
      for (int port = 0; port < h; ++port)
        g.add_duplex(server_nodes[static_cast<std::size_t>((col * h + layer) * h + port)], 0, leaf, port);
      int uplinks = 0;  // ascending pair index = ascending spine label
      for (int s = 0; s < spines; ++s) {
        const auto [a, b] = pairs[static_cast<std::size_t>(s)];
        if (a != col && b != col) continue;
        Link cable{};
        cable.bandwidth = uplink;
        g.add_duplex(leaf, h + uplinks, spine_nodes[static_cast<std::size_t>(s)], 2 * layer + (col == a ? 0 : 1),
                     cable, cable);
        ++uplinks;
      }
    }
  f->index_fabric();
  return f;
}

namespace {

struct WiringError {
  std::string source;
  [[noreturn]] void at(int line, const std::string& what) const {
    throw TopologyError("leafspine wiring '" + source + "' line " + std::to_string(line) + ": " + what);
  }
  [[noreturn]] void whole(const std::string& what) const {
    throw TopologyError("leafspine wiring '" + source + "': " + what);
  }
};

enum class Role { server, leaf, spine };
const char* role_name(Role r) { return r == Role::server ? "a server" : r == Role::leaf ? "a leaf" : "a spine"; }

}  // namespace

std::unique_ptr<LeafSpine> LeafSpine::from_wiring(std::string_view text, const std::string& source, std::string name) {
  const WiringError err{source};
  std::map<int, std::pair<Role, int>> role;            // label -> (role, line first seen)
  std::map<int, std::pair<int, int>> server_leaf;      // server -> (leaf, line)
  std::map<std::pair<int, int>, int> uplinks;          // (leaf, spine) -> line
  std::optional<SpinePolicy> policy;
  auto claim = [&](int label, Role r, int line) {
    const auto [it, fresh] = role.emplace(label, std::make_pair(r, line));
    if (!fresh && it->second.first != r)
      err.at(line, "label " + std::to_string(label) + " is " + role_name(it->second.first) + " (line " +
                       std::to_string(it->second.second) + "), it cannot also be " + role_name(r));
  };
  auto number = [&](const std::string& tok, int line) {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (tok.empty() || ec != std::errc{} || ptr != tok.data() + tok.size() || v < 0)
      err.at(line, "'" + tok + "' is not a label (a non-negative integer)");
    return v;
  };
  std::istringstream in{std::string(text)};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
    std::istringstream words(raw);
    std::vector<std::string> t;
    for (std::string w; words >> w;) t.push_back(w);
    if (t.empty()) continue;
    if (t[0] == "server") {
      if (t.size() != 4 || t[2] != "leaf") err.at(line, "expected 'server S leaf L'");
      const int s = number(t[1], line), l = number(t[3], line);
      claim(s, Role::server, line);
      claim(l, Role::leaf, line);
      const auto [it, fresh] = server_leaf.emplace(s, std::make_pair(l, line));
      if (!fresh)
        err.at(line, "server " + std::to_string(s) + " is already under leaf " + std::to_string(it->second.first) +
                         " (line " + std::to_string(it->second.second) + ")");
    } else if (t[0] == "uplink") {
      if (t.size() != 3) err.at(line, "expected 'uplink LEAF SPINE'");
      const int l = number(t[1], line), s = number(t[2], line);
      claim(l, Role::leaf, line);
      claim(s, Role::spine, line);
      const auto [it, fresh] = uplinks.emplace(std::make_pair(l, s), line);
      if (!fresh)
        err.at(line, "uplink " + std::to_string(l) + " -> " + std::to_string(s) + " is listed twice (line " +
                         std::to_string(it->second) + ")");
    } else if (t[0] == "leaf" || t[0] == "spine") {
      if (t.size() != 2) err.at(line, "expected '" + t[0] + " LABEL'");
      claim(number(t[1], line), t[0] == "leaf" ? Role::leaf : Role::spine, line);
    } else if (t[0] == "policy") {
      if (t.size() != 2) err.at(line, "expected 'policy destination_mod|sender_port|receiver_port'");
      try {
        policy = parse_spine_policy(t[1]);
      } catch (const TopologyError& e) {
        err.at(line, e.what());
      }
    } else {
      err.at(line, "unknown statement '" + t[0] + "'; accepted: server S leaf L, uplink LEAF SPINE, leaf L, spine S, "
                                               "policy NAME");
    }
  }
  if (server_leaf.empty()) err.whole("no 'server S leaf L' line: a fabric needs at least one server");
  if (server_leaf.size() > 65536) err.whole("more than 65536 servers");

  auto f = std::unique_ptr<LeafSpine>(new LeafSpine(std::move(name)));
  f->default_policy_ = policy.value_or(SpinePolicy::destination_mod);
  Graph& g = f->graph_;
  std::map<int, NodeId> node;  // label -> graph node
  for (const auto& [label, s] : server_leaf) {
    node[label] = g.add_node(NodeKind::server, label);
    g.attach_endpoint(node[label]);
  }
  for (const auto& [label, r] : role)
    if (r.first == Role::leaf) node[label] = g.add_node(NodeKind::leaf, label);
  for (const auto& [label, r] : role)
    if (r.first == Role::spine) node[label] = g.add_node(NodeKind::spine, label);
  std::map<int, std::vector<int>> leaf_servers, leaf_spines, spine_leaves;  // ascending labels
  for (const auto& [s, l] : server_leaf) leaf_servers[l.first].push_back(s);
  for (const auto& [ls, ln] : uplinks) {
    leaf_spines[ls.first].push_back(ls.second);
    spine_leaves[ls.second].push_back(ls.first);
  }
  for (const auto& [l, spines] : leaf_spines)
    if (static_cast<int>(spines.size()) > kMaxUplinks)
      err.whole("leaf " + std::to_string(l) + " has " + std::to_string(spines.size()) + " uplinks; at most " +
                std::to_string(kMaxUplinks) + " fit a route hint");
  // spec twotree-leafspine: a two-level fabric, one spine between two leaves.
  std::vector<int> used_leaves;
  for (const auto& [l, s] : leaf_servers) used_leaves.push_back(l);
  for (std::size_t i = 0; i < used_leaves.size(); ++i)
    for (std::size_t j = i + 1; j < used_leaves.size(); ++j) {
      const auto& a = leaf_spines[used_leaves[i]];
      const auto& b = leaf_spines[used_leaves[j]];
      if (std::none_of(a.begin(), a.end(), [&](int s) { return std::find(b.begin(), b.end(), s) != b.end(); }))
        err.whole("leaves " + std::to_string(used_leaves[i]) + " and " + std::to_string(used_leaves[j]) +
                  " share no spine; a two-level fabric needs one for every two leaves that hold servers");
    }
  for (const auto& [l, servers] : leaf_servers)
    for (std::size_t port = 0; port < servers.size(); ++port)
      g.add_duplex(node[servers[port]], 0, node[l], static_cast<std::int32_t>(port));
  for (const auto& [l, spines] : leaf_spines) {
    const auto first_uplink_port = static_cast<std::int32_t>(leaf_servers[l].size());
    for (std::size_t i = 0; i < spines.size(); ++i) {
      const auto& down = spine_leaves[spines[i]];
      const auto spine_port = static_cast<std::int32_t>(std::find(down.begin(), down.end(), l) - down.begin());
      g.add_duplex(node[l], first_uplink_port + static_cast<std::int32_t>(i), node[spines[i]], spine_port);
    }
  }
  f->index_fabric();
  return f;
}

std::unique_ptr<LeafSpine> LeafSpine::from_wiring_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TopologyError("leafspine-wiring: cannot open wiring file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return from_wiring(text.str(), path, "leafspine-wiring:" + path);
}

void LeafSpine::index_fabric() {
  const Graph& g = graph_;
  std::vector<int> index(g.node_count(), -1);
  for (std::size_t n = 0; n < g.node_count(); ++n) {
    const auto kind = g.node(static_cast<NodeId>(n)).kind;
    if (kind == NodeKind::leaf) {
      index[n] = static_cast<int>(leaves_.size());
      leaves_.push_back(static_cast<NodeId>(n));
    } else if (kind == NodeKind::spine) {
      index[n] = static_cast<int>(spines_.size());
      spines_.push_back(static_cast<NodeId>(n));
    }
  }
  server_leaf_.assign(g.endpoint_count(), -1);
  server_port_.assign(g.endpoint_count(), -1);
  leaf_servers_.assign(leaves_.size(), {});
  leaf_uplinks_.assign(leaves_.size(), {});
  uplink_of_.assign(leaves_.size(), std::vector<int>(spines_.size(), -1));
  down_link_.assign(spines_.size(), std::vector<LinkId>(leaves_.size(), kNone));
  for (std::size_t l = 0; l < leaves_.size(); ++l) {
    const Node& leaf = g.node(leaves_[l]);
    for (std::size_t port = 0; port < leaf.out_ports.size(); ++port) {
      const LinkId out = leaf.out_ports[port];
      if (out == kNone) continue;
      const NodeId peer = g.link(out).dst;
      const Node& pn = g.node(peer);
      if (pn.kind == NodeKind::server) {
        server_leaf_[static_cast<std::size_t>(pn.endpoint)] = static_cast<int>(l);
        server_port_[static_cast<std::size_t>(pn.endpoint)] = static_cast<int>(port);
        leaf_servers_[l].push_back(pn.endpoint);
      } else {
        const int s = index[static_cast<std::size_t>(peer)];
        uplink_of_[l][static_cast<std::size_t>(s)] = static_cast<int>(leaf_uplinks_[l].size());
        leaf_uplinks_[l].push_back(s);
        down_link_[static_cast<std::size_t>(s)][l] = g.find_link(peer, leaves_[l]);
      }
    }
  }
}

int LeafSpine::uplink_index(int leaf, int spine) const {
  return uplink_of_.at(static_cast<std::size_t>(leaf)).at(static_cast<std::size_t>(spine));
}

std::vector<int> LeafSpine::shared_spines(int from, int to) const {
  std::vector<int> shared;
  for (int s : uplinks(from))
    if (uplink_index(to, s) >= 0) shared.push_back(s);
  return shared;
}

int LeafSpine::column(int leaf) const {
  if (radix_ == 0) throw TopologyError("leafspine: columns exist on the full mesh (leafspine:p=...) only");
  return leaf_column_.at(static_cast<std::size_t>(leaf));
}

int LeafSpine::layer(int leaf) const {
  if (radix_ == 0) throw TopologyError("leafspine: layers exist on the full mesh (leafspine:p=...) only");
  return leaf_layer_.at(static_cast<std::size_t>(leaf));
}

int LeafSpine::policy_spine(SpinePolicy policy, EndpointId src, EndpointId dst) const {
  const auto shared = shared_spines(leaf_of(src), leaf_of(dst));
  if (shared.empty())
    throw TopologyError("leafspine: leaves " + graph_.node_name(leaf_node(leaf_of(src))) + " and " +
                        graph_.node_name(leaf_node(leaf_of(dst))) + " share no spine");
  int key = 0;
  switch (policy) {
    case SpinePolicy::sender_port: key = port_of(src); break;
    case SpinePolicy::receiver_port: key = port_of(dst); break;
    case SpinePolicy::destination_mod: key = dst; break;
  }
  return shared[static_cast<std::size_t>(key) % shared.size()];
}

int LeafSpine::route_spine(EndpointId src, EndpointId dst, RouteHint hint) const {
  const int a = leaf_of(src);
  const int b = leaf_of(dst);
  if (a == b) return -1;
  switch (hint) {
    case 0: return policy_spine(default_policy_, src, dst);
    case kHintSenderPort: return policy_spine(SpinePolicy::sender_port, src, dst);
    case kHintReceiverPort: return policy_spine(SpinePolicy::receiver_port, src, dst);
    case kHintDestinationMod: return policy_spine(SpinePolicy::destination_mod, src, dst);
    default: break;
  }
  const auto index = static_cast<std::size_t>(hint - 1);
  const auto& up = uplinks(a);
  if (index >= up.size())
    throw TopologyError("route hint " + std::to_string(hint) + " names uplink " + std::to_string(index) + " but leaf " +
                        graph_.node_name(leaf_node(a)) + " has " + std::to_string(up.size()) + " uplinks");
  const int spine = up[index];
  if (uplink_index(b, spine) < 0) {
    std::string shared;
    for (int s : shared_spines(a, b))
      shared += (shared.empty() ? "" : ", ") + graph_.node_name(spine_node(s)) + " (hint " +
                std::to_string(uplink_index(a, s) + 1) + ")";
    throw TopologyError("route hint " + std::to_string(hint) + " names spine " + graph_.node_name(spine_node(spine)) +
                        ", which leaf " + graph_.node_name(leaf_node(b)) + " does not reach; shared spines: " + shared);
  }
  return spine;
}

std::unique_ptr<LeafSpine> make_leafspine(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  if (kind == "leafspine-wiring") {
    if (rest.empty()) throw TopologyError("topology '" + std::string(spec) + "': expected leafspine-wiring:FILE");
    return LeafSpine::from_wiring_file(std::string(rest));
  }
  const std::string usage =
      "expected leafspine:p=P[,policy=destination_mod|sender_port|receiver_port][,uplink_bandwidth=B], e.g. "
      "leafspine:p=6";
  int p = 0;
  Bandwidth uplink{};
  SpinePolicy policy = SpinePolicy::destination_mod;
  std::size_t start = 0;
  while (start < rest.size()) {
    const std::size_t end = std::min(rest.find(',', start), rest.size());
    const std::string_view item = rest.substr(start, end - start);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) throw TopologyError("topology '" + std::string(spec) + "': " + usage);
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key == "p") {
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), p);
      if (value.empty() || ec != std::errc{} || ptr != value.data() + value.size())
        throw TopologyError("leafspine: key 'p' (switch radix) must be an even number from 6 to 64 (6, 8, 10, ...), "
                            "got '" + std::string(value) + "'");
    } else if (key == "policy") {
      policy = parse_spine_policy(value);
    } else if (key == "uplink_bandwidth") {
      std::string error;
      uplink = parse_bandwidth(std::string(value), error);
      if (!error.empty()) throw TopologyError("topology '" + std::string(spec) + "': key 'uplink_bandwidth': " + error);
    } else {
      throw TopologyError("topology '" + std::string(spec) + "': unknown key '" + std::string(key) +
                          "'; accepted keys: p, policy, uplink_bandwidth");
    }
    start = end + 1;
  }
  if (p == 0) throw TopologyError("leafspine: key 'p' (switch radix) is missing; " + usage);
  return LeafSpine::full_mesh(p, policy, uplink);
}

}  // namespace collnet::topology
