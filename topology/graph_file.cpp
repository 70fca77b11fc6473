#include "topology/graph_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <optional>

#include <yaml-cpp/yaml.h>

namespace collnet::topology {

namespace {

constexpr std::int32_t kUnreached = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMaxPorts = 256;

int line_of(const YAML::Node& n) {
  const int line = n.Mark().line;
  return line < 0 ? 0 : line + 1;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool valid_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  });
}

}  // namespace

/// Reads one graph file (format: graph_file.hpp and docs/reference/topologies.md).
struct GraphFileReader {
  std::string source;

  struct NodeDecl {
    std::string name;
    std::vector<double> at;
    int line = 0;
    bool endpoint = false;
  };
  struct LinkDecl {
    NodeId a = kNone, b = kNone;
    bool duplex = true;
    std::int32_t latency = 0;
    Bandwidth bandwidth{};
    std::int32_t a_port = kNone, b_port = kNone;  // kNone: chosen by the reader
    int line = 0;
  };

  std::vector<NodeDecl> nodes;
  std::map<std::string, NodeId, std::less<>> by_name;
  std::vector<LinkDecl> links;

  [[noreturn]] void at(int line, const std::string& what) const {
    if (line > 0) throw TopologyError("graph file '" + source + "' line " + std::to_string(line) + ": " + what);
    throw TopologyError("graph file '" + source + "': " + what);
  }
  [[noreturn]] void at(const YAML::Node& n, const std::string& what) const { at(line_of(n), what); }

  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) at(n, what + " must be a single value (a name or number)");
    return n.Scalar();
  }

  std::int32_t integer(const YAML::Node& n, const std::string& what, std::int32_t lo, std::int32_t hi) const {
    const std::string s = scalar(n, what);
    std::int32_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || v < lo || v > hi)
      at(n, what + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + s +
                "'");
    return v;
  }

  NodeId node_ref(const YAML::Node& n, const std::string& what) const {
    const std::string s = scalar(n, what);
    const auto it = by_name.find(s);
    if (it == by_name.end())
      at(n, "unknown node '" + s + "' in " + what + "; nodes are declared under 'endpoints' or 'routers'");
    return it->second;
  }

  void read_nodes(const YAML::Node& list, bool endpoint) {
    const std::string section = endpoint ? "endpoints" : "routers";
    if (!list.IsSequence())
      at(list, "'" + section + "' must be a list of node names (or maps {name: N, at: [X, Y]})");
    for (const auto& item : list) {
      NodeDecl d;
      d.line = line_of(item);
      d.endpoint = endpoint;
      if (item.IsScalar()) {
        d.name = item.Scalar();
      } else if (item.IsMap()) {
        for (const auto& kv : item) {
          const std::string key = scalar(kv.first, "a key of a node");
          if (key == "name") {
            d.name = scalar(kv.second, "'name'");
          } else if (key == "at") {
            if (!kv.second.IsSequence() || kv.second.size() < 1 || kv.second.size() > 4)
              at(kv.second, "'at' must be a list of 1 to 4 coordinates, e.g. at: [2, 0]");
            for (const auto& c : kv.second) {
              const std::string s = scalar(c, "a coordinate");
              double v = 0;
              const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
              if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || !std::isfinite(v))
                at(c, "coordinate '" + s + "' is not a number");
              d.at.push_back(v);
            }
          } else {
            at(kv.first, "unknown key '" + key + "' of a node; accepted: name, at");
          }
        }
        if (d.name.empty()) at(item, "a node given as a map needs 'name'");
      } else {
        at(item, "a node of '" + section + "' must be a name or a map {name: N, at: [X, Y]}");
      }
      if (!valid_name(d.name))
        at(d.line, "node name '" + d.name + "' must be 1 to 64 letters, digits, '_', '.' or '-'");
      if (const auto it = by_name.find(d.name); it != by_name.end())
        at(d.line, "node '" + d.name + "' is declared twice (first on line " +
                       std::to_string(nodes[static_cast<std::size_t>(it->second)].line) + ")");
      if (static_cast<std::int32_t>(nodes.size()) >= GraphNetwork::kMaxNodes)
        at(d.line, "more than " + std::to_string(GraphNetwork::kMaxNodes) + " nodes");
      by_name.emplace(d.name, static_cast<NodeId>(nodes.size()));
      nodes.push_back(std::move(d));
    }
  }

  void read_links(const YAML::Node& list) {
    if (!list.IsSequence()) at(list, "'links' must be a list of links ([A, B] or maps {between: [A, B], ...})");
    std::map<std::pair<NodeId, NodeId>, int> seen;  // directed (src, dst) -> line
    for (const auto& item : list) {
      LinkDecl d;
      d.line = line_of(item);
      auto pair_of = [&](const YAML::Node& seq, const std::string& what) {
        if (!seq.IsSequence() || seq.size() != 2) at(seq, what + " must be a list of two node names, e.g. [r0, r1]");
        d.a = node_ref(seq[0], what);
        d.b = node_ref(seq[1], what);
      };
      if (item.IsSequence()) {
        pair_of(item, "a link");
      } else if (item.IsMap()) {
        std::optional<YAML::Node> from, to;
        bool between = false;
        for (const auto& kv : item) {
          const std::string key = scalar(kv.first, "a key of a link");
          if (key == "between") {
            pair_of(kv.second, "'between'");
            between = true;
          } else if (key == "from") {
            from = kv.second;
          } else if (key == "to") {
            to = kv.second;
          } else if (key == "latency") {
            d.latency = integer(kv.second, "'latency' (cycles)", 1, GraphNetwork::kMaxLatency);
          } else if (key == "bandwidth") {
            // Flits per cycle, a positive rational (graph.hpp, Bandwidth).
            std::string error;
            d.bandwidth = parse_bandwidth(scalar(kv.second, "'bandwidth' (flits per cycle)"), error);
            if (!error.empty()) at(kv.second, "'bandwidth': " + error);
          } else if (key == "ports") {
            if (!kv.second.IsSequence() || kv.second.size() != 2)
              at(kv.second, "'ports' must be a list of two port numbers [PORT_AT_FIRST, PORT_AT_SECOND]");
            d.a_port = integer(kv.second[0], "a port", 0, kMaxPorts - 1);
            d.b_port = integer(kv.second[1], "a port", 0, kMaxPorts - 1);
          } else {
            at(kv.first, "unknown key '" + key + "' of a link; accepted: between, from, to, latency, bandwidth, ports");
          }
        }
        if (between && (from || to)) at(item, "a link has either 'between' (both directions) or 'from' and 'to'");
        if (!between) {
          if (!from || !to)
            at(item, "a link needs 'between: [A, B]' (both directions) or 'from: A' and 'to: B' (one direction)");
          d.a = node_ref(*from, "'from'");
          d.b = node_ref(*to, "'to'");
          d.duplex = false;
        }
      } else {
        at(item, "a link must be [A, B] or a map {between: [A, B], ...} / {from: A, to: B, ...}");
      }
      const std::string& na = nodes[static_cast<std::size_t>(d.a)].name;
      if (d.a == d.b) at(d.line, "link from '" + na + "' to itself");
      auto claim = [&](NodeId s, NodeId t) {
        const auto [it, fresh] = seen.emplace(std::make_pair(s, t), d.line);
        if (!fresh)
          at(d.line, "duplicate link '" + nodes[static_cast<std::size_t>(s)].name + "' -> '" +
                         nodes[static_cast<std::size_t>(t)].name + "' (first on line " + std::to_string(it->second) +
                         ")");
      };
      claim(d.a, d.b);
      if (d.duplex) claim(d.b, d.a);
      if (static_cast<std::int32_t>(2 * links.size() + 2) > GraphNetwork::kMaxLinks)
        at(d.line, "more than " + std::to_string(GraphNetwork::kMaxLinks) + " directed links");
      links.push_back(d);
    }
  }

  /// Ports: the given ones first, then every other link in file order on the
  /// lowest free port (a cable: the same number for both directions at a node).
  void assign_ports() {
    std::vector<std::vector<int>> out_by(nodes.size()), in_by(nodes.size());  // port -> line (0 free)
    auto take = [&](std::vector<int>& ports, std::int32_t p, int line, NodeId n, const char* dir) {
      if (ports.size() <= static_cast<std::size_t>(p)) ports.resize(static_cast<std::size_t>(p) + 1, 0);
      if (ports[static_cast<std::size_t>(p)] != 0)
        at(line, std::string(dir) + " port " + std::to_string(p) + " of '" + nodes[static_cast<std::size_t>(n)].name +
                     "' is already taken by the link on line " + std::to_string(ports[static_cast<std::size_t>(p)]));
      ports[static_cast<std::size_t>(p)] = line;
    };
    auto occupy = [&](const LinkDecl& d) {
      take(out_by[static_cast<std::size_t>(d.a)], d.a_port, d.line, d.a, "output");
      take(in_by[static_cast<std::size_t>(d.b)], d.b_port, d.line, d.b, "input");
      if (d.duplex) {
        take(out_by[static_cast<std::size_t>(d.b)], d.b_port, d.line, d.b, "output");
        take(in_by[static_cast<std::size_t>(d.a)], d.a_port, d.line, d.a, "input");
      }
    };
    for (const auto& d : links)
      if (d.a_port != kNone) occupy(d);
    auto is_free = [](const std::vector<int>& ports, std::int32_t p) {
      return static_cast<std::size_t>(p) >= ports.size() || ports[static_cast<std::size_t>(p)] == 0;
    };
    auto lowest = [&](NodeId n, bool out, bool in, int line) {
      for (std::int32_t p = 0; p < kMaxPorts; ++p)
        if ((!out || is_free(out_by[static_cast<std::size_t>(n)], p)) &&
            (!in || is_free(in_by[static_cast<std::size_t>(n)], p)))
          return p;
      at(line, "node '" + nodes[static_cast<std::size_t>(n)].name + "' has more than " + std::to_string(kMaxPorts) +
                   " ports");
    };
    for (auto& d : links) {
      if (d.a_port != kNone) continue;
      d.a_port = lowest(d.a, true, d.duplex, d.line);
      d.b_port = lowest(d.b, d.duplex, true, d.line);
      occupy(d);
    }
  }
};

