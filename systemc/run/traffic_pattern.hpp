// Synthetic traffic patterns (the scenario key `traffic`), chosen by name.
// A pattern maps a source endpoint to a destination, drawing from the source's
// own generator when it is random. Permutations that map a node to itself
// leave that node silent (it injects nothing).
//
//   uniform         every other endpoint with equal probability
//   transpose       (x, y) -> (y, x) on a square 2-D mesh/torus
//   bit-complement  d = ~s            (endpoint count a power of two)
//   bit-reverse     d = bits of s reversed
//   shuffle         d = s rotated left by one bit
//   tornado         x_i -> x_i + ceil(k_i/2) - 1 in every dimension (grid)
//   neighbour       x_i -> x_i + traffic_shift in every dimension (grid)
//   hotspot         to endpoint hotspot_node with probability
//                   hotspot_fraction, else uniform
//   group-shift     dragonfly: to a random endpoint of the next group
//                   (group g -> g + 1 mod groups)
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "systemc/kernel/random.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

struct TrafficOptions {
  std::string pattern = "uniform";
  int shift = 1;                   // neighbour
  int hotspot_node = 0;            // hotspot
  double hotspot_fraction = 0.2;   // hotspot
};

/// Destination of the next packet of `source`; kNone or `source`: no packet.
using DestinationFn = std::function<topology::EndpointId(topology::EndpointId source, Random& random)>;

/// Throws ConfigError naming `traffic` (or the option's key) when the
/// pattern does not fit the topology.
DestinationFn make_pattern(const topology::Topology& topology, const TrafficOptions& options);

const std::vector<std::string>& pattern_names();

}  // namespace collnet::systemc
