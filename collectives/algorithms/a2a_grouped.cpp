#include "collectives/algorithms/a2a_grouped.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "collectives/algorithms/a2a_common.hpp"

namespace collnet::collectives {

const Key& nct_key() {
  static const Key key = Key::integer("nct",
                                      "NIC controllers a node keeps busy (document 001): sends issued as groups of "
                                      "this many concurrent sends, one phase (tag) per group",
                                      4, 1, 4)
                             .default_from("2 on a mesh, 4 on a torus");
  return key;
}

int read_nct(const Params& params, const topology::Grid& grid) {
  return static_cast<int>(nct_key().integer(params, grid.torus() ? 4 : 2));
}

const Key& group_barriers_key() {
  static const Key key =
      Key::boolean("group_barriers",
                   "a barrier after every group of nct sends: keeps the groups aligned in a packet network, where the "
                   "messages of a group do not end together (the paper's schedule has none); the schedule engines emit "
                   "them too (register GROUP_BARRIERS)",
                   false);
  return key;
}

bool read_group_barriers(const Params& params) { return group_barriers_key().boolean(params); }

Schedule a2a_grouped_schedule(const topology::Grid& grid, const std::string& algorithm, int nct,
                              std::uint32_t message_words, bool group_barriers,
                              const std::function<std::vector<SendGroup>(EndpointId)>& groups_of) {
  const std::int32_t nodes = grid.endpoint_count();
  const std::uint32_t m = message_words;
  const std::uint32_t result_base = static_cast<std::uint32_t>(nodes) * m;

  Schedule s;
  s.algorithm = algorithm;
  s.controllers = nct;
  s.memory_words = 2 * result_base;
  s.lower_bound = a2a_bisection_bound(grid, m);
  s.initial = [nodes, m](EndpointId e, std::uint32_t address) { return a2a_initial_word(e, address, 0, nodes, m); };
  s.expected = [nodes, m, result_base](EndpointId e) { return a2a_expected(e, result_base, nodes, m); };
  s.programs.resize(static_cast<std::size_t>(nodes));

  std::size_t group_count = 0;
  for (EndpointId e = 0; e < static_cast<EndpointId>(nodes); ++e) {
    const std::vector<SendGroup> groups = groups_of(e);
    if (e == 0) group_count = groups.size();
    if (groups.size() != group_count)
      throw std::logic_error(fmt::format("{}: endpoint {} has {} groups, endpoint 0 has {}", algorithm, e,
                                         groups.size(), group_count));
    std::vector<bool> reached(static_cast<std::size_t>(nodes), false);
    reached[static_cast<std::size_t>(e)] = true;
    const auto self = static_cast<std::uint32_t>(e);
    Program& p = s.programs[static_cast<std::size_t>(e)];
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].size() > static_cast<std::size_t>(nct))
        throw std::logic_error(fmt::format("{}: group {} holds {} sends, more than nct = {}", algorithm, g,
                                           groups[g].size(), nct));
      for (std::size_t k = 0; k < groups[g].size(); ++k) {
        const GroupedSend& send = groups[g][k];
        if (send.dest < 0 || send.dest >= static_cast<EndpointId>(nodes) || reached[static_cast<std::size_t>(send.dest)])
          throw std::logic_error(fmt::format("{}: endpoint {} sends to {} twice or to itself", algorithm, e,
                                             send.dest));
        reached[static_cast<std::size_t>(send.dest)] = true;
        const auto dest = static_cast<std::uint32_t>(send.dest);
        Descriptor d = Descriptor::send(dest, dest * m, result_base + self * m, m, static_cast<std::uint32_t>(g));
        d.controller = static_cast<std::uint8_t>(k);
        d.route_hint = send.route_hint;
        p.push_back(d);
      }
      if (group_barriers) p.push_back(Descriptor::barrier(static_cast<std::uint32_t>(g)));
    }
    for (std::int32_t t = 0; t < nodes; ++t)
      if (!reached[static_cast<std::size_t>(t)])
        throw std::logic_error(fmt::format("{}: endpoint {} never sends to {}", algorithm, e, t));
    // The self area D(e->e): a local copy, after the network sends.
    p.push_back(Descriptor::send(self, self * m, result_base + self * m, m, static_cast<std::uint32_t>(group_count)));
    p.push_back(Descriptor::end());
  }
  return s;
}

}  // namespace collnet::collectives