namespace {

/// Undirected breadth-first distances from `from` (kUnreached where none).
std::vector<std::int32_t> undirected_distances(const Graph& g, NodeId from) {
  std::vector<std::int32_t> dist(g.node_count(), kUnreached);
  std::deque<NodeId> queue{from};
  dist[static_cast<std::size_t>(from)] = 0;
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    const Node& node = g.node(n);
    for (const auto* ports : {&node.out_ports, &node.in_ports})
      for (LinkId l : *ports) {
        if (l == kNone) continue;
        const NodeId m = g.link(l).src == n ? g.link(l).dst : g.link(l).src;
        if (dist[static_cast<std::size_t>(m)] == kUnreached) {
          dist[static_cast<std::size_t>(m)] = dist[static_cast<std::size_t>(n)] + 1;
          queue.push_back(m);
        }
      }
  }
  return dist;
}

}  // namespace

std::unique_ptr<GraphNetwork> GraphNetwork::from_text(std::string_view text, const std::string& source,
                                                      std::string name) {
  GraphFileReader r{source, {}, {}, {}};
  YAML::Node doc;
  try {
    doc = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    r.at(e.mark.line < 0 ? 0 : e.mark.line + 1, "not readable as YAML: " + e.msg);
  }
  if (!doc.IsMap()) r.at(doc, "a graph file is a map with the keys endpoints, routers, links, routing, root, table");

  std::map<std::string, YAML::Node> top;
  std::map<std::string, int> key_line;  // top-level key -> its line
  try {
    static const std::vector<std::string> kKeys = {"endpoints", "routers", "links", "routing", "root", "table"};
    for (const auto& kv : doc) {
      const std::string key = r.scalar(kv.first, "a key");
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
        r.at(kv.first, "unknown key '" + key + "'; accepted: " + join_names(kKeys));
      if (top.count(key) != 0)
        r.at(kv.first, "key '" + key + "' is given twice (first on line " + std::to_string(line_of(top[key])) + ")");
      top[key] = kv.second;
      key_line[key] = line_of(kv.first);
    }
    if (top.count("endpoints") == 0) r.at(doc, "no 'endpoints': a network needs at least one endpoint");
    r.read_nodes(top["endpoints"], true);
    if (r.nodes.empty()) r.at(top["endpoints"], "'endpoints' is empty: a network needs at least one endpoint");
    if (top.count("routers") != 0 && !top["routers"].IsNull()) r.read_nodes(top["routers"], false);
    if (top.count("links") != 0 && !top["links"].IsNull()) r.read_links(top["links"]);
    r.assign_ports();
  } catch (const YAML::Exception& e) {
    r.at(e.mark.line < 0 ? 0 : e.mark.line + 1, e.msg);
  }

  auto net = std::unique_ptr<GraphNetwork>(new GraphNetwork(std::move(name)));
  Graph& g = net->graph_;
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    const auto id = g.add_node(NodeKind::router, static_cast<std::int32_t>(i));
    g.describe_node(id, r.nodes[i].name, r.nodes[i].at);
    if (r.nodes[i].endpoint) g.attach_endpoint(id);
  }
  for (const auto& d : r.links) {
    Link attributes;
    attributes.latency = d.latency;  // 0: the scenario's link_latency
    attributes.bandwidth = d.bandwidth;
    g.add_link(d.a, d.a_port, d.b, d.b_port, attributes);
    if (d.duplex) g.add_link(d.b, d.b_port, d.a, d.a_port, attributes);
  }
  const auto n_nodes = static_cast<std::int32_t>(g.node_count());
  const auto n_endpoints = static_cast<std::int32_t>(g.endpoint_count());
  auto node_name = [&](NodeId n) { return r.nodes[static_cast<std::size_t>(n)].name; };
  auto node_line = [&](NodeId n) { return r.nodes[static_cast<std::size_t>(n)].line; };

  // Every node connected (ignoring directions).
  {
    const auto dist = undirected_distances(g, 0);
    for (NodeId n = 0; n < n_nodes; ++n)
      if (dist[static_cast<std::size_t>(n)] == kUnreached)
        r.at(node_line(n), std::string(r.nodes[static_cast<std::size_t>(n)].endpoint ? "endpoint" : "router") + " '" +
                               node_name(n) + "' is not connected to '" + node_name(0) + "' (no path of links)");
  }

  // Routing.
  const YAML::Node routing_node = top.count("routing") != 0 ? top["routing"] : YAML::Node();
  const bool has_table = top.count("table") != 0;
  std::string routing = has_table ? "table" : "shortest";
  if (routing_node.IsDefined() && !routing_node.IsNull()) {
    routing = r.scalar(routing_node, "'routing'");
    if (routing != "shortest" && routing != "table")
      r.at(routing_node, "unknown routing '" + routing + "'; accepted: shortest, table");
  }
  if (routing == "table" && !has_table) r.at(routing_node, "routing 'table' needs a 'table'");
  if (routing == "shortest" && has_table)
    r.at(key_line["table"], "a 'table' is given but routing is 'shortest'; give routing: table, or no table");
  if (routing == "table" && top.count("root") != 0)
    r.at(key_line["root"], "'root' is the up*/down* root of routing 'shortest'; a table needs none");

  net->next_.assign(static_cast<std::size_t>(2 * n_nodes) * static_cast<std::size_t>(n_endpoints), kNone);
  auto next_at = [&](NodeId n, int phase, EndpointId e) -> LinkId& {
    return net->next_[(static_cast<std::size_t>(phase) * static_cast<std::size_t>(n_nodes) + static_cast<std::size_t>(n)) *
                          static_cast<std::size_t>(n_endpoints) +
                      static_cast<std::size_t>(e)];
  };
  // Outgoing links of every node, ascending link id (= file order).
  std::vector<std::vector<LinkId>> out(g.node_count()), in(g.node_count());
  for (LinkId l = 0; l < static_cast<LinkId>(g.link_count()); ++l) {
    out[static_cast<std::size_t>(g.link(l).src)].push_back(l);
    in[static_cast<std::size_t>(g.link(l).dst)].push_back(l);
  }

  if (routing == "shortest") {
    net->table_ = false;
    if (top.count("root") != 0) {
      try {
        net->root_ = r.node_ref(top["root"], "'root'");
      } catch (const YAML::Exception& e) {
        r.at(e.mark.line < 0 ? 0 : e.mark.line + 1, e.msg);
      }
    } else {
      std::int32_t best = kUnreached;
      for (NodeId n = 0; n < n_nodes; ++n) {
        const auto dist = undirected_distances(g, n);
        const std::int32_t ecc = *std::max_element(dist.begin(), dist.end());
        if (ecc < best) {
          best = ecc;
          net->root_ = n;
        }
      }
    }
    const auto level = undirected_distances(g, net->root_);
    std::vector<NodeId> by_order(g.node_count());
    for (NodeId n = 0; n < n_nodes; ++n) by_order[static_cast<std::size_t>(n)] = n;
    std::stable_sort(by_order.begin(), by_order.end(), [&](NodeId a, NodeId b) {
      return level[static_cast<std::size_t>(a)] < level[static_cast<std::size_t>(b)];
    });
    net->order_.assign(g.node_count(), 0);
    for (std::size_t i = 0; i < by_order.size(); ++i)
      net->order_[static_cast<std::size_t>(by_order[i])] = static_cast<std::int32_t>(i);

    // Per destination: distances of the states (node, phase) backwards, then
    // the first link of a shortest continuation from every state.
    std::vector<std::int32_t> dist(2 * g.node_count());
    std::deque<std::pair<NodeId, int>> queue;
    for (EndpointId e = 0; e < n_endpoints; ++e) {
      const NodeId t = g.endpoint_node(e);
      std::fill(dist.begin(), dist.end(), kUnreached);
      auto d = [&](NodeId n, int phase) -> std::int32_t& {
        return dist[static_cast<std::size_t>(phase) * g.node_count() + static_cast<std::size_t>(n)];
      };
      d(t, 0) = d(t, 1) = 0;
      queue.assign({{t, 0}, {t, 1}});
      while (!queue.empty()) {
        const auto [m, pm] = queue.front();
        queue.pop_front();
        for (LinkId l : in[static_cast<std::size_t>(m)]) {
          const NodeId n = g.link(l).src;
          const bool up = net->goes_up(l);
          // up: (n, 0) -> (m, 0); down: (n, 0 or 1) -> (m, 1)
          if (up != (pm == 0)) continue;
          for (int pn = 0; pn < (up ? 1 : 2); ++pn)
            if (d(n, pn) == kUnreached) {
              d(n, pn) = d(m, pm) + 1;
              queue.emplace_back(n, pn);
            }
        }
      }
      for (NodeId n = 0; n < n_nodes; ++n) {
        if (n == t) continue;
        for (int phase = 0; phase < 2; ++phase) {
          std::int32_t best = kUnreached;
          for (LinkId l : out[static_cast<std::size_t>(n)]) {
            const bool up = net->goes_up(l);
            if (up && phase == 1) continue;
            const std::int32_t rest = d(g.link(l).dst, up ? 0 : 1);
            if (rest < best) {
              best = rest;
              next_at(n, phase, e) = l;
            }
          }
        }
      }
      for (EndpointId s = 0; s < n_endpoints; ++s)
        if (s != e && d(g.endpoint_node(s), 0) == kUnreached)
          r.at(node_line(g.endpoint_node(s)),
               "no up*/down* route from '" + node_name(g.endpoint_node(s)) + "' to '" + node_name(t) + "' (root '" +
                   node_name(net->root_) + "'): a one-direction link leaves no legal path; add the reverse links, "
                   "choose another root, or give a routing table");
    }
    return net;
  }

  // routing: table
  net->table_ = true;
  const YAML::Node table = top["table"];
  if (!table.IsMap()) r.at(table, "'table' must be a map: node -> {destination endpoint: next node, \"*\": next node}");
  struct Entry {
    LinkId link = kNone;
    int line = 0;
  };
  std::vector<std::vector<Entry>> entry(g.node_count(), std::vector<Entry>(static_cast<std::size_t>(n_endpoints)));
  std::vector<Entry> fallback(g.node_count());
  std::vector<int> row_line(g.node_count(), 0);
  try {
    for (const auto& row : table) {
      const NodeId n = r.node_ref(row.first, "the table");
      if (row_line[static_cast<std::size_t>(n)] != 0)
        r.at(row.first, "the table has two rows for '" + node_name(n) + "' (first on line " +
                            std::to_string(row_line[static_cast<std::size_t>(n)]) + ")");
      row_line[static_cast<std::size_t>(n)] = line_of(row.first);
      if (!row.second.IsMap())
        r.at(row.second, "the table row of '" + node_name(n) + "' must be a map {destination: next node, ...}");
      for (const auto& kv : row.second) {
        const std::string dest = r.scalar(kv.first, "a destination");
        const NodeId next = r.node_ref(kv.second, "the table row of '" + node_name(n) + "'");
        const LinkId l = g.find_link(n, next);
        if (l == kNone)
          r.at(kv.second, "dead end: '" + node_name(n) + "' has no link to '" + node_name(next) + "'");
        Entry* slot = nullptr;
        if (dest == "*") {
          slot = &fallback[static_cast<std::size_t>(n)];
        } else {
          const NodeId dn = r.node_ref(kv.first, "the table row of '" + node_name(n) + "'");
          const EndpointId de = g.node(dn).endpoint;
          if (de == kNone)
            r.at(kv.first, "'" + dest + "' is a router; table destinations are endpoints (or \"*\")");
          slot = &entry[static_cast<std::size_t>(n)][static_cast<std::size_t>(de)];
        }
        if (slot->line != 0)
          r.at(kv.first, "destination '" + dest + "' is given twice in the row of '" + node_name(n) +
                             "' (first on line " + std::to_string(slot->line) + ")");
        *slot = Entry{l, line_of(kv.first)};
      }
    }
  } catch (const YAML::Exception& e) {
    r.at(e.mark.line < 0 ? 0 : e.mark.line + 1, e.msg);
  }
  // Follow the table from every endpoint toward every destination.
  std::vector<std::vector<LinkId>> waits(g.link_count());  // link -> links a packet on it may wait for
  std::vector<std::uint8_t> state(g.node_count());  // 0 unknown, 1 on the path being followed, 2 reaches
  for (EndpointId e = 0; e < n_endpoints; ++e) {
    const NodeId t = g.endpoint_node(e);
    std::fill(state.begin(), state.end(), 0);
    state[static_cast<std::size_t>(t)] = 2;
    for (EndpointId s = 0; s < n_endpoints; ++s) {
      std::vector<NodeId> path;
      NodeId n = g.endpoint_node(s);
      while (state[static_cast<std::size_t>(n)] == 0) {
        state[static_cast<std::size_t>(n)] = 1;
        path.push_back(n);
        Entry en = entry[static_cast<std::size_t>(n)][static_cast<std::size_t>(e)];
        if (en.link == kNone) en = fallback[static_cast<std::size_t>(n)];
        if (en.link == kNone)
          r.at(row_line[static_cast<std::size_t>(n)] != 0 ? row_line[static_cast<std::size_t>(n)] : key_line["table"],
               "the table misses destination '" + node_name(t) + "' at '" + node_name(n) + "' (on the route from '" +
                   node_name(g.endpoint_node(s)) + "'); give it, or \"*\"");
        next_at(n, 0, e) = en.link;
        const NodeId m = g.link(en.link).dst;
        if (state[static_cast<std::size_t>(m)] == 1) {
          std::string loop;
          const auto from = std::find(path.begin(), path.end(), m);
          for (auto it = from; it != path.end(); ++it) loop += node_name(*it) + " -> ";
          r.at(en.line, "the table loops toward '" + node_name(t) + "': " + loop + node_name(m));
        }
        n = m;
      }
      for (NodeId p : path) state[static_cast<std::size_t>(p)] = 2;
    }
    // Link dependencies of the routes toward e: a packet holds the link into
    // a node while it waits for the next one.
    for (NodeId n = 0; n < n_nodes; ++n) {
      if (n == t || state[static_cast<std::size_t>(n)] != 2) continue;
      const LinkId l1 = next_at(n, 0, e);
      const NodeId m = g.link(l1).dst;
      if (m == t) continue;
      waits[static_cast<std::size_t>(l1)].push_back(next_at(m, 0, e));
    }
  }
  // A cycle of link dependencies can deadlock: refuse it.
  for (std::size_t l = 0; l < waits.size(); ++l) {
    std::sort(waits[l].begin(), waits[l].end());
    waits[l].erase(std::unique(waits[l].begin(), waits[l].end()), waits[l].end());
  }
  std::vector<std::uint8_t> colour(g.link_count(), 0);  // 0 new, 1 on the stack, 2 done
  for (LinkId start = 0; start < static_cast<LinkId>(g.link_count()); ++start) {
    if (colour[static_cast<std::size_t>(start)] != 0) continue;
    std::vector<std::pair<LinkId, std::size_t>> stack{{start, 0}};
    colour[static_cast<std::size_t>(start)] = 1;
    while (!stack.empty()) {
      auto& [l, i] = stack.back();
      if (i < waits[static_cast<std::size_t>(l)].size()) {
        const LinkId m = waits[static_cast<std::size_t>(l)][i++];
        if (colour[static_cast<std::size_t>(m)] == 1) {
          std::string cycle;
          bool on = false;
          for (const auto& [sl, si] : stack) {
            if (sl == m) on = true;
            if (on) cycle += g.link_name(sl) + ", ";
          }
          r.at(key_line["table"], "the table's routes can deadlock: the links " + cycle + "then " + g.link_name(m) +
                                   " again wait for each other; break the cycle (routing: shortest gives up*/down* "
                                   "routes that cannot)");
        }
        if (colour[static_cast<std::size_t>(m)] == 0) {
          colour[static_cast<std::size_t>(m)] = 1;
          stack.emplace_back(m, 0);
        }
      } else {
        colour[static_cast<std::size_t>(l)] = 2;
        stack.pop_back();
      }
    }
  }
  return net;
}

