#include "collectives/algorithms/a2a_common.hpp"

#include <fmt/format.h>

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

Word a2a_initial_word(EndpointId origin, std::uint32_t address, std::uint32_t send_base, std::int32_t nodes,
                      std::uint32_t message_words) {
  if (address < send_base) return 0;
  const std::uint64_t rel = address - send_base;
  const std::uint64_t target = rel / message_words;
  if (target >= static_cast<std::uint64_t>(nodes)) return 0;
  return payload_word(static_cast<std::uint64_t>(origin), target, rel % message_words);
}

std::vector<Region> a2a_expected(EndpointId target, std::uint32_t result_base, std::int32_t nodes,
                                 std::uint32_t message_words) {
  Region r;
  r.offset = result_base;
  r.words.reserve(static_cast<std::size_t>(nodes) * message_words);
  for (std::int32_t o = 0; o < nodes; ++o)
    for (std::uint32_t w = 0; w < message_words; ++w)
      r.words.push_back(payload_word(static_cast<std::uint64_t>(o), static_cast<std::uint64_t>(target), w));
  return {std::move(r)};
}

std::int64_t a2a_bisection_bound(const topology::Grid& grid, std::uint32_t message_words) {
  const std::int64_t nodes = grid.endpoint_count();
  // Work in half-messages so that the torus halving stays exact.
  std::int64_t best_half_messages = 0;
  for (int d = 0; d < grid.dims(); ++d) {
    const std::int64_t n = grid.size(d);
    const std::int64_t crossing = (n / 2) * ((n + 1) / 2) * (nodes / n);
    best_half_messages = std::max(best_half_messages, grid.torus() ? crossing : 2 * crossing);
  }
  return (best_half_messages * message_words + 1) / 2;
}

const topology::Grid& require_grid(const topology::Topology& topology, const std::string& algorithm, int min_dims,
                                   int max_dims) {
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  if (grid == nullptr || grid->dims() < min_dims || grid->dims() > max_dims) {
    const std::string dims = min_dims == max_dims ? fmt::format("{}-D", min_dims)
                                                  : fmt::format("{}-D to {}-D", min_dims, max_dims);
    throw ConfigError(fmt::format("key 'topology': algorithm '{}' runs on a {} mesh or torus "
                                  "(torus:NXxNY..., mesh:NXxNY...), not on '{}'",
                                  algorithm, dims, topology.name()));
  }
  return *grid;
}

std::uint32_t message_words(const Params& params, std::uint64_t areas_per_node) {
  const auto m = static_cast<std::uint32_t>(message_flits_key().integer(params));
  const std::uint64_t limit = descriptor_layout::src_offset.max() + 1;
  if (areas_per_node * m > limit)
    throw ConfigError(fmt::format("key 'message_flits': {} areas of {} words need {} words of memory per node; "
                                  "the descriptor addresses at most {} (use message_flits <= {})",
                                  areas_per_node, m, areas_per_node * m, limit, limit / areas_per_node));
  return m;
}

Footprint a2a_footprint(const topology::Topology& topology, const Params& params) {
  const auto n = static_cast<std::uint64_t>(topology.endpoint_count());
  const auto m = static_cast<std::uint64_t>(message_flits_key().integer(params));
  const std::uint64_t words = m != 0 && 2 * n > UINT64_MAX / m ? UINT64_MAX : 2 * n * m;
  return Footprint{words, n - 1, "topology (endpoints), message_flits"};
}

Algorithm a2a_algorithm(std::string name, std::string document, std::string description, std::string topologies) {
  Algorithm a;
  a.name = std::move(name);
  a.document = std::move(document);
  a.description = std::move(description);
  a.topologies = std::move(topologies);
  a.footprint = a2a_footprint;
  // Every endpoint is a rank and holds message_flits words for each rank, its own included.
  a.size = DataSize::of_key(message_flits_key());
  a.size.per_unit = [](const topology::Topology& topology, const Params&) {
    return static_cast<std::int64_t>(topology.endpoint_count());
  };
  a.collective = [](const topology::Topology& topology, const Params&) {
    return CollectiveKind{"alltoall", topology.endpoint_count()};
  };
  return a;
}

}  // namespace collnet::collectives
