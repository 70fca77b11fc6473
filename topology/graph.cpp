#include "topology/graph.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace collnet::topology {

const char* to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::router: return "router";
    case NodeKind::server: return "server";
    case NodeKind::leaf: return "leaf";
    case NodeKind::spine: return "spine";
    case NodeKind::tree_node: return "tree_node";
    case NodeKind::main_unit: return "main_unit";
    case NodeKind::aggregation_unit: return "aggregation_unit";
  }
  return "?";
}

Bandwidth parse_bandwidth(const std::string& text, std::string& error) {
  const std::string accepted = "a positive number of flits per cycle from 1/" + std::to_string(kMaxBandwidthCycles) +
                               " to " + std::to_string(kMaxBandwidth) + ", as a fraction (1/4), a decimal (0.5) or an "
                               "integer (2)";
  error.clear();
  // NUM[.DIGITS][/DEN]: exact, no floating point (0.1 is 1/10).
  std::int64_t num = 0, den = 1;
  std::size_t i = 0;
  auto digits = [&](std::int64_t& value, std::int64_t* scale) {
    const std::size_t from = i;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; ++i) {
      if (value > 100000000) return false;
      value = value * 10 + (text[i] - '0');
      if (scale != nullptr) *scale *= 10;
    }
    return i > from;
  };
  bool ok = digits(num, nullptr);
  if (ok && i < text.size() && text[i] == '.') {
    ++i;
    ok = digits(num, &den);
  } else if (ok && i < text.size() && text[i] == '/') {
    ++i;
    den = 0;
    ok = digits(den, nullptr);
  }
  if (!ok || i != text.size()) {
    error = "'" + text + "' is not a bandwidth; accepted: " + accepted;
    return {};
  }
  if (num == 0 || den == 0 || num * kMaxBandwidthCycles < den || num > kMaxBandwidth * den) {
    error = "bandwidth " + text + " is out of range; accepted: " + accepted;
    return {};
  }
  const std::int64_t g = std::gcd(num, den);
  if (den / g > kMaxBandwidthCycles) {
    error = "bandwidth " + text + " needs a denominator above " + std::to_string(kMaxBandwidthCycles) +
            "; accepted: " + accepted;
    return {};
  }
  return Bandwidth{static_cast<std::int32_t>(num / g), static_cast<std::int32_t>(den / g)};
}

std::string to_string(const Bandwidth& b) {
  return b.cycles == 1 ? std::to_string(b.flits) : std::to_string(b.flits) + "/" + std::to_string(b.cycles);
}

NodeId Graph::add_node(NodeKind kind, std::int32_t label) {
  Node n;
  n.kind = kind;
  n.label = label;
  nodes_.push_back(std::move(n));
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Graph::describe_node(NodeId id, std::string name, std::vector<double> at) {
  Node& n = nodes_.at(static_cast<std::size_t>(id));
  n.name = std::move(name);
  n.at = std::move(at);
}

EndpointId Graph::attach_endpoint(NodeId node) {
  Node& n = nodes_.at(static_cast<std::size_t>(node));
  if (n.endpoint != kNone) throw TopologyError("node already hosts an endpoint");
  n.endpoint = static_cast<EndpointId>(endpoint_nodes_.size());
  endpoint_nodes_.push_back(node);
  return n.endpoint;
}

namespace {
void set_port(std::vector<LinkId>& ports, std::int32_t port, LinkId link, const char* what) {
  if (port < 0) throw TopologyError(std::string("negative ") + what + " port");
  if (ports.size() <= static_cast<std::size_t>(port)) ports.resize(static_cast<std::size_t>(port) + 1, kNone);
  if (ports[static_cast<std::size_t>(port)] != kNone)
    throw TopologyError(std::string(what) + " port " + std::to_string(port) + " already wired");
  ports[static_cast<std::size_t>(port)] = link;
}
}  // namespace

LinkId Graph::add_link(NodeId src, std::int32_t src_port, NodeId dst, std::int32_t dst_port,
                       Link attributes) {
  if (src < 0 || dst < 0 || static_cast<std::size_t>(src) >= nodes_.size() ||
      static_cast<std::size_t>(dst) >= nodes_.size())
    throw TopologyError("link between unknown nodes");
  const auto id = static_cast<LinkId>(links_.size());
  attributes.src = src;
  attributes.src_port = src_port;
  attributes.dst = dst;
  attributes.dst_port = dst_port;
  set_port(nodes_[static_cast<std::size_t>(src)].out_ports, src_port, id, "output");
  set_port(nodes_[static_cast<std::size_t>(dst)].in_ports, dst_port, id, "input");
  links_.push_back(attributes);
  return id;
}

void Graph::add_duplex(NodeId a, std::int32_t a_port, NodeId b, std::int32_t b_port,
                       Link attributes_ab, Link attributes_ba) {
  add_link(a, a_port, b, b_port, attributes_ab);
  add_link(b, b_port, a, a_port, attributes_ba);
}

LinkId Graph::find_link(NodeId a, NodeId b) const {
  for (LinkId l : node(a).out_ports)
    if (l != kNone && link(l).dst == b) return l;
  return kNone;
}

std::int32_t Graph::port_count(NodeId id) const {
  const Node& n = node(id);
  return static_cast<std::int32_t>(std::max(n.out_ports.size(), n.in_ports.size()));
}

std::string Graph::node_name(NodeId id) const {
  const Node& n = node(id);
  if (!n.name.empty()) return n.name;
  switch (n.kind) {
    case NodeKind::router: return "r" + std::to_string(n.label);
    case NodeKind::tree_node: return "t" + std::to_string(n.label);
    case NodeKind::main_unit: return "m" + std::to_string(n.label);
    case NodeKind::aggregation_unit: return "a" + std::to_string(n.label);
    default: return std::to_string(n.label);
  }
}

std::string Graph::link_name(LinkId id) const {
  const Link& l = link(id);
  std::string s = node_name(l.src);
  if (l.dim >= 0) {
    static constexpr char kDims[] = {'x', 'y', 'z', 'w', 'v', 'u'};
    s += ':';
    s += l.dim < 6 ? kDims[l.dim] : '?';
    s += l.dir > 0 ? '+' : '-';
  } else {
    s += ':' + std::to_string(l.src_port);
  }
  return s + "->" + node_name(l.dst);
}

}  // namespace collnet::topology