std::unique_ptr<GraphNetwork> GraphNetwork::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TopologyError("graph: cannot open graph file '" + path + "'");
  // At most kMaxFileBytes: a path such as /dev/zero must not run forever.
  std::string text;
  std::vector<char> chunk(1 << 16);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes)
      throw TopologyError("graph: graph file '" + path + "' is larger than " + std::to_string(kMaxFileBytes >> 20) +
                          " MiB");
  }
  return from_text(text, path, "graph:" + path);
}

NodeId GraphNetwork::node_named(std::string_view name) const {
  for (std::size_t n = 0; n < graph_.node_count(); ++n)
    if (graph_.node(static_cast<NodeId>(n)).name == name) return static_cast<NodeId>(n);
  return kNone;
}

bool GraphNetwork::goes_up(LinkId link) const {
  if (table_) return false;
  const Link& l = graph_.link(link);
  return order_[static_cast<std::size_t>(l.dst)] < order_[static_cast<std::size_t>(l.src)];
}

LinkId GraphNetwork::next_link(NodeId at, int phase, EndpointId dst) const {
  const auto nodes = graph_.node_count();
  const auto endpoints = graph_.endpoint_count();
  return next_[(static_cast<std::size_t>(phase) * nodes + static_cast<std::size_t>(at)) * endpoints +
               static_cast<std::size_t>(dst)];
}

std::unique_ptr<GraphNetwork> make_graph_file(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string path = colon == std::string_view::npos ? std::string() : std::string(spec.substr(colon + 1));
  if (path.empty()) throw TopologyError("topology '" + std::string(spec) + "': expected graph:FILE.yaml");
  return GraphNetwork::from_file(path);
}

}  // namespace collnet::topology
