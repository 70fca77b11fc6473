#include "systemc/run/traffic_pattern.hpp"

#include <bit>

#include "collectives/params.hpp"
#include "topology/dragonfly.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

using topology::EndpointId;

const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {"uniform", "transpose", "bit-complement", "bit-reverse",
                                                 "shuffle", "tornado",   "neighbour",      "hotspot", "group-shift"};
  return names;
}

namespace {

const topology::Grid& need_grid(const topology::Topology& t, const std::string& pattern) {
  const auto* grid = dynamic_cast<const topology::Grid*>(&t);
  if (grid == nullptr)
    throw ConfigError("key 'traffic': '" + pattern + "' needs a mesh or torus, not " + t.name());
  return *grid;
}

int address_bits(const topology::Topology& t, const std::string& pattern) {
  const auto n = static_cast<std::uint32_t>(t.endpoint_count());
  if (n < 2 || !std::has_single_bit(n))
    throw ConfigError("key 'traffic': '" + pattern + "' needs a power-of-two endpoint count, " + t.name() +
                      " has " + std::to_string(n));
  return std::countr_zero(n);
}

/// A fixed permutation, precomputed.
DestinationFn table(std::vector<EndpointId> destination) {
  return [destination = std::move(destination)](EndpointId s, Random&) {
    return destination[static_cast<std::size_t>(s)];
  };
}

EndpointId uniform_other(EndpointId s, std::uint32_t n, Random& random) {
  // Uniform over the n-1 other endpoints.
  const auto d = static_cast<EndpointId>(random.below(n - 1));
  return d >= s ? d + 1 : d;
}

}  // namespace

DestinationFn make_pattern(const topology::Topology& t, const TrafficOptions& o) {
  const auto n = static_cast<std::uint32_t>(t.endpoint_count());
  const std::string& p = o.pattern;
  std::vector<EndpointId> dest(n);
  if (p == "uniform" || p == "hotspot") {
    if (n < 2) throw ConfigError("key 'traffic': '" + p + "' needs at least 2 endpoints");
    if (p == "uniform") return [n](EndpointId s, Random& r) { return uniform_other(s, n, r); };
    if (o.hotspot_node < 0 || static_cast<std::uint32_t>(o.hotspot_node) >= n)
      throw ConfigError("key 'hotspot_node': expected an endpoint from 0 to " + std::to_string(n - 1) + ", got " +
                        std::to_string(o.hotspot_node));
    const EndpointId hot = o.hotspot_node;
    const double fraction = o.hotspot_fraction;
    return [n, hot, fraction](EndpointId s, Random& r) {
      if (s != hot && r.unit() <= fraction) return hot;
      return uniform_other(s, n, r);
    };
  }
  if (p == "bit-complement" || p == "bit-reverse" || p == "shuffle") {
    const int bits = address_bits(t, p);
    for (std::uint32_t s = 0; s < n; ++s) {
      std::uint32_t d = 0;
      if (p == "bit-complement") {
        d = ~s & (n - 1);
      } else if (p == "bit-reverse") {
        for (int b = 0; b < bits; ++b)
          if (s & (1u << b)) d |= 1u << (bits - 1 - b);
      } else {
        d = ((s << 1) | (s >> (bits - 1))) & (n - 1);
      }
      dest[s] = static_cast<EndpointId>(d);
    }
    return table(std::move(dest));
  }
  if (p == "transpose" || p == "tornado" || p == "neighbour") {
    const topology::Grid& g = need_grid(t, p);
    if (p == "transpose" && (g.dims() != 2 || g.size(0) != g.size(1)))
      throw ConfigError("key 'traffic': 'transpose' needs a square 2-D mesh or torus, not " + t.name());
    for (std::uint32_t s = 0; s < n; ++s) {
      auto c = g.coord(static_cast<EndpointId>(s));
      if (p == "transpose") {
        std::swap(c[0], c[1]);
      } else {
        for (int d = 0; d < g.dims(); ++d) {
          const int k = g.size(d);
          c[static_cast<std::size_t>(d)] += p == "tornado" ? (k + 1) / 2 - 1 : o.shift;
        }
      }
      dest[s] = g.id(c);
    }
    return table(std::move(dest));
  }
  if (p == "group-shift") {
    const auto* fly = dynamic_cast<const topology::Dragonfly*>(&t);
    if (fly == nullptr)
      throw ConfigError("key 'traffic': 'group-shift' needs a dragonfly (the next group's endpoints), not " +
                        t.name());
    if (fly->shape().g < 2)
      throw ConfigError("key 'traffic': 'group-shift' needs at least 2 dragonfly groups, " + t.name() + " has 1");
    const int per_group = fly->shape().p * fly->shape().a;
    const int groups = fly->shape().g;
    return [per_group, groups](EndpointId s, Random& r) {
      const int next = (s / per_group + 1) % groups;
      return static_cast<EndpointId>(next * per_group +
                                     static_cast<int>(r.below(static_cast<std::uint32_t>(per_group))));
    };
  }
  throw ConfigError("key 'traffic': unknown pattern '" + p + "'; accepted values: " + join(pattern_names()));
}

}  // namespace collnet::systemc
