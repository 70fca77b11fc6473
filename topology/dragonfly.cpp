#include "topology/dragonfly.hpp"

#include <cmath>
#include <string>

#include "topology/spec_keys.hpp"

namespace collnet::topology {

namespace {

constexpr const char* kForms =
    "dragonfly:p=P[,a=A,h=H,g=G][,local_latency=L][,global_latency=L][,local_bandwidth=B][,global_bandwidth=B]";

std::string dragonfly_name(const Dragonfly::Shape& s) {
  std::string name = "dragonfly:p=" + std::to_string(s.p);
  if (s.a != 2 * s.p || s.h != s.p || s.g != s.a * s.h + 1)
    name += ",a=" + std::to_string(s.a) + ",h=" + std::to_string(s.h) + ",g=" + std::to_string(s.g);
  if (s.local_latency != 10) name += ",local_latency=" + std::to_string(s.local_latency);
  if (s.global_latency != 100) name += ",global_latency=" + std::to_string(s.global_latency);
  if (!s.local_bandwidth.unit()) name += ",local_bandwidth=" + to_string(s.local_bandwidth);
  if (!s.global_bandwidth.unit()) name += ",global_bandwidth=" + to_string(s.global_bandwidth);
  return name;
}

int power_of_ten_above(int v) {
  int m = 1;
  while (m <= v) m *= 10;
  return m;
}

}  // namespace

Dragonfly::Dragonfly(Shape shape) : Topology(dragonfly_name(shape)), shape_(shape) {
  const Shape& s = shape_;
  if (s.p < 1 || s.a < 1 || s.h < 1 || s.g < 1)
    throw TopologyError("topology: dragonfly p, a, h and g must be at least 1");
  if (s.g > s.a * s.h + 1)
    throw TopologyError("topology: dragonfly g=" + std::to_string(s.g) + " needs more global cables than a*h = " +
                        std::to_string(s.a * s.h) + " per group; accepted g: 1.." + std::to_string(s.a * s.h + 1));
  if (static_cast<long>(s.p) * s.a * s.g > kMaxEndpoints)
    throw TopologyError("topology: dragonfly p*a*g = " + std::to_string(static_cast<long>(s.p) * s.a * s.g) +
                        " endpoints; at most " + std::to_string(kMaxEndpoints));
  const long cables = static_cast<long>(s.p) * s.a * s.g + static_cast<long>(s.g) * s.a * (s.a - 1) / 2 +
                      static_cast<long>(s.g) * (s.g - 1) / 2;
  if (cables > kMaxCables)
    throw TopologyError("topology: dragonfly p=" + std::to_string(s.p) + ",a=" + std::to_string(s.a) +
                        ",h=" + std::to_string(s.h) + ",g=" + std::to_string(s.g) + " has " + std::to_string(cables) +
                        " cables; at most " + std::to_string(kMaxCables));
  if (s.local_latency < 1 || s.global_latency < 1)
    throw TopologyError("topology: dragonfly cable latencies must be at least 1 cycle");
  const int endpoints = s.p * s.a * s.g;
  const int base = power_of_ten_above(endpoints - 1);
  const int step = power_of_ten_above(s.a - 1);
  for (int e = 0; e < endpoints; ++e) graph_.attach_endpoint(graph_.add_node(NodeKind::server, e));
  first_router_ = static_cast<NodeId>(graph_.node_count());
  for (int grp = 0; grp < s.g; ++grp)
    for (int i = 0; i < s.a; ++i) graph_.add_node(NodeKind::router, base + grp * step + i);
  // Coordinates for reports and plots: the groups around a circle of radius
  // 10, each on its own arc (80 % of its share of the circle), its routers
  // spread along the arc, each router's endpoints just outside it (radius 12).
  const double pi = std::acos(-1.0);
  const double arc = 2.0 * pi / s.g;
  const auto angle = [&](int grp, double along) { return arc * (grp + 0.1 + 0.8 * along); };
  for (int grp = 0; grp < s.g; ++grp)
    for (int i = 0; i < s.a; ++i) {
      const double t = angle(grp, (i + 0.5) / s.a);
      graph_.describe_node(router_node(grp, i), "", {10.0 * std::cos(t), 10.0 * std::sin(t)});
      for (int c = 0; c < s.p; ++c) {
        const double u = angle(grp, (i + 0.1 + 0.8 * (c + 0.5) / s.p) / s.a);
        const NodeId e = graph_.endpoint_node((grp * s.a + i) * s.p + c);
        graph_.describe_node(e, "", {12.0 * std::cos(u), 12.0 * std::sin(u)});
      }
    }

  for (int e = 0; e < endpoints; ++e) {
    const int r = e / s.p;
    graph_.add_duplex(graph_.endpoint_node(e), 0, router_node(r / s.a, r % s.a), e % s.p);
  }
  Link local{};
  local.latency = s.local_latency;
  local.bandwidth = s.local_bandwidth;
  for (int grp = 0; grp < s.g; ++grp)
    for (int i = 0; i < s.a; ++i)
      for (int j = i + 1; j < s.a; ++j)
        graph_.add_duplex(router_node(grp, i), s.p + j - 1, router_node(grp, j), s.p + i, local, local);
  Link global{};
  global.latency = s.global_latency;
  global.bandwidth = s.global_bandwidth;
  for (int grp = 0; grp < s.g; ++grp)
    for (int to = grp + 1; to < s.g; ++to) {
      const auto [i, port] = gateway(grp, to);
      const auto [j, back] = gateway(to, grp);
      graph_.add_duplex(router_node(grp, i), port, router_node(to, j), back, global, global);
    }
}

NodeId Dragonfly::router_node(int group, int index) const {
  if (group < 0 || group >= shape_.g || index < 0 || index >= shape_.a)
    throw TopologyError("dragonfly: no router " + std::to_string(index) + " in group " + std::to_string(group));
  return first_router_ + static_cast<NodeId>(group * shape_.a + index);
}

int Dragonfly::group(NodeId node) const { return node < first_router_ ? -1 : (node - first_router_) / shape_.a; }

int Dragonfly::index(NodeId node) const { return node < first_router_ ? -1 : (node - first_router_) % shape_.a; }

bool Dragonfly::is_global(LinkId link) const {
  const Link& l = graph_.link(link);
  return group(l.src) >= 0 && group(l.dst) >= 0 && group(l.src) != group(l.dst);
}

std::pair<int, int> Dragonfly::gateway(int group, int to) const {
  const int t = to < group ? to : to - 1;
  return {t / shape_.h, shape_.p + shape_.a - 1 + t % shape_.h};
}

std::unique_ptr<Topology> make_dragonfly(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  const SpecKeys keys(spec, rest, {"p", "a", "h", "g", "local_latency", "global_latency", "local_bandwidth", "global_bandwidth"},
                       kForms);
  if (!keys.has("p")) keys.fail("needs p=P (endpoints per router)");
  Dragonfly::Shape s;
  s.p = static_cast<int>(keys.integer("p", 2, 1, 64));
  s.a = static_cast<int>(keys.integer("a", 2L * s.p, 1, 256));
  s.h = static_cast<int>(keys.integer("h", s.p, 1, 64));
  s.g = static_cast<int>(keys.integer("g", static_cast<long>(s.a) * s.h + 1, 1, 65536));
  s.local_latency = static_cast<int>(keys.integer("local_latency", 10, 1, 1000));
  s.global_latency = static_cast<int>(keys.integer("global_latency", 100, 1, 1000));
  s.local_bandwidth = keys.bandwidth("local_bandwidth");
  s.global_bandwidth = keys.bandwidth("global_bandwidth");
  try {
    return std::make_unique<Dragonfly>(s);
  } catch (const TopologyError& e) {
    keys.fail(e.what());
  }
}

}  // namespace collnet::topology
